// translateBatch (batched decoding in the wasm engine), splitSentences, and the int8 model in wasm
// against the native build of the same kernels.
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { InputTooLongError, InvalidInputError, Translator, splitSentences } from '../../dist/index.js';
import { readLines } from '../../tools/bleu.js';
import { DATA, INT8_MODEL, MODEL, NATIVE_CLI, ROOT } from './paths.js';

const GENERAL_INT8_MODEL = `${ROOT}models/general-en-de/general-en-de.int8.crossattn`;

let translator;
beforeAll(async () => { translator = await Translator.load(MODEL); });
afterAll(() => translator?.dispose());

describe('translateBatch', () => {
  test('equals translating each text alone, attention included', async () => {
    const texts = readLines(`${DATA}/multi30k/test_2016_flickr.en.gz`).slice(0, 12);
    texts.splice(3, 0, '', '   ');
    const batch = await translator.translateBatch(texts, { attention: true });
    expect(batch).toHaveLength(texts.length);
    for (let i = 0; i < texts.length; ++i) {
      const one = await translator.translate(texts[i], { attention: true });
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

describe('translateBatch with the lexical shortlist', () => {
  // The general models ship a shortlist, on by default: a batch scores the union of its texts'
  // candidates once per step, and each text is searched over its own, so it equals translating it alone.
  test('equals translate per text on FLORES dev sentences in batches of 16: 200 greedy, 48 with beam 4', async () => {
    const general = await Translator.load(GENERAL_INT8_MODEL);
    try {
      for (const [beamSize, count] of [[1, 200], [4, 48]]) {
        const texts = readLines(`${DATA}/flores-dev/dev.en`).slice(0, count);
        const options = { attention: false, beamSize };
        const batch = [];
        for (let i = 0; i < texts.length; i += 16) batch.push(...await general.translateBatch(texts.slice(i, i + 16), options));
        const differ = { ids: [], logProbs: [] };  // indices of the texts whose batch result differs
        for (let i = 0; i < texts.length; ++i) {
          const one = await general.translate(texts[i], options);
          if (batch[i].text !== one.text || JSON.stringify(batch[i].targetIds) !== JSON.stringify(one.targetIds)) differ.ids.push(i);
          if (batch[i].logProb !== one.logProb || JSON.stringify(batch[i].tokenLogProbs) !== JSON.stringify(one.tokenLogProbs)) differ.logProbs.push(i);
        }
        expect(differ, `beam ${beamSize}`).toEqual({ ids: [], logProbs: [] });
      }
    } finally {
      general.dispose();
    }
  }, 300_000);
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
      const native = spawnSync(NATIVE_CLI, ['translate', '--model', INT8_MODEL, '--json', '--beam-size', '1'], {
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
