// The public types of the Translator: its load and translate options, the option table's entries, and
// the shapes of a result (Translation, Hypothesis, HtmlTranslation, CopyThroughReport); the model's
// (ModelConfig) lives in model-info.ts.
import type { AlignmentOptions } from './alignment.js';
import type { EngineMadeTranslation, Hypothesis } from './result.generated.js';
import type { SearchOptions, StreamOptions } from './search.js';
import type { TableOutputOptions } from './options.generated.js';
import type { ThreadsOption, WasmSource } from './engine.js';
import type { SimdOption } from './engine-build.js';
import type { ProgressCallback } from './sources.js';
import type { HubOptions } from './hub/convert-by-name.js';
import type { SpanKind } from './numbers.js';

export type { Hypothesis };
export type { ModelConfig } from './model-info.js';

/** Options of Translator.load. */
export interface LoadOptions {
  /**
   * The engine's .wasm: bytes, where to read them, or the module prepareEngine compiled. Default:
   * crossattn.wasm beside this module. Each source is compiled once and kept (prepareEngine).
   */
  wasm?: WasmSource;
  /**
   * Threads for the matrix products (results are the same on any number). 'auto' (default): as
   * many as threadsAvailable() says, which is more than 1 only in a cross-origin isolated page or
   * worker, where the pthreads engine (crossattn-mt.wasm, crossattn-mt.worker.js beside this module)
   * runs. A number asks for that many (1 to MAX_THREADS); where fewer can run, the translator runs
   * on those (Translator.threads). @throws InvalidInputError (from load) for another value.
   */
  threads?: ThreadsOption;
  /**
   * The instructions the products run on. 'auto' (default): relaxed SIMD's int8 dot product and
   * fused multiply-add (crossattn-relaxed.wasm, one thread) where this JavaScript engine has them
   * (relaxedSimdSupported(): Chrome 114+, Firefox 145+, Node 21+), unless the pthreads engine runs;
   * else SIMD128 (crossattn.wasm). 'relaxed' insists (LoadError where it is missing); 'simd128'
   * never uses it. Ignored when `wasm` names the build. int8 outputs are the same on every build.
   */
  simd?: SimdOption;
  /** Progress of the model download, in bytes (with the file's name for a model by name). */
  onProgress?: ProgressCallback;
  /** How a model named by its Hub id is fetched and kept (Node): endpoint, cache folder, q8 ONNX files, float32. */
  hub?: HubOptions;
}

/**
 * Options of Translator.translate, translateBatch and align (SearchOptions and StreamOptions too).
 * Defaults and ranges: the engine's option table (optionSpecs(), docs/api.md).
 */
export interface TranslateOptions extends SearchOptions, StreamOptions, TableOutputOptions {
  /** Word alignments from cross-attention (Translation.alignment): true for the defaults, or options. */
  alignment?: boolean | AlignmentOptions;
  /**
   * Treat the text as an HTML fragment (translate only): translate its text, keep its markup
   * (html.ts), and return an HtmlTranslation.
   */
  html?: boolean;
  /** Copy unknown pieces, numbers, URLs and names of the source through by the alignment (copy-through.ts); default true. */
  copyThrough?: boolean;
}

export type { OptionSpec } from './option-spec.js';

/** The result of translate(html, { html: true }). */
export interface HtmlTranslation {
  /** The translated fragment, serialised HTML: the source's markup around the translated text. */
  text: string;
  /** Every translated sentence and alt/title text, in document order, each with its alignment. */
  sentences: Translation[];
  /** The lowest confidence of its sentences (1 when there is no text): how sure the model is of the weakest part. */
  confidence: number;
  /** Wall time of the call (ms). */
  ms: number;
}

/**
 * A translation with its tokens and the cross-attention behind it: the fields the engine makes
 * (EngineMadeTranslation, generated from cpp/translation.h) and those of the JavaScript side.
 */
export interface Translation extends EngineMadeTranslation {
  /** Wall time of the call in the engine (ms). */
  ms: number;
  /**
   * Present only when the sentence had more than config.maxPositions source tokens and was translated
   * in parts (long-input.ts): each part's own Translation, in order. The other fields then join the
   * parts' (long-input-join.ts, docs/api.md "Long input"); crossAttention is in the parts only.
   */
  parts?: Translation[];
  /** What copy-through changed and what it found missing (copy-through.ts); absent with copyThrough false. */
  copyThrough?: CopyThroughReport;
}

/**
 * What copy-through changed in one translation, what it could not bring back, and what of the
 * output a reader should doubt. A translation with an entry in `missing` or `doubtful` is flagged:
 * the page marks it and the CLI says so on stderr.
 */
export interface CopyThroughReport {
  /** Target words changed: unknown pieces filled in, numbers and tokens repaired, dashes localised. */
  replaced: { kind: SpanKind | 'unknown' | 'dash'; source: string; target: string; word: number }[];
  /**
   * Source spans the output does not carry, nor could be repaired to: numbers, times, dates (by
   * value: "14 February 2025"), a price's currency (`price`, source: the price's word), URLs,
   * addresses, code tokens and unknown pieces. `word` is the span's first source word.
   */
  missing: { kind: SpanKind | 'unknown' | 'date' | 'price'; source: string; word: number }[];
  /**
   * Output words left as the model wrote them that a reader should doubt: a date or time the
   * source does not have (`added`: "um 14 Uhr" for a source without 14:00), a number not well
   * formed in the target language (`ill-formed`). `word` is the first target word.
   */
  doubtful: { kind: 'date' | 'time' | 'number'; target: string; word: number; reason: 'added' | 'ill-formed' }[];
}
