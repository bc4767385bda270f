// The indicators tools/confidence-auc.js scores, read from one forced-decoded Translation (align()
// with alignment on). Each is oriented so that a higher value means "more likely an error".

/** Source words that no alignment link reaches, as a Set of source word indices. */
function uncoveredSourceWords(r) {
  const covered = new Set(r.alignment.links.map(([s]) => s));
  return new Set(r.sourceWords.map((_, s) => s).filter((s) => !covered.has(s)));
}

/**
 * Sentence-level indicators of `r`:
 * - surprise: -mean token log-probability (nats), -log Translation.confidence: Fomicheva et al.
 *   2020's "TP", the page's sentence score;
 * - worstWord: -log of the lowest Translation.wordConfidence (one wrong word in a long sentence
 *   barely moves the mean);
 * - uncovered: the share of source words that no target word is aligned to (a dropped word leaves
 *   its source word unaligned);
 * - coverage: Wu et al. 2016's coverage penalty ("Google's Neural Machine Translation System",
 *   eq. 14) made a mean: -1/|X| sum over source words s of log(min(sum over target words t of
 *   weights[t][s], 1)), the attention each source word received short of 1 (floored at 0.01).
 */
export function sentenceFeatures(r) {
  const received = r.sourceWords.map((_, s) => r.alignment.weights.reduce((a, row) => a + row[s], 0));
  const n = Math.max(1, r.sourceWords.length);
  return {
    surprise: -Math.log(r.confidence),
    worstWord: -Math.log(Math.min(1, ...r.wordConfidence)),
    uncovered: uncoveredSourceWords(r).size / n,
    coverage: -received.reduce((a, x) => a + Math.log(Math.min(Math.max(x, 0.01), 1)), 0) / n,
  };
}

/**
 * Word-level indicators of each of r.targetWords ([W] of objects):
 * - surprise: -log Translation.wordConfidence[w], the page's word score (nats);
 * - tokenSurprise: -mean log-probability of the word's tokens (not penalizing long words);
 * - entropy: the entropy (nats) of the word's attention over the source words
 *   (alignment.weights[w]), Fomicheva et al. 2020's attention entropy for one word;
 * - uncoveredAttention: the attention the word pays to source words that no target word is aligned
 *   to (after a gap the decoder may still look for the word that is missing).
 */
export function wordFeatures(r) {
  const uncovered = uncoveredSourceWords(r);
  return r.targetWords.map((_, w) => {
    const own = r.tokenLogProbs.filter((_, t) => r.targetWordOfToken[t] === w);
    const row = r.alignment.weights[w];
    let entropy = 0, toUncovered = 0;
    row.forEach((a, s) => {
      if (a > 0) entropy -= a * Math.log(a);
      if (uncovered.has(s)) toUncovered += a;
    });
    return {
      surprise: -Math.log(r.wordConfidence[w]),
      tokenSurprise: -own.reduce((a, b) => a + b, 0) / Math.max(1, own.length),
      entropy,
      uncoveredAttention: toUncovered,
    };
  });
}

/** The indicators of each level: the log-probability one first, then those from the cross-attention. */
export const FEATURES = {
  sentence: { probability: ['surprise', 'worstWord'], attention: ['uncovered', 'coverage'] },
  word: { probability: ['surprise', 'tokenSurprise'], attention: ['entropy', 'uncoveredAttention'] },
};
