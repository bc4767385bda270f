// The engine's result (EngineTranslation: float lists flat, bindings/result_value.h) made into the
// public Translation once: per-token floats as number[], the attention as [L][H][T] views of S
// floats over the engine's one Float32Array (no copy), the alignment's weights as row views.
import type { EngineTranslation } from './result.generated.js';
import { rowsOf, toResidualStats, toWordAlignment } from './alignment.js';
import type { Translation } from './translator-types.js';

/** Splits the flat [L * H * T * S] weights into [L][H][T] rows of S (views, no copy). */
function reshapeAttention(flat: Float32Array, layers: number, heads: number, t: number, s: number): Float32Array[][][] {
  return Array.from({ length: layers }, (_, l) => Array.from({ length: heads }, (_, h) =>
    rowsOf(flat.subarray((l * heads + h) * t * s, (l * heads + h + 1) * t * s), t, s)));
}

// Fields reshaped below (crossAttention, alignment, residual) or used to shape them (layers, heads).
const SHAPED = new Set(['layers', 'heads', 'crossAttention', 'alignment', 'residual']);

// A value as the public result holds it: a float list (Float32Array, null when empty) as a number[].
function publicValue(value: unknown): unknown {
  return value === null || value instanceof Float32Array ? Array.from(value ?? []) : value;
}

// The other fields, in the engine's order (cpp/translation.h's table), hypotheses' float lists too.
function plainFields(r: EngineTranslation): Record<string, unknown> {
  return Object.fromEntries(Object.entries(r).filter(([key]) => !SHAPED.has(key)).map(([key, value]) =>
    [key, key === 'hypotheses' ? r.hypotheses.map((h) => Object.fromEntries(Object.entries(h).map(([k, v]) =>
      [k, publicValue(v)]))) : publicValue(value)]));
}

/** The public Translation of one engine result; `ms` is the call's wall time. */
export function toTranslation(r: EngineTranslation, ms: number): Translation {
  const result = { ...plainFields(r), ms } as unknown as Translation;
  const t = r.targetTokens.length;
  if (r.crossAttention) result.crossAttention = reshapeAttention(r.crossAttention, r.layers, r.heads, t, r.sourceTokens.length);
  if (r.alignment) result.alignment = toWordAlignment(r.alignment);
  if (r.residual) result.residual = toResidualStats(r.residual, r.layers, t);
  return result;
}

/**
 * The flat [tgtLen * srcLen] weights under alignment rows: the engine's own buffer when the rows are
 * the views toWordAlignment made of it (also after a worker's structured clone, which keeps one
 * buffer), a copy for rows built otherwise (plain arrays, separate buffers).
 */
export function flatWeights(rows: readonly ArrayLike<number>[]): Float32Array {
  const first = rows[0], cols = first?.length ?? 0;
  const contiguous = first instanceof Float32Array && rows.every((row, i) => row instanceof Float32Array &&
    row.buffer === first.buffer && row.byteOffset === first.byteOffset + i * cols * 4);
  if (contiguous) return new Float32Array(first.buffer, first.byteOffset, rows.length * cols);
  const flat = new Float32Array(rows.length * cols);
  rows.forEach((row, i) => flat.set(row, i * cols));
  return flat;
}
