// Translation.confidence and wordConfidence from the token probabilities (Fomicheva et al. 2020).
import { afterAll, beforeAll, expect, test } from 'vitest';
import { Translator } from '../../dist/index.js';
import { INT8_MODEL } from './paths.js';

let t;
beforeAll(async () => { t = await Translator.load(INT8_MODEL); });
afterAll(() => t.dispose());

const sum = (v) => v.reduce((a, b) => a + b, 0);

test('confidence is the geometric mean token probability; word confidence the product over each word', async () => {
  for (const beamSize of [1, 4]) {
    const r = await t.translate('A little girl is climbing into a wooden playhouse.', { beamSize, nBest: beamSize });
    expect(r.tokenLogProbs).toHaveLength(r.targetIds.length);
    expect(sum(r.tokenLogProbs)).toBeCloseTo(r.logProb, 3);
    expect(r.confidence).toBeCloseTo(Math.exp(r.logProb / r.targetIds.length), 5);
    expect(r.wordConfidence).toHaveLength(r.targetWords.length);
    r.targetWords.forEach((_, w) => {
      const own = r.tokenLogProbs.filter((_, i) => r.targetWordOfToken[i] === w);
      expect(r.wordConfidence[w]).toBeCloseTo(Math.exp(sum(own)), 5);
    });
    for (const h of r.hypotheses) expect(sum(h.tokenLogProbs)).toBeCloseTo(h.logProb, 3);
  }
});

test('forced decoding of the output gives the same confidence; an in-domain caption beats word salad', async () => {
  const caption = await t.translate('Two dogs are playing in the snow.');
  const forced = await t.align('Two dogs are playing in the snow.', caption.text);
  expect(forced.confidence).toBeCloseTo(caption.confidence, 3);
  const salad = await t.translate('Quarterly fiscal derivatives notwithstanding, the ombudsman recused herself.');
  expect(caption.confidence).toBeGreaterThan(0.5);
  expect(salad.confidence).toBeLessThan(caption.confidence);
  const blank = await t.translate('   ');
  expect([blank.confidence, blank.wordConfidence, blank.tokenLogProbs]).toEqual([1, [], []]);
});
