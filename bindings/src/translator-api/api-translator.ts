/**
 * The web platform's Translator (https://webmachinelearning.github.io/translation-api/, as Chrome 138
 * ships it) on crossattn's engine, for browsers without one and for Node: create() a translator for
 * a pair of BCP 47 languages, then translate() or translateStreaming(). A pair no model joins is
 * translated through English when models to and from English are there (route.ts). Beyond the spec,
 * each translator reaches crossattn's own result, with tokens, scores, cross-attention and word
 * alignment (translateDetailed, engines). docs/translator-api.md lists every difference from the spec.
 */
import type { PivotTranslation } from '../pivot.js';
import { joinParagraphs, splitParagraphs } from '../sentences.js';
import type { Translator as CoreTranslator, TranslateOptions as CoreOptions, Translation } from '../translator.js';
import { inputUsage, settings } from './config.js';
import { startMonitor, type Progress } from './create-monitor.js';
import { abortReason, canonicalTag, checkMayDownload, quotaExceeded } from './dom-errors.js';
import { finishCreate, Lifetime } from './lifetime.js';
import { findRoute, translateDetailed, translateTexts, type Route } from './route.js';

/** The spec's Availability. */
export type Availability = 'unavailable' | 'downloadable' | 'downloading' | 'available';

/** TranslatorCreateCoreOptions. */
export interface TranslatorCreateCoreOptions { sourceLanguage: string; targetLanguage: string }
/** TranslatorCreateOptions. */
export interface TranslatorCreateOptions extends TranslatorCreateCoreOptions { signal?: AbortSignal; monitor?: (monitor: EventTarget) => void }
/** TranslatorTranslateOptions. */
export interface TranslatorTranslateOptions { signal?: AbortSignal }

/** Text that is only white space and control characters, which the spec echoes back untranslated. */
const UNTRANSLATABLE = /^[\s\p{Cc}]*$/u;

/** The models loaded or loading in this realm, by direction, shared by the translators created for it; `ready` those loaded. */
const loaded = new Map<string, Promise<CoreTranslator>>();
const ready = new Set<string>();
const key = (from: string, to: string) => `${from}\u0000${to}`;

function languages(options: TranslatorCreateCoreOptions | undefined, dictionary: string): [string, string] {
  if (options === null || typeof options !== 'object') throw new TypeError(`${dictionary}: sourceLanguage and targetLanguage are required`);
  return [canonicalTag(options.sourceLanguage, 'sourceLanguage', dictionary), canonicalTag(options.targetLanguage, 'targetLanguage', dictionary)];
}

/** The loaded model of a direction, loading it once; `onProgress` takes the fraction downloaded. */
function loadModel(from: string, to: string, onProgress: (fraction: number) => void, signal: AbortSignal): Promise<CoreTranslator> {
  const k = key(from, to);
  let model = loaded.get(k);
  if (model === undefined) {
    model = settings.provider.load(from, to, onProgress, signal);
    loaded.set(k, model);
    model.then(() => ready.add(k), () => loaded.delete(k));
  }
  return model;
}

/** The models of a route's legs, loaded at once; progress is their mean fraction, held below 1 until both are loaded. */
function loadLegs(legs: [string, string][], progress: Progress, signal: AbortSignal): Promise<CoreTranslator[]> {
  const done = legs.map(() => 0);
  return Promise.all(legs.map(([from, to], i) => loadModel(from, to, (fraction) => {
    done[i] = fraction;
    progress.report(Math.min(0.99, done.reduce((a, b) => a + b, 0) / legs.length));
  }, signal)));
}

/** What a route's availability is now: 'available' once its models are loaded here, 'downloading' while they load. */
function routeAvailability(route: Route): Availability {
  const keys = route.legs.map(([a, b]) => key(a, b));
  if (keys.every((k) => ready.has(k))) return 'available';
  return route.availability === 'downloadable' && keys.some((k) => loaded.has(k)) ? 'downloading' : route.availability;
}

export class Translator {
  readonly sourceLanguage: string;
  readonly targetLanguage: string;
  readonly #models: CoreTranslator[];
  readonly #life: Lifetime;

  private constructor(models: CoreTranslator[], sourceLanguage: string, targetLanguage: string, life: Lifetime) {
    this.#models = models;
    this.sourceLanguage = sourceLanguage;
    this.targetLanguage = targetLanguage;
    this.#life = life;
  }

  /**
   * Whether a translator for the pair can be created: 'available' (its model is at hand),
   * 'downloadable', 'downloading' (a create() is fetching it) or 'unavailable'.
   * @throws TypeError for a missing language, RangeError for a malformed tag (as a rejection).
   */
  static async availability(options: TranslatorCreateCoreOptions): Promise<Availability> {
    const [from, to] = languages(options, 'TranslatorCreateCoreOptions');
    return routeAvailability(await findRoute(settings.provider, from, to));
  }

