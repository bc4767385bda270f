// The Marian converter (bindings/src/convert/marian.ts): its readers on tiny files made here, every
// ConvertError it promises, and parity with Bergamot (@browsermt/bergamot-translator 0.4.9, the
// engine of Firefox's translations) on 200 FLORES dev sentences, on Marian models exported from the
// committed bench-marian-en-de checkpoint by tests/js/fixtures/marian-models.sh.
//
// "Agree" means identical output text for the same line, both engines greedy, one line translated as
// one sentence (Bergamot's ssplit-mode: sentence), no shortlist on either side, our repetition guard
// off, and the same length cap (Marian's max-length-factor over the source tokens with </s>, 2 unless
// said: our maxLengthRatio, maxLengthOffset 0; beam_search.cpp:496-505), so that whole outputs are compared.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { zipSync } from 'fflate';
import protobuf from 'protobufjs/minimal.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { convertFile, convertModel } from '../../dist/convert/index.js';
import { ConvertError } from '../../dist/convert/convert-error.js';
import { checkEngineRuns } from '../../dist/convert/engine-check.js';
import { writeModelFile } from '../../dist/convert/model-file.js';
import { readMarianBinary } from '../../dist/convert/marian-binary.js';
import { mapMarianShortlist } from '../../dist/convert/marian-shortlist.js';
import { readNpz } from '../../dist/convert/npz.js';
import { quantizeRows } from '../../dist/convert/quantize.js';
import { Translator } from '../../dist/index.js';
import { corpusBleu, readLines } from '../../tools/bleu.js';
import { DATA, ROOT } from './paths.js';

const SENTENCES = 200;
const FLOAT32 = 0x0404, INT8 = 0x0101, INTGEMM8 = 0x4101;  // Marian's Type (src/common/types.h)

let scratch;
beforeAll(() => { scratch = mkdtempSync(join(tmpdir(), 'crossattn-marian-')); });
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// --- tiny files in Marian's formats, written here from the format descriptions ---

/** Marian's binary format (src/common/binary.cpp saveItems): version 1, headers, names, shapes, 256-aligned blobs. */
function marianBinary(items) {
  const pad = (b) => Buffer.concat([b, Buffer.alloc((256 - (b.length % 256)) % 256)]);
  const blobs = items.map((it) => pad(Buffer.from(it.bytes)));
  const u64 = (...v) => { const b = Buffer.alloc(8 * v.length); v.forEach((x, i) => b.writeBigUInt64LE(BigInt(x), 8 * i)); return b; };
  const parts = [u64(1, items.length)];
  items.forEach((it, i) => parts.push(u64(Buffer.byteLength(it.name) + 1, it.type, it.shape.length, blobs[i].length)));
  for (const it of items) parts.push(Buffer.from(`${it.name}\0`));
  for (const it of items) parts.push(Buffer.from(new Int32Array(it.shape).buffer));
  const pos = parts.reduce((n, b) => n + b.length, 0);
  const offset = (Math.floor((pos + 8) / 256) + 1) * 256 - pos - 8;
  parts.push(u64(offset), Buffer.alloc(offset), ...blobs);
  return Buffer.concat(parts);
}

/** One .npy (format 1.0, or 2.0 with a 4-byte header length). */
function npy(descr, shape, bytes, version = 1) {
  let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': (${shape.join(', ')}${shape.length === 1 ? ',' : ''}), }`;
  const lengthBytes = version === 1 ? 2 : 4;
  header += ' '.repeat(63 - ((8 + lengthBytes + header.length) % 64)) + '\n';
  const length = Buffer.alloc(lengthBytes);
  if (version === 1) length.writeUInt16LE(header.length); else length.writeUInt32LE(header.length);
  return new Uint8Array(Buffer.concat([Buffer.from([0x93, ...Buffer.from('NUMPY'), version, 0]), length, Buffer.from(header), Buffer.from(bytes)]));
}

function seededFloats(n, seed) {
  let s = seed >>> 0;
  return Float32Array.from({ length: n }, () => { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; return (s / 2 ** 32 - 0.5) * 0.2; });
}

