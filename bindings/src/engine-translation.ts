// The engine's result (EngineTranslation, flat attention) converted into the public Translation.
import type { EngineTranslation } from './crossattn.mjs';
import { rowsOf, toResidualStats, toWordAlignment } from './alignment.js';
import type { Translation } from './translator-types.js';

/** Splits the flat [L * H * T * S] weights into [L][H][T] rows of S (views, no copy). */
function reshapeAttention(flat: Float32Array, layers: number, heads: number, t: number, s: number): Float32Array[][][] {
  return Array.from({ length: layers }, (_, l) => Array.from({ length: heads }, (_, h) =>
    rowsOf(flat.subarray((l * heads + h) * t * s, (l * heads + h + 1) * t * s), t, s)));
}

/** The public Translation of one engine result; `ms` is the call's wall time. */
export function toTranslation(r: EngineTranslation, ms: number): Translation {
  const result: Translation = {
    text: r.text,
    sourceTokens: r.sourceTokens,
    targetTokens: r.targetTokens,
    sourceIds: r.sourceIds,
    targetIds: r.targetIds,
    tokenLogProbs: Array.from(r.tokenLogProbs ?? []),
    logProb: r.logProb,
    score: r.score,
    confidence: r.confidence,
    wordConfidence: Array.from(r.wordConfidence ?? []),
    hypotheses: r.hypotheses.map((h) => ({ ...h, tokenLogProbs: Array.from(h.tokenLogProbs ?? []) })),
    sourceWords: r.sourceWords,
    targetWords: r.targetWords,
    sourceWordOfToken: r.sourceWordOfToken,
    targetWordOfToken: r.targetWordOfToken,
    ms,
  };
  const t = r.targetTokens.length;
  if (r.crossAttention) result.crossAttention = reshapeAttention(r.crossAttention, r.layers, r.heads, t, r.sourceTokens.length);
  if (r.alignment) result.alignment = toWordAlignment(r.alignment);
  if (r.residual) result.residual = toResidualStats(r.residual, r.layers, t);
  return result;
}
