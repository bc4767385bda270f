#!/usr/bin/env node
// One engine's pass over a test set, in its own process so that its peak memory is its own:
//   node bench/engine.js crossattn --model FILE --src FILE [--batch N] [--beam-size N]
//   node bench/engine.js onnxruntime --onnx DIR [--limit N]
// Prints one JSON object, as bench/native_engine.cc does: load_ms, sentence_ms (per sentence, or
// per batch with --batch), target_tokens, translations, peak_memory_bytes (maximum resident set).
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { loadOnnxTranslator } from './onnxruntime.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { model: { type: 'string' }, src: { type: 'string' }, onnx: { type: 'string' },
             batch: { type: 'string', default: '0' }, 'beam-size': { type: 'string', default: '1' },
             limit: { type: 'string' } },
});
const [engine] = positionals;
const sentenceMs = [], translations = [];
let loadMs = 0, targetTokens = 0;

if (engine === 'crossattn') {
  const { Translator } = await import('../dist/index.js');
  const lines = readFileSync(values.src, 'utf8').split('\n').filter((l, i, all) => i < all.length - 1 || l);
  const start = performance.now();
  const translator = await Translator.load(values.model);
  loadMs = performance.now() - start;
  const batch = Number(values.batch);
  const options = { attention: false, beamSize: Number(values['beam-size']) };
  for (let i = 0; i < lines.length; i += batch || 1) {
    const t0 = performance.now();
    const results = batch ? await translator.translateBatch(lines.slice(i, i + batch), options)
                          : [await translator.translate(lines[i], options)];
    sentenceMs.push(performance.now() - t0);
    for (const r of results) {
      targetTokens += r.targetIds.length;
      translations.push(r.text);
    }
  }
} else if (engine === 'onnxruntime') {
  const peer = await loadOnnxTranslator(values.onnx);
  loadMs = peer.loadMs;
  const sources = values.limit ? peer.sources.slice(0, Number(values.limit)) : peer.sources;
  for (const ids of sources) {
    const t0 = performance.now();
    const out = await peer.translate(ids);
    sentenceMs.push(performance.now() - t0);
    targetTokens += out.length;
    translations.push(peer.detokenize(out));
  }
} else {
  console.error('usage: node bench/engine.js crossattn|onnxruntime ...');
  process.exit(2);
}
console.log(JSON.stringify({ load_ms: loadMs, sentence_ms: sentenceMs, target_tokens: targetTokens, translations,
                             peak_memory_bytes: process.resourceUsage().maxRSS * 1024 }));
