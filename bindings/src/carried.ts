/**
 * What of the source's numbers, dates, times and prices an output carries, as a reader would check
 * it: each date and time of the source (dates.ts) found in the output with the same value, no date
 * or time in the output that the source does not have, every number of the output well formed in
 * the target language (number-syntax.ts), and each price's currency named. copy-through.ts flags
 * what fails (CopyThroughReport) and ranks the second chance's candidates by carriedScore;
 * tools/internals/carry-check.js measures a test set with it.
 */
import type { CopyThroughReport, Translation } from './translator-types.js';
import { mentionsOf, sameMention, type Mention } from './dates.js';
import { carrySpans, core, numbersKept } from './numbers.js';
import { currencyAt, illFormedNumbers, namesCurrency } from './number-syntax.js';

/** The result of checkCarried: source mentions and prices the output lacks, and output words to doubt. */
export interface CarriedCheck {
  /** Dates and times of the source with no output mention of the same value. */
  missing: Mention[];
  /** Dates and times of the output with no source mention of the same value. */
  added: Mention[];
  /** Source prices (a number with its currency, "$1,299.99") whose currency the output does not name. */
  currencies: { text: string; word: number }[];
  /** Output words holding a number not well formed in the target language, by target word index. */
  illFormed: { text: string; word: number }[];
}

/**
 * Checks an output against its source.
 * @param sourceWords, targetWords whitespace-separated words (Translation.sourceWords, targetWords)
 */
export function checkCarried(sourceWords: readonly string[], targetWords: readonly string[],
                             sourceLang: string, targetLang: string): CarriedCheck {
  const source = mentionsOf(sourceWords, sourceLang);
  const target = mentionsOf(targetWords, targetLang);
  const unmatched = [...target];
  const missing = source.filter((m) => {
    const k = unmatched.findIndex((t) => sameMention(m, t));
    if (k >= 0) unmatched.splice(k, 1);
    return k < 0;
  });
  // An output mention that matches a source mention already matched (the same time twice) is no invention.
  const added = unmatched.filter((t) => !source.some((m) => sameMention(m, t)));
  const currencies = carrySpans(sourceWords, sourceLang, targetLang).flatMap((span) => {
    if (span.kind !== 'number') return [];
    const code = currencyAt(sourceWords, span.word);
    return code && !namesCurrency(targetWords, code) ? [{ text: core(sourceWords[span.word]), word: span.word }] : [];
  });
  // A number glued to a word ("kosten45") that the source does not write so is damage too.
  const glued = (w: string) => /\p{Ll}{3,}\d/u.test(w) && !sourceWords.some((s) => core(s) === core(w));
  const illFormed = targetWords.flatMap((w, word) => illFormedNumbers(w, targetLang).length || glued(w) ? [{ text: w, word }] : []);
  return { missing, added, currencies, illFormed };
}

/**
 * How well an output carries its source, for ranking candidate translations: the source numbers it
 * keeps (numbersKept) plus the source dates and times it has, less the dates and times it invents,
 * the currencies it loses and its ill-formed numbers.
 */
export function carriedScore(sourceWords: readonly string[], output: string, sourceLang: string, targetLang: string): number {
  const targetWords = output.split(/\s+/).filter((w) => w.length > 0);
  const check = checkCarried(sourceWords, targetWords, sourceLang, targetLang);
  const kept = mentionsOf(sourceWords, sourceLang).length - check.missing.length;
  return numbersKept(sourceWords, output, sourceLang, targetLang).found + kept - check.added.length -
    check.currencies.length - check.illFormed.length;
}

/**
 * Adds what checkCarried finds in `r` to its copy-through report: the source's dates and times the
 * output lacks, and prices whose currency it lacks, to `missing` (a time already missing as a
 * number is not listed twice); the output's invented dates and times and ill-formed numbers to
 * `doubtful`. The translation itself is not changed.
 */
export function flagCarried(r: Translation, sourceLang: string, targetLang: string, report: CopyThroughReport): void {
  const check = checkCarried(r.sourceWords, r.targetWords, sourceLang, targetLang);
  for (const m of check.missing) {
    if (report.missing.some((x) => x.word >= m.word && x.word < m.word + m.words && x.kind === 'time')) continue;
    report.missing.push({ kind: m.kind, source: m.text, word: m.word });
  }
  for (const c of check.currencies) report.missing.push({ kind: 'price', source: c.text, word: c.word });
  for (const m of check.added) report.doubtful.push({ kind: m.kind, target: m.text, word: m.word, reason: 'added' });
  for (const n of check.illFormed) report.doubtful.push({ kind: 'number', target: n.text, word: n.word, reason: 'ill-formed' });
}
