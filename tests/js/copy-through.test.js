// Copy-through (bindings/src/copy-through.ts, numbers.ts, number-constraint.ts): the rules on
// hand-made alignments, and the shipped models on tests/fixtures/unknown-text.json: no "⁇" in any
// output, unknown text and numbers carried through, every result field consistent with the text;
// a number dropped with its phrase brought back by constrained decoding.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { Translator, modelFor, parseCatalog } from '../../dist/index.js';
import { applyCopyThrough, decodePieces, recoverDropped } from '../../dist/copy-through.js';
import { CONSTRAINED_BEAM, insertionPoints, ordinalForm } from '../../dist/number-constraint.js';
import { numberForms, numbersKept } from '../../dist/numbers.js';
import { DATA, ROOT } from './paths.js';
import { sentenceChrf } from '../../tools/chrf.js';
import { fake } from './fake-translation.js';

// Every word of targetWords is the text of its tokens, and every per-word field has one entry per word.
function expectConsistent(r) {
  expect(r.text).not.toContain('⁇');
  expect(r.targetWords).toEqual(r.text.split(/\s+/).filter(Boolean));
  const joined = r.targetWords.map((_, w) => r.targetTokens.filter((_, t) => r.targetWordOfToken[t] === w).join('').replaceAll('▁', ''));
  expect(joined).toEqual(r.targetWords);
  expect(r.wordConfidence).toHaveLength(r.targetWords.length);
  if (r.alignment) {
    expect(r.alignment.weights).toHaveLength(r.targetWords.length);
    expect(r.alignment.links.every(([s, t]) => s < r.sourceWords.length && t < r.targetWords.length)).toBe(true);
  }
  for (const h of r.hypotheses) expect(h.text).not.toContain('⁇');
}

