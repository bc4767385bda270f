/**
 * Sentence splitting for translation: Unicode sentence segmentation (UAX #29 through
 * Intl.Segmenter), then a repair pass for what it gets wrong in English and German: it breaks after
 * every period, so "Mr. Smith", "z. B.", "J. R. R. Tolkien", "am 3. März" and "Abs. 2" come apart.
 * A break is undone when the text before it ends in a known abbreviation of the language, a single
 * letter with a period (initials, "z.", "d."), a German abbreviation that a number follows ("Art. 5",
 * "Abb. 3", "Goethestr. 12"), or a German ordinal that the next word continues (a month, a lowercase
 * word, or after an article or preposition), or when the next part starts in lowercase. Line breaks
 * always separate: paragraphs stay paragraphs.
 *
 * The repair is a suppression list because Intl.Segmenter does not do it: V8's ICU ignores the
 * `-u-ss-standard` locale extension that turns on ICU's own abbreviation exceptions (Node 20,
 * measured 2026-11-27: "de-u-ss-standard" still breaks after "z.", "Dr." and "Mr.").
 */

// Abbreviations that do not end a sentence, lowercased, without their final period. Ones that often do
// end a sentence ("etc.", "usw.", "Inc.") are left out: a wrong merge costs more than a wrong split.
// German text keeps the English titles of English names ("Mr. Smith").
const ABBREVIATIONS: Record<string, Set<string>> = {
  en: new Set(['mr', 'mrs', 'ms', 'dr', 'prof', 'st', 'jr', 'sr', 'vs', 'no', 'nos', 'fig', 'figs', 'e.g', 'i.e', 'cf',
    'mt', 'gen', 'col', 'lt', 'sgt', 'capt', 'rev', 'gov', 'sen', 'rep', 'approx', 'dept', 'est', 'vol', 'pp', 'p',
    'ch', 'sec', 'jan', 'feb', 'mar', 'apr', 'jun', 'jul', 'aug', 'sep', 'sept', 'oct', 'nov', 'dec', 'u.s', 'u.k']),
  de: new Set(['dr', 'prof', 'hr', 'fr', 'nr', 'abs', 'vgl', 'bzw', 'ca', 'evtl', 'ggf', 'inkl', 'exkl', 'str', 'st',
    'jh', 'jhd', 'mio', 'mrd', 'bd', 'kap', 's', 'tel', 'z.b', 'd.h', 'u.a', 'o.ä', 'u.u', 'z.t', 's.o', 's.u', 'dipl',
    'ing', 'geb', 'gest', 'sog', 'allg', 'bspw', 'zzgl', 'lt', 'u.v.m', 'jan', 'feb', 'aug', 'sept',
    'okt', 'nov', 'dez', 'gem', 'med', 'phil', 'rer', 'nat', 'jur', 'mr', 'mrs', 'ms']),
};
// German abbreviations that end a sentence as often as not ("die Art.", "in 5 Min.") unless a number
// follows: "Art. 5", "Abb. 3", "Tab. 2", "Anm. 4", "Ziff. 1", "Rn. 12", "Fn. 3", "max. 5", "mind. 3".
// Street names ending in "str." ("Goethestr. 12") are treated the same way.
const BEFORE_NUMBER_DE = new Set(['art', 'abb', 'tab', 'anm', 'ziff', 'lit', 'rn', 'rz', 'fn', 'max', 'min', 'mind']);
const MONTHS_DE = new Set(['januar', 'jänner', 'februar', 'märz', 'april', 'mai', 'juni', 'juli', 'august',
  'september', 'oktober', 'november', 'dezember']);
// Words after which "3." is an ordinal ("am 3.", "das 19.").
const BEFORE_ORDINAL_DE = new Set(['am', 'im', 'vom', 'zum', 'beim', 'der', 'die', 'das', 'dem', 'den', 'des', 'ein',
  'eine', 'einem', 'einen', 'einer', 'seit', 'bis', 'ab', 'vor', 'nach', 'zur', 'zu', 'ihr', 'sein', 'seinem', 'ihrem']);

/** True when a sentence break between `before` and `after` (both trimmed) is a false one. */
function falseBreak(before: string, after: string, lang: string): boolean {
  if (/^[\p{Ll}]/u.test(after)) return true;  // the next part goes on in lowercase
  const words = before.split(/\s+/);
  const last = words.at(-1)!;
  if (!last.endsWith('.') || last.endsWith('..')) return false;
  const word = last.slice(0, -1).replace(/^[("'„“«]+/u, '');
  if (/^\p{L}$/u.test(word)) return true;  // an initial, or one letter of "z. B."
  if (ABBREVIATIONS[lang]?.has(word.toLowerCase())) return true;
  if (lang === 'de' && /^\d/.test(after) && (BEFORE_NUMBER_DE.has(word.toLowerCase()) || /\p{L}str$/iu.test(word))) return true;
  if (lang === 'de' && /^\d{1,4}$/.test(word)) {  // an ordinal: "am 3. März", "das 19. Jahrhundert"
    const next = after.split(/\s+/)[0].toLowerCase().replace(/[^\p{L}]/gu, '');
    const previous = (words.at(-2) ?? '').toLowerCase();
    return MONTHS_DE.has(next) || BEFORE_ORDINAL_DE.has(previous);
  }
  return false;
}

/** The sentences of one line of text, trimmed, without empty ones. */
function lineSentences(line: string, lang: string): string[] {
  const segmenter = new Intl.Segmenter(lang, { granularity: 'sentence' });
  const out: string[] = [];
  for (const { segment } of segmenter.segment(line)) {
    const s = segment.trim();
    if (!s) continue;
    if (out.length && falseBreak(out[out.length - 1], s, lang.slice(0, 2).toLowerCase())) out[out.length - 1] += ` ${s}`;
    else out.push(s);
  }
  return out;
}

/**
 * The paragraphs of `text` (separated by line breaks; empty lines kept as empty paragraphs), each
 * as its sentences in language `lang` (a BCP 47 tag such as "en" or "de"): string[paragraphs][sentences].
 * Translate the sentences and join each paragraph's with spaces and the paragraphs with "\n" to keep
 * the text's shape (joinParagraphs).
 */
export function splitParagraphs(text: string, lang: string): string[][] {
  return text.split(/\r\n|\r|\n|\u2028|\u2029/).map((line) => lineSentences(line, lang));
}

/** The sentences of `text` in language `lang`, in order, across all its paragraphs. */
export function splitSentences(text: string, lang: string): string[] {
  return splitParagraphs(text, lang).flat();
}

/** The inverse of splitParagraphs for translated sentences given in the same order, flat. */
export function joinParagraphs(paragraphs: string[][], translations: readonly string[]): string {
  let next = 0;
  return paragraphs.map((p) => p.map(() => translations[next++]).join(' ')).join('\n');
}
