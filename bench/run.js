#!/usr/bin/env node
// `npm run bench`: crossattn against its in-browser peers on the same trained weights, in one run.
//
//   npm run bench [-- --quick] [--runs N] [--sentences N] [--batch N] [--batch-sizes N,N,...] [--data DIR] [--out DIR]
//                 [--model FILE] [--test-set PREFIX] [--shortlist-train PREFIX]   (PREFIX: under --data, else from here)
//
// Translates --test-set (default multi30k/test_2016_flickr under --data; flores-dev/dev for
// Wikipedia-length sentences) with --model (an fp32 model file, default models/multi30k-en-de's; its
// int8 file is the sibling NAME.int8.crossattn, else quantized here), greedy, one sentence at a time,
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
// length. Writes performance.json, performance.md and the plots of bench/plots.js (bench-tokens.svg,
// bench-latency.svg, bench-batch.svg) to --out, docs/ by default. --quick (100 sentences, 1 run) is the CI smoke.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, openSync, readFileSync, readSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { corpusBleu, readLines } from '../tools/bleu.js';
import { benchPlots } from './plots.js';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    runs: { type: 'string' },
    sentences: { type: 'string' },
    batch: { type: 'string', default: '32' },
    'batch-sizes': { type: 'string' },
    data: { type: 'string', default: process.env.CROSSATTN_DATA ?? path.join(root, '..', 'shared', 'data') },
    out: { type: 'string', default: path.join(root, 'docs') },
    model: { type: 'string', default: path.join(root, 'models', 'multi30k-en-de', 'multi30k-en-de.crossattn') },
    'test-set': { type: 'string', default: 'multi30k/test_2016_flickr' },
    'shortlist-train': { type: 'string', default: 'multi30k/train' },
  },
});
const runs = Number(values.runs ?? (values.quick ? 1 : 3));
const sentences = Number(values.sentences ?? (values.quick ? 100 : 1000));
const batch = Number(values.batch);
const batchSizes = [...new Set([...(values['batch-sizes'] ?? (values.quick ? '1,32' : '1,4,16,32')).split(',').map(Number), batch])]
  .sort((a, b) => a - b);
const fp32Model = path.resolve(values.model);
const modelName = path.basename(fp32Model, '.crossattn');
// The peers' exports and the source file are cached per model and test set.
const work = path.join(root, 'build', 'bench', `${modelName}-${values['test-set'].replaceAll('/', '-')}`);
mkdirSync(work, { recursive: true });
mkdirSync(values.out, { recursive: true });

function run(command, args, options = {}) {
  return execFileSync(command, args, { cwd: root, encoding: 'utf8', maxBuffer: 1 << 28, ...options });
}

// --- Inputs and the peers' artifacts -------------------------------------------------------------
if (!existsSync(path.join(root, 'dist', 'crossattn.wasm'))) throw new Error('no dist/crossattn.wasm: run `npm run build`');
const env = { ...process.env, NODE_PATH: process.env.NODE_PATH ?? '/usr/share/nodejs' };
const { sourceLang, targetLang } = await (async () => {
  const { Translator } = await import('../dist/index.js');
  const translator = await Translator.load(fp32Model);
  const { config } = translator;
  translator.dispose();
  return config;
})();
// A set's file for one language, PREFIX.LANG or PREFIX.LANG.gz, under --data, else from the working
// directory (such as build/data/general/finetune, made by models/prepare_general.py).
const setFile = (prefix, lang) => {
  for (const dir of [values.data, '.']) {
    const file = path.resolve(dir, `${prefix}.${lang}`);
    if (existsSync(`${file}.gz`)) return `${file}.gz`;
    if (existsSync(file)) return file;
  }
  throw new Error(`no ${prefix}.${lang} or ${prefix}.${lang}.gz under ${values.data} or ${process.cwd()}`);
};
const source = readLines(setFile(values['test-set'], sourceLang)).slice(0, sentences);
const reference = readLines(setFile(values['test-set'], targetLang)).slice(0, sentences);
const srcFile = path.join(work, `test.${sourceLang}`);
writeFileSync(srcFile, source.join('\n') + '\n');

