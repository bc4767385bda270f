/**
 * Lexically constrained decoding of a dropped number: the candidates of a
 * sentence whose translation still lacks a number of the source after the alignment repair.
 *
 * A lexical constraint may enter the output at any position (Hokamp and Liu 2017, "Lexically
 * Constrained Decoding for Sequence Generation Using Grid Beam Search", ACL: the grid of beams
 * tries each constraint at each step). With one constraint and the model's own output as the
 * guide, we try it at the output's word boundaries: for an insertion point p, the target prefix
 * (target-prefix.ts, prefix decoding) is the output's first p words followed by the number in its
 * target-language form (numbers.ts numberForms), and the engine decodes the rest freely, as
 * interactive translation continues a user's prefix (Knowles and Koehn 2016, "Neural Interactive
 * Translation Prediction", AMTA). Each candidate is scored by the model, forced words included,
 * with the length-normalized score beam search ranks by; the caller (copy-through.ts,
 * recoverDropped) keeps the best that holds the number.
 *
 * The insertion points are those next to the target words aligned to the number's neighbouring
 * source words (the words just before and after it, where "in 1950" was dropped with its
 * preposition), or every boundary when none of them is aligned.
 */
import type { Translation } from './translator-types.js';
import type { WordAlignment } from './alignment.js';
import { carrySpans, type CarrySpan } from './numbers.js';
import { dateForm, mentionsOf } from './dates.js';

// The word alignment each copied-through translation was repaired with, kept when the caller did
// not ask for it (applyCopyThrough drops it from the result then).
const alignments = new WeakMap<Translation, WordAlignment>();

/** Keeps `alignment`, the word alignment of `r` that copy-through used, for insertionPoints. */
export function keepAlignment(r: Translation, alignment: WordAlignment): void {
  alignments.set(r, alignment);
}

/** The most candidates built for one dropped number (8 and every boundary kept the same numbers on FLORES dev). */
export const MAX_INSERTION_POINTS = 8;
/**
 * The beam that continues each candidate after its prefix (at least the caller's beamSize). On the
 * FLORES dev sentences of docs/copy-through.md, 4 instead of greedy decoding raised the chrF of
 * the changed sentences by 0.6 (en→de) and 1.6 (de→en) points, for the same numbers kept.
 */
export const CONSTRAINED_BEAM = 4;

/** One constrained candidate: the sentence's index in the batch and the target prefix forcing the number. */
export interface ConstrainedCandidate {
  sentence: number;
  prefix: string;
}

/**
 * The insertion points of a dropped number in `r`'s output: word boundaries 0 .. W (p: before
 * target word p), those next to the words aligned to the source words around `word`, nearest to
 * the number's own position first; all boundaries when none is aligned. At most MAX_INSERTION_POINTS.
 * @param word the number's source word (CarrySpan.word), or a date's first word
 * @param span the number of source words it spans (a date: "14 February 2025" spans 3)
 */
export function insertionPoints(r: Translation, word: number, span = 1): number[] {
  const words = r.targetWords.length;
  const links = (r.alignment ?? alignments.get(r))?.links ?? [];
  const neighbours = new Set(Array.from({ length: span + 2 }, (_, k) => word - 1 + k));
  const aligned = links.filter(([s]) => neighbours.has(s)).map(([, t]) => t);
  const points = aligned.length > 0 ? [...new Set(aligned.flatMap((t) => [t, t + 1]))].filter((p) => p <= words)
    : Array.from({ length: words + 1 }, (_, p) => p);
  // Where the number would sit if the sentence kept the source's word order: the first guess.
  const guess = Math.round((word / Math.max(1, r.sourceWords.length)) * words);
  return points.sort((a, b) => Math.abs(a - guess) - Math.abs(b - guess) || a - b).slice(0, MAX_INSERTION_POINTS);
}

const GERMAN_MONTHS = new Set(['Januar', 'Jänner', 'Februar', 'März', 'April', 'Mai', 'Juni', 'Juli', 'August',
                               'September', 'Oktober', 'November', 'Dezember']);

/**
 * How an ordinal of the source is written in the target, or null when `span` is no ordinal (or
 * the pair has no rule): German "15." inside a sentence and not before a month (a date, which
 * English writes "September 24"), or "37.-" starting a compound, becomes English "15th", "37th"; English "17th" ("17th-century")
 * becomes German "17.". Forcing the bare digits instead leaves the model to guess ("im 15.
 * Jahrhundert" → "15 cents"). The number's digits stay, so numbersKept counts it alike.
 */
export function ordinalForm(sourceWords: readonly string[], span: CarrySpan, sourceLang: string, targetLang: string): string | null {
  const [from, to] = [sourceLang.split('-')[0], targetLang.split('-')[0]];
  const word = sourceWords[span.word];
  const next = sourceWords[span.word + 1];
  const compound = from === 'de' && word.startsWith(`${span.text}.-`);  // "37.-größten"
  if (from === 'de' && to === 'en' && (compound || (word === `${span.text}.` && next !== undefined && !GERMAN_MONTHS.has(next)))) {
    const n = Number(span.text);
    const suffix = n % 100 >= 11 && n % 100 <= 13 ? 'th' : ['th', 'st', 'nd', 'rd'][n % 10] ?? 'th';
    return `${span.text}${suffix}`;
  }
  if (from === 'en' && to === 'de' && new RegExp(`^${span.text}(?:st|nd|rd|th)(?![a-z])`, 'i').test(word)) return `${span.text}.`;
  return null;
}

/**
 * The constrained candidates of each sentence whose copy-through report has a number, time or
 * date missing: for its first missing date, else its first missing number or time, a target prefix per insertion point (insertionPoints),
 * the output's words before it and the span's target form (ordinalForm, else CarrySpan.forms[0];
 * a date as dateForm writes it: "14. Februar 2025").
 * @param results translations with copy-through applied and their word alignment
 */
export function constrainedCandidates(results: readonly Translation[], sourceLang: string,
                                      targetLang: string): ConstrainedCandidate[] {
  const out: ConstrainedCandidate[] = [];
  results.forEach((r, sentence) => {
    if (r.parts) return;  // a long text translated in parts: its parts' alignments are joined
    // A date before its numbers: forcing the day of "14 February 2025" alone invents "um 14 Uhr".
    const missing = r.copyThrough?.missing.find((m) => m.kind === 'date') ??
      r.copyThrough?.missing.find((m) => m.kind === 'number' || m.kind === 'time');
    const forced = missing && forcedForm(r, missing, sourceLang, targetLang);
    if (!forced) return;
    for (const p of insertionPoints(r, forced.word, forced.span)) {
      out.push({ sentence, prefix: [...r.targetWords.slice(0, p), forced.form].join(' ') });
    }
  });
  return out;
}

// What the second chance forces in for a missing span of `r`'s source, where it is and how many
// source words it spans; null when the span is not found again or has no target form.
function forcedForm(r: Translation, missing: { kind: string; source: string; word: number }, sourceLang: string,
                    targetLang: string): { form: string; word: number; span: number } | null {
  if (missing.kind === 'date') {
    const date = mentionsOf(r.sourceWords, sourceLang).find((m) => m.word === missing.word && m.date);
    const form = date && dateForm(date.date!, targetLang);
    return form ? { form, word: date.word, span: date.words } : null;
  }
  const span: CarrySpan | undefined = carrySpans(r.sourceWords, sourceLang, targetLang)
    .find((s) => s.word === missing.word && s.text === missing.source);
  if (!span) return null;
  return { form: ordinalForm(r.sourceWords, span, sourceLang, targetLang) ?? span.forms[0], word: span.word, span: 1 };
}
