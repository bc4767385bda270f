/**
 * Translation through a pivot language, as Firefox Translations does where no model joins two
 * languages: de→fr as de→en, then en→fr. The result carries both legs, and the word alignment of
 * source to target composed through the pivot's words: the two legs share them, since the second
 * leg's source text is the first leg's translation and both split it at white space.
 */
import type { WordAlignment } from './alignment.js';
import type { Translator } from './translator.js';
import type { TranslateOptions, Translation } from './translator-types.js';

/** A translation made in two legs through a pivot language. */
export interface PivotTranslation {
  /** The final translation: the second leg's text. */
  text: string;
  /** The source text's words and the final translation's words: the units of `alignment`. */
  sourceWords: string[];
  targetWords: string[];
  /** [2] Source to pivot, and pivot to target, each as the engine gives it. */
  legs: [Translation, Translation];
  /** With options.alignment: source words to target words, composed through the pivot's words (composeAlignments). */
  alignment?: WordAlignment;
}

/**
 * Source→target word alignment from source→pivot (`first`) and pivot→target (`second`), whose
 * pivot words are the same: a link (s, t) where s links to some pivot word p and p to t, and
 * weights [targetWords][sourceWords] the product second.weights × first.weights, so that each row
 * still sums to 1 (the attention a target word pays, through the pivot words, to each source word).
 * @throws RangeError when the legs' pivot word counts differ.
 */
export function composeAlignments(first: WordAlignment, second: WordAlignment): WordAlignment {
  const pivotWords = first.weights.length, sourceWords = first.weights[0]?.length ?? 0;
  if (second.weights.some((row) => row.length !== pivotWords)) {
    throw new RangeError(`the legs do not share their pivot words: ${pivotWords} from the first, ${second.weights[0]?.length} in the second`);
  }
  const weights = second.weights.map((row) => {  // [targetWords][sourceWords]
    const out = new Float32Array(sourceWords);
    row.forEach((w, p) => first.weights[p].forEach((v, s) => { out[s] += w * v; }));
    return out;
  });
  const pivotSources = Array.from({ length: pivotWords }, () => [] as number[]);
  for (const [s, p] of first.links) pivotSources[p].push(s);
  const seen = new Set<string>(), links: [number, number][] = [];
  for (const [p, t] of second.links) {
    for (const s of pivotSources[p]) {
      if (!seen.has(`${s}-${t}`)) seen.add(`${s}-${t}`), links.push([s, t]);
    }
  }
  links.sort((a, b) => a[1] - b[1] || a[0] - b[0]);
  return { links, weights };
}

/**
 * `text` translated by `first` (source → pivot) and its translation by `second` (pivot → target).
 * @param options for both legs (with alignment: the composed alignment too).
 * @throws what either translator's translate() throws.
 */
export async function translatePivot(first: Translator, second: Translator, text: string, options: TranslateOptions = {}): Promise<PivotTranslation> {
  const leg1 = await first.translate(text, { ...options, html: false });
  const leg2 = await second.translate(leg1.text, { ...options, html: false });
  const alignment = leg1.alignment && leg2.alignment ? composeAlignments(leg1.alignment, leg2.alignment) : undefined;
  return { text: leg2.text, sourceWords: leg1.sourceWords, targetWords: leg2.targetWords, legs: [leg1, leg2], ...(alignment ? { alignment } : {}) };
}