const siblingInt8 = fp32Model.replace(/\.crossattn$/, '.int8.crossattn');
const int8Model = existsSync(siblingInt8) ? siblingInt8 : path.join(work, `${modelName}.int8.crossattn`);
if (!existsSync(int8Model) || statSync(int8Model).mtimeMs < statSync(fp32Model).mtimeMs) {
  run('/usr/bin/python3', ['models/quantize.py', '--model', fp32Model, '--out', int8Model]);
}
run('cmake', ['--build', 'build/native', '--target', 'crossattn-bench-native', 'crossattn-kernels', '-j2'], { env });
run('cmake', ['--build', 'build/wasm', '--target', 'crossattn-kernels', '-j2'], { env });

const onnxDir = path.join(work, 'onnx');
const onnxSources = path.join(onnxDir, 'sources.json');
if (!existsSync(onnxSources) || statSync(onnxSources).mtimeMs < statSync(fp32Model).mtimeMs ||
    JSON.parse(readFileSync(onnxSources, 'utf8')).sources.length !== sentences) {
  console.error('exporting the model to ONNX (bench/export_onnx.py) ...');
  run('/usr/bin/python3', ['bench/export_onnx.py', '--model', fp32Model, '--src', srcFile, '--out', onnxDir],
      { stdio: ['ignore', 'inherit', 'ignore'] });
}

// transformers.js's q8: the same export, MatMul weights int8 (bench/quantize_onnx.py).
const onnxQ8Dir = path.join(work, 'onnx-q8');
if (!existsSync(path.join(onnxQ8Dir, 'sources.json')) ||
    statSync(path.join(onnxQ8Dir, 'sources.json')).mtimeMs < statSync(onnxSources).mtimeMs) {
  console.error('quantizing the ONNX export to q8 (bench/quantize_onnx.py) ...');
  mkdirSync(onnxQ8Dir, { recursive: true });
  for (const part of ['encoder', 'decoder']) {
    run('/usr/bin/python3', ['bench/quantize_onnx.py', path.join(onnxDir, `${part}.onnx`), path.join(onnxQ8Dir, `${part}.onnx`)]);
  }
  copyFileSync(onnxSources, path.join(onnxQ8Dir, 'sources.json'));
}

// Bergamot's models: Marian's binary format from our fp32 file (float32) and our int8 file (intgemm8).
const marian = { fp32: path.join(work, 'marian-fp32'), int8: path.join(work, 'marian-int8') };
for (const [kind, [model, gemmType]] of Object.entries({ fp32: [fp32Model, 'float32'], int8: [int8Model, 'intgemm8'] })) {
  const file = path.join(marian[kind], 'differences.json');
  if (existsSync(file) && statSync(file).mtimeMs > statSync(model).mtimeMs) continue;
  console.error(`exporting the ${kind} model to Marian's format (bench/export_marian.py) ...`);
  run('/usr/bin/python3', ['bench/export_marian.py', '--model', model, '--out', marian[kind], '--gemm-type', gemmType]);
}

// What makes Marian compute another function than ours on this model (bench/export_marian.py; [] when
// the model follows native Marian's conventions: docs/bergamot.md).
const marianDifferences = JSON.parse(readFileSync(path.join(marian.fp32, 'differences.json'), 'utf8'));

// The lexical shortlist (docs/model-format.md): the fp32 and int8 models with a table made from the
// pairs of --shortlist-train, aligned with the model's own vocabulary (models/ibm2_align.py,
// models/shortlist.py). Both precisions share the vocabulary, so one set of links serves both.
const shortlistSlug = path.resolve(values.data, values['shortlist-train']).split(path.sep).slice(-2).join('-');
const shortlistLinks = path.join(work, `${shortlistSlug}.align.gz`);
const shortlistTrain = (lang) => setFile(values['shortlist-train'], lang);
/** `model` with the lexical shortlist added, as the file name it is written to. */
function withShortlist(model, precision) {
  const out = path.join(work, `${modelName}.${precision}.shortlist-${shortlistSlug}.crossattn`);
  if (existsSync(out) && statSync(out).mtimeMs >= statSync(model).mtimeMs) return out;
  console.error(`adding a lexical shortlist to the ${precision} model (models/ibm2_align.py, models/shortlist.py) ...`);
  if (!existsSync(shortlistLinks) || statSync(shortlistLinks).mtimeMs < statSync(model).mtimeMs) {  // a new model may bring a new vocabulary
    run('/usr/bin/python3', ['models/ibm2_align.py', '--spm', model, '--src', shortlistTrain(sourceLang),
      '--tgt', shortlistTrain(targetLang), '--out', shortlistLinks], { stdio: ['ignore', 'ignore', 'ignore'] });
  }
  run('/usr/bin/python3', ['models/shortlist.py', '--model', model, '--src', shortlistTrain(sourceLang),
    '--tgt', shortlistTrain(targetLang), '--alignment', shortlistLinks, '--out', out]);
  return out;
}
const shortlistModels = { fp32: withShortlist(fp32Model, 'fp32'), int8: withShortlist(int8Model, 'int8') };

