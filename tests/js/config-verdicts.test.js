// The converters' config check (bindings/src/convert/tensor-spec.ts checkConfig) gives each case of the
// shared corpus (tests/fixtures/config-verdicts.json) the verdict written there, as the engine's
// (tests/cpp/config_test.cc) and the Python writer's (tests/python/test_config_verdicts.py) must.
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { checkConfig, expectedTensors } from '../../dist/convert/tensor-spec.js';
import { ROOT } from './paths.js';

const corpus = JSON.parse(readFileSync(`${ROOT}tests/fixtures/config-verdicts.json`, 'utf8'));

/** The case's config: the corpus's, less `drop`, with `set` applied. */
function configOf(c) {
  const config = { ...corpus.config, ...c.set };
  for (const field of c.drop ?? []) delete config[field];
  return config;
}

test('the corpus has valid and invalid cases', () => {
  expect(corpus.cases.filter((c) => c.verdict === null).length).toBeGreaterThan(3);
  expect(corpus.cases.filter((c) => c.verdict !== null).length).toBeGreaterThan(20);
});

test.each(corpus.cases.map((c) => [c.about, c]))('%s', (_, c) => {
  const problem = checkConfig(configOf(c));
  expect(problem?.[0] ?? null, problem?.[1]).toBe(c.verdict);
});

test('an invalid config calls for no tensors: expectedTensors names the field', () => {
  expect(() => expectedTensors({ ...corpus.config, d_model: 16.5 })).toThrow("config field 'd_model' must be an integer in 1..16384, not 16.5");
});
