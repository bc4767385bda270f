// The mutation fuzzer the converter harnesses share (tests/js/convert-fuzz-*.test.js, issue 46 item 9):
// a seeded generator, byte mutations (bit flips, random bytes, truncation, extension, splices, big
// length fields) and JSON value swaps, and the property every converter must keep: whatever the
// input, the outcome is a result or a ConvertError, within a time bound, and no output file is left
// behind on error.
//   CROSSATTN_FUZZ_RUNS=N CROSSATTN_FUZZ_SEED=S  (the runs per harness scale with N / 1000)
//   CROSSATTN_FUZZ_TRACE=FILE appends each run's input, before it runs, to FILE (to find one that hangs or runs out of memory)
import { appendFileSync, readdirSync } from 'node:fs';
import { expect } from 'vitest';
import { ConvertError } from '../../dist/convert/convert-error.js';

export const SEED = Number(process.env.CROSSATTN_FUZZ_SEED ?? 1);
/** The runs a harness makes: its CI count, times CROSSATTN_FUZZ_RUNS / 1000 for a longer run. */
export const runs = (ci) => Math.round(ci * Number(process.env.CROSSATTN_FUZZ_RUNS ?? 1000) / 1000);
/** Every 50 runs, a turn of the event loop: Vitest's worker must answer its runner within 60 s. */
export const breathe = (run) => (run % 50 === 0 ? new Promise((resolve) => setImmediate(resolve)) : undefined);
/** The test's timeout for `n` runs: Vitest's 120 s, or 60 ms a run for a longer run. */
export const testTimeout = (n) => Math.max(120_000, 60 * n);
/** The most one conversion may take (the bar for a typed error). */
export const TIME_BOUND_MS = 5000;

/** mulberry32: a small seeded generator of floats in [0, 1). */
export function generator(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n) => Math.floor(next() * n);
  return { next, int, pick: (list) => list[int(list.length)] };
}

/** Values a length or count field is set to: zero, one, the edges of 16, 32, 53 and 64 bits. */
const BIG = [0n, 1n, 0x7fn, 0xffn, 0xffffn, 0x7fffffffn, 0x80000000n, 0xffffffffn, 0x100000000n, 2n ** 53n - 1n, 2n ** 53n, 2n ** 63n, 2n ** 64n - 1n];

/** One random mutation of `bytes` (a new array). */
export function mutateBytes(bytes, rng) {
  const b = new Uint8Array(bytes);
  const at = b.length ? rng.int(b.length) : 0;
  switch (rng.int(8)) {
    case 0: if (b.length) b[at] ^= 1 << rng.int(8); return b;
    case 1: for (let i = 0, n = 1 + rng.int(8); i < n && b.length; i++) b[rng.int(b.length)] = rng.int(256); return b;
    case 2: return b.slice(0, rng.int(b.length + 1));
    case 3: return concat(b, Uint8Array.from({ length: 1 + rng.int(64) }, () => rng.int(256)));
    case 4: {  // splice: a chunk copied over another place
      const from = rng.int(b.length + 1), n = rng.int(64), to = rng.int(b.length + 1);
      return concat(b.slice(0, to), b.slice(from, from + n), b.slice(to + n));
    }
    case 5: {  // a chunk deleted
      const n = 1 + rng.int(32);
      return concat(b.slice(0, at), b.slice(at + n));
    }
    default: {  // a big length field, 4 or 8 bytes little-endian, mostly at an aligned offset
      const width = rng.int(2) ? 8 : 4, value = rng.pick(BIG), off = rng.int(3) ? at - (at % width) : at;
      for (let i = 0; i < width && off + i < b.length; i++) b[off + i] = Number((value >> BigInt(8 * i)) & 0xffn);
      return b;
    }
  }
}

export function concat(...parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}

/** Values that JSON and YAML fields are swapped for: wrong types, wraps, fractions, huge and hostile ones. */
const HOSTILE = [null, true, false, -1, 0, 1, 0.5, 256.5, 2 ** 32 + 4, 2 ** 53, 1e308, -1e308, '', 'x', '__proto__', 'constructor',
  [], [1], [[]], ['a', 1], {}, { a: 1 }, { toString: 1 }, 'A'.repeat(10_000)];

