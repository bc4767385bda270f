// Dates, times, prices and amounts through translation (bindings/src/dates.ts, number-syntax.ts,
// carried.ts, and their use in copy-through.ts): the rules on hand-written sentences, a repair that
// would leave a number ill-formed not made, and the shipped models on tests/fixtures/dates-prices.json,
// where every span is carried or flagged at both beam sizes, and streaming ends in the same text.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { Translator, flagNotes, isFlagged } from '../../dist/index.js';
import { applyCopyThrough } from '../../dist/copy-through.js';
import { dateForm, mentionsOf, sameMention, timeForm } from '../../dist/dates.js';
import { currencyAt, illFormedNumbers } from '../../dist/number-syntax.js';
import { checkCarried } from '../../dist/carried.js';
import { holds, judge } from '../../tools/internals/carry-check.js';
import { fake } from './fake-translation.js';
import { ROOT } from './paths.js';

const words = (text) => text.split(/\s+/).filter(Boolean);
const values = (text, lang) => mentionsOf(words(text), lang).map((m) => m.date ?? m.time);

describe('dates and times as values', () => {
  test('English and German dates in their usual forms are one value', () => {
    const feb14 = { day: 14, month: 2, year: 2025 };
    for (const text of ['on 14 February 2025.', 'on February 14, 2025', 'on the 14th of February 2025', 'on 2025-02-14']) {
      expect(values(text, 'en')).toEqual([feb14]);
    }
    for (const text of ['am 14. Februar 2025', 'am 14.02.2025.', 'am 14.2.2025', 'Am 14 Februar 2025']) expect(values(text, 'de')).toEqual([feb14]);
    expect(values('im Mai 1937', 'de')).toEqual([{ month: 5, year: 1937 }]);
    expect(values('May I come in?', 'en')).toEqual([]);  // a month name only with a day or a year
    expect(values('vom 24. Dezember bis zum 2. Januar', 'de')).toEqual([{ day: 24, month: 12 }, { day: 2, month: 1 }]);
  });

  test('clock times: a.m. and p.m., Uhr, the 24-hour clock; "17 p.m." is no time of day', () => {
    expect(values('at 9:30 a.m. and 6:45 p.m. or 8pm', 'en').map((t) => t.minutes)).toEqual([570, 1125, 1200]);
    expect(values('um 9.30 Uhr und 20 Uhr und 18:45', 'de').map((t) => t.minutes)).toEqual([570, 1200, 1125]);
    expect(values('until 17 p.m.', 'en')[0].minutes).toBeNaN();
    expect(values('a rise of 9.30 percent', 'de')).toEqual([]);  // German 9.30 is a time only before Uhr
    const [am, pm, open] = [...mentionsOf(words('9:30 a.m. 9:30 p.m.'), 'en'), ...mentionsOf(words('9:30'), 'en')];
    expect(sameMention(am, pm)).toBe(false);
    expect(sameMention(open, pm) && sameMention(open, am)).toBe(true);  // "at 9:30" leaves the half of the day open
  });

  test('a date and a time in the target language\'s form', () => {
    expect(dateForm({ day: 14, month: 2, year: 2025 }, 'de')).toBe('14. Februar 2025');
    expect(dateForm({ day: 14, month: 2, year: 2025 }, 'en')).toBe('14 February 2025');
    expect(dateForm({ month: 8, year: 2024 }, 'de')).toBe('August 2024');
    expect(dateForm({ day: 3, month: 3 }, 'de')).toBe('3. März');
    expect(timeForm({ minutes: 1200, twelveHour: false }, 'de')).toEqual({ number: '20', after: 'Uhr' });
    expect(timeForm({ minutes: 570, twelveHour: false }, 'en')).toEqual({ number: '9:30', after: 'a.m.' });
    expect(timeForm({ minutes: 720, twelveHour: false }, 'en')).toEqual({ number: '12', after: 'p.m.' });
  });
});

describe('numbers as their language writes them', () => {
  test('ill-formed numbers are found; well-formed ones, dates, versions and times are not', () => {
    expect(illFormedNumbers('$,299,99.99', 'de')).toEqual([',299,99.99']);
    expect(illFormedNumbers('1,299,99', 'de')).toEqual(['1,299,99']);
    expect(illFormedNumbers('1,5', 'en')).toEqual(['1,5']);
    expect(illFormedNumbers('1,,5', 'en')).toEqual(['1,,5']);
    for (const word of ['1.299,99', '12,5', '14.02.2025', '3.1.6', '9:30', '2025.', '„1.000,5“', 'Nr.1']) expect(illFormedNumbers(word, 'de')).toEqual([]);
    for (const word of ['1,299.99', '12.5', '3.1.6', '$1,299.99,', '0.75']) expect(illFormedNumbers(word, 'en')).toEqual([]);
  });

  test('the currency of a price: its own symbol, else a neighbour\'s', () => {
    expect(currencyAt(words('I paid $1,299.99 for it'), 2)).toBe('USD');
    expect(currencyAt(words('kostet 3,20 Euro hier'), 1)).toBe('EUR');
    expect(currencyAt(words('cost £45.'), 1)).toBe('GBP');
    expect(currencyAt(words('in 2023 the'), 1)).toBeNull();
  });

  test('checkCarried: a dropped date, an invented time, a lost currency, a number glued to a word', () => {
    const check = checkCarried(words('The meeting has been moved to 14 February 2025 at 9:30 a.m. for $45.'),
      words('Die Besprechung wurde am 2025 um 9:30 Uhr um 14 Uhr für kosten45 verschoben.'), 'en', 'de');
    expect(check.missing.map((m) => m.text)).toEqual(['14 February 2025']);
    expect(check.added.map((m) => m.text)).toEqual(['14 Uhr']);
    expect(check.currencies).toEqual([{ text: '$45', word: 13 }]);
    expect(check.illFormed.map((n) => n.text)).toEqual(['kosten45']);
  });
});

