/**
 * Numbers, times, URLs, e-mail addresses, code-like tokens and names of a source sentence: what a
 * translation must carry through unchanged or localised. Pure functions of
 * strings; copy-through.ts uses them to repair a translation through its word alignment, and
 * tools/internals/number-consistency.js to measure how many the output keeps.
 *
 * A number is a maximal run of digits joined by single `.`, `,` or `:` (NUMBER below), read in the
 * source language's conventions (English 1,000.5; German 1.000,5) and written for the target
 * language with Intl.NumberFormat (ECMA-402), as CLDR has it. A time (9:30, German 9.30) keeps its
 * digits; a 12-hour time followed by p.m. may also be written on the 24-hour clock (21:30).
 */

/** A maximal digit run with single `.` `,` `:` separators between digit groups. */
const NUMBER = /\d+(?:[.,:]\d+)*/g;
const EMAIL = /^[\w.+-]+@[\w-]+(?:\.[\w-]+)+$/;
const URL_LIKE = /^(?:[a-z][a-z0-9+.-]*:\/\/|www\.)\S+$/i;
// Code-like: an option (--save-dev, -rf; not German "-gruppen", the end of "Steuerraten und -gruppen"),
// snake_case, camelCase, a call (f()), a path (src/a.ts).
const CODE_LIKE = /^(?:--[a-z][\w-]*|-[a-z]{1,3}|\w*[a-z]_\w+|[a-z]+[A-Z]\w*|\w+\(\)|[\w-]+(?:\/[\w.-]+)+\.\w+)$/;
/** Punctuation that may wrap a word without belonging to it. */
const WRAPPING = /^[\s"'“”„‚‘’«»‹›()[\]{}¡¿]+|[\s"'“”„‚‘’«»‹›()[\]{}.,;:!?…]+$/g;

export type SpanKind = 'number' | 'time' | 'url' | 'email' | 'code' | 'name';

/** Something of the source that the output must carry: `forms` are the ways the target may write it, `preferred` first. */
export interface CarrySpan {
  kind: SpanKind;
  /** The source's own text of it (a number: its digits and separators). */
  text: string;
  /** Index of the source word (whitespace-separated) it is in. */
  word: number;
  /** Accepted target forms; forms[0] is what a repair writes. */
  forms: string[];
}

/** `word` without the quotes, brackets and sentence punctuation around it. */
export function core(word: string): string {
  return word.replace(WRAPPING, '');
}

/** The numbers of `text` in order: maximal digit runs with their separators (NUMBER). */
export function numbersOf(text: string): string[] {
  return text.match(NUMBER) ?? [];
}

/**
 * Numbers 0 to 12 in words, which style guides write out in running text: [value][forms]. The
 * German article (ein, eine, ...) is left out: it would count every "a" as a kept "1".
 */
const NUMBER_WORDS: Record<string, string[][]> = {
  en: ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'].map((w) => [w]),
  de: [['null'], ['eins'], ['zwei'], ['drei'], ['vier'], ['fünf'], ['sechs'],
       ['sieben'], ['acht'], ['neun'], ['zehn'], ['elf'], ['zwölf']],
};

/**
 * The numbers of an output text in `lang`: its digit runs (numbersOf) and, lower-cased, its
 * number words from 0 to 12 (NUMBER_WORDS), in order.
 */
export function numberTokens(text: string, lang: string): string[] {
  const words = new Set((NUMBER_WORDS[lang.split('-')[0]] ?? []).flat());
  return text.split(/\s+/).flatMap((w) => {
    const c = core(w).toLowerCase();
    return words.has(c) ? [c] : numbersOf(w);
  });
}

/** Hours and minutes of a clock time (9:30; German also 9.30), or null. */
function isTime(text: string, sourceLang: string): { hours: number; minutes: string } | null {
  const m = /^(\d{1,2})([:.])(\d{2})$/.exec(text);
  if (!m || (m[2] === '.' && sourceLang !== 'de') || Number(m[1]) > 23 || Number(m[3]) > 59) return null;
  return { hours: Number(m[1]), minutes: m[3] };
}

// The value and decimals of a number written in `lang`'s conventions, or null when it is not one
// formatted number (a time, a date, a version, a bare integer keep their digits as they are).
function parseFormatted(text: string, lang: string): { value: number; decimals: number; grouped: boolean } | null {
  const [group, decimal] = lang === 'de' ? ['.', ','] : [',', '.'];
  const g = group === '.' ? '\\.' : ',';
  const d = decimal === '.' ? '\\.' : ',';
  const m = new RegExp(`^(\\d{1,3}(?:${g}\\d{3})+|\\d+)(?:${d}(\\d+))?$`).exec(text);
  if (!m || (!m[1].includes(group) && m[2] === undefined)) return null;
  const value = Number(`${m[1].split(group).join('')}.${m[2] ?? '0'}`);
  return { value, decimals: m[2]?.length ?? 0, grouped: m[1].includes(group) };
}

// Intl.NumberFormat objects by language and options: building one costs more than formatting with it.
const formats = new Map<string, Intl.NumberFormat>();
function numberFormat(lang: string, options: Intl.NumberFormatOptions = {}): Intl.NumberFormat {
  const key = `${lang} ${JSON.stringify(options)}`;
  let format = formats.get(key);
  if (format === undefined) formats.set(key, format = new Intl.NumberFormat(lang, options));
  return format;
}

/**
 * The forms a number of the source (in `sourceLang`'s conventions) may take in `targetLang`,
 * preferred first: a formatted number localised by Intl.NumberFormat (1,000.5 → 1.000,5 for
 * German), a time with either separator (9:30, 9.30; with `pm`, also 21:30), anything else as it
 * is, a bare integer of five or more digits also grouped, and one from 0 to 12 also in words
 * (NUMBER_WORDS: "3 months" → "drei Monaten" keeps the number).
 */
export function numberForms(text: string, sourceLang: string, targetLang: string, pm = false): string[] {
  const key = `${text} ${sourceLang} ${targetLang} ${pm}`;
  let forms = knownForms.get(key);
  if (forms === undefined) {
    if (knownForms.size >= 4096) knownForms.clear();
    knownForms.set(key, forms = formsOf(text, sourceLang, targetLang, pm));
  }
  return [...forms];
}

// numberForms's answers so far: a translation's checks and repairs ask for each number's forms
// several times, and formatting with Intl costs microseconds each time.
const knownForms = new Map<string, readonly string[]>();

function formsOf(text: string, sourceLang: string, targetLang: string, pm: boolean): string[] {
  const time = isTime(text, sourceLang);
  if (time) {
    const hours = pm && time.hours < 12 ? [time.hours + 12, time.hours] : [time.hours];
    return hours.flatMap((h) => [':', '.'].map((s) => `${h}${s}${time.minutes}`));
  }
  const parsed = parseFormatted(text, sourceLang);
  if (parsed) {
    const format = (grouping: boolean) => numberFormat(targetLang, {
      minimumFractionDigits: parsed.decimals, maximumFractionDigits: parsed.decimals, useGrouping: grouping,
    }).format(parsed.value);
    return [...new Set([format(parsed.grouped), format(!parsed.grouped)])];
  }
  const words = NUMBER_WORDS[targetLang.split('-')[0]];
  if (/^\d+$/.test(text) && Number(text) <= 12 && words) return [text, ...words[Number(text)]];
  if (/^\d{5,}$/.test(text)) return [text, numberFormat(targetLang).format(Number(text))];
  if (/^\d{4}$/.test(text)) return [text, numberFormat(targetLang, { useGrouping: true }).format(Number(text))];
  return [text];
}

/**
 * What of the source sentence the output must carry, in source order: each number of every word
 * (with its target forms, numberForms), and each URL, e-mail address and code-like token (forms:
 * itself). Names are not included here (see names()).
 * @param words the source's whitespace-separated words (Translation.sourceWords)
 */
export function carrySpans(words: readonly string[], sourceLang: string, targetLang: string): CarrySpan[] {
  const spans: CarrySpan[] = [];
  words.forEach((word, i) => {
    const c = core(word);
    const kind: SpanKind | null = EMAIL.test(c) ? 'email' : URL_LIKE.test(c) ? 'url' : CODE_LIKE.test(c) ? 'code' : null;
    if (kind) {
      spans.push({ kind, text: c, word: i, forms: [c] });
      return;
    }
    const pm = /^p\.?m\.?$/i.test(core(words[i + 1] ?? '')) || /\dpm$/i.test(c);
    for (const n of numbersOf(word)) {
      const forms = numberForms(n, sourceLang, targetLang, pm);
      spans.push({ kind: isTime(n, sourceLang) ? 'time' : 'number', text: n, word: i, forms });
    }
  });
  return spans;
}

/**
 * Capitalised words inside a sentence (not its first word, nor the first after . ! ? or a
 * colon), without their wrapping punctuation: the candidates for names that carry unchanged.
 * Returns their source word indices and text.
 */
export function capitalisedWords(words: readonly string[]): { word: number; text: string }[] {
  const out: { word: number; text: string }[] = [];
  words.forEach((word, i) => {
    const c = core(word);
    const first = i === 0 || /[.!?:]["'”’»)]*$/.test(words[i - 1]);
    if (!first && /^\p{Lu}[\p{L}\p{M}'’-]*\p{Ll}[\p{L}\p{M}'’-]*$/u.test(c) && c.length > 1) out.push({ word: i, text: c });
  });
  return out;
}

/**
 * Number consistency of one output: how many of the source's numbers (carrySpans of kind number
 * and time) the output contains in one of their forms, each output number (numberTokens) counted
 * once. tools/internals/number-consistency.js sums it over a test set.
 */
export function numbersKept(sourceWords: readonly string[], output: string, sourceLang: string,
                            targetLang: string): { found: number; total: number } {
  const spans = carrySpans(sourceWords, sourceLang, targetLang).filter((s) => s.kind === 'number' || s.kind === 'time');
  const left = numberTokens(output, targetLang);
  let found = 0;
  for (const s of spans) {
    const k = left.findIndex((n) => s.forms.includes(n));
    if (k >= 0) left.splice(k, 1), ++found;
  }
  return { found, total: spans.length };
}
