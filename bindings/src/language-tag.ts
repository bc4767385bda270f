/**
 * Language codes as the model file records them must be BCP 47 language tags (RFC 5646), checked as
 * ECMA-402 checks them (Intl.getCanonicalLocales): "en", "pt-BR", "zh-Hant". A tag it refuses
 * ("en_US", "") would make Intl.NumberFormat, Intl.Segmenter and Intl.DateTimeFormat throw a
 * RangeError in the middle of a translation; the converter and the loader refuse it up front.
 */

/** Whether `tag` is a well-formed BCP 47 language tag. */
export function isLanguageTag(tag: unknown): tag is string {
  if (typeof tag !== 'string' || tag.length === 0) return false;
  try {
    return Intl.getCanonicalLocales(tag).length === 1;
  } catch {
    return false;
  }
}
