/** Statistics of cross-attention weights, shared by the page's head grid and the figure tools. */

/**
 * Mean over target rows of the entropy -Σ_s p log p of each row (nats): 0 when every target token
 * attends to one source token, log S when it spreads evenly over S source tokens.
 * @param rows [T][S] attention rows, each summing to 1 (e.g. crossAttention[l][h]).
 */
export function meanEntropy(rows: ArrayLike<number>[]): number {
  let total = 0;
  for (const row of rows) {
    for (let s = 0; s < row.length; ++s) if (row[s] > 0) total -= row[s] * Math.log(row[s]);
  }
  return total / rows.length;
}