// --- Engines ------------------------------------------------------------------------------------
const native = path.join(root, 'build/native/bench/crossattn-bench-native');
const node = process.execPath;
const wasmModels = { fp32: fp32Model, int8: int8Model };
/** crossattn WebAssembly `precision` with translateBatch of `size` sentences per call, as [name, command]. */
const batchEngine = (precision, size) => [`crossattn-wasm-${precision}-batch${size}`,
  [node, ['bench/engine.js', 'crossattn', '--model', wasmModels[precision], '--src', srcFile, '--batch', String(size)]]];
// The rows of the table, in its order.
const engines = {
  'crossattn-wasm-fp32': [node, ['bench/engine.js', 'crossattn', '--model', fp32Model, '--src', srcFile]],
  'crossattn-wasm-int8': [node, ['bench/engine.js', 'crossattn', '--model', int8Model, '--src', srcFile]],
  'crossattn-wasm-fp32-shortlist': [node, ['bench/engine.js', 'crossattn', '--model', shortlistModels.fp32, '--src', srcFile]],
  'crossattn-wasm-int8-shortlist': [node, ['bench/engine.js', 'crossattn', '--model', shortlistModels.int8, '--src', srcFile]],
  'crossattn-native': [native, ['--model', fp32Model]],
  'crossattn-native-int8': [native, ['--model', int8Model]],
  'onnxruntime-web': [node, ['bench/engine.js', 'onnxruntime', '--onnx', onnxDir]],
  'onnxruntime-web-q8': [node, ['bench/engine.js', 'onnxruntime', '--onnx', onnxQ8Dir]],
  'bergamot-wasm-fp32': [node, ['bench/engine.js', 'bergamot', '--marian', marian.fp32, '--gemm', 'float32', '--src', srcFile, '--model', fp32Model]],
  'bergamot-wasm-int8': [node, ['bench/engine.js', 'bergamot', '--marian', marian.int8, '--gemm', 'int8shiftAll', '--src', srcFile, '--model', int8Model]],
  ...Object.fromEntries(Object.keys(wasmModels).map((precision) => batchEngine(precision, batch))),
  'crossattn-wasm-int8-beam4': [node, ['bench/engine.js', 'crossattn', '--model', int8Model, '--src', srcFile, '--beam-size', '4']],
};
// The batch sizes of the sweep that the table leaves out (bench-batch.svg and batch_sweep only).
const sweepEngines = Object.fromEntries(batchSizes.filter((size) => size !== batch)
  .flatMap((size) => Object.keys(wasmModels).map((precision) => batchEngine(precision, size))));
const allEngines = { ...engines, ...sweepEngines };

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };
const quantile = (xs, q) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(q * s.length))]; };

const passes = Object.fromEntries(Object.keys(allEngines).map((name) => [name, []]));
for (let r = 0; r < runs; r++) {
  for (const [name, [command, args]] of Object.entries(allEngines)) {
    console.error(`run ${r + 1}/${runs}: ${name}`);
    const input = command === native ? readFileSync(srcFile) : undefined;
    passes[name].push(JSON.parse(run(command, args, { input })));
  }
}

