// The project's BLEU against sacreBLEU's published numbers (../shared/data/README.md).
import { expect, test } from 'vitest';
import { corpusBleu, readLines, tokenize13a } from '../../tools/bleu.js';
import { DATA } from './paths.js';

test("reproduces sacreBLEU's documented example: 48.530827", () => {
  const hyp = ['The dog bit the man.', "It wasn't surprising.", 'The man had just bitten him.'];
  const ref1 = ['The dog bit the man.', 'It was not unexpected.', 'The man bit him first.'];
  const ref2 = ['The dog had bit the man.', 'No one was surprised.', 'The man had bitten the dog.'];
  expect(corpusBleu(hyp, [ref1, ref2]).score).toBeCloseTo(48.530827, 5);
});

test('13a tokenization splits punctuation but keeps numbers whole', () => {
  expect(tokenize13a('Hello, world! It costs $3.50-4.')).toBe('Hello , world ! It costs $ 3.50 - 4 .');
  expect(tokenize13a('"Quoted" (x) a&amp;b')).toBe('" Quoted " ( x ) a & b');
});

test('scores the stored bleu-check outputs as sacreBLEU does (39.1 and 44.5)', () => {
  const ref = readLines(`${DATA}/flores-dev/dev.de`);
  const bergamot = corpusBleu(readLines(`${DATA}/bleu-check/flores-dev.bergamot-tiny.de`), [ref]).score;
  const google = corpusBleu(readLines(`${DATA}/bleu-check/flores-dev.google.de`), [ref]).score;
  expect(bergamot).toBeCloseTo(39.1, 1);
  expect(google).toBeCloseTo(44.5, 1);
});

test('edge cases: no output scores 0, identical output scores 100', () => {
  expect(corpusBleu([''], [['A dog runs.']]).score).toBe(0);
  expect(corpusBleu(['A dog runs in the park.'], [['A dog runs in the park.']]).score).toBeCloseTo(100, 10);
});
