import type { EngineModule, EngineTranslation, WasmTranslator } from './crossattn.mjs';
import { toWordAlignment, type AlignmentOptions, type EngineAlignment, type WordAlignment } from './alignment.js';
import { DisposedError, InvalidInputError, ModelFormatError, errorFromEngine } from './errors.js';
import { isLanguageTag } from './language-tag.js';
import {
  checkStreamOptions, engineOptionsJson, throwIfCancelled, yieldToEventLoop,
} from './search.js';
import { loadModel } from './engine.js';
import type { EngineBuild, SimdBuild } from './engine-build.js';
import { hubSource } from './hub/hub-source.js';
import { modelInfo, type ModelInfo } from './model-info.js';
import type { ByteSource } from './sources.js';
import { planLongInput } from './long-input.js';
import { joinPlan, planOnToken } from './long-input-join.js';
import { checkWellFormed } from './well-formed.js';
import { checkTexts } from './batch-input.js';
import { applyCopyThrough, copyThroughRequest, recoverDropped } from './copy-through.js';
import { planPrefixes, targetPrefixes } from './target-prefix.js';
import { flatWeights, toTranslation } from './engine-translation.js';
import type {
  HtmlTranslation, LoadOptions, ModelConfig, OptionSpec, TranslateOptions, Translation,
} from './translator-types.js';

export type {
  Hypothesis, HtmlTranslation, LoadOptions, ModelConfig, OptionSpec, TranslateOptions, Translation,
} from './translator-types.js';

/**
 * An encoder-decoder Transformer translator running in WebAssembly (Node 20, browsers, Web Workers).
 *
 * @example
 *   const t = await Translator.load('models/multi30k-en-de/multi30k-en-de.crossattn');
 *   const r = await t.translate('A dog runs.', { attention: true });
 *   console.log(r.text, r.crossAttention[0][0]);  // layer 0, head 0: [T][S]
 *   t.dispose();
 */
export class Translator {
  private engine: WasmTranslator | null;
  private readonly module: EngineModule;
  /** The architecture of the loaded model. */
  readonly config: ModelConfig;
  /**
   * The model's name, direction and provenance (source, license, attribution, convertedFrom,
   * converter), read from the file's metadata; a field the file does not carry is absent.
   */
  readonly info: ModelInfo;
  /** Threads the matrix products run on (LoadOptions.threads; 1 unless the pthreads engine runs). */
  readonly threads: number;
  /**
   * The instructions the products run on (LoadOptions.simd): 'relaxed' for crossattn-relaxed.wasm,
   * else 'simd128'. int8 models translate the same on both, bit for bit.
   */
  readonly simd: SimdBuild;

  private constructor(module: EngineModule, engine: WasmTranslator, instance: { threads: number; build: EngineBuild },
                      metadata: Record<string, string>) {
    this.module = module;
    this.engine = engine;
    this.config = engine.config();
    this.info = modelInfo(this.config, metadata);
    this.threads = instance.threads;
    this.simd = instance.build === 'relaxed' ? 'relaxed' : 'simd128';
  }

  /**
   * Bytes of WebAssembly memory this translator's instance holds: the model, the largest call's
   * working memory, and free space. WebAssembly memory grows and never shrinks, so this is the
   * high-water mark; it stays flat over any number of calls of the same size (tools/soak.js).
   */
  get memoryBytes(): number {
    return this.module.HEAPU8.byteLength;
  }

  /**
   * Loads a model file (bytes, a URL, or a file path in Node) into a fresh WebAssembly instance,
   * reading it straight into the instance's memory. Nothing is fetched at import time; this fetches
   * the wasm (once per source, prepareEngine) and the model it is given.
   *
   * In Node, a Hugging Face Hub id (`'Helsinki-NLP/opus-mt-en-fr'`, `'Xenova/opus-mt-en-fr@main'`)
   * that is not an existing path loads that repository's model: its files are downloaded from
   * `options.hub.endpoint` (default HF_ENDPOINT, else https://huggingface.co), converted to int8
   * (`hub.float32` keeps float32) and kept in `$XDG_CACHE_HOME/crossattn`, so a second load makes
   * no request (docs/convert.md, "Models by name").
   * @throws LoadError when either file cannot be read; DownloadError when a model by name cannot be
   *   downloaded; ConvertError when its files do not convert; ModelFormatError for a damaged model
   *   file, or one whose language codes are not BCP 47 language tags; TokenizerError for a bad tokenizer inside it.
   */
  static async load(model: ByteSource, options: LoadOptions = {}): Promise<Translator> {
    const source = await hubSource(model, { onProgress: options.onProgress, ...options.hub }, Translator);
    const { engine, translator, metadata, ...instance } = await loadModel(source, options);
    const { sourceLang, targetLang } = translator.config();
    const bad = [sourceLang, targetLang].find((tag) => !isLanguageTag(tag));
    if (bad !== undefined) {
      translator.delete();
      throw new ModelFormatError(`the model's language ${JSON.stringify(bad)} is not a BCP 47 language tag (as "en" or "pt-BR")`);
    }
    return new Translator(engine, translator, instance, metadata);
  }

