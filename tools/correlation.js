// Correlation of two equally long lists of numbers: Pearson's r, and Spearman's rho (Pearson's r of
// the ranks, tied values sharing their mean rank).

/** Pearson's correlation coefficient of `x` and `y`; NaN when either is constant. */
export function pearson(x, y) {
  if (x.length !== y.length || x.length < 2) throw new Error('pearson: two lists of the same length >= 2');
  const mean = (v) => v.reduce((a, b) => a + b, 0) / v.length;
  const mx = mean(x), my = mean(y);
  let sxy = 0, sxx = 0, syy = 0;
  for (let i = 0; i < x.length; ++i) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) ** 2;
    syy += (y[i] - my) ** 2;
  }
  return sxy / Math.sqrt(sxx * syy);
}

/** The 1-based ranks of `v`, ties getting the mean of the ranks they span. */
export function ranks(v) {
  const order = v.map((x, i) => [x, i]).sort((a, b) => a[0] - b[0]);
  const out = new Array(v.length);
  for (let i = 0; i < order.length;) {
    let j = i;
    while (j + 1 < order.length && order[j + 1][0] === order[i][0]) ++j;
    for (let k = i; k <= j; ++k) out[order[k][1]] = (i + j) / 2 + 1;
    i = j + 1;
  }
  return out;
}

/** Spearman's rank correlation of `x` and `y`. */
export function spearman(x, y) {
  return pearson(ranks(x), ranks(y));
}
