#!/usr/bin/env node
/**
 * The page's confidence marks, calibrated on the models' own errors (issue 59, item 2): FLORES dev
 * translated as the page translates (beam search of 4) by both shipped models and one converted
 * OPUS-MT-shaped model, each output labelled against its reference as WMT's quality-estimation
 * tasks label post-edited MT (tools/word-tags.js: word tags from an edit alignment, a sentence bad
 * below chrF 30). The first half of the lines (first 498) fits the thresholds, the second half
 * (499) reports: ROC AUC of the sentence confidence and of the word probabilities, how many bad
 * translations the page marks as likely wrong (a tinted sentence or a copy-through flag) and with
 * what precision, and the same of its boxed words against the word tags. Writes docs/confidence-own.json, which web/confidence-view.js's thresholds and
 * legend must match (tests/js/confidence-own.test.js).
 *   node tools/confidence-own-errors.js [--data DIR] [--limit N] [--converted HF_FOLDER] [--out FILE]
 *
 * Thresholds: the sentence threshold is the lowest whose tint, with the copy-through flags, marks
 * TARGET_RECALL of the fit half's bad translations (the issue's bar is half of them on held-out
 * data); the word threshold is the highest whose boxed words are errors with WORD_PRECISION on the fit half.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Translator, isFlagged } from '../dist/index.js';
import { rocAuc, precisionRecall } from './confidence-roc.js';
import { BAD_CHRF, badSentence, wordTags } from './word-tags.js';
import { sentenceSureness } from '../web/confidence-view.js';

const here = (p) => new URL(p, import.meta.url).pathname;

/** `input` (a model folder or file `crossattn convert` reads) converted by the package's CLI; returns the file's path. */
function converted(input) {
  const out = path.join(mkdtempSync(path.join(os.tmpdir(), 'crossattn-confidence-')), 'converted.crossattn');
  execFileSync(process.execPath, [here('../dist/cli.js'), 'convert', input, '-o', out], { stdio: ['ignore', 'ignore', 'inherit'] });
  return out;
}
/** Share of the fit half's bad translations the marks must reach, above the bar's half for a margin. */
export const TARGET_RECALL = 0.65;
/**
 * Share of boxed words that must be errors on the fit half. Against one reference, half of all
 * output words are edits, so Youden's J would box half of the text; a box is worth reading when most
 * boxed words are wrong.
 */
export const WORD_PRECISION = 0.9;

/**
 * Per output of one model: its scores and labels. `sentence` is -log of the page's sentenceSureness,
 * `words` -log of each word's probability (higher: more likely bad).
 */
async function outputsOf(t, sources, references) {
  const out = [];
  for (let i = 0; i < sources.length; i += 16) {
    const results = await t.translateBatch(sources.slice(i, i + 16), { beamSize: 4 });
    results.forEach((r, k) => {
      const reference = references[i + k];
      out.push({
        line: i + k, sentence: -Math.log(sentenceSureness(r)), bad: badSentence(r.text, reference) ? 1 : 0,
        confidence: -Math.log(r.confidence),
        words: r.wordConfidence.map((p) => -Math.log(Math.max(p, 1e-30))), tags: wordTags(r.text, reference),
        flagged: isFlagged(r.copyThrough),
      });
    });
  }
  return out;
}

/** Whether the page marks output `o` as likely wrong at sentence threshold `s`: a tinted sentence or a copy-through flag. */
export function marked(o, s) {
  return o.sentence > -Math.log(s) || o.flagged;
}

/**
 * The sentence threshold (a probability) that marks, with the copy-through flags, `recall` of the
 * bad outputs of `outputs` while marking as few outputs as it can: just above the confidence of the
 * bad output that completes the share.
 */
export function sentenceThresholdFor(outputs, recall) {
  const bad = outputs.filter((o) => o.bad);
  const unflagged = bad.filter((o) => !o.flagged).map((o) => Math.exp(-o.sentence)).sort((a, b) => a - b);
  const needed = Math.ceil(recall * bad.length) - (bad.length - unflagged.length);
  return needed <= 0 ? 0 : unflagged[Math.min(needed, unflagged.length) - 1] * 1.0001;
}

/**
 * The highest word probability threshold at which the boxed words of `outputs` (probability below
 * it) are errors with at least `precision`, scanning the words from the least probable up.
 */
