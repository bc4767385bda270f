/**
 * The exceptions the web platform's Translator and Language Detector APIs raise
 * (https://webmachinelearning.github.io/translation-api/), made as the spec makes them: DOMExceptions
 * by name, RangeError for a malformed language tag, TypeError for a missing member.
 */

/** An AbortError DOMException, as destroy() and an abort without a reason give. */
export const abortError = (message = 'the operation was aborted') => new DOMException(message, 'AbortError');

/** The reason an aborted signal gives: its own `reason` (an AbortError DOMException unless the caller gave one). */
export const abortReason = (signal: AbortSignal): unknown => signal.reason ?? abortError();

/**
 * QuotaExceededError: the input needs more than the quota. Where the platform has the
 * QuotaExceededError class (WebIDL, 2025) it is one; elsewhere a DOMException of that name, with
 * `quota` and `requested` set as the class has them.
 */
export function quotaExceeded(quota: number, requested: number): DOMException {
  const message = `the input needs ${requested} of the input quota, which is ${quota}`;
  const Platform = (globalThis as { QuotaExceededError?: new (message: string, options: object) => DOMException }).QuotaExceededError;
  if (Platform) return new Platform(message, { quota, requested });
  return Object.assign(new DOMException(message, 'QuotaExceededError'), { quota, requested });
}

/**
 * The BCP 47 tag `value` (a member of `dictionary`) canonicalized (Intl.getCanonicalLocales).
 * @throws TypeError when it is missing; RangeError when it is not a well-formed language tag.
 */
export function canonicalTag(value: unknown, member: string, dictionary: string): string {
  if (value === undefined) throw new TypeError(`${dictionary}: the required member ${member} is missing`);
  const tag = String(value);
  try {
    const [canonical] = Intl.getCanonicalLocales(tag);
    if (canonical !== undefined) return canonical;
  } catch {
    // refused below
  }
  throw new RangeError(`${dictionary}: ${member} ${JSON.stringify(tag)} is not a well-formed BCP 47 language tag`);
}

/**
 * Refuses a download without a transient user activation (a click, a key press), as the spec has
 * create() do in a page; where there is no user activation (Node, workers) a download may start.
 * @throws NotAllowedError naming `what` must be downloaded.
 */
export function checkMayDownload(what: string): void {
  const activation = (globalThis as { navigator?: { userActivation?: { isActive: boolean } } }).navigator?.userActivation;
  if (activation && !activation.isActive) {
    throw new DOMException(`${what} must be downloaded first, which needs a user activation (a click or a key press)`, 'NotAllowedError');
  }
}
