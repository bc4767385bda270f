/**
 * The language of a text, found by eld (Efficient Language Detector, Apache-2.0,
 * github.com/nitotm/efficient-language-detector-js) with its "extrasmall" database: 60 languages,
 * 285 KB gzipped in a browser, loaded on first use. Chosen 2026-11-29 over franc, tinyld, cld3-asm,
 * languagedetect, lande and fastText for its accuracy on short sentences with its whole language set,
 * its size, and its upkeep (docs/translator-api.md, "Language detection").
 *
 * eld scores each language by n-gram similarity (0 to 1, not a distribution). The confidences here
 * are a softmax of those scores at SCORE_TEMPERATURE, fitted on Tatoeba dev sentences
 * (tools/internals/detect-language-eval.js), so that they sum to 1 and read as probabilities.
 */

/** One guess: a canonical BCP 47 language tag ('tl', as eld names Tagalog, is 'fil') and its confidence in [0, 1]. */
export interface DetectedLanguage { language: string; confidence: number }

/** The temperature of the softmax over eld's scores (tools/internals/detect-language-eval.js --fit). */
export const SCORE_TEMPERATURE = 0.025;

/** The languages eld's extrasmall database detects (eld.info().Languages, eld 2.1.0). */
const LANGUAGES = ['am', 'ar', 'az', 'be', 'bg', 'bn', 'ca', 'cs', 'da', 'de', 'el', 'en', 'es', 'et', 'eu', 'fa', 'fi', 'fr', 'gu', 'he',
  'hi', 'hr', 'hu', 'hy', 'is', 'it', 'ja', 'ka', 'kn', 'ko', 'ku', 'lo', 'lt', 'lv', 'ml', 'mr', 'ms', 'nl', 'no', 'or', 'pa', 'pl', 'pt',
  'ro', 'ru', 'sk', 'sl', 'sq', 'sr', 'sv', 'ta', 'te', 'th', 'tl', 'tr', 'uk', 'ur', 'vi', 'yo', 'zh'];

/** eld's language code as a canonical BCP 47 tag (Intl.getCanonicalLocales: 'tl' is 'fil'). */
const canonical = (code: string) => Intl.getCanonicalLocales(code)[0] ?? code;

interface Eld { detect(text: string): { language: string; getScores(): Record<string, number> } }
let detector: Promise<Eld> | undefined;

/** The languages detectLanguage can name, as canonical BCP 47 tags. */
export const DETECTION_LANGUAGES: ReadonlySet<string> = new Set(LANGUAGES.map(canonical));

/** Loads the detector's database (once; a browser downloads it then). */
export async function loadDetector(): Promise<void> {
  detector ??= import('eld/extrasmall').then((m) => m.eld as Eld);
  await detector;
}

/** A softmax of eld's `scores` at SCORE_TEMPERATURE, best first. */
export function scoresToConfidences(scores: Record<string, number>, temperature = SCORE_TEMPERATURE): DetectedLanguage[] {
  const entries = Object.entries(scores);
  const top = Math.max(...entries.map(([, s]) => s));
  const weights = entries.map(([code, s]) => ({ language: canonical(code), w: Math.exp((s - top) / temperature) }));
  const total = weights.reduce((sum, { w }) => sum + w, 0);
  return weights.map(({ language, w }) => ({ language, confidence: w / total })).sort((a, b) => b.confidence - a.confidence);
}

/**
 * The languages `text` may be in, most likely first, with confidences that sum to 1; empty when
 * the text has no letters eld knows (digits, punctuation, an unknown script).
 * @example
 *   (await detectLanguage('Wo ist der Bahnhof?'))[0];  // { language: 'de', confidence: 0.99... }
 */
export async function detectLanguage(text: string): Promise<DetectedLanguage[]> {
  await loadDetector();
  const result = (await detector!).detect(String(text));
  return result.language === '' ? [] : scoresToConfidences(result.getScores());
}
