/**
 * Long input: a sentence over the model's limit is translated in parts instead of failing.
 *
 * The limit is the model's max_positions source tokens (ModelConfig.maxPositions: 256 for the
 * shipped general models), counted in the model's own tokens: the source SentencePiece pieces plus
 * eos (Translator's engine call sourceLength, cpp/translator.h source_length). A sentence within the
 * limit is translated whole, as before. One over it is cut into parts of at most LONG_INPUT_PART_TOKENS
 * (48) source tokens, or half the limit if that is less (the part budget): about two everyday
 * sentences, the lengths the models were trained on. Longer parts translate worse: 2,532 tokens of
 * FLORES dev sentences joined by commas, through general-en-de, gave in parts of up to 128 tokens 12
 * of 22 parts cut off at the output limit and repeating words ("die die die"); up to 64 tokens, 2 of
 * 50 parts with a word three times over; up to 48, 32 or 24 tokens, none (70, 108, 144 parts), in the
 * same time. The rule, in order:
 *
 *   1. at semicolons (";", "；"),
 *   2. else at colons (":", "："),
 *   3. else at commas (",", "，", "、"),
 *   4. else before a coordinating conjunction of the source language (English "and", "but", "or",
 *      "nor", "yet"; German "und", "aber", "oder", "sondern", "denn", "doch"; none for other languages),
 *   5. else at whitespace, between words,
 *   6. else, for a run of more than the budget with no whitespace at all (a very long URL, or a
 *      language written without spaces), between grapheme clusters: the only cut inside a word.
 *
 * A sentence of more than LONG_INPUT_FACTOR × max_positions tokens (4,096 for 256 positions) is
 * not split but refused with InputTooLongError, as is one whose cut leaves a part over max_positions
 * (one grapheme cluster of that many tokens): no input makes the work unbounded.
 *
 * Punctuation of levels 1–3 cuts only where whitespace follows it (so "1,000.5", "9:30" and
 * "a;b" stay whole), except the full-width forms, which need none. The cut punctuation stays with
 * the part before it. Each level cuts a text at all its boundaries; a piece still over the budget
 * is cut at the next level; then neighbouring pieces are merged again, left to right, while the
 * merge fits the budget, so that parts are as long as the budget allows. Parts are substrings of
 * the sentence, trimmed; joined with single spaces they give back its words in order.
 */

import { InputTooLongError } from './errors.js';

/** The longest sentence translated in parts, in multiples of max_positions source tokens. */
export const LONG_INPUT_FACTOR = 16;
/** The most source tokens of one part (eos included), unless half of max_positions is less. */
export const LONG_INPUT_PART_TOKENS = 48;

/** Conjunctions that start a new clause, by language (the first two letters of a BCP 47 tag). */
const CONJUNCTIONS: Record<string, string[]> = {
  en: ['and', 'but', 'or', 'nor', 'yet'],
  de: ['und', 'aber', 'oder', 'sondern', 'denn', 'doch'],
};

/** Where a level cuts: the index just after each boundary (a regular expression's match end). */
type Boundaries = (text: string) => number[];

function matchEnds(pattern: RegExp): Boundaries {
  return (text) => [...text.matchAll(pattern)].map((m) => m.index! + m[0].length);
}

/** The levels of the rule (see above), in order, for language `lang`. */
function levels(lang: string): Boundaries[] {
  const words = CONJUNCTIONS[lang.slice(0, 2).toLowerCase()];
  const conjunction: Boundaries = words
    ? matchEnds(new RegExp(`\\s+(?=(?:${words.join('|')})\\s)`, 'giu'))
    : () => [];
  return [
    matchEnds(/;\s+|；\s*/gu),
    matchEnds(/:\s+|：\s*/gu),
    matchEnds(/,\s+|[，、]\s*/gu),
    conjunction,
    matchEnds(/\s+/gu),
    (text) => {
      const ends: number[] = [];
      let end = 0;
      for (const { segment } of new Intl.Segmenter(lang, { granularity: 'grapheme' }).segment(text)) ends.push(end += segment.length);
      return ends;
    },
  ];
}

