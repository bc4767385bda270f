#!/usr/bin/env node
// One engine's pass over a test set, in its own process so that its peak memory is its own:
//   node bench/engine.js crossattn --model FILE --src FILE [--simd auto|relaxed|simd128] [--batch N] [--beam-size N]
//        [--no-shortlist] [--load-only] [LIMITS]
//   node bench/engine.js onnxruntime --onnx DIR [--limit N] [--max-length-ratio R --max-length-offset N]
//   node bench/engine.js bergamot --marian DIR --gemm float32|int8shiftAll --src FILE --model FILE [--shortlist]
// LIMITS: --repeat-limit N --max-length-ratio R --max-length-offset N, the search options of the same
// names (defaults: the library's; onnxruntime's loop: at most 2 S + 10 tokens, no repetition guard).
// Bergamot translates each line as one sentence (ssplit-mode: sentence), as the others do.
// Prints one JSON object, as bench/native_engine.cc does: load_ms (the model read from disk to a
// translator ready, the engine's wasm compiled before, as bench/bergamot.js times Bergamot's; the
// compile itself, with prepareEngine's warm-up of the load path, is engine_compile_ms), sentence_ms (per sentence, or
// per batch with --batch), target_tokens, translations, peak_memory_bytes (maximum resident set);
// and, which the native engine lacks, source_tokens: each sentence's source length (SentencePiece
// pieces plus eos, whatever the batching), for latency against length.
// Bergamot's source and target tokens are counted afterwards, outside the timings, by forcing its
// outputs through our model (--model: the same weights and tokenizer; pieces plus eos, as our own count).
// --no-shortlist scores the whole output layer where the model file has a lexical shortlist; Bergamot's
// --shortlist scores the export's lex.s2t.bin (bench/marian_shortlist.py), else the whole layer.
// With the model's shortlist, one sentence at a time: also shortlist_rows_per_target_token, the output rows
// each target token's step scored (bench/shortlist-candidates.js), averaged over the target tokens.
// --load-only stops after the load (a first load in a fresh process, which run.js repeats).
// --simd picks the engine build as LoadOptions.simd does (relaxed needs a Node with relaxed SIMD).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadBergamot } from './bergamot.js';
import { loadOnnxTranslator } from './onnxruntime.js';
import { shortlistCandidates } from './shortlist-candidates.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { model: { type: 'string' }, src: { type: 'string' }, onnx: { type: 'string' }, marian: { type: 'string' },
             gemm: { type: 'string', default: 'float32' }, simd: { type: 'string', default: 'auto' },
             batch: { type: 'string', default: '0' }, 'beam-size': { type: 'string', default: '1' }, shortlist: { type: 'boolean', default: false },
             limit: { type: 'string' }, 'no-shortlist': { type: 'boolean', default: false }, 'load-only': { type: 'boolean', default: false },
             'repeat-limit': { type: 'string' }, 'max-length-ratio': { type: 'string' }, 'max-length-offset': { type: 'string' } },
});
/** The search limits given on the command line, as translate() options (absent: the defaults). */
const limits = Object.fromEntries([['repeatLimit', 'repeat-limit'], ['maxLengthRatio', 'max-length-ratio'], ['maxLengthOffset', 'max-length-offset']]
  .filter(([, flag]) => values[flag] !== undefined).map(([option, flag]) => [option, Number(values[flag])]));
const [engine] = positionals;
const sentenceMs = [], sourceTokens = [], translations = [];
let loadMs = 0, compileMs = 0, targetTokens = 0, shortlistRowSteps = 0;

const readLinesOf = () => readFileSync(values.src, 'utf8').split('\n').filter((l, i, all) => i < all.length - 1 || l);

if (engine === 'crossattn') {
  const { Translator, prepareEngine } = await import('../dist/index.js');
  const lines = values['load-only'] ? [] : readLinesOf();
  const compileStart = performance.now();
  await prepareEngine(undefined, 1, values.simd);
  compileMs = performance.now() - compileStart;
  const start = performance.now();
  const translator = await Translator.load(values.model, { simd: values.simd });
  loadMs = performance.now() - start;
  const batch = Number(values.batch);
  // copyThrough: false: the model's own translation, as every peer writes its own (the alignment-based
  // repairs of docs/copy-through.md run after decoding and are not what this bench compares).
  const options = { attention: false, copyThrough: false, beamSize: Number(values['beam-size']), shortlist: !values['no-shortlist'], ...limits };
  const rowsOf = options.shortlist && !batch ? shortlistCandidates(values.model) : null;
  for (let i = 0; i < lines.length; i += batch || 1) {
    const t0 = performance.now();
    const results = batch ? await translator.translateBatch(lines.slice(i, i + batch), options)
                          : [await translator.translate(lines[i], options)];
    sentenceMs.push(performance.now() - t0);
    for (const r of results) {
      sourceTokens.push(r.sourceTokens.length);
      targetTokens += r.targetIds.length;
      if (rowsOf) shortlistRowSteps += rowsOf(r.sourceIds).size * r.targetIds.length;  // outside the timing
      translations.push(r.text);
    }
  }
} else if (engine === 'onnxruntime') {
  const peer = await loadOnnxTranslator(values.onnx, limits);
  loadMs = peer.loadMs;
  const sources = values['load-only'] ? [] : values.limit ? peer.sources.slice(0, Number(values.limit)) : peer.sources;
  for (const ids of sources) {
    const t0 = performance.now();
    const out = await peer.translate(ids);
    sentenceMs.push(performance.now() - t0);
    sourceTokens.push(ids.length);
    targetTokens += out.length;
    translations.push(peer.detokenize(out));
  }
} else if (engine === 'bergamot') {
  const shortlist = values.shortlist ? path.join(values.marian, 'lex.s2t.bin') : undefined;
  const peer = await loadBergamot(values.marian, values.gemm, { options: ['ssplit-mode: sentence'], shortlist });
  loadMs = peer.loadMs;
  const lines = values['load-only'] ? [] : readLinesOf();
  for (const line of lines) {
    const t0 = performance.now();
    translations.push(peer.translate(line));
    sentenceMs.push(performance.now() - t0);
  }
  const { Translator } = await import('../dist/index.js');
  const ours = await Translator.load(values.model);
  for (let i = 0; i < lines.length; ++i) {
    const forced = await ours.align(lines[i], translations[i], { attention: false, alignment: false });
    sourceTokens.push(forced.sourceTokens.length);
    targetTokens += forced.targetTokens.length;
  }
  ours.dispose();
} else {
  console.error('usage: node bench/engine.js crossattn|onnxruntime|bergamot ...');
  process.exit(2);
}
console.log(JSON.stringify({ load_ms: loadMs, engine_compile_ms: compileMs, sentence_ms: sentenceMs, source_tokens: sourceTokens, target_tokens: targetTokens, translations,
                             peak_memory_bytes: process.resourceUsage().maxRSS * 1024,
                             ...(shortlistRowSteps > 0 && { shortlist_rows_per_target_token: shortlistRowSteps / targetTokens }) }));
