#!/usr/bin/env node
// `npm run bench:threads`: the engine on 1 thread against 2 (or more) in Debian's Chromium, on long
// sentences, in one run.
//
//   npm run bench:threads [-- --model FILE] [--data DIR] [--test-set PREFIX] [--source-lang L]
//                         [--sentences N] [--runs N] [--threads 2,...] [--batch N] [--out DIR]
//
// The pthreads engine runs only in a cross-origin isolated browser context (bindings/src/engine.ts),
// so this serves the repository with web/serve.js and measures in a blank page of the same origin
// sent with COOP/COEP (not the demo page, whose own worker would compete for the cores). Engines:
// crossattn.wasm (what a page that is not isolated runs: the baseline), crossattn-mt.wasm on 1
// thread (its cost without threads: it is built with JavaScript-based C++ exceptions,
// bindings/build-wasm.sh), and crossattn-mt.wasm on each of --threads (default 2). Takes the
// --sentences longest sources (in words) of --test-set (default flores-dev/dev under --data; PREFIX.L
// is read, L = --source-lang, default en), loads the model once per engine and run, translates them
// one at a time (batch 1, greedy, after 3 warm-up sentences) and then in batches of --batch (default
// 16), engines interleaved, `runs` times. Reports the median target tokens/s of each engine and
// each way, its ratio to the baseline, and how many translations equal the baseline's. Writes
// threads.json and threads.md to --out (docs/ by default).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { launchChromium } from '../tests/e2e/browser.js';
import { serve } from '../web/serve.js';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const { values } = parseArgs({
  options: {
    model: { type: 'string', default: path.join(root, 'models', 'tatoeba-en-de', 'tatoeba-en-de.int8.crossattn') },
    data: { type: 'string', default: process.env.CROSSATTN_DATA ?? path.join(root, '..', 'shared', 'data') },
    'test-set': { type: 'string', default: 'flores-dev/dev' },
    'source-lang': { type: 'string', default: 'en' },
    sentences: { type: 'string', default: '100' },
    runs: { type: 'string', default: '3' },
    threads: { type: 'string', default: '2' },
    batch: { type: 'string', default: '16' },
    out: { type: 'string', default: path.join(root, 'docs') },
  },
});
const model = path.resolve(values.model);
if (!model.startsWith(path.join(root, 'models') + path.sep)) throw new Error('--model must be under models/ (web/serve.js serves only that folder)');
const runs = Number(values.runs), batch = Number(values.batch);
const testSet = path.isAbsolute(values['test-set']) ? values['test-set'] : path.join(values.data, values['test-set']);
const sources = readFileSync(`${testSet}.${values['source-lang']}`, 'utf8').split('\n').filter((s) => s.trim())
  .map((s, i) => ({ s, i, words: s.split(/\s+/).length }))
  .sort((a, b) => b.words - a.words || a.i - b.i).slice(0, Number(values.sentences)).map((x) => x.s);
const MT_WASM = '/dist/crossattn-mt.wasm';
const engines = [
  { name: 'crossattn.wasm', threads: 1, options: { threads: 1 } },
  { name: 'crossattn-mt.wasm', threads: 1, options: { threads: 1, wasm: MT_WASM } },
  ...values.threads.split(',').map(Number).map((n) => ({ name: 'crossattn-mt.wasm', threads: n, options: { threads: n, wasm: MT_WASM } })),
];

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// Loads the model with `options` in the page, translates `sources` one at a time and in batches.
async function measure(page, modelUrl, options) {
  return page.evaluate(async ({ modelUrl, sources, options, batch }) => {
    const { Translator } = await import('/dist/index.js');
    const t = await Translator.load(modelUrl, options);
    for (const s of sources.slice(0, 3)) await t.translate(s);
    const texts = [];
    let tokens = 0, batchTokens = 0;
    const start = performance.now();
    for (const s of sources) {
      const r = await t.translate(s);
      tokens += r.targetTokens.length;
      texts.push(r.text);
    }
    const ms = performance.now() - start, batchStart = performance.now();
    for (let i = 0; i < sources.length; i += batch) {
      for (const r of await t.translateBatch(sources.slice(i, i + batch))) batchTokens += r.targetTokens.length;
    }
    const batchMs = performance.now() - batchStart, threads = t.threads;
    t.dispose();
    return { threads, texts, tokensPerS: tokens / (ms / 1000), batchTokensPerS: batchTokens / (batchMs / 1000) };
  }, { modelUrl, sources, options, batch });
}