const measured = {};
for (const [name, list] of Object.entries(passes)) {
  const perRun = list.map((p) => {
    const seconds = p.sentence_ms.reduce((a, b) => a + b, 0) / 1000;
    return { tokens_per_s: p.target_tokens / seconds, sentences_per_s: sentences / seconds,
             p50_ms: quantile(p.sentence_ms, 0.5), p95_ms: quantile(p.sentence_ms, 0.95), load_ms: p.load_ms };
  });
  const m = (key) => Number(median(perRun.map((x) => x[key])).toFixed(key.endsWith('_ms') ? 2 : 1));
  measured[name] = {
    tokens_per_s: m('tokens_per_s'), sentences_per_s: m('sentences_per_s'), p50_ms: m('p50_ms'), p95_ms: m('p95_ms'),
    load_ms: m('load_ms'), peak_memory_bytes: Math.max(...list.map((p) => p.peak_memory_bytes)),
    bleu: Number(corpusBleu(list[0].translations, [reference]).score.toFixed(2)),
    target_tokens: list[0].target_tokens,
  };
  const batchSize = /-batch(\d+)$/.exec(name)?.[1];
  if (batchSize) measured[name].batch = Number(batchSize);
}
// Load: a first load in a fresh process, LOAD_RUNS times per WebAssembly engine, the median (the
// translation passes above load once each, too few for a number this noisy). bench/engine.js starts
// the clock with the engine's wasm compiled, for ours (prepareEngine) as for Bergamot; the compile is
// engine_compile_ms. onnxruntime-web's first session includes its runtime's start.
const LOAD_RUNS = values.quick ? 1 : 7;
for (const [name, [command, args]] of Object.entries(engines)) {
  if (command !== node || measured[name].batch || name.endsWith('-beam4')) continue;
  console.error(`load x${LOAD_RUNS}: ${name}`);
  const loads = Array.from({ length: LOAD_RUNS }, () => JSON.parse(run(command, [...args, '--load-only'])));
  measured[name].load_ms = Number(median(loads.map((l) => l.load_ms)).toFixed(2));
  measured[name].load_runs = LOAD_RUNS;
  if (name.startsWith('crossattn')) measured[name].engine_compile_ms = Number(median(loads.map((l) => l.engine_compile_ms)).toFixed(2));
}
const results = Object.fromEntries(Object.keys(engines).map((name) => [name, measured[name]]));
const batchSweep = Object.fromEntries(Object.keys(wasmModels).map((precision) => [`crossattn-wasm-${precision}`,
  batchSizes.map((size) => {
    const r = measured[`crossattn-wasm-${precision}-batch${size}`];
    return { batch_size: size, tokens_per_s: r.tokens_per_s, sentences_per_s: r.sentences_per_s, p50_ms_per_call: r.p50_ms };
  })]));
const peer = results['onnxruntime-web'];
for (const r of Object.values(results)) {
  r.ratio_to_onnxruntime_web = Object.fromEntries(
    ['tokens_per_s', 'sentences_per_s', 'p50_ms', 'p95_ms', 'load_ms', 'peak_memory_bytes']
      .map((k) => [k, Number((r[k] / peer[k]).toFixed(2))]));
}
// Does each peer compute our function? Its outputs against ours on the same weights (fp32 peers
// against crossattn fp32, int8 peers against crossattn int8).
for (const [name, r] of Object.entries(results)) {
  if (name.startsWith('crossattn')) continue;
  const ours = /q8|int8/.test(name) ? 'crossattn-wasm-int8' : 'crossattn-wasm-fp32';
  const same = passes[name][0].translations.filter((t, i) => t === passes[ours][0].translations[i]).length;
  r.agreement = { with: ours, identical_sentences: same, of: sentences, bleu_minus_ours: Number((r.bleu - results[ours].bleu).toFixed(2)) };
}

// --- Latency against source length (bench-latency.svg) ------------------------------------------
// Each sentence's median time over runs, then the median per bucket of LENGTH_BUCKET source tokens
// (pieces plus eos); a bucket of fewer than MIN_BUCKET_SENTENCES sentences is left out as noise. The
// native engine reports no source lengths: it reads the same sentences with the same tokenizer, so
// crossattn-wasm-fp32's are its.
const LENGTH_BUCKET = 5, MIN_BUCKET_SENTENCES = 5;
const singleSentenceEngines = Object.keys(results).filter((name) => !results[name].batch);
const latencyBySourceLength = Object.fromEntries(singleSentenceEngines.map((name) => {
  const lengths = passes[name][0].source_tokens ?? passes['crossattn-wasm-fp32'][0].source_tokens;
  const buckets = new Map();
  lengths.forEach((length, i) => {
    const from = Math.floor(length / LENGTH_BUCKET) * LENGTH_BUCKET;
    if (!buckets.has(from)) buckets.set(from, []);
    buckets.get(from).push(median(passes[name].map((p) => p.sentence_ms[i])));
  });
  return [name, [...buckets].sort(([a], [b]) => a - b).filter(([, ms]) => ms.length >= MIN_BUCKET_SENTENCES)
    .map(([from, ms]) => ({ from_tokens: from, to_tokens: from + LENGTH_BUCKET - 1, sentences: ms.length,
                            p50_ms: Number(median(ms).toFixed(2)) }))];
}));

