/**
 * What a flagged translation lacks or should be doubted for, in plain words: the lines the page
 * shows under the translation and the CLI prints on stderr, from a copy-through report
 * (copy-through.ts, CopyThroughReport). The report's spans are named as the source and the output
 * write them.
 */
import type { CopyThroughReport } from './translator-types.js';

const MISSING: Record<string, string> = {
  date: 'the date', time: 'the time', number: 'the number', price: 'the currency of', url: 'the link',
  email: 'the address', code: 'the code', unknown: 'the character',
};

/**
 * One sentence per flag of `report`, in order: each missing span ("The translation lacks the date
 * “14 February 2025” of the source."), then each doubtful word ("“14 Uhr” is a time the source
 * does not have." / "“$,299,99.99” is not a well-formed number."). [] when nothing is flagged or
 * `report` is undefined (copyThrough false).
 */
export function flagNotes(report: CopyThroughReport | undefined): string[] {
  if (!report) return [];
  return [
    ...report.missing.map((m) => `The translation lacks ${MISSING[m.kind] ?? 'the text'} “${m.source}” of the source.`),
    ...report.doubtful.map((d) => d.reason === 'added'
      ? `“${d.target}” is a ${d.kind} the source does not have.`
      : `“${d.target}” is not a well-formed number.`),
  ];
}