/** model.yml of a tiny post-norm transformer (D 8, 2 heads, F 16, one layer each side), `changes` applied. */
function tinyYml(changes = {}) {
  const yml = {
    type: 'transformer', 'dim-vocabs': [8000, 8000], 'dim-emb': 8, 'enc-depth': 1, 'dec-depth': 1, 'transformer-heads': 2,
    'transformer-dim-ffn': 16, 'transformer-ffn-depth': 2, 'transformer-ffn-activation': 'swish', 'transformer-preprocess': '',
    'transformer-postprocess': 'dan', 'transformer-postprocess-emb': 'd', 'transformer-postprocess-top': '',
    'transformer-decoder-autoreg': 'self-attention', 'tied-embeddings-all': true, ...changes,
  };
  return Object.entries(yml).map(([k, v]) => `${k}: ${JSON.stringify(v)}\n`).join('');
}

/** The parameters of tinyYml's model, Marian's names and shapes (src/models/transformer.h), float32. */
function tinyParameters(vocab = 8000, { ssru = false } = {}) {
  const shapes = { Wemb: [vocab, 8], decoder_ff_logit_out_b: [1, vocab] };
  const attention = (p) => { for (const x of 'qkvo') { shapes[`${p}_W${x}`] = [8, 8]; shapes[`${p}_b${x}`] = [1, 8]; } ln(`${p}_Wo`); };
  const ln = (p) => { shapes[`${p}_ln_scale`] = [1, 8]; shapes[`${p}_ln_bias`] = [1, 8]; };
  const ffn = (p) => { Object.assign(shapes, { [`${p}_W1`]: [8, 16], [`${p}_b1`]: [1, 16], [`${p}_W2`]: [16, 8], [`${p}_b2`]: [1, 8] }); ln(`${p}_ffn`); };
  attention('encoder_l1_self'); ffn('encoder_l1_ffn');
  if (ssru) {  // src/rnn/cells.h:1006-1011, transformer.h:527
    Object.assign(shapes, { decoder_l1_rnn_W: [8, 8], decoder_l1_rnn_Wf: [8, 8], decoder_l1_rnn_bf: [1, 8] });
    ln('decoder_l1_rnn_ffn');
  } else {
    attention('decoder_l1_self');
  }
  attention('decoder_l1_context'); ffn('decoder_l1_ffn');
  return Object.entries(shapes).map(([name, shape], i) => ({
    name, type: FLOAT32, shape, bytes: new Uint8Array(seededFloats(shape[0] * shape[1], i + 1).buffer),
  }));
}

const ymlItem = (text) => ({ name: 'special:model.yml', type: INT8, shape: [text.length + 1], bytes: Buffer.from(`${text}\0`) });

/**
 * A folder with model.bin (tinyYml(changes) inside) and the bench model's vocab.spm; `edit` changes the
 * items first; `names` renames the two files (Firefox's layout: model.ende.intgemm.alphas.bin, vocab.ende.spm).
 */
function tinyFolder(name, changes = {}, edit = (items) => items, names = { model: 'model.bin', vocab: 'vocab.spm' }) {
  const folder = join(scratch, name);
  mkdirSync(folder, { recursive: true });
  const ssru = changes['transformer-decoder-autoreg'] === 'rnn';
  writeFileSync(join(folder, names.model), marianBinary(edit([ymlItem(tinyYml(changes)), ...tinyParameters(8000, { ssru })])));
  writeFileSync(join(folder, names.vocab), readFileSync(join(fixtures(), 'fp32/vocab.spm')));
  return folder;
}

/** A SentencePiece model (ModelProto) keeping only its first `n` pieces (field 1) and every other field. */
function spmWithPieces(bytes, n) {
  const reader = protobuf.Reader.create(bytes), kept = [];
  let pieces = 0;
  while (reader.pos < reader.len) {
    const start = reader.pos, tag = reader.uint32();
    reader.skipType(tag & 7);
    if (tag >>> 3 !== 1 || pieces++ < n) kept.push(bytes.subarray(start, reader.pos));
  }
  return Buffer.concat(kept);
}

let fixtureFolder;
/** tests/js/fixtures/marian-models.sh's folder: made before the tests (cached under build/ across runs). */
const fixtures = () => fixtureFolder;
beforeAll(() => {
  fixtureFolder = join(ROOT, execFileSync('bash', [join(ROOT, 'tests/js/fixtures/marian-models.sh')], { encoding: 'utf8' }).trim());
}, 170_000);

const LANGS = { sourceLang: 'en', targetLang: 'de' };

// --- readers ---

