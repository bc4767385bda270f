// The page's first-translation section of docs/performance.md (bench/page-report.js): written from
// the `page` section of performance.json, put before the first model's section, replaced in place on
// the next run, and the rest of the file kept as it was.
import { expect, test } from 'vitest';
import { PAGE_HEADING, pageMarkdown, replacePageSection } from '../../bench/page-report.js';

const phases = (first) => ({ first_translation_ms: first, first_token_ms: first - 100, model_download_ms: 900 });
const page = {
  date: '2026-11-27T15:00:00.000Z', command: 'npm run bench:page -- --runs 3', machine: 'a machine', browser: 'Chromium 1, headless',
  model: 'general-en-de/general-en-de.int8.crossattn', engine: 'crossattn.wasm', runs: 3,
  page: { cold: phases(4000), warm: phases(1500) }, baseline: { cold: phases(5000), warm: phases(2500) },
};
const report = { models: [{ name: 'general-en-de', engines: { 'onnxruntime-web-q8': { load_ms: 1021.4 }, 'bergamot-wasm-int8': { load_ms: 108 } } }] };

test('the section gives cold and warm, before and now, and names the peers\' load times', () => {
  const md = pageMarkdown(page, report);
  expect(md.startsWith(PAGE_HEADING)).toBe(true);
  expect(md).toMatch(/\| navigation to the first translated sentence \| 5000 \| 2500 \| 4000 \| 1500 \|/);
  expect(md).toMatch(/onnxruntime-web-q8 1021 ms, bergamot-wasm-int8 108 ms/);
  const noBaseline = pageMarkdown({ ...page, baseline: undefined }, report);
  expect(noBaseline).toMatch(/\| cold ms \| warm ms \|/);
  expect(noBaseline).not.toMatch(/before cold ms|^Before:/m);
});

test('the section goes before the first model section, and a later run replaces it in place', () => {
  const doc = '# Performance\n\nIntro.\n\n## general-en-de\n\nTable.\n';
  const once = replacePageSection(doc, pageMarkdown(page, report));
  expect(once.indexOf(PAGE_HEADING)).toBeGreaterThan(once.indexOf('Intro.'));
  expect(once.indexOf(PAGE_HEADING)).toBeLessThan(once.indexOf('## general-en-de'));
  const twice = replacePageSection(once, pageMarkdown({ ...page, page: { cold: phases(3000), warm: phases(1000) } }, report));
  expect(twice.split(PAGE_HEADING).length).toBe(2);
  expect(twice).toMatch(/\| 3000 \| 1000 \|/);
  expect(twice).not.toMatch(/\| 4000 \| 1500 \|/);
  expect(twice.endsWith('## general-en-de\n\nTable.\n')).toBe(true);
  expect(twice).toMatch(/as above\.\n\n## general-en-de/);  // a blank line before the next section, replaced or not
});

test('with --builds, a cold and a warm column per engine build, named by the wasm the page fetched', () => {
  const builds = {
    ...page, baseline: undefined, relaxed: { cold: phases(3000), warm: phases(1200) }, simd128: { cold: phases(3500), warm: phases(1300) },
    builds: [{ label: 'page', wasm: 'crossattn-mt.wasm', isolated: true }, { label: 'relaxed', wasm: 'crossattn-relaxed.wasm', isolated: false },
             { label: 'simd128', wasm: 'crossattn.wasm', isolated: false }],
  };
  const md = pageMarkdown(builds, report);
  expect(md).toMatch(/\| phase \| crossattn-mt\.wasm \(isolated\) cold ms \| crossattn-mt\.wasm \(isolated\) warm ms \| crossattn-relaxed\.wasm cold ms \| crossattn-relaxed\.wasm warm ms \| crossattn\.wasm cold ms \| crossattn\.wasm warm ms \|/);
  expect(md).toMatch(/\| navigation to the first translated sentence \| 4000 \| 1500 \| 3000 \| 1200 \| 3500 \| 1300 \|/);
  expect(md).toMatch(/with each engine build/);
});
