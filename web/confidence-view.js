// The translation as the page shows it: the text, with each sentence and each word marked by how
// sure the model was of it (Translation.confidence, Translation.wordConfidence), and a legend for
// the marks. A sentence below SENTENCE_THRESHOLD gets a tinted background; a word below
// WORD_THRESHOLD a dotted box (not an underline: it is no spelling mark). A marked word can be
// focused by tap, click or keyboard, and the legend's status line then gives its probability. The
// text content is exactly joinParagraphs of the sentences' texts, so copying it copies the translation.

import { flagNotes, isFlagged } from '../dist/index.js';

// The thresholds and what they achieve were measured on the models' own errors (2026-11-29): FLORES
// dev translated as the page translates by both shipped models and a converted OPUS-MT-shaped one,
// each output labelled against its reference as WMT's quality-estimation tasks label post-edited
// MT (bad below chrF 30; word tags from an edit alignment), fitted on the first half of the lines
// and measured on the second. docs/confidence-own.json holds the figures, printed by
//   node tools/confidence-own-errors.js
// and tests/js/confidence-own.test.js holds these constants to them.
export const SENTENCE_THRESHOLD = 0.52;
export const WORD_THRESHOLD = 0.18;
/** On the held-out half: the share of marked sentences that were bad, of bad ones that were marked, and the same of boxed words. */
export const MEASURED = { sentencePrecision: 0.059, sentenceRecall: 0.702, wordPrecision: 0.904, wordRecall: 0.217 };

/**
 * How sure the page takes the model to be of a sentence: its confidence (the geometric mean token
 * probability), lowered in proportion when the translation has fewer tokens than its source,
 * min(1, T / S) for T target and S source tokens (eos included): a dropped phrase is the commonest
 * error the probabilities miss. On FLORES dev it finds the outputs below chrF 30 better than the
 * confidence alone (ROC AUC 0.76 against 0.73 over all of it: docs/confidence-own.json, all_lines).
 */
export function sentenceSureness(result) {
  const target = result.tokenLogProbs.length, source = result.sourceTokens.length;
  return result.confidence * Math.min(1, source > 0 ? target / source : 1);
}

/** A share in words: "1 in 20" below a half, "3 in 5" or "9 in 10" from a half up. */
export function inWords(share) {
  if (share >= 0.5) return Number.isInteger(share * 5) ? `${share * 5} in 5` : `${Math.round(share * 10)} in 10`;
  return `1 in ${Math.round(1 / share)}`;
}

/** A probability in words: "23%", "0.21%", "0.022%", "less than 0.0001%". */
export function formatProbability(p) {
  const percent = 100 * p;
  if (percent >= 1) return `${Math.round(percent)}%`;
  if (percent >= 1e-4) return `${Number(percent.toPrecision(2))}%`;
  return 'less than 0.0001%';
}

/** A sentence as a span of word spans and the whitespace between them, marked by confidence and by copy-through's flags. */
function sentenceSpan(result) {
  const span = document.createElement('span');
  span.className = 'sentence';
  span.dataset.confidence = result.confidence.toFixed(3);
  if (isFlagged(result.copyThrough)) {
    span.classList.add('flagged');
    span.title = flagNotes(result.copyThrough).join(' ');
  }
  if (sentenceSureness(result) < SENTENCE_THRESHOLD) {
    span.classList.add('doubtful');
    span.title = `The model is unsure of this sentence (${formatProbability(sentenceSureness(result))}): it may be wrong.`;
  }
  let word = 0;
  for (const part of result.text.split(/(\s+)/)) {
    if (part === '') continue;
    if (/^\s/.test(part)) {
      span.append(part);
      continue;
    }
    const p = result.wordConfidence[word++] ?? 1;
    const w = document.createElement('span');
    w.textContent = part;
    if (p < WORD_THRESHOLD) {
      w.className = 'unsure';
      w.tabIndex = 0;  // focusable by tap and keyboard: the legend's status line explains it
      w.dataset.probability = p.toPrecision(3);
      w.setAttribute('aria-describedby', 'confidence-detail');
    }
    span.append(w);
  }
  return span;
}

