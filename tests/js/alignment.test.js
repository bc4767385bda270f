// Word alignments, forced alignment and residual statistics through the wasm API and the CLI.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { InvalidInputError, Translator, modelFor, parseCatalog, pharaoh } from '../../dist/index.js';
import { alignmentErrorRate } from '../../tools/aer.js';
import { readLines } from '../../tools/bleu.js';
import { MODEL, NATIVE_CLI, ROOT } from './paths.js';

const GOLD = `${ROOT}tests/fixtures/alignment-gold/multi30k-test2016`;
const src = readLines(`${GOLD}.en`), tgt = readLines(`${GOLD}.de`), gold = readLines(`${GOLD}.gold`);

let translator;
beforeAll(async () => { translator = await Translator.load(MODEL); });
afterAll(() => translator?.dispose());

describe('translate with alignment', () => {
  test('links whitespace words; weights [targetWords][sourceWords] with rows summing to 1', async () => {
    const r = await translator.translate('A man in a blue shirt is riding a bicycle.', { alignment: true, attention: false });
    expect(r.crossAttention).toBeUndefined();
    expect(r.sourceWords).toEqual('A man in a blue shirt is riding a bicycle.'.split(' '));
    expect(r.targetWords).toEqual(r.text.split(' '));
    expect(r.sourceWordOfToken).toHaveLength(r.sourceTokens.length);
    expect(r.targetWordOfToken.at(-1)).toBe(-1);
    expect(r.alignment.weights).toHaveLength(r.targetWords.length);
    for (const row of r.alignment.weights) {
      expect(row).toHaveLength(r.sourceWords.length);
      expect(row.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 5);
    }
    for (const [s, t] of r.alignment.links) {
      expect(s).toBeLessThan(r.sourceWords.length);
      expect(t).toBeLessThan(r.targetWords.length);
    }
    expect(r.alignment.links).toContainEqual([1, 1]);  // man - Mann
  });

  test('wasm links equal native links on the gold sentences', async () => {
    const native = spawnSync(NATIVE_CLI, ['translate', '--model', MODEL, '--json', '--alignment', '--beam-size', '1'], {
      input: src.join('\n') + '\n', encoding: 'utf8',
    });
    expect(native.status, native.stderr).toBe(0);
    const expected = native.stdout.trim().split('\n').map((line) => JSON.parse(line));
    for (let i = 0; i < src.length; ++i) {
      const r = await translator.translate(src[i], { alignment: true, attention: false });
      expect(r.alignment.links, src[i]).toEqual(expected[i].alignment);
    }
  });
});

