/**
 * The texts of a batch, checked before anything reaches the engine: Embind turns a value that is not
 * a string into "Cannot pass non-string to std::string", an untyped error, and Array.prototype's
 * some/forEach/map skip holes, so `[, 'a']` would pass a check written with them.
 */
import { InvalidInputError } from './errors.js';

const kind = (value: unknown): string =>
  value === null ? 'null' : value === undefined ? 'undefined' : Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : `a ${typeof value}`;

/**
 * Throws unless `texts` is an array whose every index, 0 to length - 1, holds a string. Sparse
 * arrays are walked by their own keys, so `new Array(2 ** 32 - 1)` is refused at once.
 * @throws InvalidInputError "texts must be an array of strings: texts[0] is a hole (an array with
 *   an empty slot)" or "...: texts[2] is a number", naming the first bad index.
 */
export function checkTexts(texts: unknown): asserts texts is readonly string[] {
  const refuse = (why: string) => new InvalidInputError(`texts must be an array of strings: ${why}`);
  if (!Array.isArray(texts)) throw refuse(`got ${kind(texts)}`);
  let next = 0;  // the index the next own key must be; Object.keys lists array indices first, ascending
  for (const key of Object.keys(texts)) {
    const i = Number(key);
    if (!Number.isInteger(i) || String(i) !== key || i >= texts.length) break;  // past the indices
    if (i !== next) break;
    if (typeof texts[i] !== 'string') throw refuse(`texts[${i}] is ${kind(texts[i])}`);
    ++next;
  }
  if (next < texts.length) throw refuse(`texts[${next}] is a hole (an array with an empty slot)`);
}
