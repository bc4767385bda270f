#!/usr/bin/env node
// The measured speed the page and README.md quote, taken from docs/performance.json (written by
// `npm run bench`) so that no figure is copied by hand:
//   node tools/performance-summary.js            writes dist/performance-summary.json, which the page
//                                                reads (npm run build:ts runs this; web/build.js copies it)
//   node tools/performance-summary.js --readme   rewrites README.md's block between the markers below
// tests/js/performance-summary.test.js fails when either is stale.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
export const PERFORMANCE_JSON = join(root, 'docs/performance.json');
export const SUMMARY_JSON = join(root, 'dist/performance-summary.json');
const README = join(root, 'README.md');
export const README_START = '<!-- performance-summary: generated from docs/performance.json by ' +
  '`node tools/performance-summary.js --readme`; do not edit by hand -->';
export const README_END = '<!-- /performance-summary -->';

// The engine the page and the library run by default: int8 weights with the model's shortlist, on
// the SIMD128 build, or on the relaxed SIMD build where the JavaScript engine has relaxed SIMD.
const SHIPPED_ENGINE = 'crossattn-wasm-int8-shortlist';
const SHIPPED_ENGINE_RELAXED = 'crossattn-wasm-int8-shortlist-relaxed';

/**
 * The figures of `performance` (docs/performance.json) that the page and README.md quote, for each
 * shipped model (a model file under models/):
 *   { date: 'YYYY-MM-DD', host: 'CPU, N cores', command, models: [{ name, model: 'models/…',
 *     tokensPerS, vsOnnxruntimeWeb, vsOnnxruntimeWebQ8, int8VsFp32, relaxedTokensPerS?,
 *     relaxedVsOnnxruntimeWebQ8? }] }
 * tokensPerS is target tokens per second of SHIPPED_ENGINE on one thread; the ratios are its tokens/s
 * against onnxruntime-web fp32 and q8 on the same weights, and int8 against fp32 without shortlist;
 * the relaxed figures are SHIPPED_ENGINE_RELAXED's, where the run measured it.
 * @throws Error when a shipped model lacks one of these measurements (a partial bench run).
 */
export function performanceSummary(performance) {
  const models = performance.models.filter((m) => m.model.startsWith('models/')).map((m) => {
    const engine = m.engines[SHIPPED_ENGINE];
    const q8 = m.bars?.int8_shortlist_tokens_vs_onnxruntime_q8?.value;
    const int8 = m.bars?.int8_tokens_vs_fp32?.value;
    if (!engine || q8 === undefined || int8 === undefined) {
      throw new Error(`docs/performance.json: ${m.name} lacks ${SHIPPED_ENGINE} or its bars (run npm run bench in full)`);
    }
    const relaxed = m.engines[SHIPPED_ENGINE_RELAXED], relaxedQ8 = m.bars?.relaxed_int8_shortlist_tokens_vs_onnxruntime_q8?.value;
    return { name: m.name, model: m.model, tokensPerS: engine.tokens_per_s,
             vsOnnxruntimeWeb: engine.ratio_to_onnxruntime_web.tokens_per_s, vsOnnxruntimeWebQ8: q8, int8VsFp32: int8,
             ...(relaxed && relaxedQ8 !== undefined && { relaxedTokensPerS: relaxed.tokens_per_s, relaxedVsOnnxruntimeWebQ8: relaxedQ8 }) };
  });
  return { date: performance.date.slice(0, 10), host: performance.machine.split(', ').slice(0, 2).join(', '),
           command: 'npm run bench', models };
}

/** README.md's block for `summary`, markers included: one dated figure, and where the rest is. */
export function readmeBlock(summary) {
  const m = summary.models.find((x) => x.name === 'general-en-de') ?? summary.models[0];
  return [
    README_START,
    `Speed, measured by \`${summary.command}\` on ${summary.date} (${summary.host}): the shipped ${m.name}, as the page ` +
    `runs it (int8 weights with its shortlist, one thread), translates ${Math.round(m.tokensPerS)} target tokens/s, ` +
    `${m.vsOnnxruntimeWeb}x onnxruntime-web fp32 and ${m.vsOnnxruntimeWebQ8}x onnxruntime-web q8 on the same weights` +
    (m.relaxedTokensPerS === undefined ? '. '
      : `; with relaxed SIMD, which the page runs where the browser has it, ${Math.round(m.relaxedTokensPerS)} target ` +
        `tokens/s, ${m.relaxedVsOnnxruntimeWebQ8}x onnxruntime-web q8. `) +
    'Every model, engine and ratio of that run: [docs/performance.md](docs/performance.md).',
    README_END,
  ].join('\n');
}

/** `readme` with its generated block replaced by readmeBlock(summary). @throws Error without the markers. */
export function withReadmeBlock(readme, summary) {
  const start = readme.indexOf(README_START), end = readme.indexOf(README_END);
  if (start < 0 || end < start) throw new Error('README.md has no performance-summary block');
  return readme.slice(0, start) + readmeBlock(summary) + readme.slice(end + README_END.length);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const summary = performanceSummary(JSON.parse(readFileSync(PERFORMANCE_JSON, 'utf8')));
  if (process.argv.includes('--readme')) {
    writeFileSync(README, withReadmeBlock(readFileSync(README, 'utf8'), summary));
  } else {
    mkdirSync(dirname(SUMMARY_JSON), { recursive: true });
    writeFileSync(SUMMARY_JSON, `${JSON.stringify(summary, null, 1)}\n`);
  }
}