const { server, url } = await serve(0);
const browser = await launchChromium();
try {
  const page = await browser.newPage();
  const blank = new URL('/bench-threads', url).href;
  await page.route(blank, (route) => route.fulfill({
    status: 200, contentType: 'text/html',
    headers: { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' },
    body: '<!doctype html><title>bench:threads</title>',
  }));
  await page.goto(blank);
  const env = await page.evaluate(() => ({ isolated: crossOriginIsolated, cores: navigator.hardwareConcurrency }));
  if (!env.isolated) throw new Error('the bench page is not cross-origin isolated: no pthreads engine');
  const modelUrl = `/${path.relative(root, model)}`;
  const results = engines.map(() => ({ single: [], batched: [], texts: null }));
  for (let run = 0; run < runs; ++run) {
    for (const [i, engine] of engines.entries()) {
      const r = await measure(page, modelUrl, engine.options);
      if (r.threads !== engine.threads) throw new Error(`${engine.name} asked for ${engine.threads} threads, runs ${r.threads} (cores: ${env.cores})`);
      results[i].single.push(r.tokensPerS);
      results[i].batched.push(r.batchTokensPerS);
      results[i].texts ??= r.texts;
      console.log(`run ${run + 1}/${runs}, ${engine.name} on ${engine.threads} thread(s): ${r.tokensPerS.toFixed(0)} tokens/s, ` +
                  `batch ${batch}: ${r.batchTokensPerS.toFixed(0)} tokens/s`);
    }
  }
  const base = median(results[0].single), batchBase = median(results[0].batched);
  const rows = engines.map((engine, i) => ({
    engine: engine.name, threads: engine.threads,
    tokens_per_s: Math.round(median(results[i].single)), ratio: +(median(results[i].single) / base).toFixed(2),
    batch_tokens_per_s: Math.round(median(results[i].batched)), batch_ratio: +(median(results[i].batched) / batchBase).toFixed(2),
    identical: results[i].texts.filter((t, j) => t === results[0].texts[j]).length,
  }));
  const report = {
    command: `npm run bench:threads -- ${process.argv.slice(2).join(' ')}`.trim().replace(/ --$/, ''),
    date: new Date().toISOString(),
    model: path.relative(root, model), test_set: values['test-set'], sentences: sources.length,
    mean_source_words: +(sources.reduce((n, s) => n + s.split(/\s+/).length, 0) / sources.length).toFixed(1),
    batch, runs, browser: browser.version(), cores: env.cores, cpu: os.cpus()[0]?.model ?? 'unknown', rows,
  };
  mkdirSync(values.out, { recursive: true });
  writeFileSync(path.join(values.out, 'threads.json'), `${JSON.stringify(report, null, 2)}\n`);
  const md = [
    '# Threads: one engine thread against several',
    '',
    `Generated by \`${report.command}\` (bench/threads.js) on ${report.date.slice(0, 10)}: ${report.model}, the ${report.sentences} longest`,
    `sources of ${report.test_set} (${report.mean_source_words} words on average), greedy, one sentence at a time`,
    `(batch 1) and in batches of ${batch} (translateBatch), in a cross-origin isolated page of Chromium`,
    `${report.browser} on ${report.cores} cores (${report.cpu}), median of ${runs} runs. The baseline is`,
    'crossattn.wasm, what a page that is not isolated runs; crossattn-mt.wasm is the pthreads engine.',
    '',
    `| engine | threads | target tokens/s, batch 1 | vs baseline | tokens/s, batch ${batch} | vs baseline | batch-1 translations equal to the baseline's |`,
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map((r) => `| ${r.engine} | ${r.threads} | ${r.tokens_per_s} | ${r.ratio.toFixed(2)}x | ${r.batch_tokens_per_s} | ` +
                       `${r.batch_ratio.toFixed(2)}x | ${r.identical}/${report.sentences} |`),
    '',
    'Threads split each matrix product by output features (cpp/kernels/parallel.h), so the translations',
    'are the same; the rest of a decode step (attention, softmax, the search) stays on one thread, and',
    'a product of fewer than 2^17 multiply-adds is not split, since a fork-join costs about as long as',
    'such a product takes (`int8_gops_2_threads` of the kernel benchmark, bench/kernels.cc, shows where',
    'splitting pays).',
    '',
  ].join('\n');
  writeFileSync(path.join(values.out, 'threads.md'), md);
  console.log(md);
} finally {
  await browser.close();
  server.close();
}
