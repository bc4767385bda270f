// No degenerate output on long out-of-domain input: each direction of the shipped catalog translates
// the Europarl sentences of ../shared/data/align-dev (parliament speeches: longer and of another
// domain than anything the everyday models saw) without a repetition loop and within the length limit,
// greedy and with beam search; and the repetition guard is what keeps loops out.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { Translator, modelFor, parseCatalog } from '../../dist/index.js';
import { DATA, ROOT } from './paths.js';

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

test('the repetition guard changes only outputs that loop', async () => {
  const translator = await Translator.load(modelFor(catalog, 'de', 'en').model);
  const sources = pairs.map((p) => p[0]);
  const free = await translator.translateBatch(sources, { repeatLimit: 0, attention: false });
  const guarded = await translator.translateBatch(sources, { attention: false });
  free.forEach((r, i) => {
    if (longestRun(r.targetIds) <= 3) expect(guarded[i].targetIds).toEqual(r.targetIds);
    else expect(longestRun(guarded[i].targetIds)).toBeLessThanOrEqual(3);
  });
  translator.dispose();
});
