#!/usr/bin/env node
// How much of Bergamot's translation time in Node is its int8 matrix products: the share that
// Firefox's native gemm (WebAssembly.mozIntGemm) would take over from the wasm fallback.
//
//   node bench/bergamot-gemm-share.js --marian DIR --src FILE [--sentences N]
//
// Bergamot's wasm imports its 7 int8 gemm functions (module `wasm_gemm`); bench/bergamot.js links
// them to the fallbacks the binary exports (intgemm's SSSE3 code compiled to wasm SIMD). Here each
// of those imports is wrapped with a clock, then the first N lines of FILE (default 100) are
// translated one at a time, greedy, with gemm-precision int8shiftAll, as `npm run bench` runs
// bergamot-wasm-int8. Prints JSON: the translation time, the time inside each gemm function, and the
// products (int8_multiply_and_add_bias) by shape [rows_A, width, cols_B] with their time and GOP/s,
// which a native gemm's speed on the same shapes turns into an estimate (docs/bergamot.md).
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { marian: { type: 'string' }, src: { type: 'string' }, sentences: { type: 'string', default: '100' } },
});
if (!values.marian || !values.src) throw new Error('usage: node bench/bergamot-gemm-share.js --marian DIR --src FILE [--sentences N]');

const gemmMs = {};
const products = new Map();  // "rows x width x cols" -> {calls, ms}
// Arguments of int8_multiply_and_add_bias (marian-dev src/tensors/cpu/wasm_intgemm_interface.h):
// ..., rows_A (8), width (9), cols_B (10), output.
const [ROWS_A, WIDTH, COLS_B] = [8, 9, 10];

const instantiate = WebAssembly.instantiate;
WebAssembly.instantiate = (source, imports) => {
  if (!imports?.wasm_gemm) return instantiate(source, imports);
  const timed = Object.fromEntries(Object.entries(imports.wasm_gemm).map(([name, fn]) => [name, (...args) => {
    const start = performance.now();
    const result = fn(...args);
    const ms = performance.now() - start;
    gemmMs[name] = (gemmMs[name] ?? 0) + ms;
    if (name === 'int8_multiply_and_add_bias') {
      const key = `${args[ROWS_A]} x ${args[WIDTH]} x ${args[COLS_B]}`;
      const entry = products.get(key) ?? { calls: 0, ms: 0, ops: 2 * args[ROWS_A] * args[WIDTH] * args[COLS_B] };
      entry.calls += 1;
      entry.ms += ms;
      products.set(key, entry);
    }
    return result;
  }]));
  return instantiate(source, { ...imports, wasm_gemm: timed });
};

const { loadBergamot } = await import('./bergamot.js');
const peer = await loadBergamot(values.marian, 'int8shiftAll', { options: ['ssplit-mode: sentence'] });
const lines = readFileSync(values.src, 'utf8').split('\n').filter((l) => l.trim()).slice(0, Number(values.sentences));
peer.translate(lines[0]);  // warm-up: the load's own products (prepare_b) stay out of the figures
for (const key of Object.keys(gemmMs)) delete gemmMs[key];
products.clear();
const start = performance.now();
for (const line of lines) peer.translate(line);
const totalMs = performance.now() - start;
const gemmTotal = Object.values(gemmMs).reduce((a, b) => a + b, 0);
const round = (x, digits = 1) => Number(x.toFixed(digits));
console.log(JSON.stringify({
  marian: values.marian, sentences: lines.length, translate_ms: round(totalMs),
  gemm_ms: round(gemmTotal), gemm_share: round(gemmTotal / totalMs, 3),
  by_function_ms: Object.fromEntries(Object.entries(gemmMs).map(([k, v]) => [k, round(v)])),
  products: [...products].sort((a, b) => b[1].ms - a[1].ms).slice(0, 12).map(([shape, p]) => ({
    shape, calls: p.calls, ms: round(p.ms), share_of_products: round(p.ms / gemmMs.int8_multiply_and_add_bias, 3),
    gops: round(p.ops * p.calls / (p.ms * 1e6), 2),
  })),
}, null, 2));
