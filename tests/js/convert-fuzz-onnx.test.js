// Mutation fuzzing of the transformers.js converter's readers (bindings/src/convert/
// transformers-js.ts, onnx.ts, onnx-structure.ts, onnx-weights.ts, tokenizer-json.ts), one harness
// each: the ONNX protobuf (its bytes, and the fields of one initializer) and the JSON files
// (tokenizer.json and config.json). The seed is a tiny valid transformers.js folder made here (a
// 1-layer d_model 4 OPUS-MT-shaped model over 8 pieces: config.json, tokenizer.json, and
// onnx/encoder_model.onnx and onnx/decoder_model.onnx whose nodes are named as torch.onnx names
// them, with float32 initializers); each harness runs the whole `convertFile` on what it mutates:
// the outcome is a .crossattn file or a ConvertError, within 5 s and 512 MiB, and nothing is
// written on error (convert-fuzz-lib.js).
//   CROSSATTN_FUZZ_SECONDS=60 npx vitest run --config tests/js/vitest.config.js tests/js/convert-fuzz-onnx.test.js
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import protobuf from 'protobufjs/light.js';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { convertFile } from '../../dist/convert/index.js';
import { expectResultOrConvertError, fuzzTest, generator, label, mutateSome, mutateJson } from './convert-fuzz-lib.js';

const PIECES = ['</s>', '<unk>', '\u2581a', '\u2581b', '\u2581c', 'a', 'b', '<pad>'];
const D = 4, FF = 8, POSITIONS = 16, V = PIECES.length;
const CONFIG = {
  model_type: 'marian', architectures: ['MarianMTModel'], d_model: D, encoder_layers: 1, decoder_layers: 1,
  encoder_attention_heads: 1, decoder_attention_heads: 1, encoder_ffn_dim: FF, decoder_ffn_dim: FF, activation_function: 'swish',
  scale_embedding: true, max_position_embeddings: POSITIONS, vocab_size: V, pad_token_id: 7, eos_token_id: 0,
  decoder_start_token_id: 7, share_encoder_decoder_embeddings: true,
};
const TOKENIZER = {
  added_tokens: [{ id: 0, content: '</s>', special: true }, { id: 1, content: '<unk>', special: true }, { id: 7, content: '<pad>', special: true }],
  normalizer: { type: 'Precompiled', precompiled_charsmap: null },
  pre_tokenizer: { type: 'Sequence', pretokenizers: [{ type: 'WhitespaceSplit' }, { type: 'Metaspace', replacement: '\u2581', add_prefix_space: true }] },
  model: { type: 'Unigram', unk_id: 1, vocab: PIECES.map((p, i) => [p, -i]), byte_fallback: false },
};

// The fields of onnx/onnx.proto (github.com/onnx/onnx) these files use, to write them.
const ROOT = protobuf.Root.fromJSON({
  nested: {
    ModelProto: { fields: { ir_version: { type: 'int64', id: 1 }, graph: { type: 'GraphProto', id: 7 } } },
    GraphProto: { fields: { node: { rule: 'repeated', type: 'NodeProto', id: 1 }, name: { type: 'string', id: 2 }, initializer: { rule: 'repeated', type: 'TensorProto', id: 5 } } },
    NodeProto: { fields: { input: { rule: 'repeated', type: 'string', id: 1 }, output: { rule: 'repeated', type: 'string', id: 2 }, name: { type: 'string', id: 3 }, op_type: { type: 'string', id: 4 } } },
    TensorProto: { fields: { dims: { rule: 'repeated', type: 'int64', id: 1 }, data_type: { type: 'int32', id: 2 }, name: { type: 'string', id: 8 }, raw_data: { type: 'bytes', id: 9 } } },
  },
});

