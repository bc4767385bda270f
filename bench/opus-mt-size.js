#!/usr/bin/env node
// `npm run bench:opus-mt`: an OPUS-MT-size model (Helsinki-NLP/opus-mt-en-de's shapes: d_model 512,
// 6 + 6 layers, 58,101 pieces; random weights from tools/opus-mt-size-fixture.py) in Debian's Chromium
// (headless), crossattn against transformers.js on the same weights, one engine per fresh browser:
//   crossattn-int8-relaxed   the file a user gets from the Hub id (converted, int8), the default build
//   crossattn-int8-simd128   the same file on the SIMD128 build
//   crossattn-fp32           the converted float32 file
//   transformers.js-q8       its pipeline on the Xenova layout's _quantized ONNX files (bench/quantize_onnx.py)
//   transformers.js-fp32     the same on the float32 ONNX files
//
//   npm run bench:opus-mt [-- --sentences N] [--tokens N] [--runs N] [--write] [--out DIR]
//
// Each engine loads its model by URL from a server on this machine (no network time; the engine's wasm
// compiled inside the clock, as a page gets it), then translates the first --sentences (default 16)
// FLORES dev English sentences greedily, one at a time, each to exactly --tokens (default 32) target
// tokens: the model never writes eos, so every engine decodes the same number of steps. Pages are not
// cross-origin isolated, so each engine runs on one thread. Measured: load ms, the first sentence's ms,
// target tokens per second over all sentences (tokenization and detokenization inside), and the peak
// memory of the browser's processes above their level before the load (bench/browser-memory.js).
// Medians over --runs (default 3), the engines in alternating order. Prints JSON; with --write, into
// --out/performance.json (docs/ by default) as its `opus_mt` section, which `npm run bench` keeps, and
// performance.md's section (bench/opus-mt-report.js).
import { execFileSync } from 'node:child_process';
import { createReadStream, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { launchChromium } from '../tests/e2e/browser.js';
import { sampleBrowserMemory } from './browser-memory.js';
import { opusMtMarkdown, replaceOpusMtSection } from './opus-mt-report.js';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const { values } = parseArgs({
  options: {
    sentences: { type: 'string', default: '16' }, tokens: { type: 'string', default: '32' }, runs: { type: 'string', default: '3' },
    data: { type: 'string', default: process.env.CROSSATTN_DATA ?? path.join(root, '..', 'shared', 'data') },
    write: { type: 'boolean', default: false }, out: { type: 'string', default: path.join(root, 'docs') },
  },
});
const HF = path.join(root, 'build/fixtures/opus-mt-size/opus-mt-en-de');
const XENOVA = path.join(root, 'build/fixtures/opus-mt-size/xenova/opus-mt-en-de');
const WORK = path.join(root, 'build/bench/opus-mt-size');
const TJS = path.join(root, 'node_modules/@huggingface/transformers');
const ORT = path.join(TJS, 'node_modules/onnxruntime-web/dist');  // the version transformers.js is built against
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const ENGINES = [
  { name: 'crossattn-int8-relaxed', run: 'crossattnInPage', args: { model: '/models/opus-mt-en-de.int8.crossattn', simd: 'relaxed' } },
  { name: 'crossattn-int8-simd128', run: 'crossattnInPage', args: { model: '/models/opus-mt-en-de.int8.crossattn', simd: 'simd128' } },
  { name: 'crossattn-fp32', run: 'crossattnInPage', args: { model: '/models/opus-mt-en-de.crossattn', simd: 'auto' } },
  { name: 'transformers.js-q8', run: 'transformersJsInPage', args: { dtype: 'q8' } },
  { name: 'transformers.js-fp32', run: 'transformersJsInPage', args: { dtype: 'fp32' } },
];

/** The model files: the fixture folders (made if missing), and crossattn's conversions of the HF one. */
async function prepareModels() {
  execFileSync('/usr/bin/python3', [path.join(root, 'tools/opus-mt-fixtures.py'), '--out', path.join(root, 'build/fixtures/opus-mt')], { stdio: 'inherit' });
  execFileSync('/usr/bin/python3', [path.join(root, 'tools/opus-mt-size-fixture.py'), '--out', HF, '--transformers-js', XENOVA], { stdio: 'inherit' });
  const { convertModel } = await import('../dist/convert/index.js');
  const { quantizeRows } = await import('../dist/convert/quantize.js');
  const { writeModelFile } = await import('../dist/convert/model-file.js');
  const version = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).version;
  const stamp = statSync(path.join(HF, 'stamp.json')).mtimeMs;
  mkdirSync(WORK, { recursive: true });
  for (const [file, int8] of [['opus-mt-en-de.crossattn', false], ['opus-mt-en-de.int8.crossattn', true]]) {
    const out = path.join(WORK, file);
    if (existsSync(out) && statSync(out).mtimeMs > stamp) continue;
    const model = await convertModel(HF);  // as the Hub path converts a model by its id (bindings/src/hub/convert-by-name.ts)
    writeFileSync(out, await writeModelFile(int8 ? await quantizeRows(model) : model, version));
  }
}

