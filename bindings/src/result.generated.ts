// Made by tools/internals/result-types.js from the field tables of cpp/translation.h: do not edit by hand, run
// `node tools/internals/result-types.js --write` (tests/js/result-types.test.js fails when this file differs).
import type { EngineAlignment, ResidualStats, WordAlignment } from './alignment.js';

/** One entry of the n-best list (Translation.hypotheses). */
export interface Hypothesis {
  /** The translated text: the target pieces detokenized. */
  text: string;
  /** [T] SentencePiece pieces of the target, eos (`</s>`) last unless the length limit cut the output. */
  targetTokens: string[];
  /** [T] The vocabulary id of each of targetTokens. */
  targetIds: number[];
  /** [T] Log-probability of each target token given the ones before it and the source (nats). */
  tokenLogProbs: number[];
  /** Sum of the log-probabilities of targetTokens (nats). */
  logProb: number;
  /** logProb / ((5 + T) / 6) ** lengthPenalty: what beam search ranks by (Wu et al. 2016, eq. 14). */
  score: number;
}

/**
 * The fields of a Translation that the engine makes (translator-types.ts adds the JavaScript side's); the
 * best hypothesis' are the Hypothesis fields.
 */
export interface EngineMadeTranslation extends Hypothesis {
  /** [S] SentencePiece pieces fed to the encoder, eos (`</s>`) last. */
  sourceTokens: string[];
  /** [S] The vocabulary id of each of sourceTokens. */
  sourceIds: number[];
  /**
   * How sure the model is of this translation, in (0, 1]: the geometric mean of its token probabilities,
   * exp(mean of tokenLogProbs) (Fomicheva et al. 2020, "Unsupervised Quality Estimation for Neural Machine
   * Translation"). docs/confidence.md measures how well it ranks translations by quality (Spearman 0.48-0.51
   * with chrF on FLORES dev) and how well it and wordConfidence find injected errors (ROC AUC 0.62-0.64 for a
   * sentence, 0.91 for a word).
   */
  confidence: number;
  /** [W] For each of targetWords, the probability of the whole word (the product of its tokens'). */
  wordConfidence: number[];
  /**
   * [nBest] The n-best list (options.nBest entries), best first; hypotheses[0] is this translation. Empty for
   * blank text and align().
   */
  hypotheses: Hypothesis[];
  /** Whitespace-separated words of the source text: the units of alignment. */
  sourceWords: string[];
  /** [W] Whitespace-separated words of the target text: the units of alignment and wordConfidence. */
  targetWords: string[];
  /** [S] The source word of each token, -1 for eos. */
  sourceWordOfToken: number[];
  /** [T] The target word of each token, -1 for eos. */
  targetWordOfToken: number[];
  /**
   * [L][H][T] of `Float32Array(S)`: Cross-attention weights of the best hypothesis: [l][h][t][s] is how much
   * target position t attended to source position s in decoder layer l, head h; each row sums to 1. Only with
   * options.attention.
   */
  crossAttention?: Float32Array[][][];
  /**
   * Word alignments from cross-attention, when options.alignment asked for them: links, (source, target) word
   * index pairs sorted by target (Pharaoh s-t), and weights [targetWords][sourceWords], the attention each
   * target word pays to each source word, rows summing to 1.
   */
  alignment?: WordAlignment;
  /**
   * `{ inputNorm, updateNorm, cosine }`, each [L][T]: Statistics of each cross-attention residual connection
   * x + u, per decoder layer l and target position t: the L2 norm of the residual input x, the norm of the
   * update u = W_O context + b_O, and cos(x, u) (layers/cross_attention.h). Only with options.residual.
   */
  residual?: ResidualStats;
}

