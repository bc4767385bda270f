import createCrossattnModule, { type EngineModule, type EngineTranslation, type WasmTranslator } from './crossattn.mjs';
import { DisposedError, InvalidInputError, errorFromEngine } from './errors.js';
import { readBytes, type ByteSource, type ProgressCallback } from './sources.js';

/** Options of Translator.load. */
export interface LoadOptions {
  /** The engine's .wasm: bytes or where to read them. Default: crossattn.wasm beside this module. */
  wasm?: ByteSource;
  /** Progress of the model download, in bytes. */
  onProgress?: ProgressCallback;
}

/** Options of Translator.translate. */
export interface TranslateOptions {
  /** Return the cross-attention weights (default true). */
  attention?: boolean;
  /** Most target tokens to generate, eos included; 0 (default) means 2 * source tokens + 10. */
  maxLength?: number;
}

/** The architecture of the loaded model (docs/model-format.md). */
export interface ModelConfig {
  name: string;
  sourceLang: string;
  targetLang: string;
  encoderLayers: number;
  decoderLayers: number;
  dModel: number;
  nHeads: number;
  dFf: number;
  vocabSize: number;
  maxPositions: number;
}

/** A translation with its tokens and the cross-attention behind it. */
export interface Translation {
  /** The translated text. */
  text: string;
  /** [S] SentencePiece pieces fed to the encoder, "</s>" last. */
  sourceTokens: string[];
  /** [T] generated pieces, "</s>" last unless maxLength stopped the output. */
  targetTokens: string[];
  sourceIds: number[];
  targetIds: number[];
  /** Sum of log-probabilities of the target tokens (nats, greedy decoding). */
  logProb: number;
  /**
   * Cross-attention weights [layers][heads][T][S]: crossAttention[l][h][t][s] is how much target
   * position t attended to source position s in decoder layer l, head h. Each row sums to 1.
   * Absent when options.attention is false.
   */
  crossAttention?: Float32Array[][][];
  /** Wall time of the call in the engine (ms). */
  ms: number;
}

/** Splits the flat [L * H * T * S] weights into [L][H][T] rows of S (views, no copy). */
function reshapeAttention(flat: Float32Array, layers: number, heads: number, t: number, s: number): Float32Array[][][] {
  const out: Float32Array[][][] = [];
  for (let l = 0; l < layers; ++l) {
    const perHead: Float32Array[][] = [];
    for (let h = 0; h < heads; ++h) {
      const rows: Float32Array[] = [];
      for (let i = 0; i < t; ++i) {
        const start = ((l * heads + h) * t + i) * s;
        rows.push(flat.subarray(start, start + s));
      }
      perHead.push(rows);
    }
    out.push(perHead);
  }
  return out;
}

function toTranslation(r: EngineTranslation, ms: number): Translation {
  const result: Translation = {
    text: r.text,
    sourceTokens: r.sourceTokens,
    targetTokens: r.targetTokens,
    sourceIds: r.sourceIds,
    targetIds: r.targetIds,
    logProb: r.logProb,
    ms,
  };
  if (r.crossAttention) {
    result.crossAttention = reshapeAttention(r.crossAttention, r.layers, r.heads, r.targetTokens.length,
                                             r.sourceTokens.length);
  }
  return result;
}

/**
 * Splits a paragraph into sentences with the platform's Unicode sentence segmentation
 * (Intl.Segmenter, UAX #29) for `lang` (a BCP 47 tag such as the model's sourceLang). Blank
 * segments are dropped and each sentence is trimmed, so the result can go to translateBatch().
 * @example splitSentences('A dog runs. A cat sleeps.', 'en')  // ['A dog runs.', 'A cat sleeps.']
 */
export function splitSentences(text: string, lang: string): string[] {
  const segmenter = new Intl.Segmenter(lang, { granularity: 'sentence' });
  return Array.from(segmenter.segment(text), (s) => s.segment.trim()).filter((s) => s.length > 0);
}