describe('readers', () => {
  test('.npz: arrays of format 1 and 2 headers, values and shapes as written', () => {
    const a = seededFloats(6, 7), yml = Buffer.from('type: transformer\n\0');
    const zip = zipSync({ 'decoder_l1_rnn_W.npy': npy('<f4', [2, 3], new Uint8Array(a.buffer)),
      'special:model.yml.npy': npy('|i1', [yml.length], yml, 2) });
    const arrays = readNpz(zip, 'tiny.npz');
    expect(arrays.get('decoder_l1_rnn_W').shape).toEqual([2, 3]);
    expect([...new Float32Array(arrays.get('decoder_l1_rnn_W').bytes.buffer)]).toEqual([...a]);
    expect(Buffer.from(arrays.get('special:model.yml').bytes).toString()).toBe(yml.toString());
    expect(() => readNpz(zip.subarray(0, zip.length - 30), 'tiny.npz')).toThrow(/tiny\.npz: zip: .*truncated/);
  });

  test('Marian .bin: names, types, shapes and blobs as written; a truncated file is a ConvertError', () => {
    const w = seededFloats(12, 3);
    const bin = marianBinary([ymlItem('type: transformer'), { name: 'encoder_l1_ffn_W1', type: FLOAT32, shape: [3, 4], bytes: new Uint8Array(w.buffer) }]);
    const items = readMarianBinary(new Uint8Array(bin), 'tiny.bin');
    expect(items.map((i) => [i.name, i.type, i.shape])).toEqual([['special:model.yml', INT8, [18]], ['encoder_l1_ffn_W1', FLOAT32, [3, 4]]]);
    expect([...new Float32Array(items[1].bytes.slice(0, 48).buffer)]).toEqual([...w]);
    expect(() => readMarianBinary(new Uint8Array(bin.subarray(0, bin.length - 100)), 'tiny.bin')).toThrow(/^tiny\.bin: encoder_l1_ffn_W1: truncated/);
    expect(() => readMarianBinary(new Uint8Array(bin.subarray(0, 20)), 'tiny.bin')).toThrow(ConvertError);
  });
});

// --- the lexical shortlist ---

/** A binary lex file (src/data/shortlist.cpp import/saveBlobToFile) with Marian's checksum (hash.h hashMem). */
function lexFile(lists, firstNum, { damage = false } = {}) {
  const offsets = [0];
  for (const l of lists) offsets.push(offsets.at(-1) + l.length);
  const body = Buffer.concat([Buffer.from(new BigUint64Array([BigInt(firstNum), 50n, BigInt(offsets.length), BigInt(offsets.at(-1))]).buffer),
    Buffer.from(new BigUint64Array(offsets.map(BigInt)).buffer), Buffer.from(new Uint32Array(lists.flat()).buffer)]);
  let seed = 0n;
  const words = new BigUint64Array(body.buffer, body.byteOffset, Math.floor(body.length / 8));
  for (const v of words) seed = BigInt.asUintN(64, seed ^ BigInt.asUintN(64, v + 0x9e3779b9n + (seed << 6n) + (seed >> 2n)));
  const file = Buffer.concat([Buffer.from(new BigUint64Array([0xf11a48d5013417f5n, seed]).buffer), body]);
  if (damage) file[16] ^= 1;  // firstNum: hashed, unlike a last odd uint32 (hashMem reads whole uint64 words)
  return new Uint8Array(file);
}

