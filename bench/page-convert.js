#!/usr/bin/env node
// `npm run bench:convert`: an OPUS-MT-size model converted in the demo page, as a user gets one by its
// Hub id: Debian's Chromium (headless) on the page served by web/serve.js, the id typed in, the files
// downloaded from a local stand-in for the Hub (tests/js/fixtures/hub-server.js), converted to int8 in
// the page's worker (dist/convert-worker.js), and the model opened (loaded into the translation workers,
// kept in Cache Storage). The model is tools/opus-mt-size-fixture.py's: Helsinki-NLP/opus-mt-en-de's
// shapes (d_model 512, 6 + 6 layers, 58,101 pieces) in a 298 MB float32 pytorch_model.bin.
//
//   npm run bench:convert [-- --runs N] [--write] [--out DIR]
//
// Measured per run, in a fresh browser context: the time from the click to the model in use, its
// download, conversion and opening parts (the page's status line), and the peak memory of the browser's
// processes, in all and above their level before the click (the sum of their proportional set sizes,
// Linux's /proc/PID/smaps_rollup, sampled every 50 ms: a page shared by several processes counts once
// over them). Medians over --runs
// (default 3). Prints JSON; with --write, into --out/performance.json (docs/ by default) as its
// `convert` section, which `npm run bench` keeps, and performance.md's section (bench/convert-report.js).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { launchChromium } from '../tests/e2e/browser.js';
import { sampleBrowserMemory } from './browser-memory.js';
import { startHub } from '../tests/js/fixtures/hub-server.js';
import { serve } from '../web/serve.js';
import { convertMarkdown, replaceConvertSection } from './convert-report.js';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const { values } = parseArgs({
  options: { runs: { type: 'string', default: '3' }, write: { type: 'boolean', default: false }, out: { type: 'string', default: path.join(root, 'docs') } },
});
const ID = 'Helsinki-NLP/opus-mt-en-de';
const FIXTURE = path.join(root, 'build/fixtures/opus-mt-size/opus-mt-en-de');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** One conversion in a fresh context: the times (ms) and the browser's peak memory above its level before. */
async function run(browser, url) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 120_000 });
  await page.evaluate(() => {
    const status = document.getElementById('open-status');
    globalThis.statusTimes = [];
    new MutationObserver(() => globalThis.statusTimes.push([performance.now(), status.textContent])).observe(status, { childList: true, characterData: true, subtree: true });
  });
  const memory = sampleBrowserMemory();
  await page.fill('#hub-id', ID);
  const start = await page.evaluate(() => performance.now());
  await page.click('#hub-open');
  await page.waitForFunction(() => globalThis.statusTimes.some(([, t]) => t.startsWith('Opened ')) ||
    !document.getElementById('open-error').hidden, null, { timeout: 600_000 });
  const { before, peak } = memory.stop();
  if (!(await page.isHidden('#open-error'))) throw new Error(await page.textContent('#open-error'));
  const times = await page.evaluate(() => globalThis.statusTimes);
  const at = (test) => times.find(([, t]) => test(t))?.[0];
  const converting = at((t) => t.startsWith('Converting ')), opening = at((t) => t.startsWith('Opening ')), opened = at((t) => t.startsWith('Opened '));
  await context.close();
  return {
    total_ms: opened - start, download_ms: converting - start, convert_ms: opening - converting, open_ms: opened - opening,
    peak_bytes_above: peak - before, peak_bytes: peak,
  };
}

execFileSync('/usr/bin/python3', [path.join(root, 'tools/opus-mt-fixtures.py'), '--out', path.join(root, 'build/fixtures/opus-mt')], { stdio: 'inherit' });
execFileSync('/usr/bin/python3', [path.join(root, 'tools/opus-mt-size-fixture.py'), '--out', FIXTURE], { stdio: 'inherit' });
const hub = await startHub({ [ID]: FIXTURE });
const { server, url } = await serve(0, { hub: hub.url });
const browser = await launchChromium();
const runs = [];
try {
  for (let i = 0; i < Number(values.runs); i++) runs.push(await run(browser, url));
} finally {
  await browser.close();
  server.close();
  await hub.close();
}
const cpu = os.cpus()[0];
const convert = {
  command: ['npm run bench:convert', ...(process.argv.length > 2 ? ['--', ...process.argv.slice(2)] : [])].join(' '),
  date: new Date().toISOString(), machine: `${cpu.model}, ${os.cpus().length} cores`, browser: `Chromium ${browser.version()}`,
  model: { id: ID, file: 'pytorch_model.bin', bytes: readFileSync(path.join(FIXTURE, 'pytorch_model.bin')).length, d_model: 512, layers: '6 + 6', vocab: 58101 },
  runs: runs.length,
  ...Object.fromEntries(Object.keys(runs[0]).map((k) => [k, Math.round(median(runs.map((r) => r[k])))])),
};
console.log(JSON.stringify(convert, null, 2));
if (values.write) {
  const file = path.join(values.out, 'performance.json');
  const report = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  writeFileSync(file, JSON.stringify({ ...report, convert }, null, 2) + '\n');
  const md = path.join(values.out, 'performance.md');
  writeFileSync(md, replaceConvertSection(readFileSync(md, 'utf8'), convertMarkdown(convert)));
}
