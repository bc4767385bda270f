// The converters' writer (bindings/src/convert/model-file.ts) and the tensor spec
// (cpp/model/tensor_spec.json): every shipped model file holds exactly the tensors the spec calls for
// its config; a model rewritten by the writer from a shipped file's tensors loads, passes the
// engine's checksum, and translates as the original; what the spec refuses is a ConvertError and
// no file.
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { ModelFormatError, Translator } from '../../dist/index.js';
import { ConvertError } from '../../dist/convert/convert-error.js';
import { headerPadding, writeModelFile } from '../../dist/convert/model-file.js';
import { expectedTensors } from '../../dist/convert/tensor-spec.js';
import { MODEL, ROOT } from './paths.js';

const ARRAYS = { F32: Float32Array, F16: Uint16Array, I8: Int8Array, I32: Int32Array, U8: Uint8Array };

/** { metadata, tensors: Map(name -> { dtype, shape, data }) } of a safetensors file. */
function readSafetensors(path) {
  const bytes = readFileSync(path);
  const n = Number(bytes.readBigUInt64LE(0));
  const header = JSON.parse(bytes.subarray(8, 8 + n).toString('utf8'));
  const metadata = header.__metadata__;
  delete header.__metadata__;
  const tensors = new Map();
  for (const [name, { dtype, shape, data_offsets: [begin, end] }] of Object.entries(header)) {
    const raw = bytes.subarray(8 + n + begin, 8 + n + end);
    const copy = new Uint8Array(raw);  // aligned
    tensors.set(name, { dtype, shape, data: new ARRAYS[dtype](copy.buffer, 0, copy.length / ARRAYS[dtype].BYTES_PER_ELEMENT) });
  }
  return { metadata, tensors };
}

const SHIPPED = ['general-en-de/general-en-de.int8.crossattn', 'general-de-en/general-de-en.int8.crossattn',
  'tatoeba-en-de/tatoeba-en-de.int8.crossattn', 'multi30k-en-de/multi30k-en-de.crossattn'];

test('every shipped model holds exactly the tensors the spec calls for its config', async () => {
  for (const file of SHIPPED) {
    const { metadata, tensors } = readSafetensors(`${ROOT}models/${file}`);
    const tokenizer = JSON.parse(metadata.tokenizer);
    const stored = [...tensors.keys()].filter((name) => !name.endsWith('_scale') &&
      name !== tokenizer.source_spm && name !== tokenizer.target_spm).sort();
    const expected = expectedTensors(JSON.parse(metadata.config)).map((e) => e.name);
    const optional = new Set(expectedTensors(JSON.parse(metadata.config)).filter((e) => e.optionalGroup !== undefined).map((e) => e.name));
    expect(stored, file).toEqual(expected.filter((name) => !optional.has(name) || tensors.has(name)).sort());
  }
});

/** A ConvertedModel holding the tensors, config and tokenizer of a shipped model file. */
function convertedFrom(path) {
  const { metadata, tensors } = readSafetensors(path);
  const tokenizer = JSON.parse(metadata.tokenizer);
  const spm = tensors.get(tokenizer.source_spm).data;
  tensors.delete(tokenizer.source_spm);
  return {
    config: JSON.parse(metadata.config), tensors, sourceSpm: spm, targetSpm: spm,
    vocab: metadata.vocab ? JSON.parse(metadata.vocab) : undefined,
    provenance: { source: 'a test', license: 'MIT', attribution: 'crossattn tests', convertedFrom: 'marian' },
  };
}

test('a file the writer makes from a model\'s tensors loads, is checksummed, and translates as the original', async () => {
  const bytes = await writeModelFile(convertedFrom(MODEL), 'test');
  const headerLength = Number(new DataView(bytes.buffer).getBigUint64(0, true));
  expect(new TextDecoder().decode(bytes.subarray(8, 8 + headerLength))).toMatch(/"checksum":"xxh3:[0-9a-f]{16}"/);
  const [original, rewritten] = [await Translator.load(MODEL), await Translator.load(bytes)];
  const sources = ['A dog runs through the grass.', 'Two men are playing football in a park.', 'A woman sings on a stage.'];
  for (const text of sources) {
    expect((await rewritten.translate(text)).text).toBe((await original.translate(text)).text);
  }
  const damaged = bytes.slice();
  damaged[damaged.length - 100] ^= 1;  // a weight's byte
  await expect(Translator.load(damaged)).rejects.toBeInstanceOf(ModelFormatError);
  original.dispose();
  rewritten.dispose();
});