/** `text` cut at `ends` (indexes into it) into contiguous pieces, none empty. */
function cutAt(text: string, ends: number[]): string[] {
  const pieces: string[] = [];
  let start = 0;
  for (const end of [...ends, text.length]) {
    if (end > start) pieces.push(text.slice(start, end));
    start = Math.max(start, end);
  }
  return pieces;
}

/**
 * The parts of `text` for a budget of `budget` source tokens, by the rule above from `level` on.
 * `length(s)` is the source tokens of s. Pieces are untrimmed substrings, in order.
 */
function cut(text: string, budget: number, length: (s: string) => number, rule: Boundaries[], level: number): string[] {
  if (level >= rule.length || length(text.trim()) <= budget) return [text];
  const pieces = cutAt(text, rule[level](text.trimEnd()));
  if (pieces.length < 2) return cut(text, budget, length, rule, level + 1);
  const units = pieces.flatMap((p) => length(p.trim()) > budget ? cut(p, budget, length, rule, level + 1) : [p]);
  const parts: string[] = [];
  for (const unit of units) {
    const merged = parts.length ? parts[parts.length - 1] + unit : null;
    if (merged !== null && length(merged.trim()) <= budget) parts[parts.length - 1] = merged;
    else parts.push(unit);
  }
  return parts;
}

/**
 * The parts a sentence is translated in: [text] when it has at most `maxPositions` source tokens,
 * else its parts by the rule above (module doc), each of at most min(LONG_INPUT_PART_TOKENS,
 * floor(maxPositions / 2)) tokens
 * (unless one grapheme cluster alone has more), trimmed, in order.
 * @param text one sentence (splitSentences gives them).
 * @param lang the source language, a BCP 47 tag ("en", "de-AT"): picks the conjunctions.
 * @param maxPositions the model's limit in source tokens, eos included (ModelConfig.maxPositions).
 * @param sourceLength the source tokens of a text in the model's tokenizer, pieces plus eos.
 * @throws InputTooLongError for a text of more than LONG_INPUT_FACTOR × maxPositions tokens, or
 *   whose parts cannot all be brought within maxPositions.
 */
export function splitLongSentence(text: string, lang: string, maxPositions: number,
                                  sourceLength: (text: string) => number): string[] {
  const tokens = sourceLength(text);
  if (tokens <= maxPositions) return [text];
  const tooLong = (what: string) => new InputTooLongError(`the text has ${tokens} tokens; this model takes at most ` +
    `${maxPositions} per sentence and translates up to ${LONG_INPUT_FACTOR * maxPositions} in parts${what} (split it into sentences)`);
  if (tokens > LONG_INPUT_FACTOR * maxPositions) throw tooLong('');
  const budget = Math.max(1, Math.min(LONG_INPUT_PART_TOKENS, Math.floor(maxPositions / 2)));
  const parts = cut(text, budget, sourceLength, levels(lang), 0).map((p) => p.trim()).filter((p) => p.length > 0);
  if (parts.some((p) => sourceLength(p) > maxPositions)) throw tooLong(', but one of its characters alone has more');
  return parts;
}

/** What a batch decodes once its over-long texts are split: LongInputPlan. */
export interface LongInputPlan {
  /** The texts to decode: each input text in place, or its parts one after another. */
  texts: string[];
  /** [texts.length]: the input each decoded text belongs to. */
  owner: number[];
  /** [inputs]: how many decoded texts each input has (1 unless it was split). */
  partCounts: number[];
}

/**
 * The decoding plan of a batch: each text over `maxPositions` source tokens replaced by its parts
 * (splitLongSentence), the others unchanged.
 * @throws InputTooLongError as splitLongSentence, its message prefixed "text I: " in a batch of several.
 */
export function planLongInput(texts: readonly string[], lang: string, maxPositions: number,
                              sourceLength: (text: string) => number): LongInputPlan {
  const plan: LongInputPlan = { texts: [], owner: [], partCounts: [] };
  texts.forEach((text, i) => {
    let parts: string[];
    try {
      parts = splitLongSentence(text, lang, maxPositions, sourceLength);
    } catch (e) {
      if (e instanceof InputTooLongError && texts.length > 1) throw new InputTooLongError(`text ${i}: ${e.message}`);
      throw e;
    }
    plan.texts.push(...parts);
    plan.owner.push(...parts.map(() => i));
    plan.partCounts.push(parts.length);
  });
  return plan;
}
