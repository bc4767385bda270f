#!/usr/bin/env node
// `npm run bench`: crossattn against its in-browser peers on the same trained weights, in one run.
//
//   npm run bench [-- --quick] [--runs N] [--sentences N] [--batch N] [--batch-sizes N,N,...] [--data DIR] [--out DIR]
//                 [--model FILE ...] [--test-set PREFIX] [--shortlist-train PREFIX]   (PREFIX: under --data, else from here)
//
// Translates --test-set (default multi30k/test_2016_flickr under --data; flores-dev/dev for
// Wikipedia-length sentences) with each --model (default models/multi30k-en-de's; an fp32 file, or an
// int8 file such as a shipped model's: bench/model.js), greedy, one sentence at a time,
// one thread, with: crossattn WebAssembly fp32 and int8, crossattn native (the same kernels, SSE4.1),
// onnxruntime-web (wasm, SIMD, 1 thread) on an ONNX export of the same model driven by a JS greedy
// loop, as transformers.js does, in fp32 and in the q8 form transformers.js ships
// (bench/quantize_onnx.py), and Bergamot (Marian in wasm, bench/bergamot.js) on a Marian export of the
// same weights (bench/export_marian.py), float32 and int8; also crossattn int8 with a lexical shortlist
// of the output layer (models/shortlist.py). Each peer's outputs are compared with ours
// (identical sentences), since a speed ratio means something only for the same function; Marian
// computes a different one for our pre-norm models (docs/bergamot.md). Also batch throughput (translateBatch) and the kernel
// microbenchmark (bench/kernels.cc) natively and in WebAssembly. Each engine runs in its own
// process, engines interleaved, `runs` times; timings are medians over runs. The table's batch rows
// use --batch sentences per call; --batch-sizes (default 1,4,16,32; --quick: 1,32) sweeps
// translateBatch over more sizes, and each single-sentence engine's latency is kept against source
// length. Writes performance.json (a section per model), performance.md (bench/report.js) and the plots
// of bench/plots.js (bench-tokens.svg, bench-latency.svg, bench-batch.svg for the first model,
// NAME-bench-*.svg for the others) to --out, docs/ by default. --quick (100 sentences, 1 run) is the CI smoke.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { benchModel, root, run } from './model.js';
import { benchPlots } from './plots.js';
import { performanceMarkdown, plotFile } from './report.js';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    runs: { type: 'string' },
    sentences: { type: 'string' },
    batch: { type: 'string', default: '32' },
    'batch-sizes': { type: 'string' },
    data: { type: 'string', default: process.env.CROSSATTN_DATA ?? path.join(root, '..', 'shared', 'data') },
    out: { type: 'string', default: path.join(root, 'docs') },
    model: { type: 'string', multiple: true, default: [path.join(root, 'models', 'multi30k-en-de', 'multi30k-en-de.crossattn')] },
    'test-set': { type: 'string', default: 'multi30k/test_2016_flickr' },
    'shortlist-train': { type: 'string', default: 'multi30k/train' },
  },
});
const runs = Number(values.runs ?? (values.quick ? 1 : 3));
const sentences = Number(values.sentences ?? (values.quick ? 100 : 1000));
const batch = Number(values.batch);
const batchSizes = [...new Set([...(values['batch-sizes'] ?? (values.quick ? '1,32' : '1,4,16,32')).split(',').map(Number), batch])]
  .sort((a, b) => a - b);
mkdirSync(values.out, { recursive: true });

if (!existsSync(path.join(root, 'dist', 'crossattn.wasm'))) throw new Error('no dist/crossattn.wasm: run `npm run build`');
const env = { ...process.env, NODE_PATH: process.env.NODE_PATH ?? '/usr/share/nodejs' };
run('cmake', ['--build', 'build/native', '--target', 'crossattn-bench-native', 'crossattn-kernels', '-j2'], { env });
run('cmake', ['--build', 'build/wasm', '--target', 'crossattn-kernels', '-j2'], { env });
// The relaxed SIMD build compiles with LLVM 19 through Emscripten (bindings/build-wasm.sh).
run('cmake', ['--build', 'build/wasm-relaxed', '--target', 'crossattn-kernels', '-j2'],
    { env: { ...env, EM_LLVM_ROOT: path.join(root, 'build/llvm19-for-emscripten'), EMCC_READ_METADATA: 'python' } });

const models = [];
for (const model of values.model) models.push(await benchModel(model, { ...values, sentences, runs, batch, batchSizes }));

const cpu = os.cpus()[0];
const report = {
  machine: `${cpu.model}, ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.type()} ${os.release()}, Node ${process.version}`,
  date: new Date().toISOString(),
  command: ['npm run bench', ...(process.argv.length > 2 ? ['--', ...process.argv.slice(2)] : [])].join(' '),
  sentences, runs, models,
};
// The page's first translation (bench/page-first-translation.js, `npm run bench:page -- --write`)
// is measured on its own, in Chromium, as are the conversion of a model in the page (bench/page-convert.js
// --write) and an OPUS-MT-size model against transformers.js (bench/opus-mt-size.js --write), and the
// profile by phase (bench/profile.js --write) on its own too: their sections of the previous
// performance.json are kept.
const previousFile = path.join(values.out, 'performance.json');
const previous = existsSync(previousFile) ? JSON.parse(readFileSync(previousFile, 'utf8')) : {};
if (previous.page) report.page = previous.page;
if (previous.profile) report.profile = previous.profile;
if (previous.convert) report.convert = previous.convert;  // bench/page-convert.js --write
if (previous.opus_mt) report.opus_mt = previous.opus_mt;  // bench/opus-mt-size.js --write
writeFileSync(path.join(values.out, 'performance.json'), JSON.stringify(report, null, 2) + '\n');
models.forEach((section, index) => {
  const plots = benchPlots({ ...report, ...section, model: section.name });
  for (const [file, svg] of Object.entries(plots)) writeFileSync(path.join(values.out, plotFile(report, index, file)), svg);
});
const markdown = performanceMarkdown(report);
writeFileSync(path.join(values.out, 'performance.md'), markdown);
console.log(markdown);
