// The section of docs/performance.md on converting a model in the page (bench/convert-report.js):
// written from the `convert` section of performance.json (bench/page-convert.js), replaced in place on
// the next run with the blank line before the next heading kept, and the same as the whole file's
// generator (bench/report.js) writes, so that `npm run bench` and `npm run bench:convert` agree.
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { CONVERT_HEADING, convertMarkdown, replaceConvertSection } from '../../bench/convert-report.js';
import { performanceMarkdown } from '../../bench/report.js';
import { ROOT } from './paths.js';

const convert = {
  command: 'npm run bench:convert -- --runs 3', date: '2026-11-28T23:00:00.000Z', machine: 'a machine', browser: 'Chromium 1', runs: 3,
  model: { id: 'Helsinki-NLP/opus-mt-en-de', file: 'pytorch_model.bin', bytes: 297957709, d_model: 512, layers: '6 + 6', vocab: 58101 },
  total_ms: 7711, download_ms: 2816, convert_ms: 2924, open_ms: 2065, peak_bytes_above: 955637760, peak_bytes: 2224668672,
};

test('the section gives each step\'s time and the peak memory', () => {
  const md = convertMarkdown(convert);
  expect(md.startsWith(CONVERT_HEADING)).toBe(true);
  expect(md).toMatch(/\| conversion in the worker \(read the archive, convert, quantize to int8, write\) \| 2924 \|/);
  expect(md).toMatch(/\| the id submitted to the model in use \| 7711 \|/);
  expect(md).toMatch(/2122 MiB in all, 911 MiB above their level before the download/);
  expect(md).toMatch(/a 298 MB float32 pytorch_model\.bin/);
});

test('a later run replaces the section in place, before the next heading and its blank line', () => {
  const doc = '# Performance\n\nIntro.\n\n## Where the time goes\n\nTable.\n';
  const once = replaceConvertSection(doc, convertMarkdown(convert));
  expect(once.indexOf(CONVERT_HEADING)).toBeLessThan(once.indexOf('## Where the time goes'));
  expect(once).toMatch(/counting once\)\.\n\n## Where the time goes/);
  const twice = replaceConvertSection(once, convertMarkdown({ ...convert, total_ms: 6000 }));
  expect(twice.split(CONVERT_HEADING)).toHaveLength(2);
  expect(twice).toMatch(/model in use \| 6000 \|/);
  expect(twice.replace(/\| 6000 \|/, '| 7711 |')).toBe(once);
});

test('docs/performance.md is what bench/report.js writes from docs/performance.json', () => {
  const json = JSON.parse(readFileSync(`${ROOT}docs/performance.json`, 'utf8'));
  expect(json.convert).toBeDefined();
  expect(performanceMarkdown(json)).toBe(readFileSync(`${ROOT}docs/performance.md`, 'utf8'));
});
