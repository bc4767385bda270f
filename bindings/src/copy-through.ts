/**
 * Copy-through: nothing the source has is lost in its translation, with
 * the word alignment as the source of truth.
 *
 * 1. Unknown pieces. A source span the vocabulary cannot express (emoji, CJK, rare symbols) is
 *    SentencePiece's `<unk>` on both sides, which decodes to " ⁇ ". Each target `<unk>` takes the
 *    text of the source unknown piece that its word is aligned to: unknown-word replacement,
 *    Luong et al. 2015 ("Addressing the Rare Word Problem in Neural Machine Translation", ACL;
 *    Luong, Pham and Manning 2015, "Effective Approaches to Attention-based NMT", section 5.1, with
 *    the alignment read from attention). Among the source words that hold unknown pieces, the one
 *    the target word attends to most is taken, its unknown pieces in order. A typographic quote or
 *    dash copied this way takes the target language's form (QUOTES). A `<unk>` whose source has no
 *    unknown piece is dropped: it stands for nothing the source said. A source unknown piece that
 *    no target `<unk>` took is reported missing (the model left it out; nothing is inserted).
 * 2. Numbers, times, URLs, e-mail addresses and code-like tokens of the source (numbers.ts): a
 *    source span that the output does not contain (in any of its accepted forms) is looked for
 *    among the target words aligned to its source word; an aligned target word holding a different
 *    number, or a mangled copy of the URL/address/token, gets the source's (localised) form. A span
 *    with no such aligned word is reported missing, not inserted. A capitalised name of an English
 *    source whose aligned target word is the name cut short by one letter (Siemens → Siemen) is
 *    restored.
 * 3. A number still missing gets a second chance (recoverDropped): lexically constrained decoding
 *    forces it in and the model decodes around it (number-constraint.ts).
 *
 * Every change is made to the target pieces; text, targetTokens, targetWords, targetWordOfToken,
 * wordConfidence and the alignment are then derived again from them, so they stay consistent.
 * targetIds and the log-probabilities stay the model's.
 */
import type { CopyThroughReport, Hypothesis, Translation } from './translator-types.js';
import type { AlignmentOptions } from './alignment.js';
import { InputTooLongError } from './errors.js';
import { carriedScore, flagCarried } from './carried.js';
import { currencyAt, currencySymbol, illFormedNumbers, namesCurrency } from './number-syntax.js';
import { mentionsOf, monthOf, sameMention, timeForm } from './dates.js';
import { CONSTRAINED_BEAM, constrainedCandidates, keepAlignment } from './number-constraint.js';
import { capitalisedWords, carrySpans, core, numberTokens, numbersOf, type CarrySpan, type SpanKind } from './numbers.js';

/** Whether copy-through flagged `report`'s translation: something missing, or something to doubt. */
export function isFlagged(report: CopyThroughReport | undefined): boolean {
  return report !== undefined && (report.missing.length > 0 || report.doubtful.length > 0);
}

const UNK = '<unk>';
const BOUNDARY = '▁';
/** Quotes and dash of each target language: [opening, closing] double and single quotes, the dash between clauses. */
export const QUOTES: Record<string, { double: [string, string]; single: [string, string]; dash: string }> = {
  en: { double: ['“', '”'], single: ['‘', '’'], dash: '—' },
  de: { double: ['„', '“'], single: ['‚', '‘'], dash: '–' },
  fr: { double: ['«', '»'], single: ['‹', '›'], dash: '–' },
};
const DOUBLE = '“”„«»‟';
const SINGLE = '‘’‚‹›‛';
const DASHES = new Set(['-', '–', '—', '--']);

/**
 * The options the engine needs for copy-through: the word alignment (the caller's alignment
 * options, or the defaults), and without the JavaScript-only `copyThrough` field.
 */
export function copyThroughRequest<T extends { alignment?: boolean | AlignmentOptions; copyThrough?: boolean }>(options: T): T {
  if (typeof options !== 'object' || options === null) return options;  // the option check refuses it
  const { copyThrough, ...rest } = options;
  if (copyThrough === false) return rest as T;
  return { ...rest, alignment: options.alignment === undefined || options.alignment === false ? true : options.alignment } as T;
}