describe('align (forced alignment)', () => {
  test('feeds the given target: its words, its score, Pharaoh links', async () => {
    const r = await translator.align('A dog runs.', 'Ein Hund rennt.');
    expect(r.text).toBe('Ein Hund rennt.');
    expect(r.targetWords).toEqual(['Ein', 'Hund', 'rennt.']);
    expect(r.logProb).toBeLessThan(0);
    expect(pharaoh(r.alignment)).toBe('0-0 1-1 2-2');
    const unlikely = await translator.align('A dog runs.', 'Rennt Hund ein.');
    expect(unlikely.logProb).toBeLessThan(r.logProb);
  });

  test('options choose layers, heads, method and pieces', async () => {
    const pair = ['A man in a blue shirt is riding a bicycle.', 'Ein Mann in einem blauen Hemd fährt Fahrrad.'];
    const pieces = await translator.align(...pair, { alignment: { mergeSubwords: false } });
    expect(pieces.alignment.weights).toHaveLength(pieces.targetTokens.length - 1);
    const argmax = await translator.align(...pair, { alignment: { method: 'argmax', layers: [0], heads: [1] } });
    expect(new Set(argmax.alignment.links.map(([, t]) => t)).size).toBe(argmax.targetWords.length);  // one link per target word
    const strict = await translator.align(...pair, { alignment: { method: 'threshold', threshold: 1 } });
    const loose = await translator.align(...pair, { alignment: { method: 'threshold', threshold: 0.05 } });
    expect(strict.alignment.links.length).toBeLessThan(loose.alignment.links.length);
  });

  test('defaults beat naive averaging of all layers and heads on the held-out gold', async () => {
    const half = src.length / 2;  // the defaults were chosen on the first half (docs/alignment.md)
    const run = async (alignment) => {
      const hyps = [];
      for (let i = half; i < src.length; ++i) hyps.push(pharaoh((await translator.align(src[i], tgt[i], { alignment })).alignment));
      return alignmentErrorRate(gold.slice(half), hyps).aer;
    };
    const layers = Array.from({ length: translator.config.decoderLayers }, (_, l) => l);
    const defaults = await run(true);
    const naive = await run({ layers, method: 'argmax' });
    expect(defaults).toBeLessThan(0.3);
    expect(defaults).toBeLessThan(naive - 0.1);
  });

  test("a model's trained alignment head (config alignmentHead) is read unless layers or heads are named", async () => {
    // The same model file with a config that names layer 1, head 2 as its alignment head.
    const bytes = readFileSync(MODEL);
    const headerLength = Number(Buffer.from(bytes.subarray(0, 8)).readBigUInt64LE());
    const header = JSON.parse(Buffer.from(bytes.subarray(8, 8 + headerLength)).toString('utf8'));
    const config = JSON.parse(header.__metadata__.config);
    header.__metadata__.config = JSON.stringify({ ...config, alignment_layer: 1, alignment_head: 2 });
    delete header.__metadata__.checksum;
    const text = Buffer.from(JSON.stringify(header));
    const length = Buffer.alloc(8);
    length.writeBigUInt64LE(BigInt(text.length));
    const guided = await Translator.load(Buffer.concat([length, text, bytes.subarray(8 + headerLength)]));
    try {
      expect(translator.config.alignmentHead).toBeUndefined();
      expect(guided.config.alignmentHead).toEqual({ layer: 1, head: 2 });
      const pair = ['A man in a blue shirt is riding a bicycle.', 'Ein Mann in einem blauen Hemd fährt Fahrrad.'];
      const weights = async (t, alignment) => (await t.align(...pair, { alignment })).alignment.weights;
      expect(await weights(guided, true)).toEqual(await weights(translator, { layers: [1], heads: [2] }));
      expect(await weights(guided, true)).not.toEqual(await weights(translator, true));
      expect(await weights(guided, { layers: [-1] })).toEqual(await weights(translator, { layers: [-1] }));
    } finally {
      guided.dispose();
    }
  });

  test("a model's alignment layer (config alignmentLayer) is read unless layers, heads or shift are named", async () => {
    // The same model file with alignment.* tensors appended (random, seeded): every other tensor's bytes unchanged.
    const bytes = readFileSync(MODEL);
    const headerLength = Number(Buffer.from(bytes.subarray(0, 8)).readBigUInt64LE());
    const header = JSON.parse(Buffer.from(bytes.subarray(8, 8 + headerLength)).toString('utf8'));
    const d = JSON.parse(header.__metadata__.config).d_model;
    const data = bytes.subarray(8 + headerLength);
    let seed = 7;
    const random = (n) => Float32Array.from({ length: n }, () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31 - 0.5) / 2);
    const extra = { 'alignment.q_state.weight': random(d * d), 'alignment.q_state.bias': random(d),
                    'alignment.q_embed.weight': random(d * d), 'alignment.k_proj.weight': random(d * d) };
    const blobs = [data, Buffer.alloc(-data.length & 7)];  // F32 data at a multiple of 8
    let offset = data.length + blobs[1].length;
    for (const [name, values] of Object.entries(extra)) {
      header[name] = { dtype: 'F32', shape: values.length === d ? [d] : [d, d], data_offsets: [offset, offset + values.byteLength] };
      blobs.push(Buffer.from(values.buffer));
      offset += values.byteLength;
    }
    delete header.__metadata__.checksum;
    const text = Buffer.from(JSON.stringify(header));
    const length = Buffer.alloc(8);
    length.writeBigUInt64LE(BigInt(text.length));
    const aligned = await Translator.load(Buffer.concat([length, text, ...blobs]));
    try {
      expect(translator.config.alignmentLayer).toBe(false);
      expect(aligned.config.alignmentLayer).toBe(true);
      const pair = ['A man in a blue shirt is riding a bicycle.', 'Ein Mann in einem blauen Hemd fährt Fahrrad.'];
      const weights = async (t, alignment) => (await t.align(...pair, { alignment })).alignment.weights;
      const layer = await weights(aligned, true);
      expect(layer).not.toEqual(await weights(translator, true));
      for (const row of layer) expect(row.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 5);
      for (const named of [{ layers: [-1] }, { heads: [0] }, { shift: true }]) {
        expect(await weights(aligned, named)).toEqual(await weights(translator, named));
      }
      // Translations do not change; translate's alignment reads the layer as align() does on its output.
      const plain = await translator.translate(pair[0]);
      const r = await aligned.translate(pair[0], { alignment: true });
      expect(r.text).toBe(plain.text);
      expect(r.alignment.weights).toEqual((await aligned.align(pair[0], r.text, { alignment: true })).alignment.weights);
    } finally {
      aligned.dispose();
    }
  });

  test('bad options are InvalidInputError, and the translator stays usable', async () => {
    await expect(translator.align('A dog.', 'Ein Hund.', { alignment: { layers: [9] } })).rejects.toThrow(InvalidInputError);
    await expect(translator.align('A dog.', 'Ein Hund.', { alignment: { method: 'best' } })).rejects.toThrow(InvalidInputError);
    await expect(translator.align('A dog.', 'Ein Hund.', { alignment: { threshold: 0 } })).rejects.toThrow(InvalidInputError);
    await expect(translator.align('A dog.', 42)).rejects.toThrow(InvalidInputError);
    await expect(translator.translate('A dog.', { residual: 'yes' })).rejects.toThrow(InvalidInputError);
    expect(pharaoh((await translator.align('A dog.', 'Ein Hund.')).alignment)).toBe('0-0 1-1');
  });
});

