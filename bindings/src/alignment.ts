/**
 * Word alignments and residual statistics from cross-attention: the public types, option checks,
 * and the reshaping of the engine's flat arrays (cpp/alignment/word_alignment.h has the method).
 */
import type { TableAlignmentOptions } from './options.generated.js';

/**
 * How cross-attention becomes word alignments. Every field is optional; the engine holds the
 * defaults, chosen by measuring AER on gold alignments (docs/alignment.md), and checks every
 * value. The fields and their docs are generated from the engine's option table (TableAlignmentOptions).
 */
export type AlignmentOptions = TableAlignmentOptions;

export type AlignmentMethod = NonNullable<TableAlignmentOptions['method']>;

/** Word alignments of one translation. */
export interface WordAlignment {
  /** (source, target) index pairs, 0-based, sorted by target: Pharaoh "s-t" (see pharaoh()). */
  links: [source: number, target: number][];
  /**
   * [targetWords][sourceWords]: the attention each target word pays to each source word, averaged
   * over the chosen layers and heads, each row renormalized without eos to sum to 1.
   */
  weights: Float32Array[];
}

/**
 * What each cross-attention residual connection adds, per decoder layer l and target position t
 * (all [layers][T]): the L2 norm of the decoder state x that asked, the norm of the update
 * u = W_O context + b_O that the residual adds to it, and cos(x, u).
 */
export interface ResidualStats {
  inputNorm: Float32Array[];
  updateNorm: Float32Array[];
  cosine: Float32Array[];
}

/** The engine's form of the alignment: flat weights [tgtLen * srcLen]. */
export interface EngineAlignment {
  srcLen: number;
  tgtLen: number;
  weights: Float32Array | null;
  links: [number, number][];
}

/** Rows of `cols` floats from a flat [rows * cols] array (views, no copy). */
export function rowsOf(flat: Float32Array | null, rows: number, cols: number): Float32Array[] {
  return Array.from({ length: rows }, (_, i) => (flat ?? new Float32Array(0)).subarray(i * cols, (i + 1) * cols));
}

export function toWordAlignment(a: EngineAlignment): WordAlignment {
  return { links: a.links, weights: rowsOf(a.weights, a.tgtLen, a.srcLen) };
}

/** ResidualStats from the engine's flat [layers * T * 3]. */
export function toResidualStats(flat: Float32Array, layers: number, t: number): ResidualStats {
  const pick = (k: number) => Array.from({ length: layers }, (_, l) =>
    Float32Array.from({ length: t }, (_, i) => flat[(l * t + i) * 3 + k]));
  return { inputNorm: pick(0), updateNorm: pick(1), cosine: pick(2) };
}

/**
 * Pharaoh format, the input of the standard AER scorers: "0-0 1-2 ...", source-target, 0-based.
 * @example pharaoh({ links: [[0, 0], [2, 1]], weights: [] })  // '0-0 2-1'
 */
export function pharaoh(alignment: WordAlignment): string {
  return alignment.links.map(([s, t]) => `${s}-${t}`).join(' ');
}