/** MarianMTModel's sinusoidal table [positions, d]: sin in the first half of each row, cos in the second (modeling_marian.py). */
function sinusoids() {
  const t = new Float32Array(POSITIONS * D);
  for (let pos = 0; pos < POSITIONS; pos++) {
    for (let j = 0; j < D; j++) {
      const i = j < D / 2 ? j : j - D / 2, angle = pos / 10000 ** ((2 * i) / D);
      t[pos * D + j] = j < D / 2 ? Math.sin(angle) : Math.cos(angle);
    }
  }
  return t;
}

/**
 * One graph's nodes and float32 initializers, wired as a post-norm Marian layer computes (the converter
 * finds each weight by the graph's structure, onnx-structure.ts): Gather of the tables, MatMul on [in, out]
 * weights and Add of biases, q k^T, Softmax, p v, residual Adds, LayerNormalization, swish.
 */
function graph(side, rng) {
  const nodes = [], initializers = [];
  const init = (name, dims, values) => initializers.push({ name, dims, data_type: 1, raw_data: new Uint8Array(Float32Array.from(values).buffer) });
  const random = (n) => Array.from({ length: n }, () => rng.next() - 0.5);
  const node = (name, op_type, input) => {
    nodes.push({ name, op_type, input, output: [`${name}_out`] });
    return `${name}_out`;
  };
  const embedding = EMBEDDING;
  init('embed', [V, D], embedding);
  init('positions', [POSITIONS, D], sinusoids());
  init('embed_scale', [], [Math.sqrt(D)]);
  const tokens = node(`/model/${side}/Mul`, 'Mul', [node(`/model/${side}/embed_tokens/Gather`, 'Gather', ['embed', 'input_ids']), 'embed_scale']);
  let x = node(`/model/${side}/Add`, 'Add', [tokens, node(`/model/${side}/embed_positions/Gather`, 'Gather', ['positions', 'position_ids'])]);
  const linear = (module, input, inputs, outputs) => {
    const w = `${module}.w`, b = `${module}.b`;
    init(w, [inputs, outputs], random(inputs * outputs));
    init(b, [outputs], random(outputs));
    return node(`/model/${module}/Add`, 'Add', [b, node(`/model/${module}/MatMul`, 'MatMul', [input, w])]);
  };
  const norm = (module, input) => {
    init(`${module}.g`, [D], random(D));
    init(`${module}.b`, [D], random(D));
    return node(`/model/${module}/LayerNormalization`, 'LayerNormalization', [input, `${module}.g`, `${module}.b`]);
  };
  const l = `${side}/layers.0`;
  for (const attn of side === 'encoder' ? ['self_attn'] : ['self_attn', 'encoder_attn']) {
    const memory = attn === 'encoder_attn' ? 'encoder_hidden_states' : x;
    const [q, k, v] = ['q', 'k', 'v'].map((p) => linear(`${l}/${attn}/${p}_proj`, p === 'q' ? x : memory, D, D));
    const scores = node(`/model/${l}/${attn}/MatMul`, 'MatMul', [q, node(`/model/${l}/${attn}/Transpose`, 'Transpose', [k])]);
    const weighted = node(`/model/${l}/${attn}/MatMul_1`, 'MatMul', [node(`/model/${l}/${attn}/Softmax`, 'Softmax', [scores]), v]);
    const out = linear(`${l}/${attn}/out_proj`, weighted, D, D);
    x = norm(`${l}/${attn}_layer_norm`, node(`/model/${l}/${attn}/Add_residual`, 'Add', [x, out]));
  }
  const hidden = linear(`${l}/fc1`, x, D, FF);
  const swish = node(`/model/${l}/Mul_swish`, 'Mul', [hidden, node(`/model/${l}/Sigmoid`, 'Sigmoid', [hidden])]);
  x = norm(`${l}/final_layer_norm`, node(`/model/${l}/Add_residual`, 'Add', [x, linear(`${l}/fc2`, swish, FF, D)]));
  if (side === 'decoder') {  // the output layer tied to the embedding: [D, V], the embedding transposed
    init('lm_head.w', [D, V], Array.from({ length: D * V }, (_, k) => embedding[(k % V) * D + Math.floor(k / V)]));
    init('final_logits_bias', [V], random(V));
    node('/Add_logits', 'Add', [node('/lm_head/MatMul', 'MatMul', [x, 'lm_head.w']), 'final_logits_bias']);
  }
  return { node: nodes, name: side, initializer: initializers };
}

