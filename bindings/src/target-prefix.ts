/**
 * Forced target prefixes (prefix decoding, as CTranslate2's translate_batch `target_prefix`): the
 * option `targetPrefix` makes each translation start with given target text, which the engine
 * scores with the model's log-probabilities and then continues freely (cpp/decoding/beam_search.h).
 * For interactive translation (the user's accepted words) and for the number constraint
 * (number-constraint.ts). This file checks the option and maps it onto a long-input plan.
 */
import { InvalidInputError } from './errors.js';
import type { LongInputPlan } from './long-input.js';

/**
 * The prefix of each of `count` texts, or undefined when `targetPrefix` is absent: a string is the
 * prefix of a single text, an array holds one string per text ('' for none).
 * @throws InvalidInputError for anything else, or an array whose length is not `count`.
 */
export function targetPrefixes(targetPrefix: unknown, count: number): string[] | undefined {
  if (targetPrefix === undefined || targetPrefix === null) return undefined;
  if (typeof targetPrefix === 'string' && count === 1) return [targetPrefix];
  if (!Array.isArray(targetPrefix) || targetPrefix.some((p) => typeof p !== 'string')) {
    throw new InvalidInputError(count === 1 ? 'targetPrefix must be a string'
      : 'targetPrefix must be an array of strings, one per text');
  }
  if (targetPrefix.length !== count) {
    throw new InvalidInputError(`targetPrefix has ${targetPrefix.length} entries for ${count} texts`);
  }
  return [...targetPrefix] as string[];
}

/**
 * The prefixes of a long-input plan's decoded texts: a text translated in parts gets its prefix on
 * its first part (where its translation starts), '' on the others.
 */
export function planPrefixes(plan: LongInputPlan, prefixes: readonly string[] | undefined): string[] | undefined {
  if (prefixes === undefined) return undefined;
  return plan.owner.map((input, k) => (k === 0 || plan.owner[k - 1] !== input ? prefixes[input] : ''));
}