describe('lexical shortlist', () => {
  const lists = [[1, 4], [], [0, 2, 5], [3], [5]];  // source ids 0..4, target ids < 6

  test('maps to frequent (ids below firstNum, and eos), offsets and targets', () => {
    const { tensors, description } = mapMarianShortlist(lexFile(lists, 2), 'lex.s2t.bin', 5, 6, 3, false);
    expect([...tensors.get('shortlist.frequent').data]).toEqual([0, 1, 3]);
    expect([...tensors.get('shortlist.offsets').data]).toEqual([0, 2, 2, 5, 6, 7]);
    expect([...tensors.get('shortlist.targets').data]).toEqual([1, 4, 0, 2, 5, 3, 5]);
    expect(description).toMatch(/firstNum 2, bestNum 50/);
  });

  test('with one shared vocabulary each source id also lists itself, as Bergamot scores it', () => {
    const { tensors } = mapMarianShortlist(lexFile(lists, 2), 'lex.s2t.bin', 5, 5 + 1, 3, true);
    expect([...tensors.get('shortlist.offsets').data]).toEqual([0, 3, 4, 7, 8, 10]);
    expect([...tensors.get('shortlist.targets').data]).toEqual([1, 4, 0, 1, 0, 2, 5, 3, 5, 4]);
  });

  test('a damaged, truncated or mismatched file is a ConvertError naming the field', () => {
    expect(() => mapMarianShortlist(lexFile(lists, 2, { damage: true }), 'lex.s2t.bin', 5, 6, 3, false)).toThrow(/^lex\.s2t\.bin: checksum:/);
    expect(() => mapMarianShortlist(lexFile(lists, 2).subarray(0, 100), 'lex.s2t.bin', 5, 6, 3, false)).toThrow(/^lex\.s2t\.bin: size:/);
    expect(() => mapMarianShortlist(lexFile(lists, 2), 'lex.s2t.bin', 7, 6, 3, false)).toThrow(/^lex\.s2t\.bin: wordToOffsetSize:/);
    expect(() => mapMarianShortlist(lexFile(lists, 2), 'lex.s2t.bin', 5, 5, 3, false)).toThrow(/^lex\.s2t\.bin: shortLists: target id 5/);
  });

  test("a Firefox folder (ende: model.ende.intgemm.alphas.bin, vocab.ende.spm, lex.50.50.ende.s2t.bin) converts whole", async () => {
    const alphas = (items) => items.flatMap((it) => (it.name.endsWith('_W1')
      ? [{ ...it, type: INTGEMM8, bytes: new Uint8Array([...new Uint8Array(128).fill(3), ...new Uint8Array(new Float32Array([1270]).buffer)]) },
        { name: `${it.name}_QuantMultA`, type: FLOAT32, shape: [1], bytes: new Uint8Array(new Float32Array([12.5]).buffer) }]
      : [it]));
    const folder = tinyFolder('ende', {}, alphas, { model: 'model.ende.intgemm.alphas.bin', vocab: 'vocab.ende.spm' });
    const sourceLists = Array.from({ length: 8000 }, (_, s) => [s, (s * 7 + 11) % 8000].sort((a, b) => a - b));
    writeFileSync(join(folder, 'lex.50.50.ende.s2t.bin'), lexFile(sourceLists, 100));
    const out = join(folder, 'ende.crossattn');
    const summary = await convertFile(folder, out, 'test');
    const model = await convertModel(folder);
    expect(summary).toEqual({ config: model.config, provenance: model.provenance });
    expect(model.config).toMatchObject({ name: 'ende', source_lang: 'en', target_lang: 'de' });
    // Firefox's file names are no licence: provenance comes from the caller (a catalog's record) or nowhere.
    expect(model.provenance).toMatchObject({ source: 'ende', license: '', convertedFrom: 'marian' });
    expect(model.provenance.attribution).not.toMatch(/Mozilla|MPL/);
    expect(model.tensors.get('encoder.layers.0.fc1.weight').dtype).toBe('I8');
    expect(model.metadata.quantization).toMatch(/_QuantMultA.*not used/);
    expect(model.tensors.get('shortlist.offsets').data.length).toBe(8001);
    expect(model.metadata.shortlist).toMatch(/lex\.50\.50\.ende\.s2t\.bin: firstNum 100/);
    const translator = await Translator.load(out);
    try {
      expect((await translator.translate('Hello.', { shortlist: true, maxLength: 5 })).targetTokens.length).toBeGreaterThan(0);
    } finally { translator.dispose(); }
  });
});

// --- conversion and its errors ---

