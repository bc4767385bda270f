#!/usr/bin/env node
// Same-process A/B of two builds of the engine's wasm on one model: both translators live in one
// process and take turns sentence by sentence, the order alternating, so that the host's drifting
// speed hits both alike. On this shared 2-core machine separate processes (npm run bench) vary by
// about 10% run to run; alternating sentences shows a change of a few percent reliably. Each pass
// loads both translators afresh, in the order base then test on even passes and test then base on
// odd ones: the translator loaded second ran 2.5-4% faster than the first in the same process, with
// the same wasm on both sides (2026-11-30), so an odd number of passes leans one way (use an even
// number). Translations are decoded as npm run bench decodes them (copyThrough: false).
//
//   cp dist/crossattn.wasm build/base.wasm      # before the change
//   ... change, rebuild (bash tools/dev.sh build, or the crossattn-wasm target) ...
//   node bench/ab.js --base build/base.wasm --test dist/crossattn.wasm --model FILE --src FILE \
//       [--test-model FILE] [--passes 2] [--beam-size 1] [--limit N] [--no-shortlist] [--batch 1]
//
// Both builds run under dist/'s JavaScript glue, so they must export the same Embind interface
// (a change to bindings/embind.cc needs the glue of each build). Prints one JSON object: each
// build's total ms over all passes and target tokens/s, test_speed_vs_base (base ms / test ms, above 1
// when the test build is faster), cpu_speed_vs_base (the same ratio of the process's CPU time,
// process.cpuUsage(), user + system: on a host loaded beyond its cores the wall time of a sentence is
// mostly waiting for a core, its CPU time less), cpu_min_speed_vs_base (each sentence's least CPU
// time over the passes, summed: another tenant only ever adds time, so with 3 or more passes the
// least is the steadiest figure on a shared host), and identical: translations of the first pass
// that are the same.
// --no-shortlist scores the whole output layer where the model file has a lexical shortlist (as
// npm run bench's rows without "shortlist" in their name do). --test-model gives the test build its
// own file of the same model, for a change that goes with the file's layout (models/quantize.py).
// --batch N times translateBatch over N sentences at a time instead of translate() per sentence.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { base: { type: 'string' }, test: { type: 'string' }, model: { type: 'string' }, src: { type: 'string' },
             'test-model': { type: 'string' }, passes: { type: 'string', default: '2' }, 'beam-size': { type: 'string', default: '1' },
             limit: { type: 'string' }, 'no-shortlist': { type: 'boolean', default: false },
             batch: { type: 'string', default: '1' } },
});
for (const name of ['base', 'test', 'model', 'src']) {
  if (!values[name]) {
    console.error(`usage: node bench/ab.js --base OLD.wasm --test NEW.wasm --model FILE --src FILE [--passes N] (missing --${name})`);
    process.exit(2);
  }
}
const { Translator, prepareEngine } = await import('../dist/index.js');
let lines = readFileSync(values.src, 'utf8').split('\n').filter((l) => l.trim());
if (values.limit) lines = lines.slice(0, Number(values.limit));
const models = { base: values.model, test: values['test-model'] ?? values.model };
const builds = {};
for (const name of ['base', 'test']) {
  builds[name] = { wasm: await prepareEngine(readFileSync(values[name])), model: readFileSync(models[name]),
                   ms: 0, cpu_ms: 0, least_cpu_ms: [], tokens: 0, texts: [] };
}
const options = { attention: false, copyThrough: false, beamSize: Number(values['beam-size']), shortlist: !values['no-shortlist'] };
const passes = Number(values.passes), batch = Number(values.batch);
const chunks = [];
for (let i = 0; i < lines.length; i += batch) chunks.push(lines.slice(i, i + batch));
for (let pass = 0; pass < passes; ++pass) {
  for (const name of pass % 2 ? ['test', 'base'] : ['base', 'test']) {
    const b = builds[name];
    b.translator = await Translator.load(b.model, { wasm: b.wasm });
    // Untimed, a sentence first: a build's first translation also compiles its hot functions, and
    // the order below starts with the test build (identical builds gave 0.86x over 10 sentences without this).
    await b.translator.translate(lines[0], options);
  }
  for (const [i, chunk] of chunks.entries()) {
    for (const name of (i + pass) % 2 ? ['base', 'test'] : ['test', 'base']) {
      const b = builds[name];
      const start = performance.now(), cpu = process.cpuUsage();
      const rs = batch > 1 ? await b.translator.translateBatch(chunk, options) : [await b.translator.translate(chunk[0], options)];
      const used = process.cpuUsage(cpu);
      b.ms += performance.now() - start;
      const cpu_ms = (used.user + used.system) / 1000;
      b.cpu_ms += cpu_ms;
      b.least_cpu_ms[i] = Math.min(b.least_cpu_ms[i] ?? Infinity, cpu_ms);
      for (const r of rs) b.tokens += r.targetIds.length;
      if (pass === 0) b.texts.push(...rs.map((r) => r.text));
    }
  }
  for (const b of Object.values(builds)) b.translator.dispose();
}
const total = (values) => values.reduce((a, b) => a + b, 0);
const summary = (b) => ({ ms: Number(b.ms.toFixed(1)), tokens_per_s: Number((b.tokens / b.ms * 1000).toFixed(1)),
                          cpu_ms: Number(b.cpu_ms.toFixed(1)), tokens_per_cpu_s: Number((b.tokens / b.cpu_ms * 1000).toFixed(1)) });
console.log(JSON.stringify({
  model: values.model, test_model: models.test, sentences: lines.length, batch, passes,
  base: summary(builds.base), test: summary(builds.test),
  test_speed_vs_base: Number((builds.base.ms / builds.test.ms).toFixed(3)),
  cpu_speed_vs_base: Number((builds.base.cpu_ms / builds.test.cpu_ms).toFixed(3)),
  cpu_min_speed_vs_base: Number((total(builds.base.least_cpu_ms) / total(builds.test.least_cpu_ms)).toFixed(3)),
  identical: builds.base.texts.filter((t, i) => t === builds.test.texts[i]).length,
}));
