// The translation as the page shows it: the text, with each sentence and each word marked by how
// sure the model was of it (Translation.confidence, Translation.wordConfidence). A sentence below
// SENTENCE_THRESHOLD is flagged as likely wrong (docs/confidence.md: on Tatoeba test such sentences
// score about half the chrF of the others); a word below WORD_THRESHOLD is underlined. The text
// content is exactly joinParagraphs of the sentences' texts, so copying it copies the translation.

export const SENTENCE_THRESHOLD = 0.4;
// Not measured (no word-level gold here): a word the model gave less than one chance in five.
export const WORD_THRESHOLD = 0.2;

const percent = (p) => `${Math.round(100 * p)}%`;

/** A sentence as a span of word spans and the whitespace between them, marked by confidence. */
function sentenceSpan(result) {
  const span = document.createElement('span');
  span.className = 'sentence';
  span.dataset.confidence = result.confidence.toFixed(3);
  if (result.confidence < SENTENCE_THRESHOLD) {
    span.classList.add('doubtful');
    span.title = `The model is unsure of this sentence (confidence ${percent(result.confidence)}): it may be wrong.`;
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
      w.title = `The model gave this word a probability of ${percent(p)}.`;
    }
    span.append(w);
  }
  return span;
}

/**
 * Fills `output` with the translations `results` (one per sentence, flat) laid out as `paragraphs`
 * (splitParagraphs of the source). Returns the number of sentences flagged as likely wrong.
 */
export function renderTranslation(output, paragraphs, results) {
  let next = 0, doubtful = 0;
  const nodes = [];
  paragraphs.forEach((sentences, p) => {
    if (p > 0) nodes.push('\n');
    sentences.forEach((_, s) => {
      if (s > 0) nodes.push(' ');
      const result = results[next++];
      if (result.confidence < SENTENCE_THRESHOLD) ++doubtful;
      nodes.push(sentenceSpan(result));
    });
  });
  output.replaceChildren(...nodes);
  return doubtful;
}