export function wordThresholdFor(outputs, precision) {
  const words = outputs.flatMap((o) => o.words.map((score, k) => [score, o.tags[k]])).sort((a, b) => b[0] - a[0]);
  let bad = 0, best = Math.exp(-words[0][0]);
  words.forEach(([score, tag], i) => {
    bad += tag;
    const tied = i + 1 < words.length && words[i + 1][0] === score;
    if (!tied && bad / (i + 1) >= precision) best = Math.exp(-score) * 1.0001;
  });
  return best;
}

// ROC AUC of the sentence and word scores; precision and recall of the page's output marks and word marks.
function report(outputs, s, w) {
  const words = outputs.flatMap((o) => o.words), tags = outputs.flatMap((o) => o.tags);
  const isMarked = outputs.map((o) => (marked(o, s) ? 1 : 0));
  const outputMarks = precisionRecall(isMarked, outputs.map((o) => o.bad), 1);
  const wordMarks = precisionRecall(words, tags, -Math.log(w));
  const round = (x) => Number(x.toFixed(3));
  const auc = (scores, labels) => (labels.some(Boolean) && !labels.every(Boolean) ? round(rocAuc(scores, labels)) : null);
  return {
    outputs: outputs.length, bad: outputs.filter((o) => o.bad).length, marked: isMarked.filter(Boolean).length,
    sentence_auc: auc(outputs.map((o) => o.sentence), outputs.map((o) => o.bad)),
    marked_precision: round(outputMarks.precision), marked_recall: round(outputMarks.recall),
    words: tags.length, bad_words: tags.filter(Boolean).length, word_auc: auc(words, tags),
    word_precision: round(wordMarks.precision), word_recall: round(wordMarks.recall),
  };
}

async function main() {
  const { values } = parseArgs({
    options: {
      data: { type: 'string', default: process.env.CROSSATTN_DATA ?? here('../../shared/data') },
      limit: { type: 'string' },
      converted: { type: 'string', default: here('../build/fixtures/opus-mt/hf/opus-mt-en-de') },
      out: { type: 'string', default: here('../docs/confidence-own.json') },
    },
  });
  const read = (lang) => readFileSync(`${values.data}/flores-dev/dev.${lang}`, 'utf8').trim().split('\n')
    .slice(0, values.limit ? Number(values.limit) : undefined);
  const models = [
    ['general-en-de', () => Translator.load(here('../models/general-en-de/general-en-de.int8.crossattn'))],
    ['general-de-en', () => Translator.load(here('../models/general-de-en/general-de-en.int8.crossattn'))],
    [`converted ${values.converted.split('/').slice(-2).join('/')}`, () => Translator.load(converted(values.converted))],
  ];
  const byModel = [];
  for (const [name, load] of models) {
    const t = await load();
    const { sourceLang, targetLang } = t.config;
    byModel.push({ name, outputs: await outputsOf(t, read(sourceLang), read(targetLang)) });
    t.dispose();
  }
  const half = Math.floor(byModel[0].outputs.length / 2);
  const all = byModel.flatMap((m) => m.outputs);
  const fit = byModel.flatMap((m) => m.outputs.filter((o) => o.line < half));
  const held = (outputs) => outputs.filter((o) => o.line >= half);
  // Two significant digits, as the page states them: the sentence threshold rounded up, to keep its recall.
  const up = (x) => Number((Math.ceil(x / 10 ** (Math.floor(Math.log10(x)) - 1)) * 10 ** (Math.floor(Math.log10(x)) - 1)).toPrecision(2));
  const s = up(sentenceThresholdFor(fit, TARGET_RECALL));
  const w = Number(wordThresholdFor(fit, WORD_PRECISION).toPrecision(2));
  const result = {
    date: new Date().toISOString().slice(0, 10), command: 'node tools/confidence-own-errors.js',
    set: `FLORES dev, beam 4; fit: lines 1-${half}, report: lines ${half + 1}-${byModel[0].outputs.length}`,
    bad_chrf: BAD_CHRF, target_recall: TARGET_RECALL,
    thresholds: { sentence: s, word: w },
    fit: report(fit, s, w), report: report(byModel.flatMap((m) => held(m.outputs)), s, w),
    models: byModel.map((m) => ({ model: m.name, ...report(held(m.outputs), s, w) })),
    // Every line: the page's sentence score against the confidence alone, as rankers of the bad outputs.
    all_lines: {
      sentence_auc: Number(rocAuc(all.map((o) => o.sentence), all.map((o) => o.bad)).toFixed(3)),
      confidence_alone_auc: Number(rocAuc(all.map((o) => o.confidence), all.map((o) => o.bad)).toFixed(3)),
    },
  };
  writeFileSync(values.out, `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify(result, null, 2));
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
