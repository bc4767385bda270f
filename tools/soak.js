#!/usr/bin/env node
// Soak: many translations through one Translator, with every kind of call the API offers (greedy,
// beam search with an n-best list, alignments, residual statistics, streaming with a signal, a
// batch, forced alignment, a refused call), checking that the same call always gives the same
// result and that the WebAssembly memory stops growing once every kind of call has run once.
//   node tools/soak.js [--model FILE] [--count 5000]
// Prints one JSON line: calls, seconds, memory after the warm-up round and at the end (bytes), and
// the mismatches found; exits 1 when a result changed or the memory grew after the warm-up.
// tests/js/soak.test.js runs a short soak in CI; docs/reliability.md has the 5,000-call numbers.
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { InvalidInputError, Translator } from '../dist/index.js';

const SENTENCES = [
  'A dog runs through the grass.',
  'Two young men in green shirts are playing football on a field while a crowd watches them.',
  'A woman in a red coat is reading a newspaper at the bus stop.',
  'Children.',
  'The old man with the long white beard sits on a bench in the park and feeds the pigeons with bread crumbs.',
  'Is this your bike?',
];

// The kinds of call, each a function of (translator, sentence) that returns what must not change.
const CALLS = [
  async (t, s) => (await t.translate(s)).text,
  async (t, s) => (await t.translate(s, { beamSize: 4, nBest: 2 })).hypotheses.map((h) => `${h.text} ${h.score.toFixed(4)}`).join('|'),
  async (t, s) => JSON.stringify((await t.translate(s, { alignment: true, attention: false })).alignment.links),
  async (t, s) => (await t.translate(s, { residual: true })).residual.length,
  async (t, s) => {
    let events = 0;
    const r = await t.translate(s, { onToken: () => { ++events; }, signal: new AbortController().signal });
    return `${r.text} ${events > 0}`;
  },
  async (t, s) => (await t.translateBatch([s, SENTENCES[0]], { beamSize: 2 })).map((r) => r.text).join('|'),
  async (t, s) => (await t.align(s, 'Ein Hund rennt durch das Gras.')).logProb.toFixed(4),
  async (t, s) => {
    try {
      await t.translate(s, { beamSize: 0 });
      return 'accepted';
    } catch (e) {
      return e instanceof InvalidInputError ? 'InvalidInputError' : String(e);
    }
  },
];

/**
 * Runs `count` calls (at least one round of every kind of call on every sentence) through one
 * translator loaded from `model`. Returns { calls, seconds, memoryAfterWarmup, memoryAtEnd,
 * mismatches } where mismatches lists the calls whose result differed from the first time.
 */
export async function soak(model, count) {
  const translator = await Translator.load(model);
  const first = new Map();
  const mismatches = [];
  const round = SENTENCES.length * CALLS.length;
  let memoryAfterWarmup = 0;
  const start = performance.now();
  try {
    for (let i = 0; i < Math.max(count, round); ++i) {
      const key = i % round;
      const result = await CALLS[key % CALLS.length](translator, SENTENCES[Math.floor(key / CALLS.length)]);
      if (!first.has(key)) first.set(key, result);
      else if (first.get(key) !== result) mismatches.push({ call: i, kind: key % CALLS.length, expected: first.get(key), got: result });
      if (i === round - 1) memoryAfterWarmup = translator.memoryBytes;
    }
    return {
      calls: Math.max(count, round), seconds: Number(((performance.now() - start) / 1000).toFixed(1)),
      memoryAfterWarmup, memoryAtEnd: translator.memoryBytes, mismatches,
    };
  } finally {
    translator.dispose();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({
    options: {
      model: { type: 'string', default: new URL('../models/multi30k-en-de/multi30k-en-de.int8.crossattn', import.meta.url).pathname },
      count: { type: 'string', default: '5000' },
    },
  });
  const report = await soak(values.model, Number(values.count));
  console.log(JSON.stringify({ model: values.model, ...report, mismatches: report.mismatches.slice(0, 5) }));
  process.exitCode = report.mismatches.length > 0 || report.memoryAtEnd > report.memoryAfterWarmup ? 1 : 0;
}