test('residual statistics: [layers][T] norms and cosines of the cross-attention update', async () => {
  const r = await translator.translate('Two children play football.', { residual: true });
  const { inputNorm, updateNorm, cosine } = r.residual;
  expect(inputNorm).toHaveLength(translator.config.decoderLayers);
  for (let l = 0; l < inputNorm.length; ++l) {
    expect(inputNorm[l]).toHaveLength(r.targetTokens.length);
    for (let t = 0; t < r.targetTokens.length; ++t) {
      expect(inputNorm[l][t]).toBeGreaterThan(0);
      expect(updateNorm[l][t]).toBeGreaterThan(0);
      expect(Math.abs(cosine[l][t])).toBeLessThanOrEqual(1 + 1e-5);
    }
  }
});

describe('crossattn align', () => {
  const cli = (args) => spawnSync('node', [`${ROOT}dist/cli.js`, 'align', '--model', MODEL, ...args], { encoding: 'utf8' });
  const dir = mkdtempSync(`${tmpdir()}/crossattn-align-`);

  test('writes one Pharaoh line per sentence pair, equal to the API', async () => {
    const r = cli(['--src', `${GOLD}.en`, '--tgt', `${GOLD}.de`]);
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stdout.split('\n').slice(0, -1);
    expect(lines).toHaveLength(src.length);
    expect(lines[3]).toBe(pharaoh((await translator.align(src[3], tgt[3])).alignment));
    expect(alignmentErrorRate(gold, lines).aer).toBeLessThan(0.3);
    const argmax = cli(['--src', `${GOLD}.en`, '--tgt', `${GOLD}.de`, '--method', 'argmax', '--layers', '0', '--heads', '0,1']);
    expect(argmax.stdout.split('\n')[3]).toBe(pharaoh((await translator.align(src[3], tgt[3],
      { alignment: { method: 'argmax', layers: [0], heads: [0, 1] } })).alignment));
  });

  test('bad input: clear message and non-zero exit', () => {
    writeFileSync(`${dir}/one.txt`, 'A dog.\n');
    writeFileSync(`${dir}/two.txt`, 'Ein Hund.\nEine Katze.\n');
    const mismatch = cli(['--src', `${dir}/one.txt`, '--tgt', `${dir}/two.txt`]);
    expect(mismatch.status).toBe(1);
    expect(mismatch.stderr).toMatch(/1 lines but --tgt has 2/);
    expect(cli(['--src', `${dir}/one.txt`]).stderr).toMatch(/needs --src and --tgt/);
    expect(cli(['--src', `${dir}/missing.txt`, '--tgt', `${dir}/one.txt`]).stderr).toMatch(/cannot read/);
    const badLayer = cli(['--src', `${dir}/one.txt`, '--tgt', `${dir}/one.txt`, '--layers', '9']);
    expect(badLayer.status).toBe(1);
    expect(badLayer.stderr).toMatch(/InvalidInputError/);
  });
});

