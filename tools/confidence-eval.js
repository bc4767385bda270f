#!/usr/bin/env node
// How well the model's sentence confidence (Translation.confidence: the geometric mean token
// probability) tells good translations from bad ones: translates a test set with each catalog
// direction, scores every sentence with chrF against its reference, and prints (Markdown, the
// body of docs/confidence.md) the Pearson and Spearman correlation of confidence with chrF,
// against a baseline that knows only the source length, and the mean chrF below and above
// confidence thresholds.
//   node tools/confidence-eval.js [--data DIR] [--set flores-dev/dev] [--limit N]
import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Translator, parseCatalog } from '../dist/index.js';
import { readLines } from './bleu.js';
import { sentenceChrf } from './chrf.js';
import { pearson, spearman } from './correlation.js';

const { values } = parseArgs({
  options: {
    data: { type: 'string', default: process.env.CROSSATTN_DATA ?? new URL('../../shared/data', import.meta.url).pathname },
    set: { type: 'string', default: 'flores-dev/dev' },
    limit: { type: 'string' },
  },
});
const THRESHOLDS = [0.2, 0.3, 0.4, 0.5, 0.6];
const models = new URL('../models/', import.meta.url).pathname;
const catalog = parseCatalog(readFileSync(`${models}catalog.json`, 'utf8'), models);
const side = (lang) => [`${values.data}/${values.set}.${lang}`, `${values.data}/${values.set}.${lang}.gz`].find(existsSync);
const fixed = (x, digits = 2) => (Number.isFinite(x) ? x.toFixed(digits) : '–');  // – for the mean of no sentence
const mean = (v) => (v.length ? v.reduce((a, b) => a + b, 0) / v.length : NaN);

console.log(`Set \`${values.set}\`; greedy decoding with each direction's catalog model; chrF per sentence ` +
            '(tools/chrf.js). Baseline: minus the source length in characters (longer sentences tend to be translated worse).\n');
console.log('| direction | model | sentences | mean chrF | Pearson r (confidence, chrF) | Spearman ρ | Spearman ρ, baseline |');
console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: |');
const tables = [];
for (const entry of catalog) {
  const source = readLines(side(entry.sourceLang)).slice(0, values.limit ? Number(values.limit) : undefined);
  const reference = readLines(side(entry.targetLang));
  const translator = await Translator.load(entry.model);
  const confidence = [], chrf = [];
  for (let i = 0; i < source.length; ++i) {
    const r = await translator.translate(source[i], { attention: false });
    confidence.push(r.confidence);
    chrf.push(sentenceChrf(r.text, reference[i]));
  }
  const baseline = source.map((s) => -s.length);
  console.log(`| ${entry.sourceLang}→${entry.targetLang} | ${translator.config.name} | ${source.length} | ${fixed(mean(chrf), 1)} | ` +
              `${fixed(pearson(confidence, chrf))} | ${fixed(spearman(confidence, chrf))} | ${fixed(spearman(baseline, chrf))} |`);
  tables.push([entry, THRESHOLDS.map((t) => {
    const low = chrf.filter((_, i) => confidence[i] < t), high = chrf.filter((_, i) => confidence[i] >= t);
    return `| ${t} | ${fixed((100 * low.length) / chrf.length, 1)}% | ${fixed(mean(low), 1)} | ${fixed(mean(high), 1)} |`;
  })]);
  translator.dispose();
}
for (const [entry, rows] of tables) {
  console.log(`\n${entry.sourceLang}→${entry.targetLang}: mean chrF of the sentences below and at or above a confidence threshold\n`);
  console.log('| threshold | sentences below | chrF below | chrF at or above |\n| ---: | ---: | ---: | ---: |');
  for (const row of rows) console.log(row);
}
