// Limits and odd input through the wasm engine, as JavaScript strings carry them: each gives a
// translation or a typed error, never an abort of the module or a hang, and the translator gives
// the same output for the same sentence afterwards.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { InputTooLongError, InvalidInputError, Translator, splitSentences } from '../../dist/index.js';
import { MODEL } from './paths.js';

const PROBE = 'A dog runs through the grass.';
let translator, reference;
beforeAll(async () => {
  translator = await Translator.load(MODEL);
  reference = (await translator.translate(PROBE)).text;
});
afterAll(() => translator?.dispose());

async function expectStillUsable() {
  expect((await translator.translate(PROBE)).text).toBe(reference);
  expect((await translator.translate(PROBE, { beamSize: 4 })).targetTokens.at(-1)).toBe('</s>');
}

async function expectTranslates(text) {
  for (const beamSize of [1, 4]) {
    const r = await translator.translate(text, { beamSize, attention: true });
    expect(r.sourceTokens.at(-1), text).toBe('</s>');
    expect(r.targetTokens.length).toBeGreaterThan(0);
    expect(Number.isFinite(r.logProb)).toBe(true);
    expect(r.crossAttention[0][0]).toHaveLength(r.targetTokens.length);
  }
}

test('empty and whitespace-only text give empty translations', async () => {
  for (const text of ['', ' ', '\t\n\r', '\u00a0', '\u3000']) {
    const r = await translator.translate(text, { beamSize: 3, nBest: 2 });
    expect(r.text).toBe('');
    expect(r.targetTokens).toEqual([]);
    expect(r.hypotheses).toEqual([]);
  }
  expect(await translator.translateBatch([])).toEqual([]);
  await expectStillUsable();
});

test('emoji, unknown scripts, right-to-left and mixed text translate', async () => {
  for (const text of ['A dog 🐶 runs 🏃‍♂️ fast.', '😀😀😀', 'كلب يركض.', 'כלב רץ.',
                      'A man says مرحبا \u200f to a \u202bכלב\u202c dog.', '一只狗 A dog собака.']) {
    await expectTranslates(text);
  }
  await expectStillUsable();
});

test('NUL characters are not errors; lone UTF-16 surrogates are InvalidInputError', async () => {
  for (const text of ['A dog\0 runs\0.', 'A dog \uDBFF\uDFFF runs.']) {  // NUL; a surrogate pair (U+10FFFF)
    await expectTranslates(text);
  }
  // NUL and the other control characters separate words as spaces do; alone they leave nothing.
  const nul = await translator.translate('A dog\0runs through\u001b the grass.');
  expect(nul.text).toBe(reference);
  expect(nul.sourceWords).toEqual(['A', 'dog', 'runs', 'through', 'the', 'grass.']);
  expect((await translator.translate('\0\u0007')).targetTokens).toEqual([]);
  // A lone surrogate has no UTF-8 form, so it is the string side of invalid UTF-8 (well-formed.ts).
  for (const text of ['A dog\uD800 runs.', 'A dog \uDBFF\uDFFF\uD83D runs.', '\uDC00']) {
    await expect(translator.translate(text)).rejects.toBeInstanceOf(InvalidInputError);
  }
  await expectStillUsable();
});

test('very long text: a clear InputTooLongError past the token cap; split into sentences it translates', async () => {
  const { maxPositions } = translator.config;
  const sentence = 'A dog runs through the grass and a man watches it';
  const unsplittable = `${sentence} `.repeat(20000);  // about 1 MB, no sentence boundary
  for (const beamSize of [1, 4]) {
    const error = await translator.translate(unsplittable, { beamSize }).catch((e) => e);
    expect(error).toBeInstanceOf(InputTooLongError);
    expect(error.message).toContain(`at most ${maxPositions}`);
    expect(error.message).toContain('split it into sentences');
  }
  await expect(translator.translateBatch(['A dog.', unsplittable])).rejects.toThrow(/^text 1: /);
  const paragraph = `${sentence}. `.repeat(40);
  const parts = splitSentences(paragraph, 'en');
  expect(parts).toHaveLength(40);
  const results = await translator.translateBatch(parts, { attention: false });
  expect(new Set(results.map((r) => r.text)).size).toBe(1);  // every sentence alike, as batched decoding promises
  await expectStillUsable();
});

test('bad arguments are InvalidInputError', async () => {
  for (const text of [undefined, null, 42, { text: 'A dog.' }]) {
    await expect(translator.translate(text)).rejects.toBeInstanceOf(InvalidInputError);
  }
  await expect(translator.translate('A dog.', null)).rejects.toBeInstanceOf(InvalidInputError);
  await expect(translator.translateBatch('A dog.')).rejects.toBeInstanceOf(InvalidInputError);
  await expect(translator.translateBatch(['A dog.', 7])).rejects.toBeInstanceOf(InvalidInputError);
  await expectStillUsable();
});

test('option errors name the options as a JavaScript caller wrote them; empty layer or head lists are refused', async () => {
  for (const [options, name] of [[{ beamSize: 0 }, 'beamSize'], [{ beamSize: 2, nBest: 3 }, 'nBest'], [{ repeatLimit: -1 }, 'repeatLimit'],
                                 [{ maxLength: 100000 }, 'maxLength']]) {
    const error = await translator.translate('A dog.', options).then(() => null, (e) => e);
    expect(error).toBeInstanceOf(InvalidInputError);
    expect(error.message).toContain(name);
    expect(error.message).not.toMatch(/beam_size|n_best|max_length\b|length_penalty|repeat_limit|early_stopping/);
  }
  for (const alignment of [{ layers: [] }, { heads: [] }]) {
    await expect(translator.translate('A dog.', { alignment })).rejects.toThrow(/non-empty list/);
  }
  await expectStillUsable();
});

test('the worst call within every option range is refused by the work budget before it starts', async () => {
  const worst = { beamSize: 64, nBest: 64, earlyStopping: false, lengthPenalty: 2 };
  const error = await translator.translate('the '.repeat(505), worst).then(() => null, (e) => e);
  expect(error).toBeInstanceOf(InvalidInputError);
  expect(error.message).toMatch(/^beamSize must be at most 8 with up to 512 target tokens, not 64 \(64 x 512 = 32768 decoder steps for one sentence; the limit is 4096/);
  expect(error.fault).toMatchObject({ option: 'beamSize', value: '64', limit: 'at most 8 with up to 512 target tokens' });
  const many = await translator.translateBatch(Array(12).fill('the '.repeat(300)), { beamSize: 4, maxLength: 512 }).then(() => null, (e) => e);
  expect(many).toBeInstanceOf(InvalidInputError);
  expect(many.message).toMatch(/cross-attention of this call would take \d+ MiB; the limit is 256 MiB/);
  // Within the budget the same options work, and the translator is as before.
  expect((await translator.translate('A dog runs.', worst)).hypotheses).toHaveLength(64);
  await expectStillUsable();
});
