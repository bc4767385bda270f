// Sentence splitting (bindings/src/sentences.ts) on tricky English and German text: abbreviations,
// initials, ordinals, dates, numbers, quotes and ellipses stay inside their sentence; real sentence
// ends still split; line breaks separate paragraphs and joinParagraphs restores them. Expected splits
// written by hand. Known limit: a sentence that ends in a one-letter abbreviation ("..., s. o.") or in
// one the list always keeps ("... mit Prof.") is joined to the next one.
import { expect, test } from 'vitest';
import { joinParagraphs, splitParagraphs, splitSentences } from '../../dist/index.js';

// [text, expected sentences]
const EN = [
  ['Mr. Smith went to Washington. He arrived yesterday.', ['Mr. Smith went to Washington.', 'He arrived yesterday.']],
  ['Dr. Jones met Mrs. Brown at St. Mary\'s Church.', ['Dr. Jones met Mrs. Brown at St. Mary\'s Church.']],
  ['Ms. Lee is here. Prof. Adams is not.', ['Ms. Lee is here.', 'Prof. Adams is not.']],
  ['The U.S. economy grew. It was a good year.', ['The U.S. economy grew.', 'It was a good year.']],
  ['It was e.g. a good year, i.e. a strong one.', ['It was e.g. a good year, i.e. a strong one.']],
  ['J. R. R. Tolkien wrote it. It sold well.', ['J. R. R. Tolkien wrote it.', 'It sold well.']],
  ['It costs $3.50. That is cheap.', ['It costs $3.50.', 'That is cheap.']],
  ['See Fig. 3 for details. Then continue.', ['See Fig. 3 for details.', 'Then continue.']],
  ['He said "Stop!" and left.', ['He said "Stop!" and left.']],
  ['Version 2.0 is out... Try it.', ['Version 2.0 is out...', 'Try it.']],
  ['It was 5 a.m. The sun rose.', ['It was 5 a.m.', 'The sun rose.']],
  ['Smith vs. Jones was decided in No. 5 of the series.', ['Smith vs. Jones was decided in No. 5 of the series.']],
  ['Where is the station? It is near.', ['Where is the station?', 'It is near.']],
  ['Wow! That was fast.', ['Wow!', 'That was fast.']],
  ['Gen. Grant and Col. Mustard arrived. Lt. Dan did not.', ['Gen. Grant and Col. Mustard arrived.', 'Lt. Dan did not.']],
  ['The meeting is on Jan. 5 at noon.', ['The meeting is on Jan. 5 at noon.']],
  ['Pi is about 3.14159. Everyone knows that.', ['Pi is about 3.14159.', 'Everyone knows that.']],
  ['Read pp. 10 to 20 and ch. 3 tonight.', ['Read pp. 10 to 20 and ch. 3 tonight.']],
  ['The file is named report.pdf and it is large.', ['The file is named report.pdf and it is large.']],
  ['I like it. You like it. We all like it.', ['I like it.', 'You like it.', 'We all like it.']],
  ['"Are you coming?" she asked. "Yes," he said.', ['"Are you coming?" she asked.', '"Yes," he said.']],
  ['Visit www.example.com today. It is free.', ['Visit www.example.com today.', 'It is free.']],
];
const DE = [
  ['Das ist z. B. ein Test. Und noch einer.', ['Das ist z. B. ein Test.', 'Und noch einer.']],
  ['Am 3. März kam er an. Es regnete.', ['Am 3. März kam er an.', 'Es regnete.']],
  ['Er wurde am 1. Januar 2020 geboren.', ['Er wurde am 1. Januar 2020 geboren.']],
  ['Herr Dr. Müller ist da. Frau Prof. Schmidt auch.', ['Herr Dr. Müller ist da.', 'Frau Prof. Schmidt auch.']],
  ['Das gilt u. a. für Hunde. Katzen nicht.', ['Das gilt u. a. für Hunde.', 'Katzen nicht.']],
  ['Die Sitzung ist um 14 Uhr, d. h. pünktlich. Gut.', ['Die Sitzung ist um 14 Uhr, d. h. pünktlich.', 'Gut.']],
  ['Er kam als 2. ins Ziel. Sie wurde Dritte.', ['Er kam als 2. ins Ziel.', 'Sie wurde Dritte.']],
  ['Vgl. Abs. 2 Nr. 3 des Gesetzes. Fertig.', ['Vgl. Abs. 2 Nr. 3 des Gesetzes.', 'Fertig.']],
  ['Das 19. Jahrhundert war lang. Ja.', ['Das 19. Jahrhundert war lang.', 'Ja.']],
  ['Ca. 100 Leute kamen. Danke.', ['Ca. 100 Leute kamen.', 'Danke.']],
  ['Wie s. o. beschrieben, geht es. Gut.', ['Wie s. o. beschrieben, geht es.', 'Gut.']],
  ['Die Feier ist am 24. Dezember. Alle kommen.', ['Die Feier ist am 24. Dezember.', 'Alle kommen.']],
  ['Er wohnt in der Hauptstr. 5 in Berlin.', ['Er wohnt in der Hauptstr. 5 in Berlin.']],
  ['Siehe S. 12 und Kap. 4. Dann weiter.', ['Siehe S. 12 und Kap. 4.', 'Dann weiter.']],
  ['Es kostet 3,50 Euro. Das ist billig.', ['Es kostet 3,50 Euro.', 'Das ist billig.']],
  ['Wo ist der Bahnhof? Er ist dort drüben.', ['Wo ist der Bahnhof?', 'Er ist dort drüben.']],
  ['Er sagte: „Komm her!" Dann ging er.', ['Er sagte: „Komm her!"', 'Dann ging er.']],
  ['Ich bin müde. Du bist müde. Wir sind müde.', ['Ich bin müde.', 'Du bist müde.', 'Wir sind müde.']],
  ['Sie ist Dipl.-Ing. bei der Bahn.', ['Sie ist Dipl.-Ing. bei der Bahn.']],
  ['Das war im 3. Quartal. Danach nicht mehr.', ['Das war im 3. Quartal.', 'Danach nicht mehr.']],
  ['Es gibt ca. 5 Mio. Einwohner bzw. mehr.', ['Es gibt ca. 5 Mio. Einwohner bzw. mehr.']],
  ['Die Frist endet am 31. 12. des Jahres.', ['Die Frist endet am 31. 12. des Jahres.']],
  ['Er kam zum 2. Mal. Sie nicht.', ['Er kam zum 2. Mal.', 'Sie nicht.']],
  // Issue 45: the common German abbreviations, English titles in German text, and "3. Oktober".
  ['Das war z.B. gut, d.h. sehr gut. Ja.', ['Das war z.B. gut, d.h. sehr gut.', 'Ja.']],
  ['Es gilt d. h. für alle. Ja.', ['Es gilt d. h. für alle.', 'Ja.']],
  ['Er besuchte u. a. Dr. Weber. Sie nicht.', ['Er besuchte u. a. Dr. Weber.', 'Sie nicht.']],
  ['Äpfel, Birnen usw. sind Obst. Gut.', ['Äpfel, Birnen usw. sind Obst.', 'Gut.']],
  ['Er kaufte Äpfel, Birnen usw. Dann ging er.', ['Er kaufte Äpfel, Birnen usw.', 'Dann ging er.']],
  ['Er ist Nr. 1. Sie ist Nr. 2.', ['Er ist Nr. 1.', 'Sie ist Nr. 2.']],
  ['Bzw. Hamburg. Oder Bremen.', ['Bzw. Hamburg.', 'Oder Bremen.']],
  ['Das kostet ca. 5 Euro. Das ist viel.', ['Das kostet ca. 5 Euro.', 'Das ist viel.']],
  ['Heute ist der 3. Oktober. Morgen nicht.', ['Heute ist der 3. Oktober.', 'Morgen nicht.']],
  ['Der 3. Oktober ist ein Feiertag. Alle frei.', ['Der 3. Oktober ist ein Feiertag.', 'Alle frei.']],
  ['Wir treffen uns am 3. Okt. um 10 Uhr. Gut.', ['Wir treffen uns am 3. Okt. um 10 Uhr.', 'Gut.']],
  ['Mr. Smith kam gestern. Er blieb.', ['Mr. Smith kam gestern.', 'Er blieb.']],
  ['Mrs. Brown und Mr. Smith kamen. Ja.', ['Mrs. Brown und Mr. Smith kamen.', 'Ja.']],
  ['Das regelt § 3 gem. Abs. 2 des Gesetzes. Fertig.', ['Das regelt § 3 gem. Abs. 2 des Gesetzes.', 'Fertig.']],
  ['Das steht in Art. 5 GG. Siehe Abb. 3. Dann weiter.', ['Das steht in Art. 5 GG.', 'Siehe Abb. 3.', 'Dann weiter.']],
  ['Das ist eine seltene Art. Sie blüht im Mai.', ['Das ist eine seltene Art.', 'Sie blüht im Mai.']],
  ['Er wohnt in der Goethestr. 12. Sie auch.', ['Er wohnt in der Goethestr. 12.', 'Sie auch.']],
  ['Prof. Dr. med. Schmidt operiert. Ja.', ['Prof. Dr. med. Schmidt operiert.', 'Ja.']],
  ['Es passen max. 5 Personen hinein. Das dauert 5 Min. Dann geht es los.',
    ['Es passen max. 5 Personen hinein.', 'Das dauert 5 Min.', 'Dann geht es los.']],
  ['Im 5. Jh. n. Chr. fiel Rom. Das war 476.', ['Im 5. Jh. n. Chr. fiel Rom.', 'Das war 476.']],
];

test.each([...EN.map((c) => ['en', ...c]), ...DE.map((c) => ['de', ...c])])('%s: %s', (lang, text, expected) => {
  expect(splitSentences(text, lang)).toEqual(expected);
});

test('at least 40 cases in both languages', () => {
  expect(EN.length).toBeGreaterThanOrEqual(20);
  expect(DE.length).toBeGreaterThanOrEqual(20);
});

test('line breaks separate paragraphs, and joinParagraphs restores them', () => {
  const text = 'Mr. Smith came. He sat.\n\nThen he left.\r\nThe end.';
  const paragraphs = splitParagraphs(text, 'en');
  expect(paragraphs).toEqual([['Mr. Smith came.', 'He sat.'], [], ['Then he left.'], ['The end.']]);
  expect(splitSentences(text, 'en')).toEqual(['Mr. Smith came.', 'He sat.', 'Then he left.', 'The end.']);
  expect(joinParagraphs(paragraphs, ['A.', 'B.', 'C.', 'D.'])).toBe('A. B.\n\nC.\nD.');
  // A line break ends a sentence even without punctuation.
  expect(splitSentences('first line\nsecond line', 'en')).toEqual(['first line', 'second line']);
});
