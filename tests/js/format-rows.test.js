// Tensor names between a foreign format and ours come from the format's rows in the model file's
// spec (bindings/src/convert/format-rows.ts): the pairs of tests/fixtures/format-rows.json, which the
// Python side (tests/python/test_format_rows.py) must give too, and a round trip for every tensor a
// config calls for.
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { ourName, theirName } from '../../dist/convert/format-rows.js';
import { layerTensorName } from '../../dist/convert/marian-hf-weights.js';
import { expectedTensors } from '../../dist/convert/tensor-spec.js';
import { ROOT } from './paths.js';

const { groups } = JSON.parse(readFileSync(`${ROOT}tests/fixtures/format-rows.json`, 'utf8'));
const cases = groups.flatMap(({ format, config, pairs }) => pairs.map(([ours, theirs]) => [format, ours, theirs, config ?? undefined]));

test.each(cases)('%s: %s is %s, both ways', (format, ours, theirs, config) => {
  expect(theirName(format, ours, config)).toBe(theirs);
  expect(ourName(format, theirs, config)).toBe(ours);
});

test.each(groups.filter((g) => g.config).map((g) => [g.format, g.config.decoder_autoregression ?? 'self-attention', g.config]))(
  'every tensor a %s config (%s) calls for has a name there that comes back to it', (format, _, config) => {
    const names = expectedTensors(config).filter((e) => e.optionalGroup === undefined).map((e) => e.name);
    const theirs = names.map((name) => theirName(format, name, config));
    expect(new Set(theirs).size).toBe(names.length);
    theirs.forEach((t, i) => expect(ourName(format, t, config)).toBe(names[i]));
  });

test('a row with a condition holds only for a config it is true of; Marian has no layer 0', () => {
  const ssru = groups.find((g) => g.config?.decoder_autoregression === 'ssru').config;
  expect(ourName('marian', 'decoder_l1_rnn_W')).toBeUndefined();
  expect(ourName('marian', 'decoder_l1_rnn_W', ssru)).toBe('decoder.layers.0.ssru.weight');
  expect(ourName('marian', 'encoder_l0_self_Wq')).toBeUndefined();
  expect(() => theirName('marian', 'decoder.layers.0.ssru.weight')).toThrow("the format 'marian' has no row for 'decoder.layers.0.ssru.weight'");
});

test('a layer tensor MarianMTModel does not have is no layer tensor of ours', () => {
  expect(layerTensorName('model.decoder.layers.0.encoder_attn.v_proj.bias')).toBe('decoder.layers.0.cross_attn.v_proj.bias');
  expect(layerTensorName('model.decoder.layers.0.encoder_attn.rotary.weight')).toBeUndefined();
  expect(layerTensorName('model.encoder.layers.x.fc1.weight')).toBeUndefined();
  expect(layerTensorName('model.shared.weight')).toBeUndefined();
});
