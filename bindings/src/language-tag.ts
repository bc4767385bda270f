/**
 * Language codes as the model file records them must be BCP 47 language tags (RFC 5646), checked as
 * ECMA-402 checks them (Intl.getCanonicalLocales): "en", "pt-BR", "zh-Hant". A tag it refuses
 * ("en_US", "") would make Intl.NumberFormat, Intl.Segmenter and Intl.DateTimeFormat throw a
 * RangeError in the middle of a translation; the converter and the loader refuse it up front.
 */

/** The language subtag of a BCP 47 tag, lower case: 'pt-BR' is 'pt'. */
export const primaryLanguage = (tag: string): string => tag.split('-')[0].toLowerCase();

/** Whether `tag` is a well-formed BCP 47 language tag. */
export function isLanguageTag(tag: unknown): tag is string {
  if (typeof tag !== 'string' || tag.length === 0) return false;
  try {
    return Intl.getCanonicalLocales(tag).length === 1;
  } catch {
    return false;
  }
}
