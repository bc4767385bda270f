#!/usr/bin/env node
// Translates a test set with the WebAssembly engine and scores it with the project's BLEU.
//   node tools/evaluate.js [--model FILE] [--data DIR] [--set multi30k/test_2016_flickr | flores-dev/dev] [--out HYP_FILE]
//                          [--beam-size N] [--length-penalty A]
// Greedy decoding unless --beam-size N > 1 (the engine's default length penalty unless given).
// Prints BLEU, sentence and token counts and speed (one sentence at a time, single thread, this machine).
import { existsSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Translator } from '../dist/index.js';
import { corpusBleu, readLines } from './bleu.js';

const { values } = parseArgs({
  options: {
    model: { type: 'string', default: new URL('../models/multi30k-en-de/multi30k-en-de.crossattn', import.meta.url).pathname },
    data: { type: 'string', default: process.env.CROSSATTN_DATA ?? new URL('../../shared/data', import.meta.url).pathname },
    set: { type: 'string', default: 'multi30k/test_2016_flickr' },
    out: { type: 'string' },
    'beam-size': { type: 'string', default: '1' },
    'length-penalty': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  console.log('usage: node tools/evaluate.js [--model FILE] [--data DIR] [--set SET] [--out HYP_FILE] [--beam-size N] [--length-penalty A]');
  process.exit(0);
}

const search = { beamSize: Number(values['beam-size']) };
if (values['length-penalty'] !== undefined) search.lengthPenalty = Number(values['length-penalty']);
const translator = await Translator.load(values.model);
const { sourceLang, targetLang } = translator.config;
// SET.LANG.gz, or SET.LANG (flores-dev/dev.en): one sentence per line.
const sideOf = (lang) => [`${values.data}/${values.set}.${lang}.gz`, `${values.data}/${values.set}.${lang}`].find(existsSync) ??
  `${values.data}/${values.set}.${lang}.gz`;
const source = readLines(sideOf(sourceLang));
const reference = readLines(sideOf(targetLang));
const hypotheses = [];
let tokens = 0;
const start = performance.now();
for (const line of source) {
  const r = await translator.translate(line, { ...search, attention: false });
  hypotheses.push(r.text);
  tokens += r.targetTokens.length;
}
const seconds = (performance.now() - start) / 1000;
if (values.out) writeFileSync(values.out, hypotheses.join('\n') + '\n');
const bleu = corpusBleu(hypotheses, [reference]);
console.log(JSON.stringify({
  set: values.set, ...search, sentences: source.length, bleu: Number(bleu.score.toFixed(2)),
  precisions: bleu.precisions.map((p) => Number(p.toFixed(1))), bp: Number(bleu.bp.toFixed(3)),
  target_tokens: tokens, seconds: Number(seconds.toFixed(1)), tokens_per_s: Math.round(tokens / seconds),
}));
translator.dispose();
