// The relaxed SIMD engine (crossattn-relaxed.wasm; bindings/src/engine-build.ts). Its int8 products
// (cpp/kernels/gemm_int8_dot.cc) give the SIMD128 engine's integer sums, so int8 models translate the
// same on both, bit for bit: texts, log-probabilities and cross-attention. Its fp32 products fuse
// multiply and add where the hardware does (f32x4.relaxed_madd), so fp32 models differ by rounding,
// within the bound docs/performance.md states: |log-probability| 1e-3 per sentence, attention 1e-4.
// Both builds run in a Node that has relaxed SIMD (RELAXED_NODE, Node 21 or later; Node 20's
// --experimental-wasm-relaxed-simd gave other sums in its baseline tier), with V8's optimizing tier
// and with its baseline tier only (--liftoff-only), which must agree. This process's Node (20 in CI)
// has no relaxed SIMD: there the choice falls back, and asking for relaxed SIMD is a typed error.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { InvalidInputError, LoadError, Translator, engineBuild, prepareEngine, relaxedSimdSupported } from '../../dist/index.js';
import { DATA, INT8_MODEL, MODEL, RELAXED_NODE, ROOT } from './paths.js';

const SENTENCES = readFileSync(`${DATA}/flores-dev/dev.en`, 'utf8').split('\n').slice(0, 12);
const INT8_MODELS = [`${ROOT}models/general-en-de/general-en-de.int8.crossattn`, INT8_MODEL];
const nodeMajor = Number(process.versions.node.split('.')[0]);

/** relaxed-host.js's runs under RELAXED_NODE with `flags`: per model, the simd128 run then the relaxed one. */
function hostRuns(models, sentences, flags = []) {
  expect(existsSync(RELAXED_NODE), `${RELAXED_NODE} (tools/dev.sh installs it)`).toBe(true);
  const out = execFileSync(RELAXED_NODE, [...flags, `${ROOT}tests/js/relaxed-host.js`, JSON.stringify({ models, sentences })],
                           { encoding: 'utf8', maxBuffer: 1 << 28 });
  const result = JSON.parse(out);
  expect(result.relaxedSimdSupported).toBe(true);
  return result.runs;
}

const largestDifference = (a, b) => a.reduce((most, x, i) => Math.max(most, Math.abs(x - b[i])), 0);

test('the probe says whether this Node has relaxed SIMD, and the relaxed build needs it', () => {
  expect(relaxedSimdSupported()).toBe(nodeMajor >= 21);
  const relaxed = readFileSync(`${ROOT}dist/crossattn-relaxed.wasm`);
  expect(WebAssembly.validate(relaxed)).toBe(relaxedSimdSupported());  // it uses relaxed opcodes
  expect(WebAssembly.validate(readFileSync(`${ROOT}dist/crossattn.wasm`))).toBe(true);
});

test('each build says which it is', async () => {
  expect(engineBuild(await prepareEngine(`${ROOT}dist/crossattn.wasm`))).toBe('simd128');
  expect(engineBuild(await WebAssembly.compile(readFileSync(`${ROOT}dist/crossattn-mt.wasm`)))).toBe('threads');
});

test.skipIf(nodeMajor >= 21)('without relaxed SIMD, auto falls back to SIMD128 and relaxed is a LoadError', async () => {
  const t = await Translator.load(INT8_MODEL);
  expect(t.simd).toBe('simd128');
  t.dispose();
  await expect(Translator.load(INT8_MODEL, { simd: 'relaxed' })).rejects.toThrow(LoadError);
  await expect(Translator.load(INT8_MODEL, { simd: 'relaxed' })).rejects.toThrow(/relaxed SIMD.*simd: 'simd128'/);
  await expect(Translator.load(INT8_MODEL, { simd: 'avx' })).rejects.toThrow(InvalidInputError);
  const again = await Translator.load(INT8_MODEL, { simd: 'simd128' });
  expect((await again.translate('A dog runs.')).text.length).toBeGreaterThan(0);
  again.dispose();
});

test('int8 models translate bit for bit the same on the relaxed and SIMD128 builds', () => {
  const runs = hostRuns(INT8_MODELS, SENTENCES);
  for (let i = 0; i < runs.length; i += 2) {
    const [simd128, relaxed] = runs.slice(i, i + 2);
    expect([simd128.simd, relaxed.simd]).toEqual(['simd128', 'relaxed']);
    expect(relaxed.texts).toEqual(simd128.texts);
    expect(relaxed.logProbs).toEqual(simd128.logProbs);
    expect(relaxed.attention).toEqual(simd128.attention);
  }
}, 120_000);

test('fp32 models differ on the relaxed build only by the rounding of fused multiply-adds', () => {
  const [simd128, relaxed] = hostRuns([MODEL], SENTENCES);
  expect(relaxed.simd).toBe('relaxed');
  expect(relaxed.texts).toEqual(simd128.texts);
  expect(largestDifference(relaxed.logProbs, simd128.logProbs)).toBeLessThanOrEqual(1e-3);
  expect(largestDifference(relaxed.attention.flat(), simd128.attention.flat())).toBeLessThanOrEqual(1e-4);
}, 120_000);

test("V8's baseline tier (Liftoff) computes what its optimizing tier does on the relaxed build", () => {
  const sentences = SENTENCES.slice(0, 3);
  const optimized = hostRuns([INT8_MODEL, MODEL], sentences);
  const baseline = hostRuns([INT8_MODEL, MODEL], sentences, ['--liftoff-only']);
  for (const [i, run] of optimized.entries()) {
    expect(baseline[i].texts).toEqual(run.texts);
    expect(baseline[i].logProbs).toEqual(run.logProbs);
    expect(baseline[i].attention).toEqual(run.attention);
  }
}, 300_000);
