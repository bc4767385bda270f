// Mutation fuzzing of the Hugging Face MarianMT converter's readers (bindings/src/convert/
// huggingface.ts, safetensors.ts, pytorch.ts, marian-hf-*.ts, sentencepiece-*.ts), one harness
// each: safetensors, the pickle of pytorch_model.bin (torch.save's zip), and the JSON and
// SentencePiece files. The seeds are tiny valid MarianMT folders made here (a 1-layer d_model 4
// model over 8 pieces: config.json, model.safetensors in F32, F16 or BF16 or a pytorch_model.bin,
// vocab.json, source.spm, target.spm; one with separate vocabularies); each harness mutates its
// reader's file and runs the whole `convertFile`: the outcome is a .crossattn file or a
// ConvertError, within 5 s and 512 MiB, and nothing is written on error (convert-fuzz-lib.js).
//   CROSSATTN_FUZZ_SECONDS=60 npx vitest run --config tests/js/vitest.config.js tests/js/convert-fuzz-hf.test.js
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync, zipSync } from 'fflate';
import { torchZip } from './torch-save.js';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { convertFile } from '../../dist/convert/index.js';
import { writeUnigramModel } from '../../dist/convert/sentencepiece-model.js';
import { concat, expectResultOrConvertError, fuzzTest, generator, label, mutateSome, mutateJson } from './convert-fuzz-lib.js';

const PIECES = ['</s>', '<unk>', '\u2581a', '\u2581b', '\u2581c', 'a', 'b', '<pad>'];
const D = 4, FF = 8;
const CONFIG = {
  model_type: 'marian', architectures: ['MarianMTModel'], d_model: D, encoder_layers: 1, decoder_layers: 1,
  encoder_attention_heads: 1, decoder_attention_heads: 1, encoder_ffn_dim: FF, decoder_ffn_dim: FF, activation_function: 'swish',
  scale_embedding: true, max_position_embeddings: 16, vocab_size: PIECES.length, pad_token_id: 7, eos_token_id: 0,
  decoder_start_token_id: 7, share_encoder_decoder_embeddings: true, tie_word_embeddings: true,
};

const spm = () => writeUnigramModel(PIECES.map((piece, i) => ({ piece, score: -i, type: i === 1 ? 2 : piece.startsWith('<') ? 3 : 1 })),
  { unkId: 1, bosId: -1, eosId: 0, padId: 7, byteFallback: false, precompiledCharsmap: new Uint8Array(0), addDummyPrefix: true, removeExtraWhitespaces: true });

/** MarianMTModel's tensor names and shapes (modeling_marian.py) for CONFIG. */
function hfShapes(shared) {
  const shapes = { final_logits_bias: [1, PIECES.length] };
  if (shared) shapes['model.shared.weight'] = [PIECES.length, D];
  else Object.assign(shapes, { 'model.encoder.embed_tokens.weight': [PIECES.length, D], 'model.decoder.embed_tokens.weight': [PIECES.length, D] });
  const attention = (p) => { for (const x of ['q', 'k', 'v', 'out']) Object.assign(shapes, { [`${p}.${x}_proj.weight`]: [D, D], [`${p}.${x}_proj.bias`]: [D] }); };
  const norm = (p) => Object.assign(shapes, { [`${p}.weight`]: [D], [`${p}.bias`]: [D] });
  for (const side of ['encoder', 'decoder']) {
    const l = `model.${side}.layers.0`;
    attention(`${l}.self_attn`);
    norm(`${l}.self_attn_layer_norm`);
    if (side === 'decoder') { attention(`${l}.encoder_attn`); norm(`${l}.encoder_attn_layer_norm`); }
    Object.assign(shapes, { [`${l}.fc1.weight`]: [FF, D], [`${l}.fc1.bias`]: [FF], [`${l}.fc2.weight`]: [D, FF], [`${l}.fc2.bias`]: [D] });
    norm(`${l}.final_layer_norm`);
  }
  return shapes;
}