describe('rules on hand-made alignments', () => {
  test('each target <unk> takes the source unknown piece its word is aligned to, not the next one in order', () => {
    const source = { pieces: ['▁A', '▁', '🍕', '▁B', '▁', '☕', '</s>'], ids: [10, 18, 1, 11, 18, 1, 3] };
    const target = { pieces: ['▁X', '▁', '<unk>', '▁Y', '▁', '<unk>', '</s>'], ids: [20, 18, 1, 21, 18, 1, 3] };
    const r = applyCopyThrough(fake(source, target, [[0, 0], [3, 1], [2, 2], [1, 3]]), 'en', 'de', { alignment: true });
    expect(r.text).toBe('X ☕ Y 🍕');
    expectConsistent(r);
  });

  test('a lone ▁ before an <unk> (the model writes "▁ ▁ <unk>") makes no double space and no empty word', () => {
    const source = { pieces: ['▁', '你好', '▁', '你好', '</s>'], ids: [18, 1, 18, 1, 3] };
    const target = { pieces: ['▁', '<unk>', '▁', '▁', '<unk>', '</s>'], ids: [18, 1, 18, 18, 1, 3] };
    const r = applyCopyThrough(fake(source, target, [[0, 0], [1, 1]]), 'en', 'de', { alignment: true });
    expect(r.text).toBe('你好 你好');
    expectConsistent(r);
  });

  test('quotes inside a word are filled in the target language\'s forms, and the words the " ⁇ " split are one again', () => {
    const source = { pieces: ['▁He', '▁said', '▁', '“', 'yes', '”', '</s>'], ids: [5, 6, 18, 1, 7, 1, 3] };
    const target = { pieces: ['▁Er', '▁sagte', '▁', '<unk>', 'ja', '<unk>', '</s>'], ids: [8, 9, 18, 1, 12, 1, 3] };
    const engine = fake(source, target, [[0, 0], [1, 1], [2, 2], [2, 3], [2, 4]]);
    expect(engine.targetWords).toHaveLength(5);  // Er sagte ⁇ ja ⁇
    const r = applyCopyThrough(engine, 'en', 'de', { alignment: true });
    expect(r.text).toBe('Er sagte „ja“');
    expectConsistent(r);
    const toEnglish = applyCopyThrough(fake(source, target, [[0, 0], [1, 1], [2, 2], [2, 3], [2, 4]]), 'de', 'en', {});
    expect(toEnglish.text).toBe('Er sagte “ja”');
    expect(toEnglish.alignment).toBeUndefined();  // not asked for
  });

  test('a <unk> whose source has no unknown piece is dropped; a source unknown piece no <unk> took is reported missing', () => {
    const target = { pieces: ['▁X', '▁', '<unk>', '▁Y', '</s>'], ids: [20, 18, 1, 21, 3] };
    const known = { pieces: ['▁A', '▁B', '</s>'], ids: [10, 11, 3] };
    const nothing = applyCopyThrough(fake(known, target, [[0, 0], [1, 2]]), 'en', 'de', { alignment: true });
    expect(nothing.text).toBe('X Y');
    expectConsistent(nothing);
    const none = { pieces: ['▁A', '▁', '東京', '</s>'], ids: [10, 18, 1, 3] };
    const dropped = applyCopyThrough(fake(none, { pieces: ['▁X', '</s>'], ids: [20, 3] }, [[0, 0]]), 'en', 'de', { alignment: true });
    expect(dropped.text).toBe('X');
    expect(dropped.copyThrough.missing).toEqual([{ kind: 'unknown', source: '東京', word: 1 }]);
  });

  test('a number aligned to a different number is replaced; one with nothing aligned is reported, not inserted', () => {
    const source = { pieces: ['▁at', '▁9', ':', '30', '▁a', '.', 'm', '.', '▁in', '▁1950', '</s>'], ids: [1, 2, 3, 4, 5, 6, 7, 6, 8, 9, 3].map((x) => x + 20) };
    const target = { pieces: ['▁um', '▁21', ':', '30', '▁Uhr', '</s>'], ids: [30, 31, 32, 33, 34, 3] };
    const r = applyCopyThrough(fake(source, target, [[0, 0], [1, 1], [2, 2]]), 'en', 'de', { alignment: true });
    expect(r.text).toBe('um 9:30 Uhr');
    expect(r.copyThrough.replaced).toEqual([{ kind: 'time', source: '9:30', target: '9:30', word: 1 }]);
    expect(r.copyThrough.missing).toEqual([{ kind: 'number', source: '1950', word: 4 }]);
    expectConsistent(r);
  });

  test('a number still missing is forced in at the boundaries next to its neighbours\' aligned words; the best-scored candidate keeping it wins', async () => {
    const source = { pieces: ['▁in', '▁1950', '▁he', '▁left', '▁home', '</s>'], ids: [21, 22, 23, 24, 25, 3] };
    const target = { pieces: ['▁er', '▁ging', '▁von', '▁zu', '▁Hause', '</s>'], ids: [31, 32, 33, 34, 35, 3] };
    const r = applyCopyThrough(fake(source, target, [[2, 0], [3, 1], [4, 3], [4, 4]]), 'en', 'de', {});
    expect(r.copyThrough.missing).toEqual([{ kind: 'number', source: '1950', word: 1 }]);
    expect(r.alignment).toBeUndefined();  // not asked for; copy-through kept it for the insertion points
    // Source words 0 and 2 neighbour the number; only "he" (2) is aligned, to target word 0: boundaries 0 and 1.
    expect(insertionPoints(r, 1).sort()).toEqual([0, 1]);
    const calls = [];
    const scores = { '1950': -2, 'er 1950': -1 };  // the continuation after each prefix, and its score
    const redo = async (texts, options) => {
      calls.push(options);
      return options.targetPrefix.map((prefix) => ({ text: `${prefix} ging`, score: scores[prefix],
        hypotheses: [{ text: `${prefix} ging`, targetTokens: [], targetIds: [] }] }));
    };
    const align = async (src, tgt) => ({ ...r, text: tgt, sourceWords: src.split(' ') });
    const [chosen] = await recoverDropped([r], ['in 1950 he left home'], {}, 'en', 'de', redo, align);
    expect(calls).toHaveLength(1);
    expect([...calls[0].targetPrefix].sort()).toEqual(['1950', 'er 1950']);
    expect(calls[0]).toMatchObject({ beamSize: CONSTRAINED_BEAM, nBest: 1, copyThrough: false });
    expect(chosen.text).toBe('er 1950 ging');
    expect(chosen.hypotheses[0].score).toBe(-1);
    // A candidate that lost the number again is not taken, whatever its score.
    const lost = async (texts, options) => options.targetPrefix.map((prefix, k) => ({ text: k === 0 ? 'er ging' : `${prefix} ging`,
      score: k === 0 ? 0 : -3, hypotheses: [{ text: k === 0 ? 'er ging' : `${prefix} ging`, targetTokens: [], targetIds: [] }] }));
    expect((await recoverDropped([r], ['in 1950 he left home'], {}, 'en', 'de', lost, align))[0].hypotheses[0].score).toBe(-3);
    for (const options of [{ targetPrefix: [''] }, { copyThrough: false }]) {
      const [same] = await recoverDropped([r], ['in 1950 he left home'], options, 'en', 'de', redo, align);
      expect(same).toBe(r);
    }
    // Streaming gets the same result; the candidates' own decoding streams nothing.
    calls.length = 0;
    const streamed = await recoverDropped([r], ['in 1950 he left home'], { onToken: () => { throw new Error('streamed'); } },
                                          'en', 'de', redo, align);
    expect(streamed[0].text).toBe('er 1950 ging');
    expect(calls[0].onToken).toBeUndefined();
  });

  test('an ordinal is forced in as the target language writes it; a date and a sentence-final number keep their digits', () => {
    const form = (words, word, from, to) => ordinalForm(words, { text: words[word].match(/\d+/)[0], word }, from, to);
    expect(form(['im', '15.', 'Jahrhundert'], 1, 'de', 'en')).toBe('15th');
    expect(form(['zum', '37.-größten', 'Land'], 1, 'de', 'en')).toBe('37th');
    expect(form(['der', '22.', 'Platz'], 1, 'de', 'en')).toBe('22nd');
    expect(form(['der', '12.', 'Platz'], 1, 'de', 'en')).toBe('12th');
    expect(form(['Am', '24.', 'September'], 1, 'de', 'en')).toBeNull();
    expect(form(['im', 'Jahr', '2009.'], 2, 'de', 'en')).toBeNull();
    expect(form(['the', '17th-century', 'district'], 1, 'en', 'de')).toBe('17.');
    expect(form(['in', '1950'], 1, 'en', 'de')).toBeNull();
  });

  test('numbers are localised with Intl.NumberFormat; times keep their digits; p.m. allows the 24-hour clock', () => {
    expect(numberForms('1,000.5', 'en', 'de')[0]).toBe('1.000,5');
    expect(numberForms('1.000,5', 'de', 'en')[0]).toBe('1,000.5');
    expect(numberForms('2.5', 'en', 'de')[0]).toBe('2,5');
    expect(numberForms('9:30', 'en', 'de')).toEqual(['9:30', '9.30']);
    expect(numberForms('9:30', 'en', 'de', true)).toContain('21:30');
    expect(numberForms('9.30', 'de', 'en')[0]).toBe('9:30');
    expect(numbersKept(['in', '3', 'months'], 'in drei Monaten', 'en', 'de')).toEqual({ found: 1, total: 1 });
    expect(numbersKept(['at', '9:30', 'a.m.'], 'um 21:30 Uhr', 'en', 'de')).toEqual({ found: 0, total: 1 });
  });
});

