// translateBatch (batched decoding in the wasm engine), splitSentences, and the int8 model in wasm
// against the native build of the same kernels.
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { InputTooLongError, InvalidInputError, Translator, splitSentences } from '../../dist/index.js';
import { readLines } from '../../tools/bleu.js';
import { DATA, INT8_MODEL, MODEL, NATIVE_CLI } from './paths.js';

let translator;
beforeAll(async () => { translator = await Translator.load(MODEL); });
afterAll(() => translator?.dispose());

describe('translateBatch', () => {
  test('equals translating each text alone, attention included', async () => {
    const texts = readLines(`${DATA}/multi30k/test_2016_flickr.en.gz`).slice(0, 12);
    texts.splice(3, 0, '', '   ');
    const batch = await translator.translateBatch(texts);
    expect(batch).toHaveLength(texts.length);
    for (let i = 0; i < texts.length; ++i) {
      const one = await translator.translate(texts[i]);
      expect(batch[i].text).toBe(one.text);
      expect(batch[i].targetIds).toEqual(one.targetIds);
      expect(batch[i].logProb).toBe(one.logProb);
      expect(batch[i].crossAttention).toEqual(one.crossAttention);
    }
    expect(batch[3].targetIds).toEqual([]);
  });

  test('bad input is a typed error naming the text, and the translator stays usable', async () => {
    await expect(translator.translateBatch('A dog.')).rejects.toThrow(InvalidInputError);
    await expect(translator.translateBatch(['A dog.', 7])).rejects.toThrow(InvalidInputError);
    const tooLong = 'dog '.repeat(9000);  // past 16 x max_positions: over the limit but under it is translated in parts
    await expect(translator.translateBatch(['A dog.', tooLong])).rejects.toThrow(InputTooLongError);
    await expect(translator.translateBatch(['A dog.', tooLong])).rejects.toThrow(/^text 1: /);
    expect((await translator.translateBatch([])).length).toBe(0);
    expect((await translator.translateBatch(['A dog.']))[0].text).toBe((await translator.translate('A dog.')).text);
  });
});

describe('splitSentences', () => {
  test('splits a paragraph into trimmed sentences', () => {
    expect(splitSentences('A dog runs.  Is it raining? Yes!\nTwo men play.', 'en'))
      .toEqual(['A dog runs.', 'Is it raining?', 'Yes!', 'Two men play.']);
    expect(splitSentences('   ', 'en')).toEqual([]);
  });
});

describe('int8 model', () => {
  test('wasm equals native on 50 sentences', async () => {
    const int8 = await Translator.load(INT8_MODEL);
    try {
      const source = readLines(`${DATA}/multi30k/test_2016_flickr.en.gz`).slice(0, 50);
      const native = spawnSync(NATIVE_CLI, ['translate', '--model', INT8_MODEL, '--json'], {
        input: source.join('\n') + '\n', encoding: 'utf8', maxBuffer: 1 << 26,
      });
      expect(native.status, native.stderr).toBe(0);
      const expected = native.stdout.trim().split('\n').map((line) => JSON.parse(line));
      const results = await int8.translateBatch(source, { attention: false });
      results.forEach((r, i) => expect(r.targetIds, source[i]).toEqual(expected[i].target_ids));
    } finally {
      int8.dispose();
    }
  });
});