  /**
   * A translator for the pair, through English when no model joins the pair and models to and from
   * English are there. Its monitor gets downloadprogress events from 0 to 1 while the models
   * download and load.
   * @throws (as a rejection) TypeError or RangeError for bad languages; NotSupportedError when no
   *   model translates the pair; NotAllowedError when the model must be downloaded and the page has
   *   no user activation; the signal's reason when it aborts; what the monitor callback throws.
   */
  static async create(options: TranslatorCreateOptions): Promise<Translator> {
    const [from, to] = languages(options, 'TranslatorCreateOptions');
    const signal = options.signal;
    if (signal?.aborted) throw abortReason(signal);
    const progress = startMonitor(options.monitor, signal);
    const life = new Lifetime(signal);
    const route = await findRoute(settings.provider, from, to);
    const availability = routeAvailability(route);
    if (availability === 'unavailable') throw new DOMException(`no model translates ${from} to ${to}`, 'NotSupportedError');
    if (availability === 'downloadable') checkMayDownload(`the ${from}→${to} model`);
    const models = await finishCreate(life, progress, (ended) => loadLegs(route.legs, progress, ended));
    return new Translator(models, from, to, life);
  }

  /** The most characters (Unicode code points) one call's input may have. */
  get inputQuota(): number {
    return settings.inputQuota;
  }

  /**
   * The translation of `input`, paragraph by paragraph and sentence by sentence (line breaks kept).
   * Text of only white space and control characters comes back as it is.
   * @throws (as a rejection) QuotaExceededError past inputQuota; the signal's reason when it aborts;
   *   an AbortError DOMException after destroy(), or the create signal's reason after it aborts.
   */
  translate(input: string, options: TranslatorTranslateOptions = {}): Promise<string> {
    const text = String(input);
    return this.#life.run(options.signal, async (signal) => {
      this.#checkQuota(text);
      if (UNTRANSLATABLE.test(text)) return text;
      const paragraphs = splitParagraphs(text, this.sourceLanguage);
      return joinParagraphs(paragraphs, await translateTexts(this.#models, paragraphs.flat(), signal));
    });
  }

  /**
   * The translation of `input` as a stream of strings whose concatenation is translate()'s result:
   * one chunk a sentence, with the space or line break before it.
   * @throws the signal's reason, synchronously, when it has already aborted, and the destroy reason
   *   once destroyed; later failures error the stream.
   */
  translateStreaming(input: string, options: TranslatorTranslateOptions = {}): ReadableStream<string> {
    const text = String(input);
    if (options.signal?.aborted) throw abortReason(options.signal);
    const destroyed = this.#life.destroyedBy;
    if (destroyed) throw destroyed.reason;
    const pieces = this.#pieces(text, options.signal);
    return new ReadableStream<string>({
      async pull(controller) {
        const next = await pieces.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
      async cancel() {
        await pieces.return(undefined);
      },
    });
  }

  async *#pieces(text: string, signal: AbortSignal | undefined): AsyncGenerator<string> {
    await this.#life.run(signal, async () => this.#checkQuota(text));
    if (UNTRANSLATABLE.test(text)) {
      yield text;
      return;
    }
    const paragraphs = splitParagraphs(text, this.sourceLanguage);
    for (const [i, paragraph] of paragraphs.entries()) {
      if (i > 0) yield '\n';
      for (const [j, sentence] of paragraph.entries()) {
        const [translation] = await this.#life.run(signal, (both) => translateTexts(this.#models, [sentence], both));
        yield `${j > 0 ? ' ' : ''}${translation}`;
      }
    }
  }

  /**
   * What translating `input` uses of inputQuota: its characters (Unicode code points).
   * @throws (as a rejection) the signal's reason, or the destroy reason.
   */
  measureInputUsage(input: string, options: TranslatorTranslateOptions = {}): Promise<number> {
    const text = String(input);
    return this.#life.run(options.signal, async () => inputUsage(text));
  }

  /**
   * crossattn beyond the spec: the engine's whole result for `input` (one text, translated whole):
   * tokens, scores, cross-attention weights and word alignment, with crossattn's options; through
   * English, a PivotTranslation with both legs and the alignment composed through the English words.
   */
  translateDetailed(input: string, options: CoreOptions = {}): Promise<Translation | PivotTranslation> {
    const text = String(input);
    return this.#life.run(options.signal, async (signal) => {
      this.#checkQuota(text);
      return translateDetailed(this.#models, text, { ...options, signal });
    });
  }

  /** crossattn beyond the spec: the engine's Translators, one for each leg (two through English), shared by the translators of their pairs. */
  get engines(): readonly CoreTranslator[] {
    return [...this.#models];
  }

  /** Ends this translator: calls in flight and later calls reject with an AbortError DOMException. */
  destroy(): void {
    this.#life.destroy();
  }

  #checkQuota(text: string): void {
    const usage = inputUsage(text);
    if (usage > this.inputQuota) throw quotaExceeded(this.inputQuota, usage);
  }
}