// --- Kernels --------------------------------------------------------------------------------------
const kernelArgs = values.quick ? ['--quick'] : [];
const kernels = {
  native_sse41: JSON.parse(run(path.join(root, 'build/native/bench/crossattn-kernels'), kernelArgs)),
  // --no-liftoff: V8 runs a wasm function in its baseline compiler until a later call, and the
  // peak loop is called only a few times; the engine's hot functions are optimized within a sentence.
  wasm_simd128: JSON.parse(run(node, ['--no-liftoff', path.join(root, 'build/wasm/bench/crossattn-kernels.cjs'), ...kernelArgs])),
};

// --- Bars (issues 3 and 19) ---------------------------------------------------------------------
// The size an fp32 model file would have: every float tensor at 4 bytes (the shipped file is fp16).
function fp32Bytes(file) {
  const fd = openSync(file, 'r'), head = Buffer.alloc(8);
  readSync(fd, head, 0, 8, 0);
  const n = Number(head.readBigUInt64LE(0)), json = Buffer.alloc(n);
  readSync(fd, json, 0, n, 8);
  let bytes = 8 + n;
  for (const [name, t] of Object.entries(JSON.parse(json.toString()))) {
    if (name === '__metadata__') continue;
    const count = t.shape.reduce((a, b) => a * b, 1);
    bytes += ['F16', 'BF16', 'F32'].includes(t.dtype) ? 4 * count : t.data_offsets[1] - t.data_offsets[0];
  }
  return bytes;
}
const fp32 = results['crossattn-wasm-fp32'], int8 = results['crossattn-wasm-int8'];
const shortlisted = results['crossattn-wasm-int8-shortlist'], fp32Shortlisted = results['crossattn-wasm-fp32-shortlist'];
const wasmKernels = kernels.wasm_simd128;
const encoderShapes = wasmKernels.shapes.filter((s) => s.name.startsWith('encoder_'));
const decodeShapes = wasmKernels.shapes.filter((s) => s.name.startsWith('decode_'));
const bars = {
  fp32_tokens_vs_onnxruntime: { value: fp32.ratio_to_onnxruntime_web.tokens_per_s, bar: 3 },
  int8_tokens_vs_fp32: { value: Number((int8.tokens_per_s / fp32.tokens_per_s).toFixed(2)), bar: 1.5 },
  int8_bleu_minus_fp32: { value: Number((int8.bleu - fp32.bleu).toFixed(2)), bar: -0.5 },
  int8_file_vs_fp32_file: { value: Number((statSync(int8Model).size / fp32Bytes(fp32Model)).toFixed(3)), bar: 0.3, lower_is_better: true },
  wasm_vs_native_tokens: { value: Number((fp32.tokens_per_s / results['crossattn-native'].tokens_per_s).toFixed(2)), bar: 0.6 },
  encoder_gemm_vs_simd128_peak: {
    value: Math.min(...encoderShapes.map((s) => s.f32_fraction_of_peak)), bar: 0.7 },
  // Issue 19, item 3: each batch-1 decode-step product at half its roofline bound or better.
  decode_int8_gemm_vs_bound: { value: Math.min(...decodeShapes.map((s) => s.int8_fraction_of_bound)), bar: 0.5 },
  decode_f32_gemm_vs_bound: { value: Math.min(...decodeShapes.map((s) => s.f32_fraction_of_bound)), bar: 0.5 },
  load_ms: { value: fp32.load_ms, bar: 300, lower_is_better: true },
  // Issue 19: the peers users pick, on the same weights.
  int8_tokens_vs_onnxruntime_q8: {
    value: Number((int8.tokens_per_s / results['onnxruntime-web-q8'].tokens_per_s).toFixed(2)), bar: 3 },
  int8_tokens_vs_bergamot_int8: {
    value: Number((int8.tokens_per_s / results['bergamot-wasm-int8'].tokens_per_s).toFixed(2)), bar: 1.5 },
  int8_load_ms: { value: int8.load_ms, bar: 150, lower_is_better: true },
  // The lexical shortlist: the same translations, within 0.3 BLEU, and the speed it buys against
  // onnxruntime-web q8 (Bergamot runs without one: a shortlist on one side only is not the same weights).
  int8_shortlist_bleu_minus_int8: { value: Number((shortlisted.bleu - int8.bleu).toFixed(2)), bar: -0.3 },
  int8_shortlist_tokens_vs_onnxruntime_q8: {
    value: Number((shortlisted.tokens_per_s / results['onnxruntime-web-q8'].tokens_per_s).toFixed(2)), bar: 3 },
  fp32_shortlist_bleu_minus_fp32: { value: Number((fp32Shortlisted.bleu - fp32.bleu).toFixed(2)), bar: -0.3 },
  fp32_shortlist_tokens_vs_onnxruntime: { value: fp32Shortlisted.ratio_to_onnxruntime_web.tokens_per_s, bar: 3 },
};
for (const b of Object.values(bars)) b.met = b.lower_is_better ? b.value <= b.bar : b.value >= b.bar;

