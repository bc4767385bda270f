// translateBatch's texts are checked before anything reaches Embind (bindings/src/batch-input.ts):
// holes, non-strings and things that are not arrays are an InvalidInputError naming the first bad
// index, where Embind threw "Cannot pass non-string to std::string" (issue 46, item 6), and the
// translator stays usable.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { InvalidInputError, Translator } from '../../dist/index.js';
import { INT8_MODEL } from './paths.js';

let translator;
beforeAll(async () => { translator = await Translator.load(INT8_MODEL); });
afterAll(() => translator?.dispose());

test('holes, non-strings and non-arrays are an InvalidInputError naming the first bad entry', async () => {
  const sparse = new Array(2 ** 32 - 1);  // the longest array, all holes: refused without walking it
  sparse[0] = 'A dog.';
  const withExtra = Object.assign(['A dog.', 'A cat.'], { note: 5 });  // a non-index property is not an entry
  const cases = [
    [[, 'a'], /texts\[0\] is a hole/],
    [['a', , 'b'], /texts\[1\] is a hole/],
    [['a', 5], /texts\[1\] is a number/],
    [[null], /texts\[0\] is null/],
    [[undefined], /texts\[0\] is undefined/],
    [['a', { toString: () => 'b' }], /texts\[1\] is an object/],
    [[['a']], /texts\[0\] is an array/],
    [[Symbol('a')], /texts\[0\] is a symbol/],
    [new Array(3), /texts\[0\] is a hole/],
    [sparse, /texts\[1\] is a hole/],
    ['A dog.', /got a string/],
    [{ length: 1, 0: 'a' }, /got an object/],
    [null, /got null/],
  ];
  for (const [texts, message] of cases) {
    const error = await translator.translateBatch(texts).then(() => null, (e) => e);
    expect(error, String(message)).toBeInstanceOf(InvalidInputError);
    expect(error.message).toMatch(/^texts must be an array of strings: /);
    expect(error.message).toMatch(message);
  }
  const [dog, cat] = await translator.translateBatch(withExtra);
  expect(dog.text).toBe((await translator.translate('A dog.')).text);
  expect(cat.text).toBe((await translator.translate('A cat.')).text);
  expect(await translator.translateBatch([])).toEqual([]);
});