/** The legend's status line for the marked word `word` (a span.unsure). */
function explainWord(legend, word) {
  const detail = legend.querySelector('.confidence-detail');
  detail.textContent = `“${word.textContent}”: the model gave this word a probability of ` +
    `${formatProbability(Number(word.dataset.probability))} (marked below ${formatProbability(WORD_THRESHOLD)}).`;
}

/** The legend: a sample of each mark and what it means, and a status line for the word in focus. */
function fillLegend(legend, output) {
  const key = (sampleClass, sample, text) => {
    const item = document.createElement('span');
    item.className = 'legend-key';
    const mark = document.createElement('span');
    mark.className = `sample ${sampleClass}`;
    mark.textContent = sample;
    item.append(mark, ` ${text}`);
    return item;
  };
  const detail = document.createElement('span');
  detail.className = 'confidence-detail';
  detail.id = 'confidence-detail';
  detail.setAttribute('role', 'status');
  detail.textContent = 'Tap or focus a boxed word to see its probability.';
  legend.replaceChildren(
    key('doubtful', 'Sentence', `the model is unsure of this sentence (below ${formatProbability(SENTENCE_THRESHOLD)}, ` +
      `its confidence lowered where the translation is shorter than its source). Measured on FLORES dev: ` +
      `${inWords(MEASURED.sentencePrecision)} such sentences was a poor translation, and ${inWords(MEASURED.sentenceRecall)} ` +
      'poor translations were marked'),
    key('unsure', 'word', `a word the model found unlikely (probability below ${formatProbability(WORD_THRESHOLD)}): ` +
      `${inWords(MEASURED.wordPrecision)} such words differ from a human translation, and ${inWords(MEASURED.wordRecall)} ` +
      'words that differ are boxed'),
    key('flagged', 'Sentence', 'lacks or invents a date, time, number or price of the source (listed above)'),
    detail);
  if (!legend.dataset.wired) {
    legend.dataset.wired = 'true';
    const show = (event) => {
      const word = event.target.closest?.('.unsure');
      if (word && output.contains(word)) explainWord(legend, word);
    };
    output.addEventListener('focusin', show);
    output.addEventListener('click', show);
  }
}

/**
 * Fills `output` with the translations `results` (one per sentence, flat) laid out as `paragraphs`
 * (splitParagraphs of the source), and `legend`, when given, with the meaning of the marks: shown
 * when there is a mark to explain, hidden otherwise. Returns the number of sentences flagged as
 * likely wrong.
 */
/**
 * Fills `list` with what each flagged translation of `results` lacks or invents (flagNotes), each
 * prefixed by its sentence's number when there are several; hides it when there is nothing.
 */
export function renderCarryNotes(list, results) {
  const notes = results.flatMap((r, i) => flagNotes(r.copyThrough).map((n) => (results.length > 1 ? `Sentence ${i + 1}: ${n}` : n)));
  list.replaceChildren(...notes.map((n) => Object.assign(document.createElement('li'), { textContent: n })));
  list.hidden = notes.length === 0;
}

export function renderTranslation(output, paragraphs, results, legend = null) {
  let next = 0, doubtful = 0;
  const nodes = [];
  paragraphs.forEach((sentences, p) => {
    if (p > 0) nodes.push('\n');
    sentences.forEach((_, s) => {
      if (s > 0) nodes.push(' ');
      const result = results[next++];
      if (sentenceSureness(result) < SENTENCE_THRESHOLD) ++doubtful;
      nodes.push(sentenceSpan(result));
    });
  });
  output.replaceChildren(...nodes);
  if (legend) {
    fillLegend(legend, output);
    legend.hidden = !output.querySelector('.doubtful, .unsure, .flagged');
  }
  return doubtful;
}
