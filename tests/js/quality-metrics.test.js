// The measures docs/confidence.md is made with: sentence chrF and rank correlation, on cases worked
// out by hand.
import { expect, test } from 'vitest';
import { sentenceChrf } from '../../tools/chrf.js';
import { pearson, ranks, spearman } from '../../tools/correlation.js';

test('chrF: identical 100, nothing shared 0, spaces ignored, a case worked by hand', () => {
  expect(sentenceChrf('Das Haus ist blau.', 'Das Haus ist blau.')).toBe(100);
  expect(sentenceChrf('xyz', 'abc')).toBe(0);
  expect(sentenceChrf('a b', 'ab')).toBe(100);
  // "ab" against "abc": unigrams P 2/2 R 2/3, bigrams P 1/1 R 1/2, no longer n-gram in "ab".
  // P = 1, R = 7/12, F2 = 5 P R / (4 P + R) = 35/55.
  expect(sentenceChrf('ab', 'abc')).toBeCloseTo((100 * 35) / 55, 10);
  // Recall weighs more than precision: a hypothesis missing half scores below one with extra text.
  expect(sentenceChrf('Das Haus', 'Das Haus ist blau')).toBeLessThan(sentenceChrf('Das Haus ist blau und alt', 'Das Haus ist blau'));
});

test('Pearson and Spearman: hand-computed values, ties share their mean rank', () => {
  expect(pearson([1, 2, 3], [1, 2, 4])).toBeCloseTo(3 / Math.sqrt(2 * (42 / 9)), 12);
  expect(ranks([10, 20, 20, 30])).toEqual([1, 2.5, 2.5, 4]);
  expect(spearman([1, 2, 3, 4], [1, 8, 27, 64])).toBeCloseTo(1, 12);  // monotone, not linear
  expect(spearman([1, 2, 3, 4], [4, 3, 2, 1])).toBeCloseTo(-1, 12);
  expect(() => pearson([1], [1])).toThrow(/same length/);
});
