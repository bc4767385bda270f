#!/usr/bin/env node
// What the costly outputs of a translation cost, same process, sentence by sentence in alternating
// order (as bench/ab.js), on one translator:
//   - unasked: translate(text) with the attention on (the default before 2026-11-27) against off (the
//     default since): wall time and the bytes of cross-attention each result carries;
//   - the page's path: translateBatch with attention, alignment and residual, as web/app.js asks, then
//     symmetrize (here with the reverse model's alignment of the same pair) with the alignment's weights
//     flattened the old way (rows copied into arrays and back into one Float32Array) against handing
//     the engine's own buffer back (engine-translation.ts, flatWeights).
//   node bench/result-cost.js --model FILE --reverse FILE --src FILE [--limit 100] [--passes 2]
// Prints one JSON object: each side's total ms and the ratio old / new (above 1: the new way is faster).
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Translator } from '../dist/index.js';

const { values } = parseArgs({
  options: { model: { type: 'string' }, reverse: { type: 'string' }, src: { type: 'string' },
             limit: { type: 'string', default: '100' }, passes: { type: 'string', default: '2' } },
});
if (!values.model || !values.reverse || !values.src) {
  console.error('usage: node bench/result-cost.js --model FILE --reverse FILE --src FILE [--limit N] [--passes N]');
  process.exit(2);
}
const lines = readFileSync(values.src, 'utf8').split('\n').filter((l) => l.trim()).slice(0, Number(values.limit));
const translator = await Translator.load(readFileSync(values.model));
const reverse = await Translator.load(readFileSync(values.reverse));

// Runs each of `sides` on every line, alternating which goes first, for `passes` passes: total ms per side.
async function alternate(sides, passes) {
  const ms = Object.fromEntries(Object.keys(sides).map((k) => [k, 0]));
  const names = Object.keys(sides);
  for (const name of names) await sides[name](lines[0]);  // untimed: compiles the hot paths of each
  for (let pass = 0; pass < passes; ++pass) {
    for (const [i, line] of lines.entries()) {
      for (const name of (i + pass) % 2 ? names : [...names].reverse()) {
        const start = performance.now();
        await sides[name](line);
        ms[name] += performance.now() - start;
      }
    }
  }
  return ms;
}

let attentionBytes = 0;
const unasked = await alternate({
  attentionOn: async (line) => {
    const r = await translator.translate(line, { attention: true });
    attentionBytes += r.crossAttention[0][0][0].buffer.byteLength;
  },
  attentionOff: (line) => translator.translate(line),
}, Number(values.passes));

// The old flattening of symmetrize (before 2026-11-27): nested rows to arrays to one Float32Array.
const oldFlat = (a) => ({ srcLen: a.weights[0]?.length ?? 0, tgtLen: a.weights.length, links: a.links,
  weights: Float32Array.from(a.weights.flatMap((row) => Array.from(row))) });
const pairs = new Map();
for (const line of lines) {
  const [r] = await translator.translateBatch([line], { attention: true, alignment: true, residual: true, beamSize: 4, nBest: 3 });
  pairs.set(line, { forward: r.alignment, backward: (await reverse.align(r.text, line, { alignment: true })).alignment });
}
const symmetrize = await alternate({
  oldFlatten: (line) => {
    const { forward, backward } = pairs.get(line);
    translator['checkOptions']({ attention: false, alignment: {} });  // as symmetrize() does first
    if ([forward, backward].some((a) => a.weights.some((row) => row.length !== a.weights[0].length))) throw new Error('ragged');
    return translator['symmetrizeEngine'](oldFlat(forward), oldFlat(backward), {});
  },
  engineBuffer: (line) => {
    const { forward, backward } = pairs.get(line);
    return translator.symmetrize(forward, backward);
  },
}, Number(values.passes) * 5);

const round = (x) => Number(x.toFixed(1));
console.log(JSON.stringify({
  model: values.model, sentences: lines.length, passes: Number(values.passes),
  unasked: { attention_on_ms: round(unasked.attentionOn), attention_off_ms: round(unasked.attentionOff),
             on_vs_off: Number((unasked.attentionOn / unasked.attentionOff).toFixed(3)),
             attention_kib_per_sentence: round(attentionBytes / 1024 / (lines.length * Number(values.passes) + 1)) },
  symmetrize: { old_flatten_ms: round(symmetrize.oldFlatten), engine_buffer_ms: round(symmetrize.engineBuffer),
                old_vs_new: Number((symmetrize.oldFlatten / symmetrize.engineBuffer).toFixed(3)) },
}));
translator.dispose();
reverse.dispose();
