#!/usr/bin/env node
// How well the model's confidence finds errors, measured without people: synthetic errors
// (tools/confidence-inject.js: a dropped word, a wrong number, a swapped name, a wrong word) are
// injected into the references of a test set, and each (source, reference) pair, clean or
// corrupted, is scored by forced decoding (Translator.align) with each catalog direction's model.
// Prints (Markdown, for docs/confidence.md) the ROC AUC at word level (the injected word BAD, the
// other words of the corrupted sentences OK) and at sentence level (corrupted against clean), per
// error type and overall; the same for cross-attention indicators alone and combined with the
// log-probability (weight fitted on the first half of the set, reported on the second); the
// thresholds Youden's J picks on the first half, with their precision and recall on the second; and
// those thresholds carried over to the page's scale (translate with the lexical shortlist).
//   node tools/confidence-auc.js [--data DIR] [--set flores-dev/dev] [--limit N] [--seed 1] [--records FILE.json]
// --records also writes every scored record; --reuse FILE.json prints the tables of such a file
// without scoring again.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Translator, parseCatalog } from '../dist/index.js';
import { readLines } from './bleu.js';
import { ERROR_TYPES, injectErrors, wordsOf } from './confidence-inject.js';
import { sentenceFeatures, wordFeatures } from './confidence-features.js';
import { directionReport, thresholdReport } from './confidence-report.js';
import { readShortlist } from './confidence-shortlist.js';

const { values } = parseArgs({
  options: {
    data: { type: 'string', default: process.env.CROSSATTN_DATA ?? new URL('../../shared/data', import.meta.url).pathname },
    set: { type: 'string', default: 'flores-dev/dev' },
    limit: { type: 'string' },
    seed: { type: 'string', default: '1' },
    records: { type: 'string' },
    reuse: { type: 'string' },
  },
});
const models = new URL('../models/', import.meta.url).pathname;
const catalog = parseCatalog(readFileSync(`${models}catalog.json`, 'utf8'), models);
const side = (lang) => [`${values.data}/${values.set}.${lang}`, `${values.data}/${values.set}.${lang}.gz`].find(existsSync);

/** Scores one direction: sentence and word records of both halves, and the page-scale pairs. */
async function scoreDirection(entry) {
  const source = readLines(side(entry.sourceLang)).slice(0, values.limit ? Number(values.limit) : undefined);
  const reference = readLines(side(entry.targetLang)).slice(0, source.length);
  const corrupted = injectErrors(source, reference, Number(values.seed));
  const half = Math.floor(source.length / 2);
  const translator = await Translator.load(entry.model);
  const shortlist = readShortlist(entry.model);
  const sentences = [], words = [], page = { sentence: [], word: [] };
  let mismatched = 0;
  for (let i = 0; i < source.length; ++i) {
    const fit = i < half;
    for (const pair of [{ type: 'clean', text: reference[i], bad: -1 }, ...corrupted[i]]) {
      const r = await translator.align(source[i], pair.text, { attention: false });
      if (r.targetWords.join(' ') !== wordsOf(pair.text).join(' ')) { ++mismatched; continue; }
      // Pieces the shortlist would not let a translation of this source produce (eos, last, is always in).
      const candidates = shortlist?.(r.sourceIds);
      const outside = r.targetIds.map((id, t) => Boolean(candidates) && t < r.targetIds.length - 1 && !candidates.has(id));
      sentences.push({ fit, index: i, type: pair.type, outside: outside.filter(Boolean).length, tokens: outside.length - 1,
                       ...sentenceFeatures(r) });
      if (pair.type === 'clean') continue;
      wordFeatures(r).forEach((f, w) => words.push({ fit, type: pair.type, bad: w === pair.bad,
                                                     outside: outside.some((o, t) => o && r.targetWordOfToken[t] === w), ...f }));
    }
    // The page's scale: its own greedy translation with the shortlist, and the same text force-decoded.
    const shown = await translator.translate(source[i], { attention: false, alignment: true });
    const forced = await translator.align(source[i], shown.text, { attention: false });
    page.sentence.push({ fit, shown: shown.confidence, forced: forced.confidence });
    if (shown.targetWords.join(' ') === forced.targetWords.join(' ')) {
      shown.wordConfidence.forEach((p, w) => page.word.push({ fit, shown: p, forced: forced.wordConfidence[w] }));
    }
  }
  translator.dispose();
  return { direction: `${entry.sourceLang}→${entry.targetLang}`, name: translator.config.name, hasShortlist: Boolean(shortlist),
           n: source.length, half, sentences, words, page, mismatched };
}

console.log(`Set \`${values.set}\`, error seed ${values.seed}; forced decoding (Translator.align) with each ` +
            "direction's catalog model; first half of the set fits, second half reports.\n");
const all = [];
if (values.reuse) all.push(...JSON.parse(readFileSync(values.reuse, 'utf8')));
else for (const entry of catalog) all.push(await scoreDirection(entry));
for (const scored of all) console.log(directionReport(scored, ERROR_TYPES));
console.log(thresholdReport(all, ERROR_TYPES));
if (values.records) writeFileSync(values.records, JSON.stringify(all));
