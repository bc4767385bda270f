// meanEntropy, the sharpness measure of the head grid and the figure tools, on hand-computed rows.
import { expect, test } from 'vitest';
import { meanEntropy } from '../../dist/index.js';

test('0 for one-hot rows, log S for uniform rows, the mean over rows otherwise', () => {
  expect(meanEntropy([[1, 0, 0], [0, 0, 1]])).toBe(0);
  expect(meanEntropy([Float32Array.of(0.25, 0.25, 0.25, 0.25)])).toBeCloseTo(Math.log(4), 6);
  expect(meanEntropy([[1, 0], [0.5, 0.5]])).toBeCloseTo(Math.log(2) / 2, 12);
});
