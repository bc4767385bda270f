// The converters' checker (bindings/src/convert/tensor-spec.ts) gives each case of the shared corpus
// (tests/fixtures/tensor-spec-verdicts.json) the verdict written there, as the engine's loader
// (tests/cpp/tensor_spec_test.cc) and the Python writer's checker (tests/python/test_tensor_spec_verdicts.py) must.
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { checkTensors, expectedTensors } from '../../dist/convert/tensor-spec.js';
import { ROOT } from './paths.js';

const corpus = JSON.parse(readFileSync(`${ROOT}tests/fixtures/tensor-spec-verdicts.json`, 'utf8'));

/** A tensor of `dtype` and `shape` (its values are not checked: zeros). */
function tensor(dtype, shape) {
  const size = shape.reduce((a, b) => a * b, 1);
  const Array = { F32: Float32Array, F16: Uint16Array, BF16: Uint16Array, I8: Int8Array, I32: Int32Array, U8: Uint8Array }[dtype];
  return { dtype, shape, data: new Array(size) };
}

/** The case's tensor set: the config's expected tensors but the all-or-none groups', less `drop`, with `set` applied. */
function tensorsOf(config, c) {
  const tensors = new Map();
  for (const e of expectedTensors(config).filter((t) => t.optionalGroup === undefined)) {
    tensors.set(e.name, tensor(e.kind === 'ids' ? 'I32' : 'F32', e.shape.map((d) => (d === -1 ? 3 : d))));
  }
  for (const name of c.drop ?? []) tensors.delete(name);
  for (const [name, [dtype, shape]] of Object.entries(c.set ?? {})) tensors.set(name, tensor(dtype, shape));
  return tensors;
}

test('the corpus has valid and invalid cases', () => {
  expect(corpus.cases.filter((c) => c.verdict === null).length).toBeGreaterThan(3);
  expect(corpus.cases.filter((c) => c.verdict !== null).length).toBeGreaterThan(3);
});

test.each(corpus.cases.map((c) => [c.about, c]))('%s', (_, c) => {
  const config = { ...corpus.config, ...c.config };
  const problem = checkTensors(config, tensorsOf(config, c), new Set(c.tokenizer ?? []));
  expect(problem?.[0] ?? null, problem?.[1]).toBe(c.verdict);
});