const MODELS = `${ROOT}models/`;
const catalog = parseCatalog(readFileSync(`${MODELS}catalog.json`, 'utf8'), MODELS);
const fixture = JSON.parse(readFileSync(`${ROOT}tests/fixtures/unknown-text.json`, 'utf8'));

describe.each(['en-de', 'de-en'])('the shipped %s model', (direction) => {
  const [from, to] = direction.split('-');
  const load = () => Translator.load(modelFor(catalog, from, to).model);

  test('no output has "⁇": unknown text is copied through or reported missing, and every field agrees with the text', async () => {
    const translator = await load();
    const sources = fixture[direction].unknown.map((e) => e.source);
    const raw = await translator.translateBatch(sources, { copyThrough: false, attention: false });
    expect(raw.some((r) => r.text.includes('⁇'))).toBe(true);  // what the model itself writes
    for (const options of [{}, { attention: false }, { alignment: true }, { beamSize: 4, nBest: 2 }]) {
      const results = await translator.translateBatch(sources, options);
      results.forEach((r, i) => {
        expectConsistent(r);
        for (const span of fixture[direction].unknown[i].copy) {
          const missing = r.copyThrough.missing.some((m) => m.source === span);
          expect(r.text.includes(span) || missing, `${sources[i]} -> ${r.text}: ${span}`).toBe(true);
        }
      });
    }
    translator.dispose();
  });

  test('the numbers of the fixture are kept, localised where they were formatted', async () => {
    const translator = await load();
    for (const source of fixture[direction].numbers) {
      const r = await translator.translate(source);
      const { found, total } = numbersKept(r.sourceWords, r.text, from, to);
      expect(found, `${source} -> ${r.text}`).toBe(total);
    }
    translator.dispose();
  });

  test('a number the model drops with its phrase, even in a beam of 8, comes back by constrained decoding', async () => {
    const line = { 'en-de': 159, 'de-en': 63 }[direction];  // FLORES dev: "with 2,220 and 2,207 points", "seit 10 Jahren"
    const read = (lang) => readFileSync(`${DATA}/flores-dev/dev.${lang}`, 'utf8').split('\n')[line];
    const [source, reference] = [read(from), read(to)];
    const translator = await load();
    const wide = await translator.translate(source, { beamSize: 8, nBest: 8, copyThrough: false, attention: false });
    const kept = (text) => numbersKept(wide.sourceWords, text, from, to);
    expect(wide.hypotheses.every((h) => kept(h.text).found < kept(h.text).total), wide.text).toBe(true);
    const repaired = applyCopyThrough(await translator.translate(source, { copyThrough: false, alignment: true, attention: false }), from, to, {});
    expect(kept(repaired.text).found).toBeLessThan(kept(repaired.text).total);  // the alignment repair alone cannot
    const r = await translator.translate(source);
    expect(kept(r.text).found, `${source} -> ${r.text}`).toBe(kept(r.text).total);
    expect(r.copyThrough.missing).toEqual([]);
    expectConsistent(r);
    expect(sentenceChrf(r.text, reference)).toBeGreaterThan(sentenceChrf(repaired.text, reference));
    // At the page's options (streaming, residual stream, attention) the same text, with every field asked for.
    const page = await translator.translate(source, { onToken: () => {}, residual: true, attention: true, alignment: true, beamSize: 1 });
    expect(page.text).toBe(r.text);
    expect(page.residual).toBeDefined();
    expect(page.crossAttention).toBeDefined();
    translator.dispose();
  });

  test('no output for the first 200 FLORES dev sentences has "⁇"', async () => {
    const translator = await load();
    const lines = readFileSync(`${DATA}/flores-dev/dev.${from}`, 'utf8').split('\n').slice(0, 200);
    for (let i = 0; i < lines.length; i += 20) {
      for (const r of await translator.translateBatch(lines.slice(i, i + 20), { attention: false })) expect(r.text).not.toContain('⁇');
    }
    translator.dispose();
  });
});