  /**
   * Translates one sentence: greedy decoding by default, beam search with options.beamSize > 1.
   * Empty or blank text gives an empty translation.
   * @example
   *   const r = await t.translate('A dog runs.', { beamSize: 5, nBest: 3 });
   *   r.hypotheses.map((h) => [h.text, h.score]);  // best first
   *   await t.translate('A dog runs.', { onToken: (e) => console.log(e.text), signal });
   * A sentence over config.maxPositions source tokens is translated in parts (Translation.parts).
   * @throws InvalidInputError for a bad option; InputTooLongError past 16 × max_positions source tokens
   *   (long-input.ts); CancelledError when options.signal is aborted; DisposedError after dispose(). The translator
   *   stays usable after any error but the last.
   */
  async translate(text: string, options: TranslateOptions & { html: true }): Promise<HtmlTranslation>;
  async translate(text: string, options?: TranslateOptions & { html?: false }): Promise<Translation>;
  async translate(text: string, options?: TranslateOptions): Promise<Translation | HtmlTranslation>;
  async translate(text: string, options: TranslateOptions = {}): Promise<Translation | HtmlTranslation> {
    if (typeof text !== 'string') throw new InvalidInputError('text must be a string');
    if (typeof options === 'object' && options?.html) return this.translateHtml(text, options);
    return (await this.runLong([text], options))[0];
  }

  // translate(html, { html: true }): the sentences of the fragment as one batch, with alignments.
  // The HTML parser loads on first use, so plain-text users never download it.
  private async translateHtml(html: string, options: TranslateOptions): Promise<HtmlTranslation> {
    const start = performance.now();
    const { translateHtml } = await import('./html.js');
    const { html: _, alignment, ...rest } = options;
    let sentences: Translation[] = [];
    const text = await translateHtml(html, this.config.sourceLang, async (texts) => {
      sentences = await this.translateBatch(texts, { ...rest, alignment: alignment === undefined || alignment === false ? true : alignment });
      return sentences.map((r) => ({ text: r.text, links: r.alignment?.links ?? [] }));
    });
    const confidence = Math.min(1, ...sentences.map((r) => r.confidence));
    return { text, sentences, confidence, ms: performance.now() - start };
  }

  /**
   * Translates several sentences as one batch: each is encoded alone, then all are decoded
   * together, so every weight matrix is read once per step for the whole batch instead of once
   * per sentence (faster than one translate() per sentence; `npm run bench` measures by how much).
   * Results are in order and equal to translating each text alone; each result's `ms` is the
   * batch's wall time. For a paragraph, split it first with splitSentences() (sentences.ts). Streaming events
   * carry the index of their text. A text over config.maxPositions source tokens is translated in
   * parts (Translation.parts), still one result per text.
   * @throws InvalidInputError for a bad option or a non-string entry; InputTooLongError as translate()
   *   (nothing is translated then); CancelledError;
   *   DisposedError.
   */
  async translateBatch(texts: readonly string[], options: TranslateOptions = {}): Promise<Translation[]> {
    checkTexts(texts);  // holes and non-strings: InvalidInputError before Embind sees them (batch-input.ts)
    return this.runLong(texts, options);
  }

