#!/usr/bin/env node
// `npm run bench:page`: the demo page's first translation in Debian's Chromium (headless), from the
// navigation to the first translated sentence of the page's example text, on the catalog's default
// model (the first direction, en-de), served by web/serve.js.
//
//   npm run bench:page [-- --runs N] [--baseline DIR [--baseline-note TEXT] | --builds] [--write] [--out DIR]
//
// Each run opens a fresh browser context (empty HTTP cache, no service worker, empty Cache Storage)
// and loads the page: cold. Once the service worker keeps the model (web/sw.js), the page is reloaded:
// warm (the page, its scripts and the wasm revalidated with the server, the model from Cache Storage).
// The phases come from the page's own marks (web/page-marks.js) and its Resource Timing entries.
// --baseline DIR serves another copy of the site (the repository's layout: web/, dist/, models/,
// node_modules/), with its own web/serve.js, beside this one, runs alternating, so that a change is measured against what it
// changes on the same machine at the same time. --builds serves this repository's page three ways,
// alternating, to compare the engine builds: cross-origin isolated (the pthreads build, as
// web/serve.js serves it), and not isolated (as a static host without COOP and COEP serves it: one
// thread) with the page's simd parameter at 'relaxed' and at 'simd128'. Medians over --runs (default 5). Prints JSON; with
// --write, the medians (this repository's page, and the baseline's, with --baseline-note saying what
// it is) go into --out/performance.json (docs/ by default) as its `page` section, which `npm run
// bench` keeps, and into performance.md's section (bench/page-report.js).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { launchChromium } from '../tests/e2e/browser.js';
import { pageMarkdown, replacePageSection } from './page-report.js';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    baseline: { type: 'string' },
    'baseline-note': { type: 'string', default: 'the page before this change' },
    builds: { type: 'boolean', default: false },
    write: { type: 'boolean', default: false },
    out: { type: 'string', default: path.join(root, 'docs') },
  },
});
const runs = Number(values.runs);
const median = (xs) => {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  return s.length ? Math.round(s[Math.floor(s.length / 2)]) : null;
};

// What the page knows of its load once it has translated: its marks and the Resource Timing of the
// wasm, the model and the catalog (ms since the navigation started).
function readTimings() {
  const marks = Object.fromEntries(performance.getEntriesByType('mark')
    .filter((m) => m.name.startsWith('crossattn:')).map((m) => [m.name.slice('crossattn:'.length), m.startTime]));
  const resources = performance.getEntriesByType('resource');
  const entry = (test) => {
    const r = resources.find((e) => test(new URL(e.name).pathname));
    return r ? { start: r.startTime, end: r.responseEnd } : null;
  };
  const nav = performance.getEntriesByType('navigation')[0];
  return {
    marks, dom_content_loaded: nav.domContentLoadedEventEnd,
    wasm: entry((p) => p.endsWith('.wasm')), model: entry((p) => p.endsWith('.crossattn')), catalog: entry((p) => p.endsWith('catalog.json')),
    wasm_file: resources.map((e) => new URL(e.name).pathname).find((p) => p.endsWith('.wasm'))?.split('/').pop() ?? null,
    controlled: Boolean(navigator.serviceWorker?.controller), isolated: globalThis.crossOriginIsolated === true,
    target: document.querySelector('#target').textContent.trim(),
    beam_size: Number(document.querySelector('#beam-size').value),
  };
}

// One load's phases (ms) from readTimings(): the totals, and what each phase took.
function phases(t) {
  const m = t.marks;
  return {
    first_translation_ms: m['first-translation'], first_token_ms: m['first-token'],
    scripts_ms: t.dom_content_loaded,  // the page and its module scripts, run
    service_worker_ms: m['service-worker'],  // it controls the page (a first visit waits for it)
    catalog_end_ms: t.catalog?.end,
    wasm_fetch_ms: t.wasm ? t.wasm.end - t.wasm.start : null,
    wasm_ready_ms: m['engine-compiled'],  // fetched, compiled and warmed up, since the navigation
    model_request_ms: m['model-request'],
    model_download_ms: m['model-downloaded'] - m['model-request'],
    model_prepare_ms: m['model-ready'] - m['model-downloaded'],  // after the last byte: instantiate, parse
    translate_ms: m['first-translation'] - m['model-ready'],
  };
}

async function waitForTranslation(page) {
  await page.waitForFunction(() => performance.getEntriesByName('crossattn:first-translation').length > 0, null,
    { timeout: 120_000, polling: 50 });
  return page.evaluate(readTimings);
}