/** A safetensors file (8-byte header length, JSON header, data) of `shapes` in `dtype`, values from a seeded generator. */
function safetensorsHeader(shapes, dtype) {
  const size = { F32: 4, F16: 2, BF16: 2 }[dtype];
  const header = { __metadata__: { format: 'pt' } };
  let at = 0;
  for (const [name, shape] of Object.entries(shapes)) {
    const n = shape.reduce((a, b) => a * b, 1) * size;
    header[name] = { dtype, shape, data_offsets: [at, at + n] };
    at += n;
  }
  return { header, dataLength: at };
}

function safetensorsFile(header, data) {
  const json = new TextEncoder().encode(JSON.stringify(header));
  const length = new Uint8Array(new BigUint64Array([BigInt(json.length)]).buffer);
  return concat(length, json, data);
}

/** The pickle entries (one float32 storage per tensor, row-major strides) and storages of a seed's weights. */
function torchEntries(header, data) {
  const entries = [], storages = {};
  for (const [name, t] of Object.entries(header)) {
    if (name === '__metadata__') continue;
    const key = String(entries.length), [begin, end] = t.data_offsets;
    const stride = t.shape.map((_, i) => t.shape.slice(i + 1).reduce((a, b) => a * b, 1));
    entries.push({ name, storage: 'FloatStorage', key, numel: (end - begin) / 4, offset: 0, shape: t.shape, stride });
    storages[key] = data.slice(begin, end);
  }
  return { entries, storages };
}

function folderSeed(shared, dtype, weights = 'safetensors') {
  const rng = generator(5);
  const { header, dataLength } = safetensorsHeader(hfShapes(shared), dtype);
  // Small random values: F32 as floats, F16 and BF16 as the high bits of small floats (exponents near 2^-3).
  const data = dtype === 'F32' ? new Uint8Array(Float32Array.from({ length: dataLength / 4 }, () => rng.next() - 0.5).buffer)
    : new Uint8Array(Uint16Array.from({ length: dataLength / 2 }, () => (dtype === 'F16' ? 0x3000 : 0x3e00) | rng.int(256)).buffer);
  const vocab = Object.fromEntries(PIECES.map((p, i) => [p, i]));
  const json = { 'config.json': { ...CONFIG, share_encoder_decoder_embeddings: shared }, 'vocab.json': vocab };
  if (!shared) json['target_vocab.json'] = vocab;
  return { json, header, data, weights, bytes: { 'source.spm': spm(), 'target.spm': spm() } };
}

const SEEDS = [folderSeed(true, 'F32'), folderSeed(true, 'F16'), folderSeed(false, 'BF16'), folderSeed(true, 'F32', 'pytorch')];
const PYTORCH = SEEDS[3];

function filesOf(seed) {
  const files = { ...seed.bytes };
  if (seed.weights === 'pytorch') {
    const { entries, storages } = torchEntries(seed.header, seed.data);
    files['pytorch_model.bin'] = torchZip(seed.entries ?? entries, storages);
  } else {
    files['model.safetensors'] = safetensorsFile(seed.header, seed.data);
  }
  for (const [name, value] of Object.entries(seed.json)) files[name] = new TextEncoder().encode(JSON.stringify(value));
  return files;
}

/** One seed's files with one file's bytes mutated. */
function mutateFileOf(seed, name, rng) {
  const files = filesOf(seed);
  files[name] = mutateSome(files[name], rng);
  return { files, what: `${name} mutated (${files[name].length} bytes)` };
}