describe('conversion', () => {
  test('heads narrower than the engine computes (2 wide) are a ConvertError naming transformer-heads, and no file is written', async () => {
    const folder = tinyFolder('narrow', { 'transformer-heads': 4 });
    const out = join(folder, 'narrow.crossattn');
    const error = await convertFile(folder, out, 'test', LANGS).catch((e) => e);
    expect(error).toBeInstanceOf(ConvertError);
    expect(error.field).toBe('transformer-heads');
    expect(error.message).toMatch(/: transformer-heads: 4 heads over dim-emb 8 are 2 wide; the engine needs at least 4$/);
    expect(existsSync(out)).toBe(false);
  });

  test('a converted file the engine refuses is a ConvertError naming the engine\'s reason (checkEngineRuns)', async () => {
    const model = await convertModel(tinyFolder('engine-check'), LANGS);
    await expect(checkEngineRuns(await writeModelFile(model, 'test'), 'ok.crossattn', Translator)).resolves.toBeUndefined();
    const narrow = { ...model, config: { ...model.config, n_heads: 4 } };  // past the converter's check: heads 2 wide
    const error = await checkEngineRuns(await writeModelFile(narrow, 'test'), 'narrow.crossattn', Translator).catch((e) => e);
    expect(error).toBeInstanceOf(ConvertError);
    expect(error.field).toBe('engine');
    expect(error.message).toMatch(/^narrow\.crossattn: engine: the engine refuses the converted model: .*d_model \/ n_heads/);
  });

  test('a tiny float32 model: config from model.yml, W transposed to [out, in], biases flattened', async () => {
    const model = await convertModel(tinyFolder('tiny'), LANGS);
    expect(model.config).toMatchObject({ encoder_layers: 1, decoder_layers: 1, d_model: 8, n_heads: 2, d_ff: 16, activation: 'swish',
      layer_norm: 'post', layer_norm_eps: 1e-6, sinusoidal_layout: 'marian', decoder_start: 'zero', shared_vocab: true, tied_embeddings: true });
    const items = Object.fromEntries(tinyParameters().map((p) => [p.name, new Float32Array(p.bytes.buffer)]));
    const fc1 = model.tensors.get('encoder.layers.0.fc1.weight');  // Marian encoder_l1_ffn_W1 [8, 16] -> ours [16, 8]
    expect(fc1.shape).toEqual([16, 8]);
    for (let o = 0; o < 16; ++o) for (let i = 0; i < 8; ++i) expect(fc1.data[o * 8 + i]).toBe(items.encoder_l1_ffn_W1[i * 16 + o]);
    expect([...model.tensors.get('decoder.layers.0.cross_attn.k_proj.bias').data]).toEqual([...items.decoder_l1_context_bk]);
    expect(model.tensors.get('shared.weight').data).toEqual(items.Wemb);
    expect(model.provenance).toMatchObject({ source: 'tiny', convertedFrom: 'marian' });
  });

  test("an SSRU decoder: Marian's rnn_W, rnn_Wf (transposed), rnn_bf and rnn_ffn_ln as the contract's ssru tensors", async () => {
    const model = await convertModel(tinyFolder('tiny-ssru', { 'transformer-decoder-autoreg': 'rnn', 'dec-cell': 'ssru' }), LANGS);
    expect(model.config.decoder_autoregression).toBe('ssru');
    const items = Object.fromEntries(tinyParameters(8000, { ssru: true }).map((p) => [p.name, new Float32Array(p.bytes.buffer)]));
    for (const [ours, marian] of [['ssru.weight', 'decoder_l1_rnn_W'], ['ssru.forget_weight', 'decoder_l1_rnn_Wf']]) {
      const t = model.tensors.get(`decoder.layers.0.${ours}`);
      expect(t.shape).toEqual([8, 8]);
      for (let o = 0; o < 8; ++o) for (let i = 0; i < 8; ++i) expect(t.data[o * 8 + i]).toBe(items[marian][i * 8 + o]);
    }
    expect([...model.tensors.get('decoder.layers.0.ssru.forget_bias').data]).toEqual([...items.decoder_l1_rnn_bf]);
    expect([...model.tensors.get('decoder.layers.0.self_attn_layer_norm.weight').data]).toEqual([...items.decoder_l1_rnn_ffn_ln_scale]);
    expect([...model.tensors.keys()].some((name) => name.startsWith('decoder.layers.0.self_attn.'))).toBe(false);
  });

  test('an SSRU model quantized to int8 as a model opened by its Hub id is: both SSRU matrices int8, and it translates', async () => {
    const model = await convertModel(tinyFolder('tiny-ssru-int8', { 'transformer-decoder-autoreg': 'rnn', 'dec-cell': 'ssru' }), LANGS);
    const int8 = await quantizeRows(model);
    for (const name of ['ssru.weight', 'ssru.forget_weight']) {
      expect(int8.tensors.get(`decoder.layers.0.${name}`).dtype, name).toBe('I8');
      expect(int8.tensors.get(`decoder.layers.0.${name}_scale`).shape).toEqual([8]);
    }
    expect(int8.tensors.get('decoder.layers.0.ssru.forget_bias').dtype).toBe('F32');
    const translator = await Translator.load(await writeModelFile(int8, 'test'));
    try {
      expect((await translator.translate('Hello.', { maxLength: 5 })).targetTokens.length).toBeGreaterThan(0);
    } finally { translator.dispose(); }
  });

  test('separate vocabularies (srcvocab/trgvocab of 8000 and 500 pieces) and an untied output layer', async () => {
    const separate = (items) => items.flatMap((it) => {
      if (it.name === 'Wemb') {
        return [{ ...it, name: 'encoder_Wemb' }, { name: 'decoder_Wemb', type: FLOAT32, shape: [500, 8], bytes: new Uint8Array(seededFloats(4000, 91).buffer) },
          { name: 'decoder_ff_logit_out_Wt', type: FLOAT32, shape: [500, 8], bytes: new Uint8Array(seededFloats(4000, 92).buffer) }];
      }
      return it.name === 'decoder_ff_logit_out_b' ? [{ ...it, shape: [1, 500], bytes: it.bytes.slice(0, 2000) }] : [it];
    });
    const folder = tinyFolder('separate', { 'dim-vocabs': [8000, 500], 'tied-embeddings-all': false }, separate,
      { model: 'model.bin', vocab: 'srcvocab.ende.spm' });
    writeFileSync(join(folder, 'trgvocab.ende.spm'), spmWithPieces(readFileSync(join(fixtures(), 'fp32/vocab.spm')), 500));
    const out = join(folder, 'separate.crossattn');
    await convertFile(folder, out, 'test', LANGS);
    const model = await convertModel(folder, LANGS);
    expect(model.config).toMatchObject({ shared_vocab: false, tied_embeddings: false, vocab_size: 500, source_vocab_size: 8000, source_eos_id: 3, eos_id: 3 });
    expect(model.tensors.get('encoder.embed_tokens.weight').shape).toEqual([8000, 8]);
    expect(model.tensors.get('decoder.embed_tokens.weight').shape).toEqual([500, 8]);
    expect(model.tensors.get('lm_head.weight').data).toEqual(seededFloats(4000, 92));  // _Wt is [out, in] already
    const translator = await Translator.load(out);
    try {
      expect((await translator.translate('Hello.', { maxLength: 5 })).targetTokens.length).toBeGreaterThan(0);
    } finally { translator.dispose(); }
  });

  test('intgemm8: the int8 values and 1/quantMult kept exactly, as our I8 [out, in] rows', async () => {
    const q = Int8Array.from({ length: 8 * 16 }, (_, k) => ((k * 37) % 255) - 127);
    const quantMult = 127 / 0.05;
    const blob = new Uint8Array(q.length + 4);
    blob.set(new Uint8Array(q.buffer));
    new DataView(blob.buffer).setFloat32(q.length, quantMult, true);
    const folder = tinyFolder('tiny-int8', {}, (items) => items.map((it) => (it.name === 'encoder_l1_ffn_W1' ? { ...it, type: INTGEMM8, bytes: blob } : it)));
    const model = await convertModel(folder, LANGS);
    const w = model.tensors.get('encoder.layers.0.fc1.weight');  // marian-conv stored it transposed: [out 16, in 8], ours
    expect(w.dtype).toBe('I8');
    expect(w.shape).toEqual([16, 8]);
    expect([...w.data]).toEqual([...q]);
    expect([...model.tensors.get('encoder.layers.0.fc1.weight_scale').data]).toEqual(Array(16).fill(Math.fround(1 / Math.fround(quantMult))));
  });

  const cases = [
    ['a missing input', () => join(scratch, 'nothing-here'), /nothing-here: input: no such file/],
    ['another model type', () => tinyFolder('amun', { type: 'amun' }), /special:model\.yml: type: is "amun"/],
    ['pre-norm', () => tinyFolder('prenorm', { 'transformer-preprocess': 'n', 'transformer-postprocess': 'da' }), /special:model\.yml: transformer-preprocess: .*pre-norm/],
    ['average attention', () => tinyFolder('aan', { 'transformer-decoder-autoreg': 'average-attention' }), /special:model\.yml: transformer-decoder-autoreg: is 'average-attention'/],
    ['an RNN cell other than SSRU', () => tinyFolder('gru', { 'transformer-decoder-autoreg': 'rnn', 'dec-cell': 'gru' }), /special:model\.yml: dec-cell: is 'gru'/],
    ["Marian's gelu", () => tinyFolder('gelu', { 'transformer-ffn-activation': 'gelu' }), /special:model\.yml: transformer-ffn-activation: is 'gelu'/],
    ['a decoder feed-forward width of its own', () => tinyFolder('decffn', { 'transformer-decoder-dim-ffn': 32 }), /transformer-decoder-dim-ffn: is 32/],
    ['learned positions', () => tinyFolder('wpos', { 'transformer-train-position-embeddings': true }), /transformer-train-position-embeddings: is true/],
    ['spm pieces that disagree with dim-vocabs', () => tinyFolder('vocab-size', { 'dim-vocabs': [7999, 7999] }), /vocab\.spm: pieces: has 8000 pieces, .* says 7999/],
    ['embedding rows that disagree with the vocabulary', () => tinyFolder('wemb-rows', {}, (items) => items.map((it) => (it.name === 'Wemb' ? { ...it, shape: [7999, 8] } : it))),
      /model\.bin: Wemb: has shape \[7999,8\], model\.yml implies \[8000,8\]/],
    ['a missing parameter', () => tinyFolder('missing', {}, (items) => items.filter((it) => it.name !== 'decoder_l1_ffn_W2')), /model\.bin: decoder_l1_ffn_W2: missing/],
    ['a parameter of another architecture', () => tinyFolder('extra', {}, (items) => [...items, { ...items[1], name: 'decoder_l1_aan_W1' }]), /decoder_l1_aan_W1: is not a parameter/],
    ['no vocabulary', () => { const f = tinyFolder('no-spm'); rmSync(join(f, 'vocab.spm')); return f; }, /no-spm: vocabulary: holds no SentencePiece/],
    ['a truncated .bin', () => { const f = tinyFolder('cut-bin'); const b = readFileSync(join(f, 'model.bin')); writeFileSync(join(f, 'model.bin'), b.subarray(0, b.length - 1000)); return f; },
      /cut-bin\/model\.bin: .*: truncated/],
    ['a truncated .npz', () => {
      const f = join(scratch, 'cut-npz');
      mkdirSync(f, { recursive: true });
      const npz = readFileSync(join(fixtures(), 'fp32/model.npz'));
      writeFileSync(join(f, 'model.npz'), npz.subarray(0, npz.length >> 1));
      writeFileSync(join(f, 'vocab.spm'), readFileSync(join(fixtures(), 'fp32/vocab.spm')));
      return f;
    }, /cut-npz\/model\.npz: zip: .*truncated/],
  ];
  test.each(cases)('%s is a ConvertError naming the file and field, and nothing is written', async (_, make, message) => {
    const input = make();
    const out = join(scratch, 'never.crossattn');
    const error = await convertFile(input, out, 'test', LANGS).catch((e) => e);
    expect(error).toBeInstanceOf(ConvertError);
    expect(error.message).toMatch(message);
    expect(error.message).not.toMatch(/\n/);
    expect(existsSync(out)).toBe(false);
  });
});

