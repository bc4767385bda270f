// `crossattn convert` of a transformers.js folder (Xenova/opus-mt-* layout: onnx/encoder_model.onnx,
// onnx/decoder_model_merged.onnx, their _quantized q8 variants, tokenizer.json), checked against
// transformers.js 4.3.1 itself on the same folder, and against the Hugging Face folder of the same weights.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Translator } from '../../dist/index.js';
import { ConvertError } from '../../dist/convert/convert-error.js';
import { convertModel } from '../../dist/convert/index.js';
import { writeModelFile } from '../../dist/convert/model-file.js';
import {
  CROSSATTN_GREEDY, HF, XENOVA, XENOVA_IF, agreement, ensureFixtures, floresDev, transformersJsPipeline, transformersJsTranslate,
} from './opus-mt-fixtures.js';

const SENTENCES = 200;
const Q8_SENTENCES = 100;  // fewer, to keep the file under 3 minutes on 2 cores
let work;

beforeAll(() => {
  ensureFixtures();
  work = mkdtempSync(join(tmpdir(), 'crossattn-convert-tjs-'));
}, 300_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

const bytesOf = (t) => Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength);

test('the transformers.js fp32 folder and the Hugging Face folder of the same weights convert to identical tensors', async () => {
  const fromHf = await convertModel(HF);
  const fromTjs = await convertModel(XENOVA);
  expect({ ...fromTjs.config }).toEqual({ ...fromHf.config });
  expect(fromTjs.vocab).toEqual(fromHf.vocab);
  expect([...fromTjs.tensors.keys()].sort()).toEqual([...fromHf.tensors.keys()].sort());
  for (const [name, t] of fromHf.tensors) {
    const u = fromTjs.tensors.get(name);
    expect([u.dtype, u.shape], name).toEqual([t.dtype, t.shape]);
    expect(bytesOf(u).equals(bytesOf(t)), `${name} differs`).toBe(true);
  }
  expect(fromTjs.provenance.convertedFrom).toBe('transformers.js');
}, 120_000);

test('a decoder merged as optimum merges them (the layers inside both branches of an If node) converts to the same tensors', async () => {
  const plain = await convertModel(XENOVA);
  const merged = await convertModel(XENOVA_IF);
  expect([...merged.tensors.keys()].sort()).toEqual([...plain.tensors.keys()].sort());
  for (const [name, t] of plain.tensors) expect(bytesOf(merged.tensors.get(name)).equals(bytesOf(t)), name).toBe(true);
}, 60_000);

/**
 * A copy of `from` whose ONNX files' node names `how` rewrites (python3-onnx): 'optimum' as optimum names
 * them (the encoder exported alone: no /model/encoder segment; the decoder's embedding lookup after
 * `shared`), 'none' every node a bare number, so that only the graph's structure says what each computes.
 */
function renamedNodes(from, how) {
  const dir = join(work, `renamed-${how}-${from.split('/').at(-2)}`, 'opus-mt-en-de');
  cpSync(from, dir, { recursive: true });
  const rename = how === 'optimum'
    ? "n.name = n.name.replace('/model/encoder/', '/').replace('/model/decoder/embed_tokens/', '/model/decoder/shared/')"
    : 'n.name = str(i)';
  execFileSync(process.env.CROSSATTN_PYTHON ?? '/usr/bin/python3', ['-c', `import glob, onnx, sys
def walk(g):
    for i, n in enumerate(g.node):
        ${rename}
        for a in n.attribute:
            if a.type == onnx.AttributeProto.GRAPH: walk(a.g)
for path in glob.glob(sys.argv[1] + '/onnx/*.onnx'):
    m = onnx.load(path); walk(m.graph); onnx.save(m, path)`, dir], { stdio: 'pipe' });
  return dir;
}

test('weights are found by the graph\'s structure, not by node names: renamed as optimum names them, or not named at all', async () => {
  const expected = await convertModel(XENOVA);
  for (const dir of [renamedNodes(XENOVA, 'optimum'), renamedNodes(XENOVA, 'none'), renamedNodes(XENOVA_IF, 'none')]) {
    const model = await convertModel(dir);
    expect([...model.tensors.keys()].sort(), dir).toEqual([...expected.tensors.keys()].sort());
    for (const [name, t] of expected.tensors) expect(bytesOf(model.tensors.get(name)).equals(bytesOf(t)), `${dir}: ${name}`).toBe(true);
  }
  const q8 = await convertModel(XENOVA, { quantized: true });
  const q8Unnamed = await convertModel(renamedNodes(XENOVA, 'none'), { quantized: true });
  expect([...q8Unnamed.tensors.keys()].sort()).toEqual([...q8.tensors.keys()].sort());
  for (const [name, t] of q8.tensors) expect(bytesOf(q8Unnamed.tensors.get(name)).equals(bytesOf(t)), `q8: ${name}`).toBe(true);
}, 120_000);

test('a graph whose sub-layers do not run as a Marian layer\'s is a ConvertError', async () => {
  const dir = variantOf('two-layers', (d) => {
    const config = JSON.parse(readFileSync(join(d, 'config.json'), 'utf8'));
    writeFileSync(join(d, 'config.json'), JSON.stringify({ ...config, encoder_layers: config.encoder_layers + 1 }));
  });
  await expect(convertModel(dir)).rejects.toThrow(/encoder_model\.onnx: graph: computes 6 encoder layers, config\.json says 7/);
});

