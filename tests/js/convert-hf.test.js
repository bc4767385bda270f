// `crossattn convert` of Hugging Face MarianMT folders (OPUS-MT layout: config.json, model.safetensors,
// vocab.json, source.spm, target.spm, optionally target_vocab.json), made by tools/opus-mt-fixtures.py from
// the committed bench model. The transformers.js test shows that this function is transformers.js's;
// tools/hf-logits-parity.py compares logits with Python transformers where it is installed.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Translator } from '../../dist/index.js';
import { ConvertError } from '../../dist/convert/convert-error.js';
import { convertModel } from '../../dist/convert/index.js';
import { writeModelFile } from '../../dist/convert/model-file.js';
import { CROSSATTN_GREEDY, HF, HF_SEPARATE, XENOVA, ensureFixtures, floresDev } from './opus-mt-fixtures.js';
import { ROOT } from './paths.js';

let work;
beforeAll(() => {
  ensureFixtures();
  work = mkdtempSync(join(tmpdir(), 'crossattn-convert-hf-'));
}, 300_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

const json = (path) => JSON.parse(readFileSync(path, 'utf8'));
const bytesOf = (t) => Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength);

/** The tensors of a safetensors file as {name: {dtype, shape, bytes}}, read here independently of the converter. */
function safetensors(path) {
  const file = readFileSync(path);
  const n = Number(file.readBigUInt64LE(0));
  const header = JSON.parse(file.subarray(8, 8 + n).toString());
  delete header.__metadata__;
  return Object.fromEntries(Object.entries(header).map(([name, { dtype, shape, data_offsets: [a, b] }]) =>
    [name, { dtype, shape, bytes: file.subarray(8 + n + a, 8 + n + b) }]));
}

/** vocab.json's pieces by id. */
const piecesOf = (path) => Object.entries(json(path)).sort((a, b) => a[1] - b[1]).map(([p]) => p);

test('a MarianMT folder converts to MarianMTModel\'s function: config, vocabulary and every weight', async () => {
  const hf = json(`${HF}/config.json`);
  const model = await convertModel(HF);
  expect(model.config).toMatchObject({
    name: 'opus-mt-en-de', source_lang: 'en', target_lang: 'de',
    encoder_layers: hf.encoder_layers, decoder_layers: hf.decoder_layers, d_model: hf.d_model,
    n_heads: hf.encoder_attention_heads, d_ff: hf.encoder_ffn_dim, activation: hf.activation_function,
    layer_norm: 'post', layer_norm_eps: 1e-5, embed_scale: true, sinusoidal_layout: 'halves',
    max_positions: hf.max_position_embeddings, tied_embeddings: true, shared_vocab: true, final_logits_bias: true,
    vocab_size: hf.vocab_size, pad_id: hf.pad_token_id, eos_id: hf.eos_token_id, decoder_start_id: hf.decoder_start_token_id,
    decoder_start: 'token',
  });
  const vocab = piecesOf(`${HF}/vocab.json`);
  expect(model.vocab).toEqual(vocab);
  expect(vocab.at(-1)).toBe('<pad>');  // appended by HF's converter, the decoder's start token
  expect(model.config.unk_id).toBe(vocab.indexOf('<unk>'));
  const weights = safetensors(`${HF}/model.safetensors`);
  const ours = (name) => name.replace(/^model\./, '').replace('model.shared.', 'shared.').replace(/\.encoder_attn(_layer_norm)?\./, '.cross_attn$1.');
  const expected = Object.keys(weights).filter((n) => !n.includes('embed_positions'));  // sinusoids, computed by the engine
  expect([...model.tensors.keys()].sort()).toEqual(expected.map(ours).sort());
  for (const name of expected) {
    const t = model.tensors.get(ours(name));
    expect(t.dtype, name).toBe(weights[name].dtype);
    expect(bytesOf(t).equals(weights[name].bytes), `${name} differs`).toBe(true);
  }
  // The licence from the model card's front matter; the source is the folder's name (no Hub id given).
  expect(model.provenance).toMatchObject({ source: 'opus-mt-en-de', license: 'CC-BY-4.0', convertedFrom: 'huggingface-marian' });
  const translator = await Translator.load(await writeModelFile(model, 'test'));
  const r = await translator.translate('A dog runs in the park.', CROSSATTN_GREEDY);
  expect(r.sourceTokens.at(-1)).toBe('</s>');
  expect(r.sourceIds).toEqual(r.sourceTokens.map((p) => vocab.indexOf(p)));  // pieces numbered by vocab.json
  expect(r.text.length).toBeGreaterThan(0);
  translator.dispose();
});

