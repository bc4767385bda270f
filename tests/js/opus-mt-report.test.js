// The section of docs/performance.md on an OPUS-MT-size model against transformers.js
// (bench/opus-mt-report.js): written from the `opus_mt` section of performance.json
// (bench/opus-mt-size.js), with the ratios and the bar computed from the engines' rows, and replaced
// in place on the next run.
import { expect, test } from 'vitest';
import { OPUS_MT_HEADING, opusMtBars, opusMtMarkdown, replaceOpusMtSection } from '../../bench/opus-mt-report.js';

const row = (build, tokensPerS, peakMiB) => ({ build, target_tokens: 512, load_ms: 1000, first_ms: 300, tokens_per_s: tokensPerS, peak_bytes_above: peakMiB * 2 ** 20 });
const opusMt = {
  command: 'npm run bench:opus-mt', date: '2026-11-29T12:00:00.000Z', machine: 'a machine', browser: 'Chromium 1, headless',
  model: { id: 'Helsinki-NLP/opus-mt-en-de', d_model: 512, layers: '6 + 6', vocab: 58101, weights: 'random' },
  sentences: 16, tokens: 32, runs: 3,
  engines: {
    'crossattn-int8-relaxed': row('relaxed', 60, 300), 'crossattn-int8-simd128': row('simd128', 45, 300),
    'crossattn-fp32': row('relaxed', 30, 800), 'transformers.js-q8': row('onnxruntime-web 1', 6, 800),
    'transformers.js-fp32': row('onnxruntime-web 1', 8, 2000),
  },
  same_texts: { 'crossattn-fp32 and transformers.js-fp32': 16 },
};

test('the bar: crossattn\'s default at least 3x transformers.js q8 in tokens/s, at no more peak memory', () => {
  expect(opusMtBars(opusMt)).toEqual({ tokens_vs_q8: 10, memory_vs_q8: 0.38, met: true });
  const slow = { ...opusMt, engines: { ...opusMt.engines, 'crossattn-int8-relaxed': row('relaxed', 17, 300) } };
  expect(opusMtBars(slow).met).toBe(false);
  const heavy = { ...opusMt, engines: { ...opusMt.engines, 'crossattn-int8-relaxed': row('relaxed', 60, 801) } };
  expect(opusMtBars(heavy).met).toBe(false);
});

test('the section gives every engine\'s row with its ratio to transformers.js q8, and the agreement', () => {
  const md = opusMtMarkdown(opusMt);
  expect(md.startsWith(OPUS_MT_HEADING)).toBe(true);
  expect(md).toMatch(/\| crossattn-int8-relaxed \| relaxed \| 1000 \| 300 \| 60\.0 \| 10\.00x \| 300 \|/);
  expect(md).toMatch(/\| transformers\.js-fp32 \| onnxruntime-web 1 \| 1000 \| 300 \| 8\.0 \| 1\.33x \| 2000 \|/);
  expect(md).toMatch(/is 10x transformers\.js q8 in tokens\/s at 0\.38x its peak memory/);
  expect(md).toMatch(/crossattn-fp32 and transformers\.js-fp32 16 of 16/);
});

test('a later run replaces the section in place, before the next heading and its blank line', () => {
  const doc = '# Performance\n\nIntro.\n\n## Where the time goes\n\nTable.\n';
  const once = replaceOpusMtSection(doc, opusMtMarkdown(opusMt));
  expect(once.indexOf(OPUS_MT_HEADING)).toBeLessThan(once.indexOf('## Where the time goes'));
  expect(once).toMatch(/\.\n\n## Where the time goes/);
  const twice = replaceOpusMtSection(once, opusMtMarkdown({ ...opusMt, runs: 5 }));
  expect(twice.split(OPUS_MT_HEADING)).toHaveLength(2);
  expect(twice.replace('Medians of 5 runs', 'Medians of 3 runs')).toBe(once);
});
