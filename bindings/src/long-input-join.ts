/**
 * Joining the translations of a long sentence's parts (long-input.ts) into one Translation, and
 * streaming them as one sentence. What each field holds for a split sentence (docs/api.md, "Long
 * input"): `parts`, each part's own Translation (crossAttention included when asked for); `text`,
 * the parts' texts joined with single spaces; token, word and per-token fields, the parts' one
 * after another (so sourceTokens holds one "</s>" per part), with word indexes offset to the joined
 * word lists; alignment, the parts' links offset and their weights as a block-diagonal matrix
 * [targetWords][sourceWords] (zero between a part's target words and another part's source words);
 * residual, the parts' [T] rows concatenated per layer; logProb, the sum; confidence, the geometric
 * mean probability of all target tokens (as for one sentence); score, the sum of the parts' scores
 * (each part is ranked on its own); hypotheses, the joined best alone (each part's n-best list is
 * in parts[i].hypotheses). crossAttention is absent at the top level: a [T][S] matrix over the
 * whole sentence was never computed, as no part attended to another part's source.
 */
import type { ResidualStats, WordAlignment } from './alignment.js';
import type { LongInputPlan } from './long-input.js';
import type { TokenEvent } from './search.js';
import type { Translation } from './translator-types.js';

function offsetWords(ofToken: number[][], wordCounts: number[]): number[] {
  let base = 0;
  return ofToken.flatMap((words, i) => {
    const out = words.map((w) => (w < 0 ? w : w + base));
    base += wordCounts[i];
    return out;
  });
}

/** The parts' word alignments as one: links offset, weights block-diagonal. Undefined unless every part has one. */
function joinAlignment(parts: Translation[]): WordAlignment | undefined {
  if (!parts.every((p) => p.alignment)) return undefined;
  // The alignment's units: words, or pieces with mergeSubwords false ([tgt][src] weights give their counts).
  const srcLen = (p: Translation) => p.alignment!.weights[0]?.length ?? p.sourceWords.length;
  const sourceWords = parts.reduce((n, p) => n + srcLen(p), 0);
  const weights: Float32Array[] = [];
  const links: [number, number][] = [];
  let s0 = 0, t0 = 0;
  for (const p of parts) {
    const a = p.alignment!;
    for (const [s, t] of a.links) links.push([s + s0, t + t0]);
    for (const row of a.weights) {
      const joined = new Float32Array(sourceWords);
      joined.set(row, s0);
      weights.push(joined);
    }
    s0 += srcLen(p);
    t0 += a.weights.length;
  }
  return { links, weights };
}

/** The parts' residual statistics as one: each layer's [T] rows concatenated. Undefined unless every part has them. */
function joinResidual(parts: Translation[]): ResidualStats | undefined {
  if (!parts.every((p) => p.residual)) return undefined;
  const join = (key: keyof ResidualStats) => parts[0].residual![key].map((_, l) => {
    const rows = parts.map((p) => p.residual![key][l]);
    const out = new Float32Array(rows.reduce((n, r) => n + r.length, 0));
    rows.reduce((at, r) => (out.set(r, at), at + r.length), 0);
    return out;
  });
  return { inputNorm: join('inputNorm'), updateNorm: join('updateNorm'), cosine: join('cosine') };
}

/** One Translation of a sentence from the translations of its parts, in order (module doc). */
export function joinParts(parts: Translation[]): Translation {
  const text = parts.map((p) => p.text).filter((t) => t.length > 0).join(' ');
  const tokenLogProbs = parts.flatMap((p) => p.tokenLogProbs);
  const logProb = parts.reduce((sum, p) => sum + p.logProb, 0);
  const score = parts.reduce((sum, p) => sum + p.score, 0);
  const targetTokens = parts.flatMap((p) => p.targetTokens), targetIds = parts.flatMap((p) => p.targetIds);
  const result: Translation = {
    text,
    sourceTokens: parts.flatMap((p) => p.sourceTokens),
    targetTokens,
    sourceIds: parts.flatMap((p) => p.sourceIds),
    targetIds,
    tokenLogProbs,
    logProb,
    confidence: tokenLogProbs.length ? Math.exp(tokenLogProbs.reduce((a, b) => a + b, 0) / tokenLogProbs.length) : 1,
    wordConfidence: parts.flatMap((p) => p.wordConfidence),
    score,
    hypotheses: [{ text, targetTokens, targetIds, tokenLogProbs, logProb, score }],
    sourceWords: parts.flatMap((p) => p.sourceWords),
    targetWords: parts.flatMap((p) => p.targetWords),
    sourceWordOfToken: offsetWords(parts.map((p) => p.sourceWordOfToken), parts.map((p) => p.sourceWords.length)),
    targetWordOfToken: offsetWords(parts.map((p) => p.targetWordOfToken), parts.map((p) => p.targetWords.length)),
    ms: Math.max(...parts.map((p) => p.ms)),
    parts,
  };
  const alignment = joinAlignment(parts), residual = joinResidual(parts);
  if (alignment) result.alignment = alignment;
  if (residual) result.residual = residual;
  return result;
}

/** The results of a plan's decoded texts, one Translation per input text (split ones joined). */
export function joinPlan(plan: LongInputPlan, decoded: Translation[]): Translation[] {
  let next = 0;
  return plan.partCounts.map((n) => {
    const parts = decoded.slice(next, next += n);
    return n === 1 ? parts[0] : joinParts(parts);
  });
}

/**
 * onToken for the plan's decoded texts that reports to `onToken` as if the inputs were decoded:
 * an event's index is its input's, and its text the input's parts settled so far, joined with spaces.
 */
export function planOnToken(plan: LongInputPlan, onToken: (event: TokenEvent) => void): (event: TokenEvent) => void {
  const settled = plan.texts.map(() => '');
  const firstOfInput: number[] = [];  // [inputs]: the index of each input's first decoded text
  plan.partCounts.reduce((at, n) => (firstOfInput.push(at), at + n), 0);
  return (event) => {
    settled[event.index] = event.text;
    const owner = plan.owner[event.index], start = firstOfInput[owner];
    const text = settled.slice(start, start + plan.partCounts[owner]).filter((t) => t.length > 0).join(' ');
    onToken({ ...event, index: owner, text });
  };
}
