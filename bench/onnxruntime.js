// The onnxruntime-web peer of `npm run bench`: greedy decoding driven from JS, as transformers.js
// does it, over the encoder and decoder models of bench/export_onnx.py (the same trained weights
// as the crossattn model file). onnxruntime-web's wasm backend, SIMD, one thread.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as ort from 'onnxruntime-web';

const require = createRequire(import.meta.url);

/**
 * Loads the two sessions from `dir` (encoder.onnx, decoder.onnx, sources.json). `limits`: each
 * translation has at most floor(maxLengthRatio * S + maxLengthOffset) target tokens for S source
 * ids (eos included), at most max_positions, as the library's options of those names.
 * @returns {Promise<{translate: (srcIds: number[]) => Promise<number[]>, detokenize: (ids: number[]) => string,
 *   sources: number[][], loadMs: number}>}
 */
export async function loadOnnxTranslator(dir, { maxLengthRatio = 2, maxLengthOffset = 10 } = {}) {
  ort.env.wasm.numThreads = 1;
  ort.env.wasm.simd = true;
  ort.env.wasm.wasmPaths = path.dirname(require.resolve('onnxruntime-web')) + '/';
  const { config, vocab, sources } = JSON.parse(await readFile(path.join(dir, 'sources.json'), 'utf8'));
  const options = { executionProviders: ['wasm'], graphOptimizationLevel: 'all' };
  const start = performance.now();
  const encoder = await ort.InferenceSession.create(await readFile(path.join(dir, 'encoder.onnx')), options);
  const decoder = await ort.InferenceSession.create(await readFile(path.join(dir, 'decoder.onnx')), options);
  const loadMs = performance.now() - start;
  const layers = config.decoder_layers, heads = config.n_heads, dK = config.d_model / config.n_heads;
  const names = (kind) => Array.from({ length: layers }, (_, i) => [`${kind}_key_${i}`, `${kind}_value_${i}`]).flat();
  const crossNames = names('cross'), pastNames = names('past'), presentNames = names('present');

  /** Greedy decoding of source ids [S] (eos last); returns the target ids, eos last unless cut. */
  async function translate(srcIds) {
    const src = new ort.Tensor('int64', BigInt64Array.from(srcIds.map(BigInt)), [1, srcIds.length]);
    const cross = await encoder.run({ input_ids: src });
    const feeds = {};
    for (const name of crossNames) feeds[name] = cross[name];
    for (const name of pastNames) feeds[name] = new ort.Tensor('float32', new Float32Array(0), [1, heads, 0, dK]);
    const maxLength = Math.min(config.max_positions, Math.max(1, Math.floor(maxLengthRatio * srcIds.length + maxLengthOffset)));
    const out = [];
    let token = config.decoder_start_id;
    for (let t = 0; t < maxLength; t++) {
      feeds.input_ids = new ort.Tensor('int64', BigInt64Array.of(BigInt(token)), [1, 1]);
      const result = await decoder.run(feeds);
      const logits = result.logits.data;
      let best = 0;
      for (let v = 1; v < logits.length; v++) if (logits[v] > logits[best]) best = v;
      pastNames.forEach((name, i) => { feeds[name] = result[presentNames[i]]; });
      token = best;
      out.push(token);
      if (token === config.eos_id) break;
    }
    return out;
  }

  /** SentencePiece detokenization of target ids: pieces joined, '▁' read as a space. */
  function detokenize(ids) {
    const special = new Set([config.eos_id, config.bos_id, config.pad_id]);
    return ids.filter((id) => !special.has(id)).map((id) => vocab[id]).join('').replaceAll('\u2581', ' ').trim();
  }

  return { translate, detokenize, sources, loadMs };
}
