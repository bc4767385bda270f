// The real wasm engine with the real model, in Node: the same output as the native build, and typed
// errors after which the translator stays usable.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  DisposedError, InputTooLongError, InvalidInputError, ModelFormatError, Translator,
} from '../../dist/index.js';
import { readLines } from '../../tools/bleu.js';
import { DATA, MODEL, NATIVE_CLI } from './paths.js';

const SENTENCES = 100;  // of test_2016_flickr, compared between wasm and native

let translator;
beforeAll(async () => { translator = await Translator.load(MODEL); });
afterAll(() => translator?.dispose());

describe('wasm equals native', () => {
  test(`the first ${SENTENCES} sentences of test_2016_flickr`, async () => {
    const source = readLines(`${DATA}/multi30k/test_2016_flickr.en.gz`).slice(0, SENTENCES);
    const native = spawnSync(NATIVE_CLI, ['translate', '--model', MODEL, '--json', '--beam-size', '1'], {
      input: source.join('\n') + '\n', encoding: 'utf8', maxBuffer: 1 << 28,
    });
    expect(native.status, native.stderr).toBe(0);
    const expected = native.stdout.trim().split('\n').map((line) => JSON.parse(line));
    expect(expected).toHaveLength(SENTENCES);
    for (let i = 0; i < SENTENCES; ++i) {
      const r = await translator.translate(source[i], { attention: false });
      expect(r.targetIds, source[i]).toEqual(expected[i].target_ids);
      expect(r.text).toBe(expected[i].text);
      expect(r.logProb).toBeCloseTo(expected[i].log_prob, 3);
    }
  });

  test('cross-attention equals the native weights', async () => {
    const text = 'A man in a blue shirt is standing on a ladder.';
    const native = spawnSync(NATIVE_CLI, ['translate', '--model', MODEL, '--json', '--attention', '--beam-size', '1', text], { encoding: 'utf8' });
    const expected = JSON.parse(native.stdout).cross_attention;
    const r = await translator.translate(text, { attention: true });
    expect(r.crossAttention.length).toBe(expected.length);
    r.crossAttention.forEach((heads, l) => heads.forEach((rows, h) => rows.forEach((row, t) => {
      row.forEach((w, s) => expect(Math.abs(w - expected[l][h][t][s])).toBeLessThan(1e-5));
    })));
  });
});

describe('result shape', () => {
  test('tokens, scores and attention [layers][heads][T][S] with rows summing to 1', async () => {
    const r = await translator.translate('Two dogs play in the snow.', { attention: true });
    const { decoderLayers, nHeads } = translator.config;
    expect(r.text.length).toBeGreaterThan(0);
    expect(r.sourceTokens.at(-1)).toBe('</s>');
    expect(r.targetTokens.at(-1)).toBe('</s>');
    expect(r.logProb).toBeLessThan(0);
    expect(r.crossAttention).toHaveLength(decoderLayers);
    for (const heads of r.crossAttention) {
      expect(heads).toHaveLength(nHeads);
      for (const rows of heads) {
        expect(rows).toHaveLength(r.targetTokens.length);
        for (const row of rows) {
          expect(row).toHaveLength(r.sourceTokens.length);
          expect(row.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 5);
        }
      }
    }
    const plain = await translator.translate('Two dogs play in the snow.', { attention: false });
    expect(plain.crossAttention).toBeUndefined();
    expect(plain.text).toBe(r.text);
    // Attention costs L * H * T * S floats: a caller who does not ask for it does not get it.
    const unasked = await translator.translate('Two dogs play in the snow.');
    expect(unasked.crossAttention).toBeUndefined();
    expect(unasked.targetIds).toEqual(r.targetIds);
  });

  test('empty and blank text give empty translations', async () => {
    for (const text of ['', '   ', '\n']) {
      const r = await translator.translate(text);
      expect(r.text).toBe('');
      expect(r.targetTokens).toEqual([]);
    }
  });
});

describe('bad input', () => {
  test('typed errors, and the translator stays usable', async () => {
    const before = (await translator.translate('A dog runs.')).text;
    await expect(translator.translate('A dog.', { maxLength: -1 })).rejects.toBeInstanceOf(InvalidInputError);
    await expect(translator.translate('A dog.', { maxLength: 1.5 })).rejects.toBeInstanceOf(InvalidInputError);
    await expect(translator.translate('A dog.', { maxLength: 100000 })).rejects.toBeInstanceOf(InvalidInputError);
    await expect(translator.translate(42)).rejects.toBeInstanceOf(InvalidInputError);
    await expect(translator.translate('dog '.repeat(9000))).rejects.toBeInstanceOf(InputTooLongError);  // past 16 x max_positions
    // A lone UTF-16 surrogate has no UTF-8 form: the string side of invalid UTF-8 (tests/js/bad-bytes.test.js).
    await expect(translator.translate('A dog\uD800 runs.')).rejects.toBeInstanceOf(InvalidInputError);
    expect((await translator.translate('A dog runs.')).text).toBe(before);
  });

  test('damaged model files are ModelFormatError', async () => {
    const bytes = new Uint8Array(readFileSync(MODEL));
    for (const damaged of [new Uint8Array(0), bytes.subarray(0, 100), bytes.subarray(0, bytes.length - 1),
                           new TextEncoder().encode('not a model at all')]) {
      await expect(Translator.load(damaged)).rejects.toBeInstanceOf(ModelFormatError);
    }
  });

  test('dispose frees the translator; later calls are DisposedError', async () => {
    const t = await Translator.load(MODEL);
    expect((await t.translate('A dog runs.')).text.length).toBeGreaterThan(0);
    t.dispose();
    await expect(t.translate('A dog runs.')).rejects.toBeInstanceOf(DisposedError);
  });
});