const EMBEDDING = Float32Array.from({ length: V * D }, (_, k) => Math.sin(k));
const onnxBytes = (g) => ROOT.lookupType('ModelProto').encode({ ir_version: 8, graph: g }).finish();
const GRAPHS = { encoder: graph('encoder', generator(7)), decoder: graph('decoder', generator(8)) };

function filesOf(json = { 'config.json': CONFIG, 'tokenizer.json': TOKENIZER }, graphs = GRAPHS) {
  const files = { 'onnx/encoder_model.onnx': onnxBytes(graphs.encoder), 'onnx/decoder_model.onnx': onnxBytes(graphs.decoder) };
  for (const [name, value] of Object.entries(json)) files[name] = new TextEncoder().encode(JSON.stringify(value));
  return files;
}

/** An initializer's dims or data type set to a hostile value (protobuf re-encoded, so the file stays readable). */
function mutateInitializer(rng) {
  const side = rng.pick(['encoder', 'decoder']);
  const g = { ...GRAPHS[side], initializer: [...GRAPHS[side].initializer] };
  const i = rng.int(g.initializer.length), t = { ...g.initializer[i] };
  switch (rng.int(4)) {
    case 0: t.dims = t.dims.map((d) => (rng.int(2) ? d : rng.pick([0, -1, 2 ** 31, 2 ** 40, d + 1]))); break;
    case 1: t.dims = rng.int(2) ? [] : [...t.dims, rng.pick([1, 2, 1e9])]; break;
    case 2: t.data_type = rng.pick([0, 2, 3, 6, 7, 10, 16, 999]); break;
    default: t.raw_data = t.raw_data.slice(0, rng.int(t.raw_data.length));
  }
  g.initializer[i] = t;
  return { files: filesOf(undefined, { ...GRAPHS, [side]: g }), what: `${side} initializer ${t.name}: dims [${t.dims}], data_type ${t.data_type}, ${t.raw_data.length} bytes` };
}

/** One file's bytes mutated. */
function mutateFile(name, rng) {
  const files = filesOf();
  files[name] = mutateSome(files[name], rng);
  return { files, what: `${name} mutated (${files[name].length} bytes)` };
}

/** The mutations of each reader's harness. */
const READERS = {
  'ONNX protobuf': (rng) => (rng.int(2) ? mutateInitializer(rng) : mutateFile(rng.pick(['onnx/encoder_model.onnx', 'onnx/decoder_model.onnx']), rng)),
  'tokenizer.json and config.json': (rng) => {
    const name = rng.pick(['tokenizer.json', 'tokenizer.json', 'config.json']);
    if (rng.int(3) === 0) return mutateFile(name, rng);
    const json = { 'config.json': CONFIG, 'tokenizer.json': TOKENIZER };
    json[name] = mutateJson(json[name], rng);
    return { files: filesOf(json), what: `${name} ${JSON.stringify(json[name]).slice(0, 300)}` };
  },
};

let scratch;
beforeAll(() => { scratch = mkdtempSync(join(tmpdir(), 'crossattn-fuzz-onnx-')); });
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function convertFolder(files, run) {
  const folder = join(scratch, `opus-mt-en-de-${run}`), out = join(scratch, `out-${run}`);
  mkdirSync(join(folder, 'onnx'), { recursive: true });
  mkdirSync(out);
  for (const [name, bytes] of Object.entries(files)) writeFileSync(join(folder, name), bytes);
  try {
    return await expectResultOrConvertError(() => convertFile(folder, join(out, 'model.crossattn'), 'fuzz', { sourceLang: 'en', targetLang: 'de' }),
      () => label('transformers.js', run), out);
  } finally {
    rmSync(folder, { recursive: true, force: true });
    rmSync(out, { recursive: true, force: true });
  }
}