  // run() with each text over max_positions source tokens translated in parts and joined (long-input.ts).
  private async runLong(texts: readonly string[], options: TranslateOptions): Promise<Translation[]> {
    this.checkOptions(options);  // InvalidInputError for bad options before any text is counted
    texts.forEach((text, i) => checkWellFormed(text, texts.length === 1 ? 'the text' : `text ${i}`));  // lone surrogates
    const prefixes = targetPrefixes(options.targetPrefix, texts.length);
    const plan = planLongInput(texts, this.config.sourceLang, this.config.maxPositions, (text) => {
      const r = this.liveEngine().sourceLength(text.toWellFormed());
      if ('error' in r) throw errorFromEngine(r.error);
      return r.length;
    });
    const onToken = typeof options.onToken === 'function' ? planOnToken(plan, options.onToken) : options.onToken;
    const targetPrefix = planPrefixes(plan, prefixes);
    const { results, ms } = await this.run(plan.texts, copyThroughRequest({ ...options, onToken, targetPrefix }));
    const { sourceLang, targetLang } = this.config;
    const joined = joinPlan(plan, results.map((one) => applyCopyThrough(toTranslation(one, ms), sourceLang, targetLang, options)));
    const align = async (source: string, target: string) => applyCopyThrough(await this.align(source, target,
      copyThroughRequest({ attention: options.attention, alignment: options.alignment, residual: options.residual })), sourceLang, targetLang, options);
    return recoverDropped(joined, texts, options, sourceLang, targetLang, (t, o) => this.runLong(t, o), align);
  }

  // Decodes `texts` in one batch. Without onToken and signal in one engine call; otherwise step by
  // step, reporting settled tokens and, with a signal, yielding to the event loop between steps.
  private async run(texts: readonly string[], options: TranslateOptions): Promise<{ results: EngineTranslation[]; ms: number }> {
    const engineOptions = this.checkOptions(options);
    const { onToken, signal } = options;
    throwIfCancelled(signal);
    const start = performance.now();
    // Lone UTF-16 surrogates were refused by the caller (well-formed.ts); toWellFormed only guards the engine.
    const wellFormed = texts.map((t) => t.toWellFormed());
    if (!onToken && !signal) {
      const r = this.liveEngine().translateBatch(wellFormed, engineOptions);
      if ('error' in r) throw errorFromEngine(r.error);
      return { results: r.results, ms: performance.now() - start };
    }
    const started = this.liveEngine().start(wellFormed, engineOptions);
    if ('error' in started) throw errorFromEngine(started.error);
    const { job } = started;
    try {
      for (;;) {
        const step = job.step();
        if ('error' in step) throw errorFromEngine(step.error);
        for (const event of step.events) onToken?.(event);
        if (step.done) break;
        if (signal) {
          await yieldToEventLoop();
          throwIfCancelled(signal);
          this.liveEngine();
        }
      }
      const r = job.finish();
      if ('error' in r) throw errorFromEngine(r.error);
      return { results: r.results, ms: performance.now() - start };
    } finally {
      job.delete();
    }
  }

  /**
   * Forced alignment: feeds `target` to the decoder instead of generating it, so that its
   * cross-attention, word alignments and log-probability can be read for any sentence pair.
   * `text` is the target as given, `targetTokens` its pieces plus "</s>", `logProb` the model's
   * log-probability of them (nats). Alignment defaults to on; maxLength is ignored.
   * @example
   *   const r = await t.align('A dog runs.', 'Ein Hund rennt.');
   *   pharaoh(r.alignment!)  // e.g. '0-0 1-1 2-2'
   * @throws InvalidInputError for a bad option or non-string text; InputTooLongError past
   *   max_positions tokens on either side; DisposedError.
   */
  async align(source: string, target: string, options: TranslateOptions = {}): Promise<Translation> {
    if (typeof source !== 'string' || typeof target !== 'string') {
      throw new InvalidInputError('source and target must be strings');
    }
    checkWellFormed(source, 'the source'), checkWellFormed(target, 'the target');
    const engineOptions = this.checkOptions({ alignment: true, ...options });
    const start = performance.now();
    const r = this.liveEngine().align(source.toWellFormed(), target.toWellFormed(), engineOptions);
    const ms = performance.now() - start;
    if ('error' in r) throw errorFromEngine(r.error);
    return toTranslation(r, ms);
  }

