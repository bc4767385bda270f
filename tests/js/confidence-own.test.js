// The page's confidence marks, calibrated on the models' own errors (tools/confidence-own-errors.js,
// tools/word-tags.js, web/confidence-view.js): quality labels made as WMT's QE tasks make them, the
// threshold fitting, the page's sentence score, and the page's constants held to the measured
// figures in docs/confidence-own.json.
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { badSentence, wordTags } from '../../tools/word-tags.js';
import { sentenceThresholdFor, wordThresholdFor } from '../../tools/confidence-own-errors.js';
import { MEASURED, SENTENCE_THRESHOLD, WORD_THRESHOLD, inWords, sentenceSureness } from '../../web/confidence-view.js';
import { ROOT } from './paths.js';

test('word tags: a matched word is OK; a substituted or inserted one is BAD; a gap makes the next word BAD', () => {
  expect(wordTags('Der Hund läuft schnell', 'Der Hund läuft schnell')).toEqual([0, 0, 0, 0]);
  expect(wordTags('Der Hund rennt schnell', 'Der Hund läuft schnell')).toEqual([0, 0, 1, 0]);
  expect(wordTags('Der große Hund läuft', 'Der Hund läuft')).toEqual([0, 1, 0, 0]);
  expect(wordTags('Der läuft', 'Der Hund läuft')).toEqual([0, 1]);
  expect(wordTags('', 'Der Hund')).toEqual([]);
  expect(badSentence('Der Hund läuft.', 'Der Hund läuft.')).toBe(false);
  expect(badSentence('Katzen schlafen oft.', 'Der Hund läuft im Park.')).toBe(true);
});

test('the sentence threshold marks the wanted share of bad outputs; the word threshold keeps the wanted precision', () => {
  const out = (p, bad, flagged = false) => ({ sentence: -Math.log(p), bad, flagged, words: [], tags: [] });
  const outputs = [out(0.1, 1), out(0.2, 1), out(0.3, 0), out(0.4, 1), out(0.5, 0), out(0.9, 1, true), out(0.95, 0)];
  // 4 bad, one flagged: 3 of 4 need the two least sure unflagged bad ones marked.
  const t = sentenceThresholdFor(outputs, 0.75);
  expect(t).toBeGreaterThan(0.2);
  expect(t).toBeLessThan(0.3);
  const words = { words: [5, 4, 3, 2, 1].map((x) => x), tags: [1, 1, 0, 1, 0] };  // -log p, most doubtful first
  expect(wordThresholdFor([words], 1)).toBeCloseTo(Math.exp(-4) * 1.0001);  // the two least probable are both wrong
  expect(wordThresholdFor([words], 0.75)).toBeCloseTo(Math.exp(-2) * 1.0001);  // 3 of the 4 least probable
});

test('the page\'s sentence score lowers the confidence of a translation shorter than its source', () => {
  const r = (target, source) => ({ confidence: 0.8, tokenLogProbs: new Array(target).fill(-0.2), sourceTokens: new Array(source).fill('x') });
  expect(sentenceSureness(r(10, 10))).toBeCloseTo(0.8);
  expect(sentenceSureness(r(12, 10))).toBeCloseTo(0.8);
  expect(sentenceSureness(r(5, 10))).toBeCloseTo(0.4);
});

test('the page\'s thresholds and legend figures are those measured (docs/confidence-own.json), and meet the bar', () => {
  const figures = JSON.parse(readFileSync(`${ROOT}docs/confidence-own.json`, 'utf8'));
  expect(SENTENCE_THRESHOLD).toBe(figures.thresholds.sentence);
  expect(WORD_THRESHOLD).toBe(figures.thresholds.word);
  const held = figures.report;
  for (const [ours, theirs] of [[MEASURED.sentencePrecision, held.marked_precision], [MEASURED.sentenceRecall, held.marked_recall],
    [MEASURED.wordPrecision, held.word_precision], [MEASURED.wordRecall, held.word_recall]]) {
    expect(Math.abs(ours - theirs)).toBeLessThan(0.006);
  }
  // The bar: at least half of the held-out outputs below chrF 30 marked; AUCs reported.
  expect(held.marked_recall).toBeGreaterThanOrEqual(0.5);
  expect(held.sentence_auc).toBeGreaterThan(0.5);
  expect(held.word_auc).toBeGreaterThan(0.5);
  expect(figures.models.map((m) => m.model)).toEqual(['general-en-de', 'general-de-en', expect.stringMatching(/^converted /)]);
  expect(inWords(0.05)).toBe('1 in 20');
});

test('over all of FLORES dev the page\'s sentence score ranks the bad outputs better than the confidence alone, as the docs say', () => {
  const { all_lines: all } = JSON.parse(readFileSync(`${ROOT}docs/confidence-own.json`, 'utf8'));
  expect(all.sentence_auc).toBeGreaterThan(all.confidence_alone_auc);
  const doc = readFileSync(`${ROOT}docs/confidence.md`, 'utf8');
  expect(doc).toContain(`confidence alone ranks the bad outputs with AUC ${all.confidence_alone_auc.toFixed(2)}, the length-corrected one with ${all.sentence_auc.toFixed(2)}`);
});
