// Sentence-level chrF (Popović 2015, "chrF: character n-gram F-score for automatic MT evaluation"):
// character n-grams of orders 1..6 with spaces removed, precision and recall each averaged over the
// orders, then combined as F-beta with beta = 2 (recall weighs twice). 0..100. The definition of the
// paper; sacreBLEU's CHRF averages per-order F-scores instead and can differ by a point.

/** Counts of the character n-grams of order n in `chars` (an array of characters). */
function ngrams(chars, n) {
  const counts = new Map();
  for (let i = 0; i + n <= chars.length; ++i) {
    const g = chars.slice(i, i + n).join('');
    counts.set(g, (counts.get(g) ?? 0) + 1);
  }
  return counts;
}

/**
 * chrF of `hypothesis` against `reference` (strings), 0..100.
 * @param {number} [order=6] highest character n-gram order
 * @param {number} [beta=2] weight of recall against precision
 */
export function sentenceChrf(hypothesis, reference, order = 6, beta = 2) {
  const hyp = [...hypothesis.replace(/\s+/g, '')], ref = [...reference.replace(/\s+/g, '')];
  let precision = 0, recall = 0, orders = 0;
  for (let n = 1; n <= order; ++n) {
    const h = ngrams(hyp, n), r = ngrams(ref, n);
    const hTotal = Math.max(0, hyp.length - n + 1), rTotal = Math.max(0, ref.length - n + 1);
    if (hTotal === 0 || rTotal === 0) continue;  // the sentence is shorter than n: no evidence either way
    let match = 0;
    for (const [g, c] of h) match += Math.min(c, r.get(g) ?? 0);
    precision += match / hTotal;
    recall += match / rTotal;
    ++orders;
  }
  if (orders === 0) return hyp.length === 0 && ref.length === 0 ? 100 : 0;
  precision /= orders;
  recall /= orders;
  const b2 = beta * beta;
  return precision + recall === 0 ? 0 : (100 * (1 + b2) * precision * recall) / (b2 * precision + recall);
}