  /**
   * Symmetrized word alignment of a sentence pair by this model (source→target) and `reverse`, a
   * loaded model of the opposite direction: each force-aligns the pair its own way, their word
   * attention is averaged ([targetWords][sourceWords] = (this + reverse transposed) / 2) and linked
   * by options.alignment.method (default grow-diag-final-and), so that evidence from both
   * directions counts, as when the two directions of IBM-model alignments are symmetrized.
   * docs/alignment.md measures it against one direction.
   * @example
   *   const both = await enDe.alignSymmetric(deEn, 'A dog runs.', 'Ein Hund rennt.');
   *   pharaoh(both)  // '0-0 1-1 2-2'
   * @throws InvalidInputError if `reverse` does not translate targetLang into sourceLang, or for a
   *   bad option; InputTooLongError; DisposedError if either translator was disposed.
   */
  async alignSymmetric(reverse: Translator, source: string, target: string, options: TranslateOptions = {}): Promise<WordAlignment> {
    if (!(reverse instanceof Translator) || reverse.config.sourceLang !== this.config.targetLang ||
        reverse.config.targetLang !== this.config.sourceLang) {
      throw new InvalidInputError(`the reverse model must translate ${this.config.targetLang} to ${this.config.sourceLang}`);
    }
    if (typeof source !== 'string' || typeof target !== 'string') throw new InvalidInputError('source and target must be strings');
    checkWellFormed(source, 'the source'), checkWellFormed(target, 'the target');
    const alignment = options.alignment === undefined || options.alignment === true ? {} : options.alignment;
    if (alignment === false) throw new InvalidInputError('a symmetrized alignment needs alignment options, not false');
    const engineOptions = this.checkOptions({ ...options, attention: false, alignment });
    if (alignment.mergeSubwords === false) throw new InvalidInputError('a symmetrized alignment links words: mergeSubwords must stay true');
    const [src, tgt] = [source.toWellFormed(), target.toWellFormed()];
    const forward = this.liveEngine().align(src, tgt, engineOptions);
    if ('error' in forward) throw errorFromEngine(forward.error);
    const backward = reverse.liveEngine().align(tgt, src, reverse.checkOptions({ ...options, attention: false, alignment }));
    if ('error' in backward) throw errorFromEngine(backward.error);
    return this.symmetrizeEngine(forward.alignment!, backward.alignment!, alignment);
  }

  /**
   * The symmetrization step of alignSymmetric on alignments already at hand: `forward`, this
   * model's alignment of a pair ([targetWords][sourceWords], from align() or translate() with
   * alignment), and `backward`, the reverse model's alignment of the same pair the other way round
   * ([sourceWords][targetWords]). Their weights are averaged and linked by alignment.method and
   * alignment.threshold (the other options were used by the alignments themselves). For pages whose
   * two models run in different workers (WorkerTranslator.symmetrize).
   * @throws InvalidInputError if the two do not cover the same words, or for a bad option.
   */
  symmetrize(forward: WordAlignment, backward: WordAlignment, alignment: AlignmentOptions = {}): WordAlignment {
    this.checkOptions({ attention: false, alignment });
    const flat = (a: WordAlignment): EngineAlignment => {
      if (!Array.isArray(a?.weights) || a.weights.some((row) => row.length !== a.weights[0].length)) {
        throw new InvalidInputError('an alignment needs weights: rows of one length each');
      }
      return { srcLen: a.weights[0]?.length ?? 0, tgtLen: a.weights.length, links: a.links, weights: flatWeights(a.weights) };
    };
    return this.symmetrizeEngine(flat(forward), flat(backward), alignment);
  }

  private symmetrizeEngine(forward: EngineAlignment, backward: EngineAlignment, alignment: AlignmentOptions): WordAlignment {
    const both = this.liveEngine().symmetrize(forward, backward,
                                              JSON.stringify({ method: alignment.method, threshold: alignment.threshold }));
    if ('error' in both) throw errorFromEngine(both.error);
    return toWordAlignment(both);
  }

  private liveEngine(): WasmTranslator {
    if (this.engine === null) throw new DisposedError('this Translator was disposed');
    return this.engine;
  }

  // The JSON text of the engine's options; the engine checks them against its table.
  private checkOptions(options: TranslateOptions): string {
    this.liveEngine();
    const json = engineOptionsJson(options);
    checkStreamOptions(options);
    return json;
  }

  /** Frees the WebAssembly memory of this translator; later calls throw DisposedError. */
  dispose(): void {
    this.engine?.delete();
    this.engine = null;
  }
}
