// The mutation fuzzer the converter harnesses share (tests/js/convert-fuzz-*.test.js): a seeded
// generator, byte mutations (bit flips, random bytes, truncation, extension, splices, big length
// fields) and JSON value swaps, driven by fast-check, and the property every reader must keep:
// whatever the input, the outcome is a result or a ConvertError on one line, within 5 s, with the
// process's peak memory within 512 MiB of its size when the harness began, and no output file left
// behind on error. Each run draws its own generator seed from fast-check, so a failure names the
// fast-check seed and path that replay it.
//   CROSSATTN_FUZZ_SECONDS=N  each harness runs N seconds (CI: 60); unset, it makes its quick count of runs
//   CROSSATTN_FUZZ_RUNS=N     the quick counts scale with N / 1000
//   CROSSATTN_FUZZ_SEED=S CROSSATTN_FUZZ_PATH=P  replays fast-check's run P of seed S (both printed on failure)
//   CROSSATTN_FUZZ_TRACE=FILE appends each run's input, before it runs, to FILE (to find one that hangs)
import { appendFileSync, readdirSync } from 'node:fs';
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { ConvertError } from '../../dist/convert/convert-error.js';

export const SEED = Number(process.env.CROSSATTN_FUZZ_SEED ?? 1);
/** Seconds each harness runs, when set (CI); else a harness makes its quick count of runs. */
export const SECONDS = Number(process.env.CROSSATTN_FUZZ_SECONDS ?? 0);
/** The runs a harness makes: its quick count, times CROSSATTN_FUZZ_RUNS / 1000 for a longer run. */
export const runs = (quick) => Math.round(quick * Number(process.env.CROSSATTN_FUZZ_RUNS ?? 1000) / 1000);
/** Every 50 runs, a turn of the event loop: Vitest's worker must answer its runner within 60 s. */
export const breathe = (run) => (run % 50 === 0 ? new Promise((resolve) => setImmediate(resolve)) : undefined);
/** The test's timeout for `n` runs: Vitest's 120 s, or 60 ms a run for a longer run. */
export const testTimeout = (n) => Math.max(120_000, 60 * n);
/** The most one conversion may take (the bar for a typed error). */
export const TIME_BOUND_MS = 5000;
/** The most the process's peak resident memory may grow past its size when a harness began. */
export const MEMORY_BOUND_BYTES = 512 * 2 ** 20;

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

/** A one-line description of a mutated input for failure messages (fast-check's report gives the seed and path that replay it). */
export const label = (harness, run) => `${harness}, run ${run}`;

/** `bytes` mutated 1 to 3 times by mutateBytes. */
export function mutateSome(bytes, rng) {
  for (let n = 1 + rng.int(3); n > 0; n--) bytes = mutateBytes(bytes, rng);
  return bytes;
}

const mib = (bytes) => (bytes / 2 ** 20).toFixed(0);

/**
 * The fuzz loop of a harness: `count` runs, or CROSSATTN_FUZZ_SECONDS of them, each converting
 * `mutate(rng)`'s { files, what } with `convert(files, run)` ('ok' or 'error'), traced to
 * CROSSATTN_FUZZ_TRACE before it runs; a failure names `what`, and a run after which the process's
 * peak memory has grown past MEMORY_BOUND_BYTES fails. Logs and returns the counts of converted and
 * refused inputs.
 */
export async function fuzzRuns(harness, count, mutate, convert) {
  const counts = { ok: 0, error: 0 };
  const startRss = process.memoryUsage.rss();
  let run = 0;
  const started = performance.now();
  const property = fc.asyncProperty(fc.noShrink(fc.integer({ min: 0, max: 0x7fffffff })), async (runSeed) => {
    await breathe(run);
    const { files, what } = mutate(generator(runSeed));
    if (process.env.CROSSATTN_FUZZ_TRACE) appendFileSync(process.env.CROSSATTN_FUZZ_TRACE, `${run} ${what}\n`);
    try {
      counts[await convert(files, run)]++;
    } catch (e) {
      e.message = `${what}: ${e.message}`;
      throw e;
    }
    const grown = process.resourceUsage().maxRSS * 1024 - startRss;
    if (grown > MEMORY_BOUND_BYTES) throw new Error(`${what}: the process's peak memory grew ${mib(grown)} MiB past its size when the harness began`);
    run++;
  });
  await fc.assert(property, {
    seed: SEED, path: process.env.CROSSATTN_FUZZ_PATH, numRuns: SECONDS ? 2 ** 31 - 1 : count, endOnFailure: true,
    ...(SECONDS ? { interruptAfterTimeLimit: SECONDS * 1000, markInterruptAsFailure: false } : {}),
  });
  const grown = process.resourceUsage().maxRSS * 1024 - startRss;
  console.log(`${harness}: ${run} runs in ${((performance.now() - started) / 1000).toFixed(0)} s, seed ${SEED}: ${counts.ok} converted, ` +
    `${counts.error} ConvertError; peak memory ${mib(Math.max(0, grown))} MiB past the start`);
  return counts;
}

/**
 * Registers the test of one reader's harness: `quick` runs (scaled by CROSSATTN_FUZZ_RUNS), or
 * CROSSATTN_FUZZ_SECONDS of runs, of `mutate` through `convert` (as fuzzRuns).
 */
export function fuzzTest(harness, reader, quick, mutate, convert) {
  const n = runs(quick);
  const length = SECONDS ? `${SECONDS} s` : `${n} runs`;
  test(`${reader}: ${length} of mutated inputs (seed ${SEED}) give a model or a one-line ConvertError, within 5 s and 512 MiB, nothing written on error`, async () => {
    const counts = await fuzzRuns(`${harness} (${reader})`, n, mutate, convert);
    expect(counts.ok + counts.error).toBeGreaterThan(0);
  }, SECONDS ? SECONDS * 1000 + 60_000 : testTimeout(n));
}