/** Every path to a value inside `value` (objects and arrays), the root's children first. */
function paths(value, prefix = [], out = []) {
  if (value === null || typeof value !== 'object') return out;
  const keys = Object.keys(value);
  for (const k of keys.length > 64 ? keys.filter((_, i) => i < 8 || i % Math.ceil(keys.length / 32) === 0) : keys) {
    out.push([...prefix, k]);
    paths(value[k], [...prefix, k], out);
  }
  return out;
}

/** `value` (JSON-like) with 1 to 3 of its values swapped for hostile ones, deleted, or a key added; a copy. */
export function mutateJson(value, rng) {
  const copy = structuredClone(value);
  for (let n = 1 + rng.int(3); n > 0; n--) {
    const all = paths(copy);
    if (all.length === 0) return rng.pick(HOSTILE);
    const path = rng.pick(all), key = path.at(-1);
    const parent = path.slice(0, -1).reduce((v, k) => v[k], copy);
    const old = parent[key];
    const how = rng.int(6);
    if (how === 0) {  // deleted
      if (Array.isArray(parent)) parent.splice(Number(key), 1); else delete parent[key];
    } else if (how === 1 && typeof old === 'number') {  // a number nudged, wrapped, negated, halved off
      parent[key] = rng.pick([old + 1, old - 1, old * 2 ** 32, -old, old + 0.5, 0]);
    } else if (how === 2 && Array.isArray(old)) {  // a list grown with copies of its own entries
      old.push(...old.slice(0, 1 + rng.int(3)));
    } else {
      parent[key] = structuredClone(rng.pick(HOSTILE));
    }
  }
  return copy;
}

/**
 * Runs `attempt()` and checks the fuzzers' property: it settles within TIME_BOUND_MS with a result or
 * a ConvertError (anything else fails with the input's description), and when it threw, `outputDir`
 * (if given) holds no file. Returns 'ok' or 'error'.
 */
export async function expectResultOrConvertError(attempt, describe, outputDir) {
  const started = performance.now();
  let outcome = 'ok';
  try {
    await attempt();
  } catch (e) {
    if (!(e instanceof ConvertError)) {
      throw new Error(`${describe()}: threw ${e?.constructor?.name ?? typeof e}, not a ConvertError: ${e?.stack ?? e}`);
    }
    expect(e.message.includes('\n'), `one line: ${e.message}`).toBe(false);
    if (outputDir) expect(readdirSync(outputDir), `${describe()}: files left after ${e.message}`).toEqual([]);
    outcome = 'error';
  }
  const elapsed = performance.now() - started;
  expect(elapsed, `${describe()}: took ${elapsed.toFixed(0)} ms`).toBeLessThan(TIME_BOUND_MS);
  return outcome;
}

/** A one-line description of a mutated input for failure messages: the seed and run that made it. */
export const label = (harness, run) => `${harness} (CROSSATTN_FUZZ_SEED=${SEED}, run ${run})`;

/** `bytes` mutated 1 to 3 times by mutateBytes. */
export function mutateSome(bytes, rng) {
  for (let n = 1 + rng.int(3); n > 0; n--) bytes = mutateBytes(bytes, rng);
  return bytes;
}

/**
 * The fuzz loop of a harness: `count` runs, each converting `mutate(rng)`'s { files, what } with
 * `convert(files, run)` ('ok' or 'error'), traced to CROSSATTN_FUZZ_TRACE before it runs; a failure
 * names `what`. Logs and returns the counts of converted and refused inputs.
 */
export async function fuzzRuns(harness, count, mutate, convert) {
  const rng = generator(SEED);
  const counts = { ok: 0, error: 0 };
  for (let run = 0; run < count; run++) {
    await breathe(run);
    const { files, what } = mutate(rng);
    if (process.env.CROSSATTN_FUZZ_TRACE) appendFileSync(process.env.CROSSATTN_FUZZ_TRACE, `${run} ${what}\n`);
    try {
      counts[await convert(files, run)]++;
    } catch (e) {
      e.message = `${what}: ${e.message}`;
      throw e;
    }
  }
  console.log(`${harness}: ${count} runs, seed ${SEED}: ${counts.ok} converted, ${counts.error} ConvertError`);
  return counts;
}