/** A Hypothesis as the engine hands it over: float lists as Float32Array, null when empty. */
export interface EngineHypothesis {
  /** The translated text: the target pieces detokenized. */
  text: string;
  /** [T] SentencePiece pieces of the target, eos (`</s>`) last unless the length limit cut the output. */
  targetTokens: string[];
  /** [T] The vocabulary id of each of targetTokens. */
  targetIds: number[];
  /** [T] Log-probability of each target token given the ones before it and the source (nats). */
  tokenLogProbs: Float32Array | null;
  /** Sum of the log-probabilities of targetTokens (nats). */
  logProb: number;
  /** logProb / ((5 + T) / 6) ** lengthPenalty: what beam search ranks by (Wu et al. 2016, eq. 14). */
  score: number;
}

/**
 * A translation as the engine hands it over (bindings/result_value.h): float lists flat, null when empty;
 * engine-translation.ts makes the public Translation of it.
 */
export interface EngineTranslation {
  /** The translated text: the target pieces detokenized. */
  text: string;
  /** [S] SentencePiece pieces fed to the encoder, eos (`</s>`) last. */
  sourceTokens: string[];
  /** [T] SentencePiece pieces of the target, eos (`</s>`) last unless the length limit cut the output. */
  targetTokens: string[];
  /** [S] The vocabulary id of each of sourceTokens. */
  sourceIds: number[];
  /** [T] The vocabulary id of each of targetTokens. */
  targetIds: number[];
  /** [T] Log-probability of each target token given the ones before it and the source (nats). */
  tokenLogProbs: Float32Array | null;
  /** Sum of the log-probabilities of targetTokens (nats). */
  logProb: number;
  /** logProb / ((5 + T) / 6) ** lengthPenalty: what beam search ranks by (Wu et al. 2016, eq. 14). */
  score: number;
  /**
   * How sure the model is of this translation, in (0, 1]: the geometric mean of its token probabilities,
   * exp(mean of tokenLogProbs) (Fomicheva et al. 2020, "Unsupervised Quality Estimation for Neural Machine
   * Translation"). docs/confidence.md measures how well it ranks translations by quality (Spearman 0.48-0.51
   * with chrF on FLORES dev) and how well it and wordConfidence find injected errors (ROC AUC 0.62-0.64 for a
   * sentence, 0.91 for a word).
   */
  confidence: number;
  /** [W] For each of targetWords, the probability of the whole word (the product of its tokens'). */
  wordConfidence: Float32Array | null;
  /**
   * [nBest] The n-best list (options.nBest entries), best first; hypotheses[0] is this translation. Empty for
   * blank text and align().
   */
  hypotheses: EngineHypothesis[];
  /** Whitespace-separated words of the source text: the units of alignment. */
  sourceWords: string[];
  /** [W] Whitespace-separated words of the target text: the units of alignment and wordConfidence. */
  targetWords: string[];
  /** [S] The source word of each token, -1 for eos. */
  sourceWordOfToken: number[];
  /** [T] The target word of each token, -1 for eos. */
  targetWordOfToken: number[];
  /** Decoder layers of crossAttention and residual (L). */
  layers: number;
  /** Heads per layer of crossAttention (H). */
  heads: number;
  /**
   * [L, H, T, S]: Cross-attention weights of the best hypothesis: [l][h][t][s] is how much target position t
   * attended to source position s in decoder layer l, head h; each row sums to 1. Only with
   * options.attention.
   */
  crossAttention: Float32Array | null;
  /**
   * Word alignments from cross-attention, when options.alignment asked for them: links, (source, target) word
   * index pairs sorted by target (Pharaoh s-t), and weights [targetWords][sourceWords], the attention each
   * target word pays to each source word, rows summing to 1.
   */
  alignment: EngineAlignment | null;
  /**
   * [L, T, 3]: Statistics of each cross-attention residual connection x + u, per decoder layer l and target
   * position t: the L2 norm of the residual input x, the norm of the update u = W_O context + b_O, and cos(x,
   * u) (layers/cross_attention.h). Only with options.residual.
   */
  residual: Float32Array | null;
}
