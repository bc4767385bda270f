// What bench/opus-mt-size.js runs inside the page, one engine per fresh browser: each function is
// handed to page.evaluate, so it is self-contained and imports the engine from the bench's server
// (/dist/: this package; /tjs/: transformers.js's browser bundle; /ort/: the onnxruntime-web files it
// loads; /models/: the model files).

/**
 * crossattn: Translator.load of the model's URL (the engine's wasm compiled inside the clock, as a page
 * gets it), then `texts` translated greedily one at a time, each to exactly `tokens` target tokens (the
 * model never writes eos: tools/opus-mt-size-fixture.py), the repetition guard off.
 * @returns {{ load_ms, first_ms, translate_ms, target_tokens, texts, build }} ms from performance.now();
 *   first_ms is the first text's translation, inside translate_ms too.
 */
export async function crossattnInPage({ model, simd, texts, tokens }) {
  const { Translator } = await import('/dist/index.js');
  const t0 = performance.now();
  const translator = await Translator.load(model, { simd });
  const t1 = performance.now();
  const options = { beamSize: 1, repeatLimit: 0, copyThrough: false, attention: false, maxLength: tokens, maxLengthRatio: 0, maxLengthOffset: tokens };
  const out = [];
  let first = 0, targetTokens = 0;
  for (const text of texts) {
    const r = await translator.translate(text, options);
    first ||= performance.now() - t1;
    targetTokens += r.targetIds.length;
    out.push(r.text);
  }
  const t2 = performance.now();
  const build = translator.simd;
  translator.dispose();
  return { load_ms: t1 - t0, first_ms: first, translate_ms: t2 - t1, target_tokens: targetTokens, texts: out, build };
}

/**
 * transformers.js: pipeline('translation') on the model folder (its q8 or fp32 ONNX files, onnxruntime-web's
 * wasm backend, one thread, no browser cache), then `texts` through the pipeline one at a time with
 * max_new_tokens `tokens`, greedy. It decodes exactly `tokens` steps per text (the model never writes
 * eos): checked on the first text by model.generate, outside the clock.
 * @returns the same fields as crossattnInPage; build is onnxruntime-web's version.
 */
export async function transformersJsInPage({ dtype, texts, tokens }) {
  const { pipeline, env } = await import('/tjs/transformers.min.js');
  Object.assign(env, { allowRemoteModels: false, allowLocalModels: true, localModelPath: '/models/', useBrowserCache: false, useWasmCache: false });
  Object.assign(env.backends.onnx.wasm, { wasmPaths: '/ort/', numThreads: 1 });
  const t0 = performance.now();
  const pipe = await pipeline('translation', 'opus-mt-en-de', { dtype, device: 'wasm' });
  const t1 = performance.now();
  // forced_eos_token_id (generation_config.json: </s> at the last step) off, so that all `tokens` are the model's own, as crossattn's.
  const options = { num_beams: 1, do_sample: false, max_new_tokens: tokens, forced_eos_token_id: null };
  const out = [];
  let first = 0;
  for (const text of texts) {
    const [r] = await pipe(text, options);
    first ||= performance.now() - t1;
    out.push(r.translation_text);
  }
  const t2 = performance.now();
  const ids = await pipe.model.generate({ ...pipe.tokenizer(texts[0]), ...options });
  const steps = ids.dims[1] - 1;  // without the decoder start token
  if (steps !== tokens) throw new Error(`transformers.js decoded ${steps} tokens, not ${tokens}`);
  await pipe.dispose();
  return { load_ms: t1 - t0, first_ms: first, translate_ms: t2 - t1, target_tokens: steps * texts.length, texts: out, build: `onnxruntime-web ${env.backends.onnx.versions?.web ?? ''}`.trim() };
}
