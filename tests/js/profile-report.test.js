// The profile section of docs/performance.md (bench/profile-report.js): one column per model and
// decoding and engine build that bench/profile.js --write kept in performance.json, each phase's
// share of the time.
import { expect, test } from 'vitest';
import { profileMarkdown } from '../../bench/profile-report.js';

const phases = (products, attention) => ({
  products: { ms: products, share: products / 1000 }, attention: { ms: attention, share: attention / 1000 },
  other: { ms: 1000 - products - attention, share: (1000 - products - attention) / 1000 },
});
const entry = (beam, shortlist, p, simd) => ({
  date: '2026-11-27T21:00:00.000Z', machine: 'a machine', command: 'npm run bench:profile -- --model m.crossattn --src s',
  model: 'models/x/x.int8.crossattn', beam_size: beam, shortlist, target_tokens: 7000, sampled_ms: 1000, phases: p,
  ...(simd && { simd }),
});

test('each profile is a column and each phase a row of shares', () => {
  const md = profileMarkdown([entry(1, false, phases(780, 60)), entry(4, true, phases(500, 150), 'relaxed')]);
  expect(md).toMatch(/^## Where the time goes/);
  expect(md).toMatch(/\| phase \| x\.int8\.crossattn, greedy, whole output layer, SIMD128 \| x\.int8\.crossattn, beam 4, shortlist, relaxed SIMD \|/);
  expect(md).toMatch(/\| products \| 78\.0% \| 50\.0% \|/);
  expect(md).toMatch(/\| attention \| 6\.0% \| 15\.0% \|/);
  expect(md).toMatch(/\| other \| 16\.0% \| 35\.0% \|/);
  expect(md).toMatch(/\| sampled ms \(target tokens\) \| 1000 \(7000\) \| 1000 \(7000\) \|/);
});
