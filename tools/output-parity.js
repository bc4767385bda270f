#!/usr/bin/env node
/**
 * Whether the page, the CLI and the library give the same text (issue 59): every line of FLORES dev
 * translated three ways at the page's decoding (beam search of 4), and the lines that differ.
 *   node tools/output-parity.js [--data DIR] [--limit N] [--model FILE]...
 *
 * - library: each line split into sentences (splitParagraphs), translateBatch({ beamSize: 4 }),
 *   joined (joinParagraphs): what api.md says to do with a paragraph;
 * - page options: the same with every option the page passes (web/app.js: attention, alignment,
 *   residual, nBest 4, an AbortSignal and onToken), in Node;
 * - CLI: `crossattn translate` with the lines on stdin (dist/cli.js), which splits each line the same way.
 * tests/e2e/parity.test.js checks the page itself in chromium on a sample. Prints one JSON line per model.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Translator, joinParagraphs, splitParagraphs } from '../dist/index.js';

const here = (p) => new URL(p, import.meta.url).pathname;
const { values } = parseArgs({
  options: {
    data: { type: 'string', default: process.env.CROSSATTN_DATA ?? here('../../shared/data') },
    limit: { type: 'string' },
    model: { type: 'string', multiple: true },
  },
});
const models = values.model ?? [here('../models/general-en-de/general-en-de.int8.crossattn'),
                                here('../models/general-de-en/general-de-en.int8.crossattn')];

// Every line of `lines` translated by the library with `options`, sentence by sentence.
async function library(t, lines, options) {
  const out = [];
  for (const line of lines) {
    const paragraphs = splitParagraphs(line, t.config.sourceLang);
    const results = await t.translateBatch(paragraphs.flat(), { beamSize: 4, ...options });
    out.push(joinParagraphs(paragraphs, results.map((r) => r.text)));
  }
  return out;
}

for (const file of models) {
  const t = await Translator.load(file);
  const { sourceLang, targetLang } = t.config;
  const lines = readFileSync(`${values.data}/flores-dev/dev.${sourceLang}`, 'utf8').trim().split('\n')
    .slice(0, values.limit ? Number(values.limit) : undefined);
  const plain = await library(t, lines, {});
  const page = await library(t, lines, { attention: true, alignment: true, residual: true, nBest: 4,
                                         signal: new AbortController().signal, onToken: () => {} });
  t.dispose();
  const cli = execFileSync('node', [here('../dist/cli.js'), 'translate', '--model', file],
                           { input: lines.join('\n') + '\n', encoding: 'utf8', maxBuffer: 1 << 26 }).trimEnd().split('\n');
  const differ = (a, b) => lines.flatMap((_, i) => (a[i] === b[i] ? [] : [i]));
  const [pageDiffers, cliDiffers] = [differ(plain, page), differ(plain, cli)];
  for (const i of [...new Set([...pageDiffers, ...cliDiffers])]) {
    console.error(JSON.stringify({ line: i + 1, source: lines[i], library: plain[i], page: page[i], cli: cli[i] }));
  }
  console.log(JSON.stringify({ model: file.split('/').pop(), direction: `${sourceLang}-${targetLang}`, lines: lines.length,
                               page_options_differ: pageDiffers.length, cli_differs: cliDiffers.length }));
}
