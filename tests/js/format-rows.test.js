// Tensor names between HF MarianMT and ours come from the format's rows in the model file's spec
// (bindings/src/convert/format-rows.ts): the pairs of tests/fixtures/format-rows.json, which the
// Python side (tests/python/test_format_rows.py) must give too, and a round trip for every tensor
// an OPUS-MT-like config calls for.
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { ourName, theirName } from '../../dist/convert/format-rows.js';
import { layerTensorName } from '../../dist/convert/marian-hf-weights.js';
import { expectedTensors } from '../../dist/convert/tensor-spec.js';
import { ROOT } from './paths.js';

const pairs = JSON.parse(readFileSync(`${ROOT}tests/fixtures/format-rows.json`, 'utf8'))['huggingface-marian'];
const OPUS_MT_LIKE = {
  encoder_layers: 6, decoder_layers: 6, d_model: 16, n_heads: 2, d_ff: 32, activation: 'swish', layer_norm: 'post',
  embed_scale: true, max_positions: 512, tied_embeddings: false, shared_vocab: false, final_logits_bias: true,
  vocab_size: 20, source_vocab_size: 24, pad_id: 19, unk_id: 1, bos_id: 19, eos_id: 0,
};

test.each(pairs)('%s is HF MarianMT\'s %s, both ways', (ours, theirs) => {
  expect(theirName('huggingface-marian', ours)).toBe(theirs);
  expect(ourName('huggingface-marian', theirs)).toBe(ours);
});

test('every tensor an OPUS-MT-like config calls for has an HF name that comes back to it', () => {
  const names = expectedTensors(OPUS_MT_LIKE).filter((e) => e.optionalGroup === undefined).map((e) => e.name);
  expect(names.length).toBeGreaterThan(6 * 16);
  for (const name of names) expect(ourName('huggingface-marian', theirName('huggingface-marian', name))).toBe(name);
});

test('a layer tensor MarianMTModel does not have is no layer tensor of ours', () => {
  expect(layerTensorName('model.decoder.layers.0.encoder_attn.v_proj.bias')).toBe('decoder.layers.0.cross_attn.v_proj.bias');
  expect(layerTensorName('model.decoder.layers.0.encoder_attn.rotary.weight')).toBeUndefined();
  expect(layerTensorName('model.encoder.layers.x.fc1.weight')).toBeUndefined();
  expect(layerTensorName('model.shared.weight')).toBeUndefined();
});