test('the q8 folder keeps the linear layers int8 with their per-column scales, exactly', async () => {
  const q8 = await convertModel(XENOVA, { quantized: true });
  const fp32 = await convertModel(XENOVA);
  const w = q8.tensors.get('encoder.layers.0.self_attn.q_proj.weight');
  const scale = q8.tensors.get('encoder.layers.0.self_attn.q_proj.weight_scale');
  expect(w.dtype).toBe('I8');
  expect(w.shape).toEqual([256, 256]);
  expect(Math.max(...w.data.map(Math.abs))).toBeLessThanOrEqual(64);  // onnxruntime's reduce_range
  // Dequantized, each weight is within half a quantization step of the fp32 one.
  const f = fp32.tensors.get('encoder.layers.0.self_attn.q_proj.weight').data;
  for (let j = 0; j < 256; j++) {
    for (let k = 0; k < 256; k += 17) expect(Math.abs(w.data[j * 256 + k] * scale.data[j] - f[j * 256 + k])).toBeLessThanOrEqual(scale.data[j] / 2 + 1e-7);
  }
  expect(q8.config.tied_embeddings).toBe(false);  // the int8 output layer is no longer the (uint8) embedding
  expect(q8.tensors.get('lm_head.weight').dtype).toBe('I8');
  expect(q8.metadata.quantization).toMatch(/q8/);
}, 120_000);

describe('agrees with transformers.js on FLORES dev', () => {
  const texts = floresDev(SENTENCES);
  const q8Texts = texts.slice(0, Q8_SENTENCES);

  async function compare(dtype, quantized, sentences) {
    const model = await convertModel(XENOVA, { quantized });
    const translator = await Translator.load(await writeModelFile(model, 'test'));
    const pipe = await transformersJsPipeline(dtype);
    const ours = await translator.translateBatch(sentences, CROSSATTN_GREEDY);
    const theirs = await transformersJsTranslate(pipe, sentences);
    const sourceIds = sentences.map((t) => Array.from(pipe.tokenizer(t).input_ids.data, Number));
    translator.dispose();
    await pipe.dispose();
    return { ours, theirs, sourceIds };
  }

  test('fp32: the same source ids for every sentence, the same translation for at least 95%', async () => {
    const { ours, theirs, sourceIds } = await compare('fp32', false, texts);
    expect(ours.map((r) => r.sourceIds)).toEqual(sourceIds);  // the rebuilt SentencePiece model cuts as tokenizer.json does
    const a = agreement(ours.map((r) => r.text), theirs, texts);
    console.log(`transformers.js fp32: ${a.same}/${a.total} identical, ${a.cleaned} after its clean-up`, a.differ);
    expect(a.same / a.total).toBeGreaterThanOrEqual(0.95);
    expect(a.cleaned / a.total).toBeGreaterThanOrEqual(0.98);  // the rest: ties broken apart by float rounding
  }, 170_000);

  test('q8: the same source ids, and most translations the same', async () => {
    const { ours, theirs, sourceIds } = await compare('q8', true, q8Texts);
    expect(ours.map((r) => r.sourceIds)).toEqual(sourceIds);
    const a = agreement(ours.map((r) => r.text), theirs, q8Texts);
    console.log(`transformers.js q8: ${a.same}/${a.total} identical, ${a.cleaned} after its clean-up`, a.differ);
    // Different int8 arithmetic on the same int8 weights (ours quantizes activations per row, onnxruntime
    // per tensor with uint8): close, not identical.
    expect(a.cleaned / a.total).toBeGreaterThanOrEqual(0.5);
  }, 170_000);
});

/** A copy of the fp32 fixture (the ONNX files linked), changed by `edit`. */
function variantOf(name, edit) {
  const dir = join(work, name, 'opus-mt-en-de');
  cpSync(XENOVA, dir, { recursive: true, filter: (src) => !src.endsWith('.onnx') });
  for (const f of ['encoder_model.onnx', 'decoder_model_merged.onnx']) cpSync(join(XENOVA, 'onnx', f), join(dir, 'onnx', f));
  edit(dir);
  return dir;
}

describe('bad transformers.js folders are a ConvertError naming the file and field', () => {
  const variant = variantOf;
  const editJson = (path, f) => writeFileSync(path, JSON.stringify(f(JSON.parse(readFileSync(path, 'utf8')))));

  test('a missing ONNX file', async () => {
    const dir = variant('no-decoder', (d) => rmSync(join(d, 'onnx', 'decoder_model_merged.onnx')));
    await expect(convertModel(dir)).rejects.toThrow(ConvertError);
    await expect(convertModel(dir)).rejects.toThrow(/decoder_model\.onnx: file: missing/);
    await expect(convertModel(XENOVA.replace('xenova', 'xenova-none'))).rejects.toThrow(/no such file or folder/);
  });

  test('another tokenizer model or vocabulary size', async () => {
    const bpe = variant('bpe', (d) => editJson(join(d, 'tokenizer.json'), (j) => ({ ...j, model: { ...j.model, type: 'BPE' } })));
    await expect(convertModel(bpe)).rejects.toThrow(/tokenizer\.json: model\.type: is "BPE"/);
    const short = variant('short-vocab', (d) => editJson(join(d, 'tokenizer.json'), (j) => ({ ...j, model: { ...j.model, vocab: j.model.vocab.slice(0, 7000) } })));
    await expect(convertModel(short)).rejects.toThrow(/tokenizer\.json: model\.vocab: lists 7000 pieces, the embedding has 7999 rows/);
  });

  test('another model type, or separate vocabularies', async () => {
    const bart = variant('bart', (d) => editJson(join(d, 'config.json'), (c) => ({ ...c, model_type: 'bart' })));
    await expect(convertModel(bart)).rejects.toThrow(/config\.json: model_type: is "bart"/);
    const sep = variant('separate', (d) => editJson(join(d, 'config.json'), (c) => ({ ...c, share_encoder_decoder_embeddings: false })));
    await expect(convertModel(sep)).rejects.toThrow(/share_encoder_decoder_embeddings: is false/);
  });
});