describe('alignSymmetric (both directions)', () => {
  let enDe, deEn;
  beforeAll(async () => {
    enDe = await Translator.load(`${ROOT}models/tatoeba-en-de/tatoeba-en-de.int8.crossattn`);
    deEn = await Translator.load(`${ROOT}models/tatoeba-de-en/tatoeba-de-en.int8.crossattn`);
  });
  afterAll(() => { enDe.dispose(); deEn.dispose(); });

  test('averages the word attention of both models and links the average', async () => {
    const [en, de] = ['A black dog runs through the snow.', 'Ein schwarzer Hund rennt durch den Schnee.'];
    const alignment = { method: 'argmax' };
    const forward = (await enDe.align(en, de, { alignment })).alignment;   // [de words][en words]
    const backward = (await deEn.align(de, en, { alignment })).alignment;  // [en words][de words]
    const both = await enDe.alignSymmetric(deEn, en, de, { alignment });
    expect(both.weights).toHaveLength(de.split(' ').length);
    both.weights.forEach((row, t) => row.forEach((w, s) => {
      expect(w).toBeCloseTo((forward.weights[t][s] + backward.weights[s][t]) / 2, 6);
    }));
    // argmax of each averaged row
    expect(both.links).toEqual(both.weights.map((row, t) => [row.indexOf(Math.max(...row)), t]));
    expect(pharaoh(both)).toMatch(/^0-0 1-1 2-2 3-3 /);  // Ein-A schwarzer-black Hund-dog rennt-runs
  });

  test('crossattn align uses the catalog models of both directions by default, as alignSymmetric does', async () => {
    const align = (...flags) => {
      const r = spawnSync('node', [`${ROOT}dist/cli.js`, 'align', '--src', `${GOLD}.en`, '--tgt', `${GOLD}.de`, ...flags],
                          { encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
      return r.stdout.split('\n').slice(0, -1);
    };
    const lines = align();
    expect(align('--symmetric')).toEqual(lines);
    const catalog = parseCatalog(readFileSync(`${ROOT}models/catalog.json`, 'utf8'), `${ROOT}models/`);
    const [forward, reverse] = await Promise.all([modelFor(catalog, 'en', 'de'), modelFor(catalog, 'de', 'en')]
      .map((entry) => Translator.load(entry.model)));
    expect(lines[5]).toBe(pharaoh(await forward.alignSymmetric(reverse, src[5], tgt[5])));
    expect(align('--one-direction')[5]).toBe(pharaoh((await forward.align(src[5], tgt[5])).alignment));
    forward.dispose();
    reverse.dispose();
    expect(alignmentErrorRate(gold, lines).aer).toBeLessThan(0.3);
    const both = spawnSync('node', [`${ROOT}dist/cli.js`, 'align', '--src', 'a', '--tgt', 'b', '--symmetric', '--one-direction']);
    expect(both.status).toBe(2);
  });

  test('symmetrize links two alignments made apart exactly as alignSymmetric does, and refuses mismatched ones', async () => {
    const [en, de] = ['A black dog runs through the snow.', 'Ein schwarzer Hund rennt durch den Schnee.'];
    const forward = (await enDe.align(en, de)).alignment, backward = (await deEn.align(de, en)).alignment;
    const both = await enDe.alignSymmetric(deEn, en, de);
    const joined = enDe.symmetrize(forward, backward);
    expect(joined.links).toEqual(both.links);
    joined.weights.forEach((row, t) => row.forEach((w, s) => expect(w).toBeCloseTo(both.weights[t][s], 6)));
    const oblong = (await enDe.align('A dog runs.', 'Ein Hund rennt schnell.')).alignment;  // 4 x 3 words
    expect(() => enDe.symmetrize(oblong, oblong)).toThrow(InvalidInputError);  // not the other way round
    expect(() => enDe.symmetrize(forward, { links: [], weights: [new Float32Array(3), new Float32Array(2)] })).toThrow(InvalidInputError);
    expect((await enDe.translate('A dog.')).text).toBeTruthy();  // still usable
  });

  test('a model of the same direction, or subword links, are a clear error', async () => {
    await expect(enDe.alignSymmetric(enDe, 'A dog.', 'Ein Hund.')).rejects.toThrow(InvalidInputError);
    await expect(enDe.alignSymmetric(deEn, 'A dog.', 'Ein Hund.', { alignment: { mergeSubwords: false } })).rejects.toThrow(/words/);
    expect(pharaoh(await enDe.alignSymmetric(deEn, 'A dog.', 'Ein Hund.'))).toBe('0-0 1-1');
  });
});