test('the writer puts int8 weights on a 16-byte boundary of the file and wider tensors on a multiple of 4', async () => {
  const int8 = `${ROOT}models/general-en-de/general-en-de.int8.crossattn`;
  const bytes = await writeModelFile(convertedFrom(int8), 'test');
  const n = Number(new DataView(bytes.buffer).getBigUint64(0, true));
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + n)));
  delete header.__metadata__;
  const starts = (dtype) => Object.values(header).filter((t) => t.dtype === dtype).map((t) => 8 + n + t.data_offsets[0]);
  expect(starts('I8').length).toBeGreaterThan(0);
  expect(Math.min(...starts('I8')) % 16).toBe(0);
  for (const start of starts('F32')) expect(start % 4).toBe(0);
  const original = await Translator.load(int8), rewritten = await Translator.load(bytes);
  expect((await rewritten.translate('The weather is nice today.')).text).toBe((await original.translate('The weather is nice today.')).text);
  original.dispose();
  rewritten.dispose();
});

test('headerPadding: 1-byte tensors after any header and 4-byte tensors start on 16, the 4-byte ones on 8 where that can be', () => {
  for (let json = 0; json < 40; ++json) {
    for (let wide = 0; wide < 64; wide += 4) {
      const start = 8 + json + headerPadding(json, wide);
      expect((start + wide) % 16).toBe(0);
      expect(start % (wide % 8 === 0 ? 8 : 4)).toBe(0);
    }
    expect((8 + json + headerPadding(json, 6)) % 8).toBe(0);  // a 2-byte tensor of odd length: as before, a multiple of 8
  }
});

test('what the spec refuses is a ConvertError naming the tensor', async () => {
  const cases = [
    ['decoder.layers.0.fc1.weight', (m) => m.tensors.delete('decoder.layers.0.fc1.weight'), /missing/],
    ['encoder.layers.2.fc2.bias', (m) => { m.tensors.get('encoder.layers.2.fc2.bias').shape = [7]; }, /holds 256 values for shape \[7\]/],
    ['encoder.layers.9.fc2.bias', (m) => m.tensors.set('encoder.layers.9.fc2.bias', m.tensors.get('encoder.layers.0.fc2.bias')), /not a tensor of this config/],
    ['decoder.layers.1.fc1.weight', (m) => { const t = m.tensors.get('decoder.layers.1.fc1.weight'); m.tensors.set('decoder.layers.1.fc1.weight', { ...t, dtype: 'I8', data: new Int8Array(t.data.length) }); }, /I8 without an F32/],
    ['vocab', (m) => { m.vocab = m.vocab.slice(1); }, /lists \d+ pieces, vocab_size is/],
    // a scale beside a float matrix, or beside a bias: the engine's loader refuses both
    ['decoder.layers.1.fc1.weight_scale', (m) => m.tensors.set('decoder.layers.1.fc1.weight_scale', m.tensors.get('decoder.layers.1.fc1.bias')), /not a tensor of this config/],
    ['decoder.layers.1.fc1.bias_scale', (m) => m.tensors.set('decoder.layers.1.fc1.bias_scale', m.tensors.get('decoder.layers.1.fc1.bias')), /not a tensor of this config/],
  ];
  for (const [field, damage, message] of cases) {
    const model = convertedFrom(MODEL);
    damage(model);
    const error = await writeModelFile(model, 'test').then(() => null, (e) => e);
    expect(error, field).toBeInstanceOf(ConvertError);
    expect(error.field, field).toBe(field);
    expect(error.message, field).toMatch(message);
  }
});
