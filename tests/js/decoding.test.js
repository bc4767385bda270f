// Beam search, n-best, streaming, cancellation and forced target prefixes through the wasm engine:
// the same hypotheses and scores as the native build, tokens streamed once and in order, an abort
// that stops a translation in flight (in process and across a worker channel) without harming the
// translator, and a translation that starts with its prefix, scored as forced decoding scores it.
import { spawnSync } from 'node:child_process';
import { MessageChannel } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CancelledError, InvalidInputError, Translator } from '../../dist/index.js';
import { WorkerTranslator, serveTranslator } from '../../dist/worker.js';
import { planPrefixes, targetPrefixes } from '../../dist/target-prefix.js';
import { readLines } from '../../tools/bleu.js';
import { DATA, MODEL, NATIVE_CLI } from './paths.js';

const SENTENCES = 40;  // of test_2016_flickr, compared between wasm and native with beam search
const LONG = 'A man in a blue shirt and a woman in a red dress are standing next to a large dog on the street.';

let translator;
beforeAll(async () => { translator = await Translator.load(MODEL); });
afterAll(() => translator?.dispose());

describe('beam search', () => {
  test(`wasm equals native on ${SENTENCES} sentences with beam 5 and a 3-best list`, async () => {
    const source = readLines(`${DATA}/multi30k/test_2016_flickr.en.gz`).slice(0, SENTENCES);
    const native = spawnSync(NATIVE_CLI, ['translate', '--model', MODEL, '--json', '--beam-size', '5', '--n-best', '3'], {
      input: source.join('\n') + '\n', encoding: 'utf8', maxBuffer: 1 << 28,
    });
    expect(native.status, native.stderr).toBe(0);
    const expected = native.stdout.trim().split('\n').map((line) => JSON.parse(line));
    const results = await translator.translateBatch(source, { beamSize: 5, nBest: 3, attention: false });
    results.forEach((r, i) => {
      expect(r.hypotheses.map((h) => h.targetIds), source[i]).toEqual(expected[i].hypotheses.map((h) => h.target_ids));
      r.hypotheses.forEach((h, k) => {
        expect(h.text).toBe(expected[i].hypotheses[k].text);
        expect(Math.abs(h.logProb - expected[i].hypotheses[k].log_prob)).toBeLessThan(1e-3);
        expect(Math.abs(h.score - expected[i].hypotheses[k].score)).toBeLessThan(1e-3);
      });
    });
  });

  test('n-best lists are ranked by the GNMT score and the best carries the attention', async () => {
    const r = await translator.translate(LONG, { beamSize: 4, nBest: 4, lengthPenalty: 0.6, attention: true });
    expect(r.hypotheses).toHaveLength(4);
    expect(r.hypotheses[0].text).toBe(r.text);
    expect(r.score).toBe(r.hypotheses[0].score);
    for (const [k, h] of r.hypotheses.entries()) {
      expect(h.score).toBeCloseTo(h.logProb / ((5 + h.targetIds.length) / 6) ** 0.6, 4);
      if (k > 0) expect(h.score).toBeLessThanOrEqual(r.hypotheses[k - 1].score);
    }
    expect(r.crossAttention[0][0]).toHaveLength(r.targetTokens.length);
    const greedy = await translator.translate(LONG);
    expect(greedy.hypotheses).toHaveLength(1);
  });

  test('search options are type- and range-checked', async () => {
    for (const options of [{ beamSize: 0 }, { beamSize: 2.5 }, { beamSize: 65 }, { beamSize: 2, nBest: 3 },
                           { lengthPenalty: NaN }, { lengthPenalty: '1' }, { earlyStopping: 1 },
                           { maxLengthRatio: -1 }, { maxLengthOffset: -2 }, { onToken: 'yes' }, { signal: {} }]) {
      await expect(translator.translate('A dog.', options), JSON.stringify(options)).rejects.toBeInstanceOf(InvalidInputError);
    }
    expect((await translator.translate('A dog.', { maxLengthRatio: 0, maxLengthOffset: 2 })).targetIds).toHaveLength(2);
  });
});

describe('streaming', () => {
  for (const beamSize of [1, 4]) {
    test(`beam ${beamSize}: every target token once, in order, with the text so far`, async () => {
      const texts = [LONG, 'Two dogs play in the snow.', ''];
      const tokens = texts.map(() => []);
      const seen = texts.map(() => '');
      const results = await translator.translateBatch(texts, {
        beamSize,
        onToken(e) {
          if (beamSize === 1) expect(e.tokens).toHaveLength(1);
          tokens[e.index].push(...e.tokens);
          seen[e.index] = e.text;
        },
      });
      results.forEach((r, i) => {
        expect(tokens[i]).toEqual(r.targetTokens);
        expect(seen[i]).toBe(r.text);
      });
    });
  }
});