/** The mutations of each reader's harness. */
const READERS = {
  safetensors: (rng) => {
    const seed = rng.pick(SEEDS.slice(0, 3));
    if (rng.int(2)) return mutateFileOf(seed, 'model.safetensors', rng);
    const header = mutateJson(seed.header, rng);
    return { files: filesOf({ ...seed, header }), what: `safetensors header ${JSON.stringify(header).slice(0, 300)}` };
  },
  'pytorch_model.bin (pickle)': (rng) => {
    const kind = rng.int(3);
    if (kind === 0) return mutateFileOf(PYTORCH, 'pytorch_model.bin', rng);
    if (kind === 1) {  // the pickle's bytes, re-zipped
      const files = filesOf(PYTORCH), members = unzipSync(files['pytorch_model.bin']);
      members['archive/data.pkl'] = mutateSome(members['archive/data.pkl'], rng);
      files['pytorch_model.bin'] = zipSync(members, { level: 0 });
      return { files, what: `data.pkl mutated (${members['archive/data.pkl'].length} bytes)` };
    }
    const entries = mutateJson(torchEntries(PYTORCH.header, PYTORCH.data).entries, rng);  // names, storages, offsets, shapes, strides
    try {
      return { files: filesOf({ ...PYTORCH, entries }), what: `pickle entries ${JSON.stringify(entries).slice(0, 300)}` };
    } catch {
      return mutateFileOf(PYTORCH, 'pytorch_model.bin', rng);  // entries the pickle writer cannot write (not a list of records)
    }
  },
  'config.json, vocabularies and SentencePiece models': (rng) => {
    const seed = rng.pick(SEEDS);
    if (rng.int(3) === 0) return mutateFileOf(seed, rng.pick(['source.spm', 'target.spm']), rng);
    const name = rng.pick(Object.keys(seed.json));
    const value = mutateJson(seed.json[name], rng);
    return { files: filesOf({ ...seed, json: { ...seed.json, [name]: value } }), what: `${name} ${JSON.stringify(value).slice(0, 300)}` };
  },
};

let scratch;
beforeAll(() => { scratch = mkdtempSync(join(tmpdir(), 'crossattn-fuzz-hf-')); });
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function convertFolder(files, run) {
  const folder = join(scratch, `opus-mt-en-de-${run}`), out = join(scratch, `out-${run}`);
  mkdirSync(folder);
  mkdirSync(out);
  for (const [name, bytes] of Object.entries(files)) writeFileSync(join(folder, name), bytes);
  try {
    return await expectResultOrConvertError(() => convertFile(folder, join(out, 'model.crossattn'), 'fuzz', { sourceLang: 'en', targetLang: 'de' }),
      () => label('huggingface', run), out);
  } finally {
    rmSync(folder, { recursive: true, force: true });
    rmSync(out, { recursive: true, force: true });
  }
}

test('each seed converts', async () => {
  for (const [i, seed] of SEEDS.entries()) expect(await convertFolder(filesOf(seed), `seed${i}`)).toBe('ok');
});

for (const [reader, mutate] of Object.entries(READERS)) fuzzTest('convert-fuzz-hf', reader, 500, mutate, convertFolder);

// Regression cases: the shapes of inputs that crashed the converter (a TypeError or RangeError)
// before these checks, or that it accepted.
test('damaged MarianMT folders found by fuzzing are ConvertErrors', async () => {
  const seed = SEEDS[0];
  const withJson = (name, value) => filesOf({ ...seed, json: { ...seed.json, [name]: value } });
  const entry = (name, change) => ({ ...seed.header, [name]: { ...seed.header[name], ...change } });
  const cases = [
    ['vocab.json: an id that is an object with a non-callable toString', withJson('vocab.json', { ...seed.json['vocab.json'], '<pad>': { toString: 1 } })],
    ['config.json: null', withJson('config.json', null)],
    ['config.json: architectures a number', withJson('config.json', { ...CONFIG, architectures: 5 })],
    ['config.json: decoder_attention_heads an object', withJson('config.json', { ...CONFIG, decoder_attention_heads: { toString: 1 } })],
    ['config.json: activation_function "toString" (an Object.prototype key, accepted before)', withJson('config.json', { ...CONFIG, activation_function: 'toString' })],
    ['config.json: decoder_layers 2^53', withJson('config.json', { ...CONFIG, decoder_layers: 2 ** 53 })],
    ['safetensors header: null', filesOf({ ...seed, header: null })],
    ['safetensors header: a tensor whose shape is a string', filesOf({ ...seed, header: entry('final_logits_bias', { shape: 'ab' }) })],
    ['safetensors header: shape [0.5] over 2 bytes of F32 (a RangeError)', filesOf({ ...seed, header: entry('final_logits_bias', { shape: [0.5], data_offsets: [0, 2] }) })],
  ];
  for (const [what, files] of cases) expect(await convertFolder(files, `case-${cases.findIndex((c) => c[0] === what)}`), what).toBe('error');
});