test('the seed folder converts', async () => {
  expect(await convertFolder(filesOf(), 'seed')).toBe('ok');
});

for (const [reader, mutate] of Object.entries(READERS)) fuzzTest('convert-fuzz-onnx', reader, 500, mutate, convertFolder);

// Regression cases: the shapes of inputs that crashed or hung the converter (a TypeError, a RangeError,
// a loop over dims the data does not have) before these checks.
test('damaged transformers.js folders found by fuzzing are ConvertErrors', async () => {
  const withInitializer = (name, change) => {
    const g = GRAPHS.decoder;
    return filesOf(undefined, { ...GRAPHS, decoder: { ...g, initializer: g.initializer.map((t) => (t.name === name ? { ...t, ...change } : t)) } });
  };
  const withNodes = (edit) => filesOf(undefined, { ...GRAPHS, decoder: { ...GRAPHS.decoder, node: edit(GRAPHS.decoder) } });
  const withTokenizer = (change) => filesOf({ 'config.json': CONFIG, 'tokenizer.json': { ...TOKENIZER, ...change } });
  const cases = [
    ['a float initializer of 6 bytes (a RangeError)', withInitializer('lm_head.w', { raw_data: new Uint8Array(6) })],
    ['a matrix whose dims say 10^9 x 10^9 over 32 floats (the transpose looped 10^18 times)', withInitializer('lm_head.w', { dims: [1e9, 1e9] })],
    ['negative dims (refused before as well, by the shape check)', withInitializer('lm_head.w', { dims: [-4, -8] })],
    ['tokenizer.json: a vocab entry that is not a pair', withTokenizer({ model: { ...TOKENIZER.model, vocab: [...TOKENIZER.model.vocab.slice(0, 7), 5] } })],
    ['tokenizer.json: added_tokens an object', withTokenizer({ added_tokens: { a: 1 } })],
    ['tokenizer.json: pretokenizers a string', withTokenizer({ pre_tokenizer: { type: 'Sequence', pretokenizers: 'x' } })],
    ['tokenizer.json: normalizers a number', withTokenizer({ normalizer: { type: 'Sequence', normalizers: 3 } })],
    ['tokenizer.json: null', filesOf({ 'config.json': CONFIG, 'tokenizer.json': null })],
    // Loops and floods a probe of hostile graphs found (2026-11-29): each hung or overflowed the stack.
    ['an Identity that feeds itself, read by a product', withNodes((g) => {
      const mm = g.node.find((n) => n.op_type === 'MatMul');
      return [{ name: '/loop', op_type: 'Identity', input: ['loop'], output: ['loop'] }, ...g.node.map((n) => (n === mm ? { ...n, input: ['loop', n.input[1]] } : n))];
    })],
    ['a Transpose of the output weight onto itself', withNodes((g) => [...g.node, { name: '/t', op_type: 'Transpose', input: ['lm_head.w'], output: ['lm_head.w'] }])],
  ];
  const wide = withNodes((g) => {  // an Identity of 200,000 outputs after a product, and 30,000 nodes reading one value
    const mm = g.node.find((n) => n.op_type === 'MatMul');
    const readers = Array.from({ length: 30_000 }, (_, i) => ({ name: `/r${i}`, op_type: 'Relu', input: ['embed_scale'], output: [`r${i}`] }));
    return [...g.node, { name: '/wide', op_type: 'Identity', input: mm.output, output: Array.from({ length: 200_000 }, (_, i) => `w${i}`) }, ...readers];
  });
  expect(['ok', 'error']).toContain(await convertFolder(wide, 'wide'));
  for (const [i, [what, files]] of cases.entries()) expect(await convertFolder(files, `case-${i}`), what).toBe('error');
});