describe('cancellation', () => {
  test('an aborted signal stops a translation in flight with CancelledError', async () => {
    const controller = new AbortController();
    let events = 0;
    const pending = translator.translate(LONG, { beamSize: 4, signal: controller.signal, onToken: () => { ++events; } });
    setImmediate(() => controller.abort());  // after the first decoder step
    await expect(pending).rejects.toBeInstanceOf(CancelledError);
    const full = await translator.translate(LONG, { beamSize: 4 });
    expect(events).toBeLessThan(full.targetTokens.length);
    await expect(translator.translate(LONG, { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(CancelledError);
    expect((await translator.translate(LONG, { beamSize: 4, signal: new AbortController().signal })).text).toBe(full.text);
  });

  test('across a worker channel: a cancelled request frees the worker for the next one', async () => {
    const channel = new MessageChannel();
    serveTranslator(channel.port1);
    channel.port1.start();
    channel.port2.start();
    try {
      const client = await WorkerTranslator.load(channel.port2, MODEL);
      const controller = new AbortController();
      const streamed = [];
      const first = client.translateBatch([LONG, LONG, LONG], {
        signal: controller.signal,
        onToken(e) {
          streamed.push(e);
          if (streamed.length === 2) controller.abort();  // a new keystroke
        },
      });
      await expect(first).rejects.toBeInstanceOf(CancelledError);
      const next = await client.translate('Two dogs play in the snow.', { onToken: (e) => streamed.push(e) });
      expect(next.text).toBe((await translator.translate('Two dogs play in the snow.')).text);
      expect(streamed.at(-1).text).toBe(next.text);
    } finally {
      channel.port1.close();
      channel.port2.close();
    }
  });
});

describe('target prefix', () => {
  const SOURCE = 'Two dogs play in the snow.';
  const PREFIX = 'Zwei Katzen';

  test('the translation starts with the prefix, scored as forced decoding scores it, and goes on freely', async () => {
    const free = await translator.translate(SOURCE, { attention: false });
    expect(free.text.startsWith(PREFIX), free.text).toBe(false);  // the model would not write it itself
    const forced = await translator.align(SOURCE, PREFIX, { attention: false, alignment: false });
    const p = forced.targetIds.length - 1;  // its pieces, eos left off
    for (const beamSize of [1, 4]) {
      const r = await translator.translate(SOURCE, { targetPrefix: PREFIX, beamSize, attention: false });
      expect(r.text.startsWith(`${PREFIX} `), r.text).toBe(true);
      expect(r.targetIds.slice(0, p)).toEqual(forced.targetIds.slice(0, p));
      expect(r.targetIds.length).toBeGreaterThan(p + 1);
      r.tokenLogProbs.slice(0, p).forEach((lp, t) => expect(lp).toBeCloseTo(forced.tokenLogProbs[t], 4));
    }
  });

  test('one prefix per text of a batch, as one by one; an empty prefix is plain decoding', async () => {
    const texts = [SOURCE, LONG, 'A man.'];
    const prefixes = [PREFIX, '', 'Eine Frau'];
    const batch = await translator.translateBatch(texts, { targetPrefix: prefixes, beamSize: 3, attention: false });
    const plain = await translator.translateBatch(texts, { beamSize: 3, attention: false });
    for (const [i, text] of texts.entries()) {
      const one = await translator.translate(text, { targetPrefix: prefixes[i], beamSize: 3, attention: false });
      expect(batch[i].targetIds).toEqual(one.targetIds);
      expect(batch[i].text.startsWith(prefixes[i])).toBe(true);
    }
    expect(batch[1].targetIds).toEqual(plain[1].targetIds);
    expect(batch[1].tokenLogProbs).toEqual(plain[1].tokenLogProbs);
  });

  test('a text translated in parts gets its prefix on its first part', () => {
    const plan = { texts: ['a', 'b1', 'b2', 'c'], owner: [0, 1, 1, 2], partCounts: [1, 2, 1] };
    expect(planPrefixes(plan, targetPrefixes(['A', 'B', ''], 3))).toEqual(['A', 'B', '', '']);
    expect(planPrefixes(plan, targetPrefixes(undefined, 3))).toBeUndefined();
    expect(targetPrefixes('A', 1)).toEqual(['A']);
  });

  test('prefixes that do not match the texts are InvalidInputError', async () => {
    for (const targetPrefix of [['Ein'], 3, [1, 2], 'Ein']) {
      await expect(translator.translateBatch(['A dog.', 'A cat.'], { targetPrefix }), JSON.stringify(targetPrefix))
        .rejects.toBeInstanceOf(InvalidInputError);
    }
    await expect(translator.translate('A dog.', { targetPrefix: ['Ein', 'Eine'] })).rejects.toBeInstanceOf(InvalidInputError);
  });
});
