// No degenerate output on long out-of-domain input: each direction of the shipped catalog translates
// the Europarl sentences of ../shared/data/align-dev (parliament speeches: longer and of another
// domain than anything the everyday models saw) without a repetition loop and within the length limit,
// greedy and with beam search; and the repetition guards are what keep loops and doubled words out.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { Translator, modelFor, parseCatalog } from '../../dist/index.js';
import { DATA, ROOT } from './paths.js';
import { repeatedWords } from '../../tools/internals/word-repeats.js';

const MODELS = `${ROOT}models/`;
const catalog = parseCatalog(readFileSync(`${MODELS}catalog.json`, 'utf8'), MODELS);
// "German ||| English" per line, tokenized; undo the spaces before punctuation.
const pairs = readFileSync(`${DATA}/align-dev/dev.de-en`, 'utf8').trim().split('\n')
  .map((line) => line.split(' ||| ').map((side) => side.replace(/ ([,.;:?!)])/g, '$1').replace(/\( /g, '(')));

/** The most consecutive copies of any span of 1..16 ids in `ids`, by brute force. */
function longestRun(ids) {
  let longest = ids.length ? 1 : 0;
  for (let p = 1; p <= 16; ++p) {
    for (let start = 0; start + 2 * p <= ids.length; ++start) {
      let copies = 1;
      const same = (k) => ids.slice(start, start + p).every((x, j) => ids[start + k * p + j] === x);
      while (start + (copies + 1) * p <= ids.length && same(copies)) ++copies;
      longest = Math.max(longest, copies);
    }
  }
  return longest;
}

test('longestRun finds runs of single tokens and of spans', () => {
  expect(longestRun([])).toBe(0);
  expect(longestRun([1, 2, 3])).toBe(1);
  expect(longestRun([7, 5, 5, 5, 5, 2])).toBe(4);
  expect(longestRun([9, 1, 2, 1, 2, 1, 2, 8])).toBe(3);
});

describe.each([['en', 'de', 1], ['de', 'en', 0]])('%s -> %s', (from, to, side) => {
  const sources = pairs.map((p) => p[side]);

  test.each([[1, sources.length], [4, 40]])('beam %i: %i parliament sentences, no loop, bounded length', async (beamSize, n) => {
    const translator = await Translator.load(modelFor(catalog, from, to).model);
    const results = await translator.translateBatch(sources.slice(0, n), { beamSize, attention: false });
    results.forEach((r, i) => {
      const source = sources[i];
      expect(longestRun(r.targetIds), `${source} -> ${r.text}`).toBeLessThanOrEqual(3);
      expect(r.targetIds.length).toBeLessThanOrEqual(Math.floor(2 * r.sourceTokens.length + 10));
      expect(r.text.length, `${source} -> ${r.text}`).toBeLessThanOrEqual(3 * source.length);
    });
    translator.dispose();
  });
});

test('the repetition guards change only outputs that loop or write a word twice in a row', async () => {
  const translator = await Translator.load(modelFor(catalog, 'de', 'en').model);
  const sources = pairs.map((p) => p[0]);
  const free = await translator.translateBatch(sources, { repeatLimit: 0, attention: false, copyThrough: false });
  const guarded = await translator.translateBatch(sources, { attention: false, copyThrough: false });
  let changed = 0;
  free.forEach((r, i) => {
    const repeats = repeatedWords(sources[i]).length === 0 && repeatedWords(r.text).length > 0;
    if (longestRun(r.targetIds) <= 3 && !repeats) expect(guarded[i].targetIds).toEqual(r.targetIds);
    else ++changed;
    expect(longestRun(guarded[i].targetIds)).toBeLessThanOrEqual(3);
  });
  expect(changed).toBeGreaterThan(0);
  translator.dispose();
});