describe('copy-through does no harm', () => {
  test('"$,299,99.99" for "$1,299.99" is repaired whole: "$1.299,99", not "$,1.299,99"', () => {
    const source = { pieces: ['▁I', '▁paid', '▁$1', ',', '299', '.', '99', '</s>'], ids: [10, 11, 12, 5, 13, 4, 14, 3] };
    const target = { pieces: ['▁Ich', '▁zahlte', '▁$', ',', '299', ',', '99', '.', '99', '</s>'], ids: [20, 21, 22, 5, 13, 5, 14, 4, 14, 3] };
    const r = applyCopyThrough(fake(source, target, [[0, 0], [1, 1], [2, 2]]), 'en', 'de', {});
    expect(r.text).toBe('Ich zahlte $1.299,99');
    expect(isFlagged(r.copyThrough)).toBe(false);
  });

  test('a repair that cannot be well formed is not made: the span is flagged, the output kept', () => {
    // The aligned word holds two numbers run together by a separator pair the repair would keep ("1,,2").
    const source = { pieces: ['▁costs', '▁1,5', '</s>'], ids: [10, 11, 3] };
    const target = { pieces: ['▁kostet', '▁7', ',', ',', '2', '</s>'], ids: [20, 21, 5, 5, 22, 3] };
    const r = applyCopyThrough(fake(source, target, [[0, 0], [1, 1]]), 'de', 'en', {});
    expect(r.text).toBe('kostet 7,,2');
    expect(r.copyThrough.missing).toEqual([{ kind: 'number', source: '1,5', word: 1 }]);
    expect(flagNotes(r.copyThrough)).toEqual(['The translation lacks the number “1,5” of the source.',
                                              '“7,,2” is not a well-formed number.']);
  });

  test('a time linked to the source\'s but of another value takes the source\'s time ("8 Uhr" for 8 p.m.)', () => {
    const source = { pieces: ['▁at', '▁8', '▁p', '.', 'm', '.', '</s>'], ids: [10, 11, 12, 4, 13, 4, 3] };
    const target = { pieces: ['▁um', '▁8', '▁Uhr', '</s>'], ids: [20, 21, 22, 3] };
    const r = applyCopyThrough(fake(source, target, [[0, 0], [1, 1], [2, 2]]), 'en', 'de', {});
    expect(r.text).toBe('um 20 Uhr');
    expect(isFlagged(r.copyThrough)).toBe(false);
  });
});

describe('the shipped models on dates, times, prices and amounts', () => {
  const fixture = JSON.parse(readFileSync(`${ROOT}/tests/fixtures/dates-prices.json`, 'utf8'));
  test('holds() finds a form as written, not inside a longer number', () => {
    expect(holds('am 14. Februar 2025.', '14. Februar 2025')).toBe(true);
    expect(holds('im Jahr 2023', '3')).toBe(false);
    expect(holds('kostet 1.299,99 $', '299,99')).toBe(false);
  });

  for (const direction of ['en-de', 'de-en']) {
    test(`${direction}: every span carried or flagged at beam 1 and 4; no ill-formed number; streaming ends the same`, async () => {
      const t = await Translator.load(`${ROOT}/models/general-${direction}/general-${direction}.int8.crossattn`);
      const sources = fixture[direction].map((e) => e.source);
      for (const beamSize of [1, 4]) {
        const results = await t.translateBatch(sources, { beamSize });
        const verdicts = fixture[direction].map((e, i) => judge(e, results[i], direction.slice(3)));
        const lost = verdicts.flatMap((v, i) => v.spans.includes('lost') || v.damaged.length ? [results[i].text] : []);
        expect(lost).toEqual([]);
        const streamed = await t.translateBatch(sources, { beamSize, onToken: () => {}, signal: new AbortController().signal });
        expect(streamed.map((r) => r.text)).toEqual(results.map((r) => r.text));
      }
      t.dispose();
    }, 240_000);
  }
});