/**
 * Applies copy-through to a translation made with copyThroughRequest's options (mutates and
 * returns it, with `copyThrough` set to its report); drops the alignment again when the caller had
 * not asked for it. Without a word alignment (mergeSubwords false) unknown pieces are matched by
 * their order instead.
 * @param asked the caller's options (copyThrough false: the translation is returned untouched)
 */
export function applyCopyThrough(r: Translation, sourceLang: string, targetLang: string,
                                 asked: { alignment?: boolean | AlignmentOptions; copyThrough?: boolean }): Translation {
  if (asked.copyThrough === false) return r;
  const wordLevel = typeof asked.alignment !== 'object' || asked.alignment.mergeSubwords !== false;
  const report: CopyThroughReport = { replaced: [], missing: [], doubtful: [] };
  const pieces = [...r.targetTokens];
  fillUnknown(r, pieces, targetLang, wordLevel, report);
  reassemble(r, pieces, wordLevel);
  if (wordLevel && r.alignment) {
    repairCarried(r, pieces, sourceLang, targetLang, report);
    reassemble(r, pieces, wordLevel);
  }
  repairCurrencies(r, pieces, sourceLang, targetLang, report);
  reassemble(r, pieces, wordLevel);
  flagCarried(r, sourceLang, targetLang, report);
  for (const h of r.hypotheses.slice(1)) fillHypothesis(h, r, targetLang);
  if (r.hypotheses[0]) Object.assign(r.hypotheses[0], { text: r.text, targetTokens: r.targetTokens });
  if (r.alignment) keepAlignment(r, r.alignment);  // for the second chance's insertion points
  if (asked.alignment === undefined || asked.alignment === false) delete r.alignment;
  r.copyThrough = report;
  return r;
}

// The unknown source pieces of each source word: [sourceWords][pieces] of { piece index, text }.
function unknownPieces(r: Translation, unkId: number): { s: number; text: string }[][] {
  const out: { s: number; text: string }[][] = r.sourceWords.map(() => []);
  r.sourceIds.forEach((id, s) => {
    const w = r.sourceWordOfToken[s];
    if (id === unkId && w >= 0 && r.sourceTokens[s] !== UNK) out[w].push({ s, text: r.sourceTokens[s].replace(/^▁/, '') });
  });
  return out;
}

