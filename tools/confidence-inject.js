// Synthetic translation errors with known positions, for measuring word- and sentence-level
// confidence without human labels: each reference gets, where it has a word to corrupt, one copy
// per error type with exactly one error, and the index of the word that is BAD.
//
// Words are the whitespace-separated units of Translation.targetWords. A word's core is the word
// without the punctuation around it ("(02:30" → "02:30", "Startbahn," → "Startbahn"); replacements
// change the core and keep that punctuation. Frequent words are the most frequent cores of the whole
// reference file (function words: "der", "und", "the", "of"); content words are the rest.
//
// Error types and the word tagged BAD (WMT word-level QE tags, Specia et al. 2018 / Fonseca et al.
// 2019, tag an omission on the gap; with no gap tags here the word after the gap carries it):
// - dropped word: a content word (letters only, not the first or last word) is removed; BAD is the
//   word after the gap, which takes the removed word's index.
// - wrong number: one digit run of a word is replaced by another number of as many digits.
// - swapped name: a capitalised content word that the source has too (a name copied across, not
//   the first word) is replaced by such a name of another sentence.
// - wrong word: a content word that is no name is replaced by a content word of another sentence
//   with the same first-letter case (German nouns stay nouns).

export const ERROR_TYPES = ['dropped word', 'wrong number', 'swapped name', 'wrong word'];

const FREQUENT = 150;  // how many of the most frequent cores count as function words (at most 5% of them, for small files)
const ATTEMPTS = 50;   // tries to draw a replacement from another sentence before giving up

/** A deterministic PRNG in [0, 1) (mulberry32) seeded by `seed`. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `word` split into the punctuation before its core, the core, and the punctuation after. */
export function splitWord(word) {
  const lead = word.match(/^[^\p{L}\p{N}]*/u)[0];
  const rest = word.slice(lead.length);
  const trail = rest.match(/[^\p{L}\p{N}]*$/u)[0];
  return [lead, rest.slice(0, rest.length - trail.length), trail];
}

export const wordsOf = (text) => text.trim().split(/\s+/).filter(Boolean);
const coreOf = (word) => splitWord(word)[1];
const isCapitalised = (core) => /^\p{Lu}\p{L}+$/u.test(core);
const pick = (rng, list) => list[Math.floor(rng() * list.length)];

/** What corrupting a reference needs to know about the whole file. */
function vocabulary(sources, references) {
  const counts = new Map();
  for (const r of references) for (const w of wordsOf(r)) {
    const c = coreOf(w).toLowerCase();
    if (c) counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  const top = Math.min(FREQUENT, Math.floor(0.05 * counts.size));
  const frequent = new Set([...counts].sort((a, b) => b[1] - a[1]).slice(0, top).map(([c]) => c));
  const isContent = (core) => /^\p{L}{2,}$/u.test(core) && !frequent.has(core.toLowerCase());
  const names = [], content = [];  // [sentence index, core]
  references.forEach((r, i) => {
    const sourceCores = new Set(wordsOf(sources[i]).map(coreOf));
    wordsOf(r).forEach((w, k) => {
      const core = coreOf(w);
      if (!isContent(core)) return;
      if (k > 0 && isCapitalised(core) && sourceCores.has(core)) names.push([i, core]);
      else content.push([i, core]);
    });
  });
  return { isContent, names, content };
}

/** A core of `pool` from a sentence other than `i`, not among `avoid`, that `fits`; null if none drawn. */
function draw(rng, pool, i, avoid, fits = () => true) {
  for (let n = 0; n < ATTEMPTS; ++n) {
    const [j, core] = pick(rng, pool);
    if (j !== i && !avoid.has(core) && fits(core)) return core;
  }
  return null;
}

const replaceCore = (word, core) => { const [lead, , trail] = splitWord(word); return lead + core + trail; };

/** One corruption of `words` of type `type`, or null when the sentence has nothing to corrupt. */
function corrupt(type, words, i, source, vocab, rng) {
  const cores = words.map(coreOf), avoid = new Set(cores);
  const sourceCores = new Set(wordsOf(source).map(coreOf));
  const isName = (k) => k > 0 && vocab.isContent(cores[k]) && isCapitalised(cores[k]) && sourceCores.has(cores[k]);
  const indices = words.map((_, k) => k);
  const swap = (k, core) => (core === null ? null
    : { words: words.map((w, m) => (m === k ? replaceCore(w, core) : w)), bad: k, original: words[k] });
  if (type === 'dropped word') {
    const k = pick(rng, indices.filter((k) => k > 0 && k < words.length - 1 && words[k] === cores[k] && vocab.isContent(cores[k])));
    return k === undefined ? null : { words: words.filter((_, m) => m !== k), bad: k, original: words[k] };
  }
  if (type === 'wrong number') {
    const k = pick(rng, indices.filter((k) => /\d/.test(words[k])));
    if (k === undefined) return null;
    const runs = [...words[k].matchAll(/\d+/g)], run = pick(rng, runs);
    const digits = run[0].length, low = digits === 1 ? 0 : 10 ** (digits - 1);
    let number;
    do number = String(low + Math.floor(rng() * (10 ** digits - low))); while (number === run[0]);
    const word = words[k].slice(0, run.index) + number + words[k].slice(run.index + digits);
    return { words: words.map((w, m) => (m === k ? word : w)), bad: k, original: words[k] };
  }
  if (type === 'swapped name') {
    const k = pick(rng, indices.filter(isName));
    return k === undefined ? null : swap(k, draw(rng, vocab.names, i, avoid));
  }
  const k = pick(rng, indices.filter((k) => k > 0 && vocab.isContent(cores[k]) && !isName(k)));
  if (k === undefined) return null;
  const upper = /^\p{Lu}/u.test(cores[k]);
  const fits = (core) => /^\p{Lu}/u.test(core) === upper && !sourceCores.has(core);
  return swap(k, draw(rng, vocab.content, i, avoid, fits));
}

/**
 * The corrupted copies of `references` (line i translating `sources[i]`): for each sentence, a list
 * of { type, text, bad, original } (one per error type that the sentence allows: ERROR_TYPES order),
 * `bad` the index of the BAD word in text's words, `original` the word it replaced or dropped.
 * Deterministic for a given `seed`.
 * @throws Error if the two lists differ in length.
 */
export function injectErrors(sources, references, seed = 1) {
  if (sources.length !== references.length) throw new Error('injectErrors: sources and references must have the same length');
  const vocab = vocabulary(sources, references);
  return references.map((reference, i) => {
    const words = wordsOf(reference);
    return ERROR_TYPES.flatMap((type, t) => {
      const c = corrupt(type, words, i, sources[i], vocab, random(seed * 1000003 + i * 8 + t));
      return c ? [{ type, text: c.words.join(' '), bad: c.bad, original: c.original }] : [];
    });
  });
}
