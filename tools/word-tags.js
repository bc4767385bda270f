// Quality labels of a translation against its reference, as WMT's quality-estimation tasks make them
// from post-edits (Specia et al., "Findings of the WMT 2020 Shared Task on Quality Estimation"):
// word tags from an edit alignment of the output with the reference, and a sentence label.
//
// The edit alignment is TER's (Snover et al. 2006, "A Study of Translation Edit Rate with Targeted
// Human Annotation") without its block shifts: a Levenshtein alignment of whitespace-separated words
// (matches cost 0; substitutions, insertions and deletions 1), so a word the output has in another
// place than the reference counts as an error where tercom would shift it. An output word matched
// to a reference word is OK; a substituted or inserted one is BAD; a reference word the output lacks
// (a gap) makes the output word after it BAD, as the QE tasks fold gap tags into word tags.
import { sentenceChrf } from './chrf.js';

/** Words compared as TER compares them by default here: case-sensitive, punctuation kept. */
const words = (text) => text.split(/\s+/).filter((w) => w.length > 0);

/**
 * Word tags of `output` against `reference`: one per output word, 1 = BAD, 0 = OK (see above).
 */
export function wordTags(output, reference) {
  const [h, r] = [words(output), words(reference)];
  // cost[i][j]: edits to turn h[0..i) into r[0..j).
  const cost = Array.from({ length: h.length + 1 }, (_, i) => Array.from({ length: r.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= h.length; ++i) {
    for (let j = 1; j <= r.length; ++j) {
      cost[i][j] = Math.min(cost[i - 1][j] + 1, cost[i][j - 1] + 1, cost[i - 1][j - 1] + (h[i - 1] === r[j - 1] ? 0 : 1));
    }
  }
  const tags = new Array(h.length).fill(0);
  for (let i = h.length, j = r.length; i > 0 || j > 0;) {
    if (i > 0 && j > 0 && cost[i][j] === cost[i - 1][j - 1] + (h[i - 1] === r[j - 1] ? 0 : 1)) {
      tags[i - 1] = h[i - 1] === r[j - 1] ? 0 : 1;
      --i, --j;
    } else if (i > 0 && cost[i][j] === cost[i - 1][j] + 1) {
      tags[--i] = 1;  // inserted by the output
    } else {
      if (i < h.length) tags[i] = 1;  // reference word j - 1 is missing before output word i: a gap
      --j;
    }
  }
  return tags;
}

/** The chrF below which a translation counts as bad (the line: chrF below 30). */
export const BAD_CHRF = 30;

/** Whether `output` is a bad translation of what `reference` says: sentence chrF (tools/chrf.js) below BAD_CHRF. */
export function badSentence(output, reference) {
  return sentenceChrf(output, reference) < BAD_CHRF;
}