test('provenance only from what says so: the model card, a Hugging Face cache path, the caller; never the folder name', async () => {
  const scratch = mkdtempSync(join(tmpdir(), 'crossattn-provenance-'));
  try {
    const bare = join(scratch, 'opus-mt-en-de');
    cpSync(HF, bare, { recursive: true });
    rmSync(join(bare, 'README.md'));
    expect((await convertModel(bare)).provenance).toMatchObject({ source: 'opus-mt-en-de', license: '', attribution: 'Converted from opus-mt-en-de.' });
    const cached = join(scratch, 'models--Helsinki-NLP--opus-mt-en-de', 'snapshots', 'abc123');
    cpSync(HF, cached, { recursive: true });
    expect((await convertModel(cached)).provenance).toMatchObject({
      source: 'Helsinki-NLP/opus-mt-en-de', license: 'CC-BY-4.0', attribution: expect.stringMatching(/^OPUS-MT model .*, CC-BY-4\.0\.$/) });
    expect((await convertModel(bare, { license: 'MIT', source: 'me/my-model', attribution: 'Mine.' })).provenance)
      .toMatchObject({ source: 'me/my-model', license: 'MIT', attribution: 'Mine.' });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
});

test('the transformers.js folder\'s rebuilt SentencePiece model cuts FLORES dev as the original .spm does (the first 500 sentences whose NFKC form is themselves)', async () => {
  // tokenizer.json carries no normalizer (a null charsmap), the original .spm nmt_nfkc: they may differ only
  // where NFKC changes the text.
  const texts = floresDev(500).filter((t) => t !== '');
  const ids = async (folder) => {
    const translator = await Translator.load(await writeModelFile(await convertModel(folder), 'test'));
    const out = (await translator.translateBatch(texts, { maxLength: 1 })).map((r) => r.sourceIds);
    translator.dispose();
    return out;
  };
  const original = await ids(HF), rebuilt = await ids(XENOVA);
  const invariant = texts.map((t, i) => i).filter((i) => texts[i].normalize('NFKC') === texts[i]);
  expect(invariant.length).toBeGreaterThan(450);
  for (const i of invariant) expect(rebuilt[i], texts[i]).toEqual(original[i]);
}, 120_000);

describe('separate vocabularies (share_encoder_decoder_embeddings false)', () => {
  test('convert with the source vocabulary from vocab.json and the target one from target_vocab.json', async () => {
    const model = await convertModel(HF_SEPARATE);
    const source = piecesOf(`${HF_SEPARATE}/vocab.json`), target = piecesOf(`${HF_SEPARATE}/target_vocab.json`);
    expect(source.length).not.toBe(target.length);
    expect(model.config).toMatchObject({ shared_vocab: false, vocab_size: target.length, source_vocab_size: source.length,
      source_eos_id: source.indexOf('</s>'), source_unk_id: source.indexOf('<unk>') });
    expect(model.vocab).toEqual(target);
    expect(model.sourceVocab).toEqual(source);
    expect(model.tensors.get('encoder.embed_tokens.weight').shape).toEqual([source.length, 256]);
    expect(model.tensors.get('decoder.embed_tokens.weight').shape).toEqual([target.length, 256]);
    expect(model.tensors.has('shared.weight')).toBe(false);
  });

  // The engine reads source_vocab_size since the separate-vocabulary change in cpp/ (November 2026).
  const engineReadsSourceVocab = readFileSync(`${ROOT}cpp/model/config.cc`, 'utf8').includes('source_vocab_size');
  test.runIf(engineReadsSourceVocab)('translate FLORES exactly as the shared-vocabulary folder of the same function', async () => {
    const texts = floresDev(50);
    const run = async (folder) => {
      const t = await Translator.load(await writeModelFile(await convertModel(folder), 'test'));
      const out = await t.translateBatch(texts, CROSSATTN_GREEDY);
      t.dispose();
      return out;
    };
    const shared = await run(HF), separate = await run(HF_SEPARATE);
    expect(separate.map((r) => r.sourceTokens)).toEqual(shared.map((r) => r.sourceTokens));
    expect(separate.map((r) => r.sourceIds)).not.toEqual(shared.map((r) => r.sourceIds));  // renumbered on purpose
    expect(separate.map((r) => r.targetIds)).toEqual(shared.map((r) => r.targetIds));
    expect(separate.map((r) => r.text)).toEqual(shared.map((r) => r.text));
  }, 120_000);
});

test('Marian\'s target-language tokens stay in the vocabulary and reach the encoder as MarianTokenizer cuts them when typed', async () => {
  const dir = join(work, 'language-token', 'opus-mt-en-mul');
  cpSync(HF, dir, { recursive: true, filter: (src) => !src.endsWith('.safetensors') });
  cpSync(`${HF}/model.safetensors`, join(dir, 'model.safetensors'));
  const vocab = piecesOf(`${HF}/vocab.json`);
  vocab[vocab.length - 2] = '>>fra<<';  // a rare piece's row becomes the language token's
  writeFileSync(join(dir, 'vocab.json'), JSON.stringify(Object.fromEntries(vocab.map((p, i) => [p, i]))));
  const model = await convertModel(dir);
  expect(model.vocab).toContain('>>fra<<');
  expect(JSON.parse(model.metadata.language_tokens)).toEqual(['>>fra<<']);
  const translator = await Translator.load(await writeModelFile(model, 'test'));
  const r = await translator.translate('>>fra<< A dog runs.', CROSSATTN_GREEDY);
  const plain = await translator.translate('A dog runs.', CROSSATTN_GREEDY);
  // As MarianTokenizer cuts it: the token, then the text's own pieces (no lone "▁" before the token).
  expect(r.sourceTokens).toEqual(['>>fra<<', ...plain.sourceTokens]);
  expect(r.sourceIds[0]).toBe(vocab.length - 2);
  translator.dispose();
});

describe('bad folders are a ConvertError naming the file and field, and nothing else', () => {
  /** A copy of the HF fixture (the weights linked), changed by `edit`. */
  function variant(name, edit, from = HF) {
    const dir = join(work, name, 'opus-mt-en-de');
    cpSync(from, dir, { recursive: true, filter: (src) => !src.endsWith('.safetensors') });
    cpSync(`${from}/model.safetensors`, join(dir, 'model.safetensors'));
    edit(dir);
    return dir;
  }
  const editConfig = (dir, change) => writeFileSync(join(dir, 'config.json'), JSON.stringify({ ...json(join(dir, 'config.json')), ...change }));
  const rejects = async (dir, pattern) => {
    const error = await convertModel(dir).then(() => undefined, (e) => e);
    expect(error).toBeInstanceOf(ConvertError);
    expect(error.message).toMatch(pattern);
    expect(error.message.split('\n')).toHaveLength(1);
  };

  test('a missing file', async () => {
    await rejects(variant('no-vocab', (d) => rmSync(join(d, 'vocab.json'))), /vocab\.json: vocab: missing/);
    await rejects(variant('no-target-spm', (d) => rmSync(join(d, 'target.spm'))), /target\.spm: file: missing/);
    await rejects(variant('no-target-vocab', (d) => rmSync(join(d, 'target_vocab.json')), HF_SEPARATE), /target_vocab\.json: vocab: missing/);
  });

  test('pytorch_model.bin only, and not a torch.save archive', async () => {
    const dir = join(work, 'bin-only', 'opus-mt-en-de');
    cpSync(HF, dir, { recursive: true, filter: (src) => !src.endsWith('.safetensors') });
    writeFileSync(join(dir, 'pytorch_model.bin'), 'not an archive');
    await rejects(dir, /pytorch_model\.bin: file: not a zip archive as torch\.save writes one/);
  });

  test('neither model.safetensors nor pytorch_model.bin', async () => {
    await rejects(variant('no-weights', (d) => rmSync(join(d, 'model.safetensors'))), /holds no model crossattn converts/);
  });

  test('an unknown model_type or architecture', async () => {
    await rejects(variant('bart', (d) => editConfig(d, { model_type: 'bart' })), /config\.json: model_type: is "bart"/);
    await rejects(variant('arch', (d) => editConfig(d, { architectures: ['MarianForCausalLM'] })), /config\.json: architectures: is \["MarianForCausalLM"\]/);
    await rejects(variant('gelu-new', (d) => editConfig(d, { activation_function: 'gelu_new' })), /config\.json: activation_function: is "gelu_new"/);
  });

  test('vocabulary sizes that disagree', async () => {
    await rejects(variant('vocab-size', (d) => editConfig(d, { vocab_size: 8000 })), /config\.json: vocab_size: is 8000 but the target vocabulary lists 7999 pieces/);
    await rejects(variant('decoder-vocab-size', (d) => editConfig(d, { decoder_vocab_size: 7000 }), HF_SEPARATE),
      /config\.json: decoder_vocab_size: is 7000 but the target vocabulary lists 7999 pieces/);
    await rejects(variant('short-vocab', (d) => {
      const pieces = piecesOf(join(d, 'vocab.json')).slice(0, 5000);
      writeFileSync(join(d, 'vocab.json'), JSON.stringify(Object.fromEntries(pieces.map((p, i) => [p, i]))));
      editConfig(d, { vocab_size: 5000, pad_token_id: 4999, decoder_start_token_id: 4999 });
    }), /model\.safetensors: model\.shared\.weight: has 7999 rows, vocab\.json lists 5000 pieces/);
  });
});
