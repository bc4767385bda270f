// How well a score separates BAD items from OK ones: the area under the ROC curve, the threshold
// that Youden's J picks, and precision and recall at a threshold. A higher score means "more likely
// BAD" throughout (pass -log p, not p).

import { ranks } from './correlation.js';

/**
 * ROC AUC of `scores` for the 0/1 `labels` (1 = BAD), rank-based: the Mann–Whitney U of the BAD
 * items divided by n_bad * n_ok, the probability that a random BAD item scores above a random OK
 * one, ties counting one half (Hanley & McNeil 1982, "The meaning and use of the area under a ROC
 * curve", Radiology). 0.5 is chance, 1 perfect.
 * @throws Error if the lists differ in length or either class is empty.
 */
export function rocAuc(scores, labels) {
  if (scores.length !== labels.length) throw new Error('rocAuc: scores and labels must have the same length');
  const r = ranks(scores);
  let nBad = 0, rankSum = 0;
  labels.forEach((y, i) => { if (y) { ++nBad; rankSum += r[i]; } });
  const nOk = labels.length - nBad;
  if (nBad === 0 || nOk === 0) throw new Error('rocAuc: needs at least one BAD and one OK item');
  return (rankSum - (nBad * (nBad + 1)) / 2) / (nBad * nOk);
}

/** Precision and recall of calling an item BAD when its score is >= `threshold`. */
export function precisionRecall(scores, labels, threshold) {
  let tp = 0, fp = 0, fn = 0;
  scores.forEach((s, i) => {
    if (s >= threshold) labels[i] ? ++tp : ++fp;
    else if (labels[i]) ++fn;
  });
  return { precision: tp + fp ? tp / (tp + fp) : NaN, recall: tp + fn ? tp / (tp + fn) : NaN };
}

/**
 * The threshold (call BAD at score >= threshold) that maximizes Youden's J = recall - false
 * positive rate (Youden 1950, "Index for rating diagnostic tests", Cancer), among the scores
 * themselves; ties keep the highest threshold. Returns { threshold, j }.
 * @throws Error if either class is empty.
 */
export function youdenThreshold(scores, labels) {
  const nBad = labels.filter(Boolean).length, nOk = labels.length - nBad;
  if (nBad === 0 || nOk === 0) throw new Error('youdenThreshold: needs at least one BAD and one OK item');
  const order = scores.map((s, i) => [s, labels[i]]).sort((a, b) => b[0] - a[0]);
  let tp = 0, fp = 0, best = { threshold: Infinity, j: 0 };
  for (let i = 0; i < order.length; ++i) {
    order[i][1] ? ++tp : ++fp;
    if (i + 1 < order.length && order[i + 1][0] === order[i][0]) continue;  // a threshold takes all ties
    const j = tp / nBad - fp / nOk;
    if (j > best.j) best = { threshold: order[i][0], j };
  }
  return best;
}
