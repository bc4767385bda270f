/**
 * `crossattn/translator-api`: the web platform's Translator and LanguageDetector APIs
 * (https://webmachinelearning.github.io/translation-api/, as Chrome 138 ships them) on crossattn, in
 * browsers that lack them and in Node. Use the classes directly, or call polyfill() to define
 * globalThis.Translator and globalThis.LanguageDetector where the platform has none:
 *
 *   import { Translator, LanguageDetector } from 'crossattn/translator-api';
 *   const [{ detectedLanguage }] = await (await LanguageDetector.create()).detect('Wo ist der Bahnhof?');
 *   const t = await Translator.create({ sourceLanguage: detectedLanguage, targetLanguage: 'en' });
 *   await t.translate('Wo ist der Bahnhof?');               // the spec's string
 *   (await t.translateDetailed('Wo ist der Bahnhof?')).alignment;  // crossattn's word alignment
 *
 * docs/translator-api.md lists every difference from the spec.
 */
import { LanguageDetector } from './language-detector.js';
import { Translator } from './api-translator.js';

export { Translator, LanguageDetector };
export { configureTranslatorApi, DEFAULT_INPUT_QUOTA } from './config.js';
export type { TranslatorApiOptions } from './config.js';
export { catalogProvider, MODEL_CACHE } from './model-provider.js';
export { firstOf, hubProvider } from './hub-provider.js';
export type { HubProviderOptions } from './hub-provider.js';
export type { ModelProvider, ProviderAvailability } from './model-provider.js';
export { CreateMonitor } from './create-monitor.js';
export type { Availability, TranslatorCreateCoreOptions, TranslatorCreateOptions, TranslatorTranslateOptions } from './api-translator.js';
export type { LanguageDetectionResult, LanguageDetectorCreateCoreOptions, LanguageDetectorCreateOptions, LanguageDetectorDetectOptions } from './language-detector.js';

/**
 * Defines globalThis.Translator and globalThis.LanguageDetector as these classes where the platform
 * has none (Chrome 138+ has its own, which is kept).
 * @returns which of the two were defined.
 */
export function polyfill(): { Translator: boolean; LanguageDetector: boolean } {
  const scope = globalThis as Record<string, unknown>;
  const defined = { Translator: scope.Translator === undefined, LanguageDetector: scope.LanguageDetector === undefined };
  if (defined.Translator) scope.Translator = Translator;
  if (defined.LanguageDetector) scope.LanguageDetector = LanguageDetector;
  return defined;
}
