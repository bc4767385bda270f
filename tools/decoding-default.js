#!/usr/bin/env node
// Greedy against beam search as the page decodes: each sentence alone through a WorkerPool of one
// node:worker_threads worker (the page's path: web/app.js's translateBatch with attention, alignment,
// residual, n-best and onToken), the model's shortlist on (the default). For every sentence the beam
// sizes run back to back, so machine load falls on all of them alike. Prints, per beam size, BLEU
// (tools/bleu.js), mean sentence chrF (tools/chrf.js), and per sentence (median, p90, in ms) the
// latency from the call to its answer (`ms`), the CPU time this process spent meanwhile (`cpu_ms`:
// the worker's decoding and the messages; what the latency is on an idle core, whatever the load of
// a shared machine), and the paired extra CPU time of each beam over greedy (`extra_cpu_ms`).
//   node tools/decoding-default.js --model FILE --src SRC --ref REF [--beams 1,2,4] [--limit N] [--out PREFIX]
// docs/api.md "Decoding defaults" holds the numbers that chose the page's and the CLIs' default.
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { WorkerPool } from '../dist/worker.js';
import { corpusBleu, readLines } from './bleu.js';
import { sentenceChrf } from './chrf.js';

const { values } = parseArgs({
  options: {
    model: { type: 'string' }, src: { type: 'string' }, ref: { type: 'string' },
    beams: { type: 'string', default: '1,2,4' }, limit: { type: 'string' }, out: { type: 'string' },
  },
});
if (!values.model || !values.src || !values.ref) {
  console.error('usage: node tools/decoding-default.js --model FILE --src SRC --ref REF [--beams 1,2,4] [--limit N] [--out PREFIX]');
  process.exit(2);
}

/** The q-quantile (0..1) of `xs` by the nearest-rank method. */
const quantile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(q * xs.length) - 1)];

const limit = values.limit ? Number(values.limit) : Infinity;
const source = readLines(values.src).slice(0, limit);
const reference = readLines(values.ref).slice(0, limit);
const beams = values.beams.split(',').map(Number);
const serve = `import(${JSON.stringify(new URL('../dist/worker.js', import.meta.url).href)}).then((m) => m.serveTranslator())`;
const pool = await WorkerPool.load([new Worker(serve, { eval: true })], values.model);
const runs = beams.map((beamSize) => ({ beamSize, texts: [], ms: [], cpu: [] }));
for (const line of source) {
  for (const run of runs) {
    const start = performance.now(), cpu = process.cpuUsage();
    const [r] = await pool.translateBatch([line], {
      attention: true, alignment: true, residual: true, beamSize: run.beamSize, nBest: Math.min(3, run.beamSize),
      onToken() {},
    });
    run.ms.push(performance.now() - start);
    const used = process.cpuUsage(cpu);
    run.cpu.push((used.user + used.system) / 1000);
    run.texts.push(r.text);
  }
}
pool.dispose();
const greedy = runs.find((r) => r.beamSize === 1);
for (const run of runs) {
  if (values.out) writeFileSync(`${values.out}.beam${run.beamSize}`, run.texts.join('\n') + '\n');
  const chrf = run.texts.reduce((s, t, i) => s + sentenceChrf(t, reference[i]), 0) / run.texts.length;
  const extra = greedy && run.cpu.map((ms, i) => ms - greedy.cpu[i]);
  const q = (xs) => xs.length && [0.5, 0.9].map((p) => Math.round(quantile(xs, p)));
  console.log(JSON.stringify({
    model: values.model.split('/').pop(), beamSize: run.beamSize, sentences: run.texts.length,
    bleu: Number(corpusBleu(run.texts, [reference]).score.toFixed(2)), chrf: Number(chrf.toFixed(2)),
    ms: q(run.ms), cpu_ms: q(run.cpu), ...(extra && { extra_cpu_ms: q(extra) }),
  }));
}
