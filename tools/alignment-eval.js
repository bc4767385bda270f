#!/usr/bin/env node
// Chooses how cross-attention becomes word alignments, by AER against hand-made gold
// (tests/fixtures/alignment-gold, Och & Ney 2003): every set of decoder layers, the average of
// heads and each single head, with and without Shift-Att (Chen et al. 2020), and each method
// (argmax, grow-diag-final-and, thresholds). The setting with the lowest AER on the dev half (lines 1-20) is then
// scored on the test half (lines 21-40), which took no part in the choice.
//   node tools/alignment-eval.js [--model FILE] [--gold PREFIX]    (prints Markdown, see docs/alignment.md)
import { parseArgs } from 'node:util';
import { Translator, pharaoh } from '../dist/index.js';
import { alignmentErrorRate } from './aer.js';
import { readLines } from './bleu.js';

const { values: args } = parseArgs({
  options: {
    model: { type: 'string', default: new URL('../models/multi30k-en-de/multi30k-en-de.crossattn', import.meta.url).pathname },
    gold: { type: 'string', default: new URL('../tests/fixtures/alignment-gold/multi30k-test2016', import.meta.url).pathname },
  },
});
const src = readLines(`${args.gold}.en`), tgt = readLines(`${args.gold}.de`), gold = readLines(`${args.gold}.gold`);
const DEV = [0, src.length / 2], TEST = [src.length / 2, src.length];
const translator = await Translator.load(args.model);
const { decoderLayers, nHeads } = translator.config;

// A setting's `heads: []` means all heads: the engine's default, so it is left out.
async function score({ heads, ...rest }, [begin, end]) {
  const alignment = heads.length ? { heads, ...rest } : rest;
  const hyps = [];
  for (let i = begin; i < end; ++i) hyps.push(pharaoh((await translator.align(src[i], tgt[i], { attention: false, alignment })).alignment));
  return alignmentErrorRate(gold.slice(begin, end), hyps);
}

const percent = (x) => (100 * x).toFixed(1);
const METHODS = [['argmax'], ['grow-diag-final-and'], ['threshold', 0.2], ['threshold', 0.3], ['threshold', 0.4]];
const methodName = (a) => (a.method === 'threshold' ? `threshold ${a.threshold}` : a.method);
const describe = (a) => `layers ${a.layers.join('+')}, heads ${a.heads.length ? a.heads.join('+') : 'avg'}, ` +
  `${methodName(a)}, shift ${a.shift ? 'on' : 'off'}`;

// Every non-empty set of decoder layers, in order of size.
const layerChoices = Array.from({ length: 2 ** decoderLayers - 1 }, (_, m) =>
  Array.from({ length: decoderLayers }, (_, l) => l).filter((l) => (m + 1) & (1 << l)))
  .sort((a, b) => a.length - b.length);
const headChoices = [[], ...Array.from({ length: nHeads }, (_, h) => [h])];
const rows = [];
for (const layers of layerChoices) {
  for (const heads of headChoices) {
    if (heads.length && layers.length > 1) continue;  // single heads only within a single layer
    for (const shift of [false, true]) {
      for (const [method, threshold] of METHODS) {
        const alignment = { layers, heads, shift, method, threshold };
        rows.push({ alignment, dev: await score(alignment, DEV) });
      }
    }
  }
}
rows.sort((a, b) => a.dev.aer - b.dev.aer);
const best = rows[0];
const naive = rows.find((r) => r.alignment.layers.length === decoderLayers && r.alignment.heads.length === 0 &&
                              !r.alignment.shift && r.alignment.method === 'argmax');
console.log(`Model ${translator.config.name}; gold ${args.gold} (${src.length} pairs: dev 1-${DEV[1]}, test ${TEST[0] + 1}-${TEST[1]}).\n`);
console.log('| setting | dev AER | test AER | test precision | test recall |\n| --- | ---: | ---: | ---: | ---: |');
for (const [label, row] of [['best on dev', best], ['naive: all layers and heads averaged, argmax, no shift', naive]]) {
  const test = await score(row.alignment, TEST);
  console.log(`| ${label}: ${describe(row.alignment)} | ${percent(row.dev.aer)} | ${percent(test.aer)} | ${percent(test.precision)} | ${percent(test.recall)} |`);
}
console.log('\nEvery setting on dev (AER %), heads averaged; shift off / on:\n');
console.log(`| layers | ${METHODS.map(([m, t]) => (t ? `${m} ${t}` : m)).join(' | ')} |\n| --- |${' ---: |'.repeat(METHODS.length)}`);
for (const layers of layerChoices) {
  const cell = ([method, threshold]) => [false, true].map((shift) => percent(rows.find((r) => r.alignment.layers === layers &&
    r.alignment.heads.length === 0 && r.alignment.shift === shift && r.alignment.method === method &&
    r.alignment.threshold === threshold).dev.aer)).join(' / ');
  console.log(`| ${layers.join('+')} | ${METHODS.map(cell).join(' | ')} |`);
}
console.log('\nSingle heads on dev (AER %, grow-diag-final-and, shift off / on):\n');
console.log(`| layer | ${Array.from({ length: nHeads }, (_, h) => `head ${h}`).join(' | ')} |\n| --- |${' ---: |'.repeat(nHeads)}`);
for (let l = 0; l < decoderLayers; ++l) {
  const cell = (h) => ['false', 'true'].map((s) => percent(rows.find((r) => r.alignment.layers.length === 1 && r.alignment.layers[0] === l &&
    r.alignment.heads[0] === h && String(r.alignment.shift) === s && r.alignment.method === 'grow-diag-final-and').dev.aer)).join(' / ');
  console.log(`| ${l} | ${Array.from({ length: nHeads }, (_, h) => cell(h)).join(' | ')} |`);
}
translator.dispose();
