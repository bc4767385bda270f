// The ceiling notes of docs/performance.md (bench/report.js): where bench/kernels.cc reported the
// decode step's median batch beside its fastest, each model's section says how the ceiling ratios
// read against the median; kernels output without the median leaves the note out. Also the ceiling
// with the model's shortlist, and what share of a ceiling each bar needs.
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { performanceMarkdown } from '../../bench/report.js';

const report = () => JSON.parse(readFileSync(new URL('../../docs/performance.json', import.meta.url), 'utf8'));
const withCeiling = (r) => r.models.filter((m) => m.ceiling && m.bars.int8_tokens_vs_ceiling);

test('the contention note scales each ceiling ratio by the step median over its fastest', () => {
  const r = report();
  const models = withCeiling(r);
  expect(models.length).toBeGreaterThan(0);
  for (const m of models) Object.assign(m.ceiling, { int8_step_median_vs_fastest: 1.5, fp32_step_median_vs_fastest: 1.25 });
  const md = performanceMarkdown(r);
  for (const m of models) {
    const int8 = (m.bars.int8_tokens_vs_ceiling.value * 1.5).toFixed(2);
    const fp32 = (m.bars.fp32_tokens_vs_ceiling.value * 1.25).toFixed(2);
    expect(md).toContain(`decode step's median batch took 1.5x its fastest in int8, so int8_tokens_vs_ceiling would read about ${int8}`);
    expect(md).toContain(`1.25x in fp32, so fp32_tokens_vs_ceiling would read about ${fp32}`);
  }
});

test('kernels output without the median gives no contention note', () => {
  const r = report();
  for (const m of withCeiling(r)) {
    delete m.ceiling.int8_step_median_vs_fastest;
    delete m.ceiling.fp32_step_median_vs_fastest;
  }
  expect(performanceMarkdown(r)).not.toContain('Contention:');
});

test('a shortlist ceiling names its rows and says how much of it a bar needs', () => {
  const r = report();
  const [m] = withCeiling(r);
  const q8 = m.engines['onnxruntime-web-q8'].tokens_per_s;
  Object.assign(m.ceiling, { int8_shortlist_tokens_per_s: 4000, shortlist_rows_per_target_token: 1700 });
  m.bars.int8_shortlist_tokens_vs_onnxruntime_q8.ceiling = Number((4000 / q8).toFixed(2));
  const md = performanceMarkdown(r);
  expect(md).toContain(`scores 1700 output rows per target token on average (bench/shortlist-candidates.js), not ${m.config.vocab_size}`);
  expect(md).toContain('passes no more than 4000 tokens/s here');
  const { value, bar, ceiling } = m.bars.int8_shortlist_tokens_vs_onnxruntime_q8;
  expect(md).toContain(`int8_shortlist_tokens_vs_onnxruntime_q8: the ceiling with the shortlist is ${ceiling}x the same peer`);
  if (ceiling >= bar) expect(md).toContain(`the bar of ${bar} needs ${Number((bar / ceiling).toFixed(2))} of it, and this run reaches ${Number((value / ceiling).toFixed(2))}`);
});

test('a ceiling below a bar says so', () => {
  const r = report();
  const [m] = withCeiling(r);
  m.bars.int8_tokens_vs_onnxruntime_q8.ceiling = m.bars.int8_tokens_vs_onnxruntime_q8.bar - 0.5;
  expect(performanceMarkdown(r)).toContain(`below the bar of ${m.bars.int8_tokens_vs_onnxruntime_q8.bar}: no engine meets that bar here without a shortlist`);
});