const cpu = os.cpus()[0];
const report = {
  machine: `${cpu.model}, ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.type()} ${os.release()}, Node ${process.version}`,
  date: new Date().toISOString(),
  command: ['npm run bench', ...(process.argv.length > 2 ? ['--', ...process.argv.slice(2)] : [])].join(' '),
  model: path.relative(root, fp32Model),
  test_set: `${values['test-set']} ${sourceLang}-${targetLang}`, sentences, runs,
  engines: results, bars,
  batch_sweep: batchSweep,
  latency_by_source_length: { bucket_tokens: LENGTH_BUCKET, min_sentences: MIN_BUCKET_SENTENCES, engines: latencyBySourceLength },
  kernels,
};
writeFileSync(path.join(values.out, 'performance.json'), JSON.stringify(report, null, 2) + '\n');
for (const [file, svg] of Object.entries(benchPlots(report))) writeFileSync(path.join(values.out, file), svg);

// --- The table ------------------------------------------------------------------------------------
const mib = (b) => (b / 2 ** 20).toFixed(0);
const lines = [
  '# Performance', '',
  `Generated by \`${report.command}\` (bench/run.js) on ${report.date.slice(0, 10)}: ${report.machine}.`,
  `${sentences} sentences of ${report.test_set} translated by ${report.model} (int8: its quantized file), greedy (the beam4 row: beam search, 4 hypotheses), one thread; medians of ${runs} run(s), each engine in its own process.`,
  'The machine is shared and noisy: compare the ratios within this run, not absolute numbers across runs.', '',
  '| engine | tokens/s | sentences/s | p50 ms | p95 ms | load ms | peak memory MiB | BLEU | tokens/s vs onnxruntime-web | outputs identical to ours |',
  '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ...Object.entries(results).map(([name, r]) =>
    `| ${name} | ${r.tokens_per_s} | ${r.sentences_per_s} | ${r.p50_ms} | ${r.p95_ms} | ${r.load_ms.toFixed(0)} | ${mib(r.peak_memory_bytes)} | ${r.bleu} | ${r.ratio_to_onnxruntime_web.tokens_per_s}x | ${r.agreement ? `${r.agreement.identical_sentences}/${r.agreement.of} (${r.agreement.with.slice(15)})` : ''} |`),
  '', `Batch rows: \`translateBatch\` with ${batch} sentences per call; their p50/p95 are per call (batch).`,
  'The beam4 row decodes 4 hypotheses per sentence in one batched decoder call per step; its ratio is against greedy onnxruntime-web.',
  'onnxruntime-web gets source ids from Python\'s SentencePiece (tokenization is outside its timings; inside ours).',
  'onnxruntime-web-q8 runs the same export with its MatMul weights quantized as transformers.js ships its q8 models (bench/quantize_onnx.py: per-channel int8 weights, uint8 activations quantized at run time).',
  'Bergamot runs Marian exports of the same weights (bench/export_marian.py); its tokens are counted with our tokenizer. '
    + (marianDifferences.length === 0
      ? 'This model follows native Marian\'s conventions (post-norm, Marian\'s sinusoids, a zero vector as the decoder\'s first input, layer-norm epsilon 1e-6: docs/bergamot.md), so Bergamot computes the same function as ours: its float32 outputs differ from ours only where float rounding flips a close choice, its int8 ones also by its own quantization (intgemm, one scale per matrix).'
      : `On this model Marian computes a different function (${marianDifferences.join('; ')}: docs/bergamot.md), so its outputs differ from ours and its ratio compares speed on the same shapes, not the same translations.`),
  `The shortlist rows are the same models with a lexical shortlist of their output layer (models/shortlist.py's defaults: the 1000 most frequent target pieces plus the 50 likeliest per source piece, counted from IBM Model 2 links of the pairs of ${values['shortlist-train']}): each sentence scores its candidates only (docs/model-format.md). Their BLEU against the full layer's is a bar below.`,
  'Peak memory is the process\'s maximum resident set (Node itself is about 40-50 MiB of it).',
  `Load ms of the WebAssembly engines: the median of ${LOAD_RUNS} first loads, each in a fresh process, from the model file on disk to a translator ready, with the engine\'s wasm compiled before the clock starts (ours by prepareEngine, in ${int8.engine_compile_ms} ms, which includes its warm-up of the load path, bindings/warm_up.cc; Bergamot\'s compiled likewise); onnxruntime-web\'s includes its runtime\'s start. The native rows read the file from the page cache.`, '',
  '![Target tokens/s by engine](bench-tokens.svg)', '',
  `![Latency against source length: the median per ${LENGTH_BUCKET}-token bucket, one line per single-sentence engine](bench-latency.svg)`, '',
  '## Batch sizes', '',
  `\`translateBatch\` over the same ${sentences} sentences with ${new Intl.ListFormat('en').format(batchSizes.map(String))} sentences per call; p50 ms is per call.`, '',
  '| batch size | fp32 tokens/s | int8 tokens/s | fp32 p50 ms | int8 p50 ms |', '| ---: | ---: | ---: | ---: | ---: |',
  ...batchSizes.map((size, i) => {
    const [f, q] = [batchSweep['crossattn-wasm-fp32'][i], batchSweep['crossattn-wasm-int8'][i]];
    return `| ${size} | ${f.tokens_per_s} | ${q.tokens_per_s} | ${f.p50_ms_per_call} | ${q.p50_ms_per_call} |`;
  }),
  '', '![Target tokens/s against batch size, fp32 and int8](bench-batch.svg)', '',
  '## Bars (issues 3 and 19)', '', '| bar | measured | target | met |', '| --- | ---: | ---: | :---: |',
  ...Object.entries(bars).map(([name, b]) => `| ${name} | ${b.value} | ${b.lower_is_better ? '<=' : '>='} ${b.bar} | ${b.met ? 'yes' : 'no'} |`),
  '', '## Kernels (bench/kernels.cc)', '',
  `SIMD128 peak (5 multiply and 5 add chains, no FMA), median over shapes: wasm ${wasmKernels.simd128_peak_gflops} GFLOP/s, native SSE4.1 ${kernels.native_sse41.simd128_peak_gflops} GFLOP/s. Each shape's peak is measured right before it; "of peak" is wasm fp32 over that peak.`,
  'Roofline (wasm): each product against its bound, max(operations / compute peak, weight bytes / read bandwidth), with the int8 compute peak of i32x4.dot_i16x8_s chains and the read bandwidth over a buffer of the shape\'s weight bytes, all measured right before it; "of bound" is the time the bound allows over the time taken (1 is the limit; above 1 is noise of this shared machine), and the bound that applies is named.', '',
  '| shape | M x K x N | wasm fp32 GFLOP/s | of peak | fp32 of bound | wasm int8 GOP/s | int8 dot peak GOP/s | int8 of bound | read GB/s fp32 / int8 weights | wasm Eigen GFLOP/s | native fp32 | native int8 | native Eigen |',
  '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ...wasmKernels.shapes.map((s, i) => {
    const n = kernels.native_sse41.shapes[i];
    return `| ${s.name} | ${s.m} x ${s.k} x ${s.n} | ${s.f32_gflops} | ${s.f32_fraction_of_peak} | ${s.f32_fraction_of_bound} (${s.f32_bound}) | ${s.int8_gops} | ${s.dot_peak_gops} | ${s.int8_fraction_of_bound} (${s.int8_bound}) | ${s.f32_read_gbps} / ${s.int8_read_gbps} | ${s.eigen_gflops} | ${n.f32_gflops} | ${n.int8_gops} | ${n.eigen_gflops} |`;
  }),
  '',
];
writeFileSync(path.join(values.out, 'performance.md'), lines.join('\n'));
console.log(lines.join('\n'));