/** One cold load in a fresh context, then a warm reload once the service worker keeps the model. */
async function coldAndWarm(browser, url) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(url);
    const cold = await waitForTranslation(page);
    await page.waitForFunction(() => caches.open('crossattn-v1').then(async (c) =>
      (await c.keys()).some((r) => r.url.endsWith('.crossattn'))), null, { timeout: 60_000, polling: 100 });
    await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
    await page.reload();
    const warm = await waitForTranslation(page);
    if (!warm.controlled) throw new Error('the reload was not controlled by the service worker');
    return { cold, warm };
  } finally {
    await context.close();
  }
}

const sites = values.builds
  ? [{ label: 'page', root, isolated: true, query: '' }, { label: 'relaxed', root, isolated: false, query: '?simd=relaxed' },
     { label: 'simd128', root, isolated: false, query: '?simd=simd128' }]
  : [{ label: 'page', root, isolated: true, query: '' }];
if (values.baseline) sites.unshift({ label: 'baseline', root: path.resolve(values.baseline), isolated: true, query: '' });
for (const site of sites) {  // each site served by its own web/serve.js
  const { serve } = await import(pathToFileURL(path.join(site.root, 'web', 'serve.js')).href);
  site.server = await serve(0, { root: site.root, isolated: site.isolated });
}
const browser = await launchChromium();
const samples = Object.fromEntries(sites.map((s) => [s.label, { cold: [], warm: [] }]));
let target = null, isolated = null, beamSize = null;
const loadBefore = os.loadavg()[0];
try {
  for (let run = 0; run < runs; run++) {
    for (const site of run % 2 ? [...sites].reverse() : sites) {
      const { cold, warm } = await coldAndWarm(browser, site.server.url + site.query);
      site.wasm ??= cold.wasm_file;
      target ??= cold.target;
      isolated ??= cold.isolated;
      beamSize ??= cold.beam_size;
      samples[site.label].cold.push(phases(cold));
      samples[site.label].warm.push(phases(warm));
      console.error(`run ${run + 1} ${site.label}: cold ${Math.round(cold.marks['first-translation'])} ms, warm ${Math.round(warm.marks['first-translation'])} ms`);
    }
  }
} finally {
  await browser.close();
  for (const site of sites) site.server.server.close();
}

// In how many runs the page's first translation came before the baseline's (the runs alternate).
const fasterIn = (kind) => samples.page[kind].filter((p, i) => p.first_translation_ms < samples.baseline[kind][i].first_translation_ms).length;
const medians = (list) => Object.fromEntries(Object.keys(list[0]).map((k) => [k, median(list.map((p) => p[k]))]));
const cpu = os.cpus()[0];
const result = {
  date: new Date().toISOString(),
  command: ['npm run bench:page', ...(process.argv.length > 2 ? ['--', ...process.argv.slice(2)] : [])].join(' '),
  machine: `${cpu.model}, ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.type()} ${os.release()}`,
  browser: `Chromium ${browser.version()}, headless`,
  model: JSON.parse(readFileSync(path.join(root, 'models', 'catalog.json'), 'utf8')).directions[0].model,
  engine: isolated ? 'crossattn-mt.wasm (the page is cross-origin isolated)' : 'crossattn.wasm',
  runs, first_translation: target, beam_size: beamSize,
  load_average: [loadBefore, os.loadavg()[0]].map((x) => Number(x.toFixed(1))),  // of the machine, before and after
  ...(values.baseline ? { faster_than_baseline: { cold: fasterIn('cold'), warm: fasterIn('warm') } } : {}),
  ...Object.fromEntries(sites.map((s) => [s.label, { cold: medians(samples[s.label].cold), warm: medians(samples[s.label].warm) }])),
  ...(values.builds ? { builds: sites.map((s) => ({ label: s.label, wasm: s.wasm, isolated: s.isolated })) } : {}),
};
console.log(JSON.stringify(result, null, 2));

if (values.write) {
  const page = values.baseline ? { ...result, baseline_note: values['baseline-note'] } : result;
  const file = path.join(values.out, 'performance.json');
  const report = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  writeFileSync(file, `${JSON.stringify({ ...report, page }, null, 2)}\n`);
  const md = path.join(values.out, 'performance.md');
  if (existsSync(md)) writeFileSync(md, replacePageSection(readFileSync(md, 'utf8'), pageMarkdown(page, report)));
}