/**
 * An encoder-decoder Transformer translator running in WebAssembly (Node 20, browsers, Web Workers).
 *
 * @example
 *   const t = await Translator.load('models/multi30k-en-de.crossattn');
 *   const r = await t.translate('A dog runs.', { attention: true });
 *   console.log(r.text, r.crossAttention[0][0]);  // layer 0, head 0: [T][S]
 *   t.dispose();
 */
export class Translator {
  private engine: WasmTranslator | null;
  /** The architecture of the loaded model. */
  readonly config: ModelConfig;

  private constructor(engine: WasmTranslator) {
    this.engine = engine;
    this.config = engine.config();
  }

  /**
   * Loads a model file (bytes, a URL, or a file path in Node) into a fresh WebAssembly instance.
   * Nothing is fetched at import time; this fetches the wasm and the model it is given.
   * @throws ModelFormatError for a damaged model file; TokenizerError for a bad tokenizer inside it.
   */
  static async load(model: ByteSource, options: LoadOptions = {}): Promise<Translator> {
    const [wasmBinary, modelBytes] = await Promise.all([
      readBytes(options.wasm ?? new URL('./crossattn.wasm', import.meta.url)),
      readBytes(model, options.onProgress),
    ]);
    const module: EngineModule = await createCrossattnModule({ wasmBinary });
    const loaded = module.loadTranslator(modelBytes);
    if ('error' in loaded) throw errorFromEngine(loaded.error);
    return new Translator(loaded.translator);
  }

  /**
   * Translates one sentence with greedy decoding. Empty or blank text gives an empty translation.
   * @throws InvalidInputError for a bad option; InputTooLongError past max_positions source tokens;
   *   DisposedError after dispose(). The translator stays usable after any error but the last.
   */
  async translate(text: string, options: TranslateOptions = {}): Promise<Translation> {
    if (typeof text !== 'string') throw new InvalidInputError('text must be a string');
    const [maxLength, attention] = this.checkOptions(options);
    const start = performance.now();
    // Lone UTF-16 surrogates have no UTF-8 form: they become U+FFFD, as TextEncoder does.
    const r = this.liveEngine().translate(text.toWellFormed(), maxLength, attention);
    const ms = performance.now() - start;
    if ('error' in r) throw errorFromEngine(r.error);
    return toTranslation(r, ms);
  }

  /**
   * Translates several sentences as one batch: each is encoded alone, then all are decoded
   * together, so every weight matrix is read once per step for the whole batch instead of once
   * per sentence (faster than one translate() per sentence; `npm run bench` measures by how much).
   * Results are in order and equal to translating each text alone; each result's `ms` is the
   * batch's wall time. For a paragraph, split it first with splitSentences().
   * @throws InvalidInputError for a bad option or a non-string entry; InputTooLongError naming the
   *   first text past max_positions source tokens (nothing is translated then); DisposedError.
   */
  async translateBatch(texts: readonly string[], options: TranslateOptions = {}): Promise<Translation[]> {
    if (!Array.isArray(texts) || texts.some((t) => typeof t !== 'string')) {
      throw new InvalidInputError('texts must be an array of strings');
    }
    const [maxLength, attention] = this.checkOptions(options);
    const start = performance.now();
    const r = this.liveEngine().translateBatch(texts.map((t) => t.toWellFormed()), maxLength, attention);
    const ms = performance.now() - start;
    if ('error' in r) throw errorFromEngine(r.error);
    return r.results.map((one) => toTranslation(one, ms));
  }

  private liveEngine(): WasmTranslator {
    if (this.engine === null) throw new DisposedError('this Translator was disposed');
    return this.engine;
  }

  private checkOptions(options: TranslateOptions): [maxLength: number, attention: boolean] {
    this.liveEngine();
    const maxLength = options.maxLength ?? 0;
    if (!Number.isInteger(maxLength) || maxLength < 0) {
      throw new InvalidInputError('maxLength must be a non-negative integer');
    }
    return [maxLength, options.attention ?? true];
  }

  /** Frees the WebAssembly memory of this translator; later calls throw DisposedError. */
  dispose(): void {
    this.engine?.delete();
    this.engine = null;
  }
}
