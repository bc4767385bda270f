/**
 * The web platform's LanguageDetector (https://webmachinelearning.github.io/translation-api/) on
 * crossattn's detectLanguage: create() a detector, then detect() gives the languages of a text from
 * most to least likely, each with its confidence, and 'und' (undetermined) last, the confidences
 * adding up to 1. The detector's data loads on the first create(), as a model downloads: its monitor
 * gets downloadprogress events, and in a browser that first create() needs a user activation.
 */
import { DETECTION_LANGUAGES, detectLanguage, loadDetector, type DetectedLanguage } from '../detect-language.js';
import { primaryLanguage } from '../language-tag.js';
import { inputUsage, settings } from './config.js';
import { startMonitor } from './create-monitor.js';
import { abortReason, canonicalTag, checkMayDownload, quotaExceeded } from './dom-errors.js';
import { finishCreate, Lifetime } from './lifetime.js';
import type { Availability } from './api-translator.js';

/** LanguageDetectorCreateCoreOptions. */
export interface LanguageDetectorCreateCoreOptions { expectedInputLanguages?: string[] }
/** LanguageDetectorCreateOptions. */
export interface LanguageDetectorCreateOptions extends LanguageDetectorCreateCoreOptions { signal?: AbortSignal; monitor?: (monitor: EventTarget) => void }
/** LanguageDetectorDetectOptions. */
export interface LanguageDetectorDetectOptions { signal?: AbortSignal }
/** LanguageDetectionResult. */
export interface LanguageDetectionResult { detectedLanguage: string; confidence: number }

/** 'und''s confidence when the detector names a language: the spec wants it above 0 and below every language's. */
const UND_CONFIDENCE = 0.001;
/** The least confidence a language is listed with (the detector's, before scaling), and the most languages listed. */
const MIN_LISTED = 0.01;
const MAX_LISTED = 5;
let loaded = false;

/** expectedInputLanguages canonicalized; null when none are given. */
function expected(options: LanguageDetectorCreateCoreOptions | undefined): string[] | null {
  const list = options?.expectedInputLanguages;
  if (list === undefined || list === null) return null;
  if (typeof list !== 'object' || typeof (list as Iterable<string>)[Symbol.iterator] !== 'function') throw new TypeError('expectedInputLanguages must be a sequence of language tags');
  const tags = [...list].map((tag) => canonicalTag(tag, 'expectedInputLanguages', 'LanguageDetectorCreateCoreOptions'));
  return tags.length === 0 ? null : tags;
}

/**
 * The spec's list from the detector's guesses (best first, confidences a distribution over its
 * languages): the likeliest, up to 5 with at least 1%, scaled to share 1 - UND_CONFIDENCE, then
 * 'und' with the rest, so that the confidences add up to exactly 1 and each language's passes und's.
 * Text in which the detector finds no language (digits, punctuation) is 'und' alone, at 1.
 */
export function detectionResults(guesses: readonly DetectedLanguage[]): LanguageDetectionResult[] {
  const listed = guesses.filter((g) => g.confidence >= MIN_LISTED).slice(0, MAX_LISTED);
  const total = listed.reduce((sum, g) => sum + g.confidence, 0);
  const results = listed.map((g) => ({ detectedLanguage: g.language, confidence: (g.confidence / total) * (1 - UND_CONFIDENCE) }));
  const sum = results.reduce((s, r) => s + r.confidence, 0);
  let und = 1 - sum;
  while (sum + und > 1) und -= Number.EPSILON;  // floats that round past 1, or short of it
  while (sum + und < 1) und += Number.EPSILON;
  return [...results, { detectedLanguage: 'und', confidence: und }];
}

export class LanguageDetector {
  readonly expectedInputLanguages: readonly string[] | null;
  readonly #life: Lifetime;

  private constructor(expectedInputLanguages: string[] | null, life: Lifetime) {
    this.expectedInputLanguages = expectedInputLanguages === null ? null : Object.freeze(expectedInputLanguages);
    this.#life = life;
  }

  /**
   * 'available' once the detector's data has loaded in this realm, else 'downloadable';
   * 'unavailable' when an expected input language is not one it detects.
   * @throws RangeError (as a rejection) for a malformed expected language.
   */
  static async availability(options: LanguageDetectorCreateCoreOptions = {}): Promise<Availability> {
    const tags = expected(options);
    if (tags && !tags.every((tag) => DETECTION_LANGUAGES.has(primaryLanguage(tag)))) return 'unavailable';
    return loaded ? 'available' : 'downloadable';
  }

  /**
   * A detector. The first in a realm loads the detector's data, reporting progress to its monitor.
   * @throws (as a rejection) NotSupportedError for an expected language it does not detect;
   *   NotAllowedError for a first create() in a browser without user activation; the signal's
   *   reason when it aborts; what the monitor callback throws.
   */
  static async create(options: LanguageDetectorCreateOptions = {}): Promise<LanguageDetector> {
    const tags = expected(options);
    const signal = options.signal;
    if (signal?.aborted) throw abortReason(signal);
    const progress = startMonitor(options.monitor, signal);
    const life = new Lifetime(signal);
    const availability = await LanguageDetector.availability({ expectedInputLanguages: tags ?? undefined });
    if (availability === 'unavailable') throw new DOMException(`expectedInputLanguages ${JSON.stringify(tags)}: not all are languages this detector knows`, 'NotSupportedError');
    if (availability === 'downloadable') checkMayDownload('the language detector');
    await finishCreate(life, progress, async () => {
      await loadDetector();
      loaded = true;
    });
    return new LanguageDetector(tags, life);
  }

  /** The most characters (Unicode code points) one call's input may have. */
  get inputQuota(): number {
    return settings.inputQuota;
  }

  /**
   * The languages of `input`, most likely first, then 'und'; confidences add up to 1.
   * @throws (as a rejection) QuotaExceededError past inputQuota; the signal's reason; the destroy reason.
   */
  detect(input: string, options: LanguageDetectorDetectOptions = {}): Promise<LanguageDetectionResult[]> {
    const text = String(input);
    return this.#life.run(options.signal, async () => {
      const usage = inputUsage(text);
      if (usage > this.inputQuota) throw quotaExceeded(this.inputQuota, usage);
      return detectionResults(await detectLanguage(text));
    });
  }

  /** What detecting `input` uses of inputQuota: its characters. @throws the signal's or the destroy reason (as a rejection). */
  measureInputUsage(input: string, options: LanguageDetectorDetectOptions = {}): Promise<number> {
    const text = String(input);
    return this.#life.run(options.signal, async () => inputUsage(text));
  }

  /** Ends this detector: calls in flight and later calls reject with an AbortError DOMException. */
  destroy(): void {
    this.#life.destroy();
  }
}