// --- parity with Bergamot ---

const reference = () => readLines(`${DATA}/flores-dev/dev.de`).slice(0, SENTENCES);
const sources = () => readLines(`${DATA}/flores-dev/dev.en`).slice(0, SENTENCES);

/**
 * Bergamot's translations of the first SENTENCES FLORES dev lines with the Marian folder, greedy,
 * at most `lengthFactor` x the source tokens; in a worker thread of its own
 * (fixtures/bergamot-worker.js), started at once, so that the parity tests' Bergamot runs (about 80%
 * of their time) overlap with each other and with our engine's. parity() decodes with the same cap.
 */
function bergamotTranslations(folder, gemm, lengthFactor) {
  const worker = new Worker(new URL('./fixtures/bergamot-worker.js', import.meta.url), {
    workerData: { folder, gemm, options: ['ssplit-mode: sentence', `max-length-factor: ${lengthFactor}`], lines: sources() },
  });
  const translations = new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the Bergamot worker for ${folder} exited with ${code}`)));
  });
  translations.catch(() => {});  // reported by the test that awaits it
  return { translations, lengthFactor, stop: () => worker.terminate() };
}

/**
 * Our translations of the same lines with the conversion of the Marian folder's `modelFile`, under
 * the same length cap, against Bergamot's (`bergamot`, bergamotTranslations): how many outputs are
 * identical, how many distinct outputs Bergamot wrote, and each BLEU.
 */
async function parity(folder, bergamot, modelFile = join(folder, 'model.bin')) {
  const { lengthFactor } = bergamot;
  const out = join(scratch, `${folder.split('/').pop()}.crossattn`);
  await convertFile(modelFile, out, 'test', LANGS);
  const translator = await Translator.load(out);
  const ours = [];
  try {
    for (const line of sources()) {
      ours.push((await translator.translate(line, { beamSize: 1, repeatLimit: 0, shortlist: false, attention: false, copyThrough: false, maxLengthRatio: lengthFactor, maxLengthOffset: 0 })).text);
    }
  } finally { translator.dispose(); }
  const theirs = await bergamot.translations;
  const result = {
    identical: ours.filter((t, i) => t === theirs[i]).length, distinct: new Set(theirs).size,
    bleuBergamot: Number(corpusBleu(theirs, [reference()]).score.toFixed(2)), bleuOurs: Number(corpusBleu(ours, [reference()]).score.toFixed(2)),
  };
  console.log(`${folder.split('/').pop()}: ${JSON.stringify(result)}`);
  return result;
}

describe(`parity with Bergamot on ${SENTENCES} FLORES dev sentences`, () => {
  let bergamot;
  beforeAll(() => {
    // The untrained SSRU loops until the length cap on most sentences: a cap of 1 x the source halves the time.
    bergamot = { fp32: bergamotTranslations(join(fixtures(), 'fp32'), 'float32', 2),
                 int8: bergamotTranslations(join(fixtures(), 'int8'), 'int8shiftAll', 2),
                 ssru: bergamotTranslations(join(fixtures(), 'ssru'), 'float32', 1) };
  });
  afterAll(() => Promise.all(Object.values(bergamot).map((b) => b.stop())));

  test('float32 .npz and .bin convert to the same tensors', async () => {
    const [npz, bin] = await Promise.all([convertModel(join(fixtures(), 'fp32/model.npz'), LANGS), convertModel(join(fixtures(), 'fp32/model.bin'), LANGS)]);
    expect([...npz.tensors.keys()].sort()).toEqual([...bin.tensors.keys()].sort());
    for (const [name, t] of bin.tensors) {
      expect(npz.tensors.get(name).shape, name).toEqual(t.shape);
      expect(Buffer.from(npz.tensors.get(name).data.buffer).equals(Buffer.from(t.data.buffer)), name).toBe(true);
    }
  }, 60_000);

  test('float32: identical outputs on at least 95%', async () => {
    const r = await parity(join(fixtures(), 'fp32'), bergamot.fp32);
    expect(r.distinct).toBeGreaterThan(0.9 * SENTENCES);
    expect(r.identical).toBeGreaterThanOrEqual(0.95 * SENTENCES);
  }, 300_000);

  test('intgemm8: int8 values kept (one scale per matrix, no requantization), outputs mostly identical', async () => {
    const int8 = await convertModel(join(fixtures(), 'int8/model.bin'), LANGS);
    const fp32 = await convertModel(join(fixtures(), 'fp32/model.bin'), LANGS);
    for (const [name, t] of int8.tensors) {
      if (t.dtype !== 'I8') continue;
      const scale = int8.tensors.get(`${name}_scale`).data, w = fp32.tensors.get(name).data;
      expect(new Set(scale).size, name).toBe(1);  // marian-conv's one quantMult per matrix, on every row
      expect(t.data.reduce((peak, v) => Math.max(peak, Math.abs(v)), 0), name).toBe(127);
      for (let k = 0; k < w.length; k += 97) expect(Math.abs(t.data[k] * scale[0] - w[k]), `${name}[${k}]`).toBeLessThanOrEqual(scale[0] * 0.5001);
    }
    const r = await parity(join(fixtures(), 'int8'), bergamot.int8);
    // Bergamot quantizes each activation matrix with one scale (127 / its max), ours each row with
    // its own: a different rounding of the same weights (docs/bergamot.md, "Converting Marian models").
    expect(r.identical).toBeGreaterThanOrEqual(0.5 * SENTENCES);
    expect(Math.abs(r.bleuOurs - r.bleuBergamot)).toBeLessThan(1.5);
  }, 300_000);

  test('SSRU decoder, float32: identical outputs on at least 95%, and outputs that follow the source', async () => {
    const r = await parity(join(fixtures(), 'ssru'), bergamot.ssru, join(fixtures(), 'ssru/model.bin'));
    expect(r.distinct).toBeGreaterThan(0.9 * SENTENCES);
    expect(r.identical).toBeGreaterThanOrEqual(0.95 * SENTENCES);
  }, 300_000);
});