const TYPES = { '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm', '.json': 'application/json' };

/** A static server of what the pages load: / (a blank page), /bench/, /dist/, /tjs/, /ort/, /models/. */
function startServer() {
  const folders = { '/bench/': path.join(root, 'bench'), '/dist/': path.join(root, 'dist'), '/tjs/': path.join(TJS, 'dist'), '/ort/': ORT };
  const server = createServer((req, res) => {
    const url = new URL(req.url, 'http://localhost');
    if (url.pathname === '/') return res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>bench</title>');
    let file = null;
    if (url.pathname.startsWith('/models/opus-mt-en-de/')) file = path.join(XENOVA, url.pathname.slice('/models/opus-mt-en-de/'.length));
    else if (url.pathname.startsWith('/models/')) file = path.join(WORK, url.pathname.slice('/models/'.length));
    else for (const [prefix, dir] of Object.entries(folders)) if (url.pathname.startsWith(prefix)) file = path.join(dir, url.pathname.slice(prefix.length));
    if (!file || file.includes('..') || !existsSync(file) || !statSync(file).isFile()) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'content-length': statSync(file).size });
    createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${server.address().port}/` })));
}

/** One engine in a fresh browser: its measurements and the browser's peak memory above its level before the load. */
async function runEngine(engine, url, texts, tokens) {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    page.setDefaultTimeout(600_000);
    await page.goto(url);
    const memory = sampleBrowserMemory(100);
    const r = await page.evaluate(async ([fn, args]) => (await import('/bench/opus-mt-size-page.js'))[fn](args), [engine.run, { ...engine.args, texts, tokens }]);
    const { before, peak } = memory.stop();
    return { ...r, tokens_per_s: r.target_tokens / (r.translate_ms / 1000), peak_bytes_above: peak - before, browser: browser.version() };
  } finally {
    await browser.close();
  }
}

await prepareModels();
const sentences = Number(values.sentences), tokens = Number(values.tokens);
const texts = readFileSync(path.join(values.data, 'flores-dev/dev.en'), 'utf8').split('\n').filter(Boolean).slice(0, sentences);
const { server, url } = await startServer();
const samples = Object.fromEntries(ENGINES.map((e) => [e.name, []]));
let browserVersion = null;
try {
  for (let run = 0; run < Number(values.runs); run++) {
    for (const engine of run % 2 ? [...ENGINES].reverse() : ENGINES) {
      const r = await runEngine(engine, url, texts, tokens);
      browserVersion = r.browser;
      samples[engine.name].push(r);
      console.error(`run ${run + 1} ${engine.name}: load ${Math.round(r.load_ms)} ms, ${r.tokens_per_s.toFixed(1)} tokens/s, peak +${Math.round(r.peak_bytes_above / 2 ** 20)} MiB`);
    }
  }
} finally {
  server.close();
}

const engines = Object.fromEntries(Object.entries(samples).map(([name, rs]) => [name, {
  build: rs[0].build, target_tokens: rs[0].target_tokens,
  ...Object.fromEntries(['load_ms', 'first_ms', 'tokens_per_s', 'peak_bytes_above'].map((k) => [k, Number(median(rs.map((r) => r[k])).toFixed(1))])),
}]));
// Whether the engines agree on the translations of the same weights (all texts, first run). The
// fixture's numbered pieces are not in its SentencePiece model: crossattn writes them as pieces
// ("▁w123"), transformers.js's tokenizer.json decoder as words ("w123"); spaces compared as one.
const words = (text) => text.replaceAll('\u2581', ' ').replace(/\s+/g, ' ').trim();
const agreement = (a, b) => samples[a][0].texts.filter((t, i) => words(t) === words(samples[b][0].texts[i])).length;
const cpu = os.cpus()[0];
const opusMt = {
  command: ['npm run bench:opus-mt', ...(process.argv.length > 2 ? ['--', ...process.argv.slice(2)] : [])].join(' '),
  date: new Date().toISOString(), machine: `${cpu.model}, ${os.cpus().length} cores`, browser: `Chromium ${browserVersion}, headless`,
  model: { id: 'Helsinki-NLP/opus-mt-en-de', d_model: 512, layers: '6 + 6', vocab: 58101, weights: 'random (tools/opus-mt-size-fixture.py)' },
  sentences, tokens, runs: Number(values.runs), engines,
  same_texts: {
    'crossattn-fp32 and transformers.js-fp32': agreement('crossattn-fp32', 'transformers.js-fp32'),
    'crossattn-int8-relaxed and crossattn-int8-simd128': agreement('crossattn-int8-relaxed', 'crossattn-int8-simd128'),
  },
};
console.log(JSON.stringify(opusMt, null, 2));
if (values.write) {
  const file = path.join(values.out, 'performance.json');
  const report = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  writeFileSync(file, JSON.stringify({ ...report, opus_mt: opusMt }, null, 2) + '\n');
  const md = path.join(values.out, 'performance.md');
  writeFileSync(md, replaceOpusMtSection(readFileSync(md, 'utf8'), opusMtMarkdown(opusMt)));
}
