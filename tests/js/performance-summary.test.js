// The speed the page's footer and README.md quote is docs/performance.json's, as the last
// `npm run bench` wrote it: the page reads dist/performance-summary.json (npm run build:ts derives it,
// tools/performance-summary.js), README.md holds one generated block. Each fails here when stale.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { describe, expect, test } from 'vitest';
import { parseCatalog } from '../../dist/index.js';
import { performanceSummary, readmeBlock, README_END, README_START } from '../../tools/performance-summary.js';
import { speedText } from '../../web/performance-view.js';
import { ROOT } from './paths.js';

const PERFORMANCE = JSON.parse(readFileSync(`${ROOT}docs/performance.json`, 'utf8'));
const DATE = PERFORMANCE.date.slice(0, 10);
const ROOT_URL = pathToFileURL(ROOT).href;
const CATALOG_URL = new URL('models/catalog.json', ROOT_URL).href;
const catalog = parseCatalog(readFileSync(new URL(CATALOG_URL), 'utf8'), CATALOG_URL);
/** performance.json's entry for the model file at `url`, if the run measured it. */
const measured = (url) => PERFORMANCE.models.find((m) => new URL(m.model, ROOT_URL).href === url);

/** The figures of one model as performance.json holds them: the shipped default engine (int8 with its shortlist). */
function figuresOf(model) {
  const engine = model.engines['crossattn-wasm-int8-shortlist'];
  return [String(Math.round(engine.tokens_per_s)), `${engine.ratio_to_onnxruntime_web.tokens_per_s}x onnxruntime-web fp32`,
          `${model.bars.int8_shortlist_tokens_vs_onnxruntime_q8.value}x onnxruntime-web q8`];
}

describe("the page's speed line", () => {
  const summary = JSON.parse(readFileSync(`${ROOT}dist/performance-summary.json`, 'utf8'));

  test('dist/performance-summary.json is derived from docs/performance.json as it is now (else: npm run build:ts)', () => {
    expect(summary).toEqual(performanceSummary(PERFORMANCE));
  });

  test("states each catalog model's measured figures and the run's date, and nothing for a model not measured", () => {
    const shipped = catalog.filter((entry) => measured(entry.model));
    expect(shipped.length).toBeGreaterThan(0);
    for (const entry of catalog) {
      const text = speedText(summary, entry.model, 'simd128', ROOT_URL);
      const model = measured(entry.model);
      if (!model) {
        expect(text).toBeNull();
        continue;
      }
      for (const figure of [DATE, ...figuresOf(model), `${model.bars.int8_tokens_vs_fp32.value}x as fast as fp32`]) {
        expect(text).toContain(figure);
      }
    }
    expect(speedText(summary, new URL('models/opened/elsewhere.crossattn', ROOT_URL).href, 'simd128', ROOT_URL)).toBeNull();
    expect(speedText(null, catalog[0].model, 'simd128', ROOT_URL)).toBeNull();  // no summary: no line
  });

  test('quotes the relaxed SIMD figures where the page runs that build, and says when it runs the pthreads build', () => {
    const entry = catalog.find((e) => measured(e.model)?.engines['crossattn-wasm-int8-shortlist-relaxed']);
    expect(entry).toBeDefined();
    const model = measured(entry.model);
    const relaxed = speedText(summary, entry.model, 'relaxed', ROOT_URL);
    expect(relaxed).toContain('the relaxed SIMD build');
    expect(relaxed).toContain(`${Math.round(model.engines['crossattn-wasm-int8-shortlist-relaxed'].tokens_per_s)} target tokens/s, ` +
                              `${model.bars.relaxed_int8_shortlist_tokens_vs_onnxruntime_q8.value}x onnxruntime-web q8`);
    expect(relaxed).toContain(`without relaxed SIMD, ${figuresOf(model)[0]} tokens/s`);
    const threads = speedText(summary, entry.model, 'threads', ROOT_URL);
    for (const figure of figuresOf(model)) expect(threads).toContain(figure);
    expect(threads).toContain('this page runs the pthreads build, which the figure leaves out');
    expect(speedText(summary, entry.model, 'simd128', ROOT_URL)).not.toContain('pthreads');
  });
});

test("README.md's speed block is the one generated from docs/performance.json (else: node tools/performance-summary.js --readme)", () => {
  const readme = readFileSync(`${ROOT}README.md`, 'utf8');
  const start = readme.indexOf(README_START), end = readme.indexOf(README_END);
  expect(start, 'README.md keeps its performance-summary block').toBeGreaterThanOrEqual(0);
  const block = readme.slice(start, end + README_END.length);
  expect(block).toBe(readmeBlock(performanceSummary(PERFORMANCE)));
  const model = PERFORMANCE.models.find((m) => m.name === 'general-en-de');
  for (const figure of [DATE, ...figuresOf(model)]) expect(block).toContain(figure);
  const relaxed = model.engines['crossattn-wasm-int8-shortlist-relaxed'];  // the page's build where relaxed SIMD runs
  expect(block).toContain(`${Math.round(relaxed.tokens_per_s)} target tokens/s, ` +
                          `${model.bars.relaxed_int8_shortlist_tokens_vs_onnxruntime_q8.value}x onnxruntime-web q8`);
});