// A quote or dash copied from the source in the target language's form; `s` is its source piece.
function localised(text: string, s: number, r: Translation, targetLang: string): string {
  const forms = QUOTES[targetLang.split('-')[0]];
  if (!forms || [...text].length !== 1) return text;
  const before = s === 0 ? BOUNDARY : r.sourceTokens[s - 1];
  const opening = r.sourceTokens[s].startsWith(BOUNDARY) || before.endsWith(BOUNDARY) || /[([{]$/.test(before);
  const after = r.sourceTokens[s + 1] ?? '';
  if (text === '’' && /^\p{L}/u.test(after)) return text;  // an apostrophe (don’t), not a quote
  if (DOUBLE.includes(text)) return forms.double[opening ? 0 : 1];
  if (SINGLE.includes(text)) return forms.single[opening ? 0 : 1];
  if (text === '—' || text === '–') return forms.dash;
  return text;
}

// Fills each target <unk> piece with the source unknown piece its word is aligned to (or, without
// a word alignment, the next source unknown piece in order).
function fillUnknown(r: Translation, pieces: string[], targetLang: string, wordLevel: boolean, report: CopyThroughReport): void {
  const first = pieces.indexOf(UNK);
  // The unknown id: the target <unk>'s, else 1 (<unk> of SentencePiece and Marian vocabularies).
  const byWord = unknownPieces(r, first >= 0 ? r.targetIds[first] : 1);
  const used = byWord.map(() => 0);
  const inOrder = byWord.flat();
  let next = 0;
  for (let t = Math.max(0, first); first >= 0 && t < pieces.length; ++t) {
    if (pieces[t] !== UNK) continue;
    let pick: { s: number; text: string } | undefined;
    const row = r.alignment?.weights[r.targetWordOfToken[t]];
    if (wordLevel && row) {
      const open = byWord.map((p, w) => p.length > used[w] ? w : -1).filter((w) => w >= 0);
      const candidates = open.length ? open : byWord.map((p, w) => p.length ? w : -1).filter((w) => w >= 0);
      const w = candidates.reduce((best, c) => (row[c] > row[best] ? c : best), candidates[0] ?? -1);
      if (w >= 0) pick = byWord[w][used[w]++ % byWord[w].length];
    } else {
      pick = inOrder[next++ % Math.max(1, inOrder.length)];
    }
    pieces[t] = pick ? localised(pick.text, pick.s, r, targetLang) : '';
    if (!pick && pieces[t - 1] === BOUNDARY) pieces[t - 1] = '';  // no space left behind for nothing
    report.replaced.push({ kind: 'unknown', source: pick?.text ?? '', target: pieces[t], word: r.targetWordOfToken[t] });
  }
  // A quote, apostrophe or dash left out is no loss ("the women’s ranks" → "der Frauen"): only other text is missing.
  const content = (text: string) => !/^[\p{P}\p{Cf}]+$/u.test(text);  // \p{Cf}: a zero-width joiner before „
  if (wordLevel) {
    byWord.forEach((p, w) => p.slice(used[w]).filter(({ text }) => content(text))
      .forEach(({ text }) => report.missing.push({ kind: 'unknown', source: text, word: w })));
  }
}

// The n-best entries after the first have no alignment: their unknown pieces take the source's in order.
function fillHypothesis(h: Hypothesis, r: Translation, targetLang: string): void {
  if (!h.targetTokens.includes(UNK)) return;
  const inOrder = unknownPieces(r, h.targetIds[h.targetTokens.indexOf(UNK)]).flat();
  let next = 0;
  h.targetTokens = h.targetTokens.map((p) => {
    if (p !== UNK) return p;
    const pick = inOrder[next++ % Math.max(1, inOrder.length)];
    return pick ? localised(pick.text, pick.s, r, targetLang) : '';
  });
  h.text = decodePieces(h.targetTokens, h.targetTokens.map((p) => (p === '</s>' ? -1 : 0)));
}

/**
 * SentencePiece's decoding of pieces (sentencepiece_processor.cc, Decode): concatenated, `▁` as
 * a space, the first piece's leading space removed. Pieces of special tokens (word -1) are left out.
 * A run of spaces (a lone `▁` piece before a word, which the model sometimes writes before `<unk>`)
 * is one space, so that the words between spaces are the target words.
 */
export function decodePieces(pieces: readonly string[], wordOfToken: readonly number[]): string {
  return pieces.filter((_, t) => wordOfToken[t] >= 0).join('').replaceAll(BOUNDARY, ' ').replace(/ {2,}/g, ' ').replace(/^ /, '');
}

// Derives text, targetTokens, targetWords, targetWordOfToken, wordConfidence and the alignment's
// rows (a word alignment's only) again from `pieces` (words split at `▁`, as the engine's words_of_pieces does).
function reassemble(r: Translation, pieces: string[], wordLevel: boolean): void {
  if (pieces.every((p, t) => p === r.targetTokens[t])) return;
  r.text = decodePieces(pieces, r.targetWordOfToken);
  r.targetTokens = [...pieces];
  r.targetWords = r.text.split(/\s+/).filter((w) => w.length > 0);
  const words = r.targetWords.length;
  let word = -1, hasText = false;  // hasText: the current word has characters (a lone `▁` starts none)
  r.targetWordOfToken = r.targetWordOfToken.map((old, t) => {
    if (old < 0) return -1;
    if (word < 0 || (pieces[t].startsWith(BOUNDARY) && hasText)) [word, hasText] = [word + 1, false];
    if (pieces[t].replaceAll(BOUNDARY, '') !== '') hasText = true;
    return words === 0 ? -1 : Math.min(word, words - 1);
  });
  const logProb = new Array<number>(words).fill(0);
  r.targetWordOfToken.forEach((w, t) => { if (w >= 0) logProb[w] += r.tokenLogProbs[t]; });
  r.wordConfidence = logProb.map(Math.exp);
  if (wordLevel && r.alignment && r.alignment.weights.length !== words && r.alignment.weights.length >= words) {
    r.alignment = { weights: r.alignment.weights.slice(0, words), links: r.alignment.links.filter(([, t]) => t < words) };
  }
}

// Replaces target word `w` by `text` in the pieces: its first piece carries the text, the rest become empty.
function setWord(r: Translation, pieces: string[], w: number, text: string): void {
  const tokens = r.targetWordOfToken.flatMap((x, t) => (x === w ? [t] : []));
  tokens.forEach((t, k) => { pieces[t] = k === 0 ? (pieces[t].startsWith(BOUNDARY) ? BOUNDARY : '') + text : ''; });
}

/** Similarity of two strings in [0, 1]: 1 − Levenshtein distance / the longer length. */
export function similarity(a: string, b: string): number {
  const d = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; ++i) {
    let diagonal = d[0];
    d[0] = i;
    for (let j = 1; j <= b.length; ++j) {
      const up = d[j];
      d[j] = Math.min(d[j] + 1, d[j - 1] + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = up;
    }
  }
  return 1 - d[b.length] / Math.max(1, a.length, b.length);
}

/**
 * The repair of one carried span against the target words aligned to its source word: the
 * aligned word (and the part of it) to rewrite, or null when none qualifies. A number replaces a
 * different number that no other source number accounts for; a URL, address or code token
 * replaces a copy of it mangled by at most half of its characters (similarity ≥ 0.5).
 */
export function repairOf(span: CarrySpan, aligned: readonly number[], targetWords: readonly string[],
                         accounted: ReadonlySet<string>): { word: number; from: string; to: string } | null {
  for (const w of aligned) {
    const word = targetWords[w];
    if (span.kind === 'number' || span.kind === 'time') {
      const other = numbersOf(word).find((n) => !accounted.has(n));
      if (other !== undefined) return { word: w, from: withLeadingSeparators(word, other), to: span.forms[0] };
    } else if (span.kind !== 'name') {
      const c = core(word);
      if (c.length > 0 && c !== span.text && similarity(c, span.text) >= 0.5) return { word: w, from: c, to: span.text };
    }
  }
  return null;
}

// `number` of `word` with the separators the model put before it ("$,299,99.99" → ",299,99.99"),
// which a repair replaces too.
function withLeadingSeparators(word: string, number: string): string {
  const at = word.indexOf(number);
  let start = at;
  while (start > 0 && (word[start - 1] === '.' || word[start - 1] === ',')) --start;
  return word.slice(start, at + number.length);
}

// Item 2: numbers, times, URLs, addresses, code tokens and English names against the alignment.
function repairCarried(r: Translation, pieces: string[], sourceLang: string, targetLang: string, report: CopyThroughReport): void {
  const alignedTo = (s: number) => r.alignment!.links.filter(([src]) => src === s).map(([, t]) => t);
  const spans = carrySpans(r.sourceWords, sourceLang, targetLang);
  const output = numberTokens(r.text, targetLang);
  const accounted = new Set(spans.flatMap((s) => s.forms));
  const found = (s: CarrySpan) => {
    if (s.kind !== 'number' && s.kind !== 'time') return r.targetWords.some((w) => core(w) === s.text || w.includes(s.text));
    const k = output.findIndex((n) => s.forms.includes(n));
    if (k >= 0) output.splice(k, 1);
    return k >= 0;
  };
  for (const span of spans.filter((s) => !found(s))) {
    const fix = repairOf(span, alignedTo(span.word), r.targetWords, accounted);
    const text = fix && r.targetWords[fix.word].replace(fix.from, fix.to);
    if (!fix || !text || illFormedNumbers(text, targetLang).length > 0) {  // do no harm: a repair must be well formed
      report.missing.push({ kind: span.kind, source: span.text, word: span.word });
      continue;
    }
    r.targetWords[fix.word] = text;
    setWord(r, pieces, fix.word, text);
    report.replaced.push({ kind: span.kind, source: span.text, target: text, word: fix.word });
  }
  repairTimes(r, pieces, alignedTo, sourceLang, targetLang, report);
  if (sourceLang.split('-')[0] === 'en') repairNames(r, pieces, alignedTo, report);
  repairDashes(r, pieces, alignedTo, targetLang, report);
}

// A clock time of the output linked to one of the source but of another value ("8 Uhr" for 8 p.m.,
// "17 p.m." for 17 Uhr) is written as the source's time in the target's form (timeForm): when it is
// a number and "Uhr" or a.m./p.m. after it. A time written otherwise, or a source time that a 12-hour
// clock leaves open ("at 9:30"), is flagged (flagCarried), not changed.
function repairTimes(r: Translation, pieces: string[], alignedTo: (s: number) => number[], sourceLang: string,
                     targetLang: string, report: CopyThroughReport): void {
  const source = mentionsOf(r.sourceWords, sourceLang).filter((m) => m.time);
  const target = mentionsOf(r.targetWords, targetLang).filter((m) => m.time);
  for (const s of source) {
    if (s.time!.twelveHour || Number.isNaN(s.time!.minutes) || target.some((t) => sameMention(s, t))) continue;
    const linked = new Set(Array.from({ length: s.words }, (_, k) => alignedTo(s.word + k)).flat());
    const t = target.find((m) => !source.some((x) => sameMention(x, m)) && (linked.has(m.word) || linked.has(m.word + m.words - 1)));
    const words = t && timeWords(r.targetWords.slice(t.word, t.word + t.words), timeForm(s.time!, targetLang));
    if (!t || !words) continue;
    words.forEach((text, k) => {
      r.targetWords[t.word + k] = text;
      setWord(r, pieces, t.word + k, text);
    });
    report.replaced.push({ kind: 'time', source: s.text, target: words.join(' '), word: t.word });
  }
}

// The words of a time mention rewritten to `form`: a number and "Uhr" or a.m./p.m. after it ("8 Uhr",
// "17 p.m."), or one word of both ("9:30pm", in its own style); null for a time written otherwise.
function timeWords(words: string[], form: { number: string; after: string }): string[] | null {
  const clock = /^\d{1,2}(?:[:.]\d{2})?$/;
  if (words.length === 2 && clock.test(core(words[0]))) {
    return [words[0].replace(core(words[0]), form.number), words[1].replace(/^(\W*)(?:[ap]\.?m\.?|Uhr)/i, `$1${form.after}`)];
  }
  const joined = words.length === 1 ? /^(\d{1,2}(?::\d{2})?)([ap])(\.?m\.?)$/i.exec(core(words[0])) : null;
  if (!joined || form.after === 'Uhr') return null;
  return [words[0].replace(joined[0], `${form.number}${form.after[0]}${joined[3]}`)];
}

// A price whose currency the output lost ("1.150 Euro" → "1,150"): the output word that holds its
// number, with no currency of its own, takes the currency's symbol before it ("€1,150"), as both
// languages may write it. Only when the output names that currency nowhere, and the result is well formed.
function repairCurrencies(r: Translation, pieces: string[], sourceLang: string, targetLang: string, report: CopyThroughReport): void {
  for (const span of carrySpans(r.sourceWords, sourceLang, targetLang)) {
    const code = span.kind === 'number' ? currencyAt(r.sourceWords, span.word) : null;
    if (!code || namesCurrency(r.targetWords, code)) continue;
    // A word that starts with the number ("1,150", "(1,150"), not one glued to letters ("kosten45").
    const w = r.targetWords.findIndex((word) => span.forms.some((f) => core(word).startsWith(f)) && !/[$€£¥]/.test(word));
    if (w < 0 || currencyAt(r.targetWords, w)) continue;  // not found, or next to another currency: flagged, not changed
    const form = numbersOf(r.targetWords[w]).find((n) => span.forms.includes(n))!;
    const text = r.targetWords[w].replace(form, `${currencySymbol(code)}${form}`);
    if (illFormedNumbers(text, targetLang).length > 0) continue;
    r.targetWords[w] = text;
    setWord(r, pieces, w, text);
    report.replaced.push({ kind: 'number', source: r.sourceWords[span.word], target: text, word: w });
  }
}

// A capitalised name whose aligned target word is the name less its last letter (Siemens → Siemen).
function repairNames(r: Translation, pieces: string[], alignedTo: (s: number) => number[], report: CopyThroughReport): void {
  for (const name of capitalisedWords(r.sourceWords)) {
    if (name.text.length < 5 || r.targetWords.some((w) => core(w) === name.text) || monthOf(name.text, 'en')) continue;  // Februar is no lost letter
    const w = alignedTo(name.word).find((t) => core(r.targetWords[t]) === name.text.slice(0, -1));
    if (w === undefined) continue;
    const text = r.targetWords[w].replace(name.text.slice(0, -1), name.text);
    r.targetWords[w] = text;
    setWord(r, pieces, w, text);
    report.replaced.push({ kind: 'name', source: name.text, target: text, word: w });
  }
}

// A lone dash of the target aligned to a lone dash of the source takes the target language's dash.
function repairDashes(r: Translation, pieces: string[], alignedTo: (s: number) => number[], targetLang: string,
                      report: CopyThroughReport): void {
  const dash = QUOTES[targetLang.split('-')[0]]?.dash;
  if (!dash) return;
  r.sourceWords.forEach((source, s) => {
    if (source !== '–' && source !== '—') return;
    for (const w of alignedTo(s)) {
      if (!DASHES.has(r.targetWords[w]) || r.targetWords[w] === dash) continue;
      r.targetWords[w] = dash;
      setWord(r, pieces, w, dash);
      report.replaced.push({ kind: 'dash', source, target: dash, word: w });
    }
  });
}

/**
 * A second chance for numbers the model dropped (reported missing by applyCopyThrough): lexically
 * constrained decoding (number-constraint.ts). The first missing number of the sentence is forced in
 * at word boundaries of the output (targetPrefix: the output's words before the boundary, then
 * the number), the model decodes the rest by beam search (CONSTRAINED_BEAM), and the candidate with
 * the best score (logProb / lp(T), as beam search ranks, forced pieces included) among those that,
 * force-aligned (`align`) and copied through like the first, carry more of the source
 * (carriedScore: numbers and dates kept, none invented or ill-formed) replaces it. On FLORES dev it keeps more numbers, with a better
 * chrF of the changed sentences, than the previous second chance, the first hypothesis of a beam of
 * 8 that kept the number (docs/copy-through.md). Streaming (onToken) shows the first output's
 * tokens, then the result is the same as without it; skipped with a caller's targetPrefix.
 * @param redo translates texts with copy-through off; `align` force-aligns a pair with copy-through
 */
export async function recoverDropped(
  results: Translation[], texts: readonly string[],
  options: { onToken?: unknown; beamSize?: number; copyThrough?: boolean; targetPrefix?: unknown },
  sourceLang: string, targetLang: string, redo: (texts: string[], options: object) => Promise<Translation[]>,
  align: (source: string, target: string) => Promise<Translation>,
): Promise<Translation[]> {
  if (options.copyThrough === false || options.targetPrefix !== undefined) return results;
  const forced = constrainedCandidates(results, sourceLang, targetLang);
  if (forced.length === 0) return results;
  const decoded = await redo(forced.map((c) => texts[c.sentence]), {
    ...options, onToken: undefined, beamSize: Math.max(CONSTRAINED_BEAM, options.beamSize ?? 1), nBest: 1, copyThrough: false, attention: false,
    alignment: false, targetPrefix: forced.map((c) => c.prefix),
  }).catch((e: unknown) => {
    if (e instanceof InputTooLongError) return [];  // a prefix past max_positions pieces: keep the first
    throw e;
  });
  const bySentence = new Map<number, { text: string; score: number }[]>();
  decoded.forEach((r, k) => {
    const i = forced[k].sentence;
    bySentence.set(i, [...(bySentence.get(i) ?? []), { text: decodeHypothesis(r.hypotheses[0], results[i], targetLang), score: r.score }]);
  });
  const out = [...results];
  for (const [i, candidates] of bySentence) {
    const before = carriedScore(results[i].sourceWords, results[i].text, sourceLang, targetLang);
    // Best model score first; each is judged as copy-through repairs it ("21.30 Uhr" for 9:30 a.m. becomes 9:30).
    for (const c of candidates.sort((a, b) => b.score - a.score)) {
      const r = await align(texts[i], c.text).catch((e: unknown) => {
        if (e instanceof InputTooLongError) return null;  // its pieces re-encoded past max_positions
        throw e;
      });
      if (!r || carriedScore(r.sourceWords, r.text, sourceLang, targetLang) <= before) continue;
      r.hypotheses = [{ text: r.text, targetTokens: r.targetTokens, targetIds: r.targetIds, tokenLogProbs: r.tokenLogProbs,
                        logProb: r.logProb, score: c.score }];
      out[i] = r;
      break;
    }
  }
  return out;
}

// A hypothesis's text with its unknown pieces filled in order (fillHypothesis), without changing it.
function decodeHypothesis(h: Hypothesis, r: Translation, targetLang: string): string {
  const copy = { ...h };
  fillHypothesis(copy, r, targetLang);
  return copy.text;
}
