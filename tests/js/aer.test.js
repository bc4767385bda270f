// The AER scorer (tools/aer.js) on hand-made gold whose scores follow from Och & Ney's definition.
import { expect, test } from 'vitest';
import { alignmentErrorRate, parseLinks } from '../../tools/aer.js';

test('parses sure and possible links; sure links are also possible', () => {
  const { sure, possible } = parseLinks('0-0 1?2 3p1');
  expect([...sure]).toEqual(['0-0']);
  expect([...possible].sort()).toEqual(['0-0', '1-2', '3-1']);
  expect(() => parseLinks('0-0 1:2')).toThrow(/not an alignment link/);
});

test('a hypothesis equal to the sure links scores 0; one with no correct link scores 1', () => {
  const gold = ['0-0 1-1 2?1', '0-1 1-0'];
  expect(alignmentErrorRate(gold, ['0-0 1-1', '0-1 1-0']).aer).toBe(0);
  expect(alignmentErrorRate(gold, ['0-1 2-2', '0-0']).aer).toBe(1);
});

test('possible links raise precision but not recall', () => {
  // Gold: sure {0-0, 1-1}, possible adds {2-1}. Hypothesis {0-0, 2-1, 2-2}.
  // |A| = 3, |S| = 2, |A∩S| = 1, |A∩P| = 2: AER = 1 - 3/5 = 0.4, precision 2/3, recall 1/2.
  const r = alignmentErrorRate(['0-0 1-1 2p1'], ['0-0 2-1 2-2']);
  expect(r.aer).toBeCloseTo(0.4, 12);
  expect(r.precision).toBeCloseTo(2 / 3, 12);
  expect(r.recall).toBeCloseTo(0.5, 12);
});

test('sums over the corpus instead of averaging sentences', () => {
  // Sentence 1: A = {0-0}, S = {0-0}: 2/2. Sentence 2: A = {0-0, 1-1, 2-2}, S = {0-1}: 0/4.
  // Corpus: 1 - 2/6, not the mean of 0 and 1.
  expect(alignmentErrorRate(['0-0', '0-1'], ['0-0', '0-0 1-1 2-2']).aer).toBeCloseTo(2 / 3, 12);
});

test('rejects files of different lengths', () => {
  expect(() => alignmentErrorRate(['0-0'], [])).toThrow(/1 gold lines but 0/);
});
