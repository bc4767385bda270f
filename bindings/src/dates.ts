/**
 * Dates and clock times of a sentence, read as values: "14 February 2025", "February 14, 2025",
 * "14. Februar 2025", "14.02.2025" are one calendar date; "9:30 a.m.", "9.30 Uhr", "21:30" are
 * clock times. copy-through.ts compares those of the source with those of the output, so that a
 * date the model dropped ("am 2025"), a time it changed ("21.30 Uhr" for 9:30 a.m.) or one it
 * invented ("um 14 Uhr", from the date's day) is flagged, and carried.ts writes a date in the
 * target language's form for the constrained second chance. English and German; other languages
 * have none (an empty list), so nothing is flagged for them.
 *
 * Month names as CLDR writes them in full and abbreviated (Unicode CLDR, gregorian calendar,
 * format/wide and format/abbreviated), capitalised as both languages write them.
 */
import { core } from './numbers.js';

/** A calendar date; `day` or `year` absent where the text leaves it out ("February 2025", "14 February"). */
export interface CalendarDate {
  day?: number;
  /** 1 to 12. */
  month: number;
  year?: number;
}

/**
 * A clock time in minutes since midnight (NaN for one that names no time, "17 p.m."); `twelveHour`:
 * written without a.m./p.m. on a 12-hour clock, so also 720 minutes later.
 */
export interface ClockTime {
  minutes: number;
  twelveHour: boolean;
}

/** A date or time of a sentence: its text, where it is (whitespace-separated words), and its value. */
export interface Mention {
  kind: 'date' | 'time';
  /** The words it spans, joined by single spaces, without wrapping punctuation at either end. */
  text: string;
  /** Index of its first word, and how many words it spans. */
  word: number;
  words: number;
  date?: CalendarDate;
  time?: ClockTime;
}

const MONTHS: Record<string, string[][]> = {
  en: [['January', 'Jan'], ['February', 'Feb'], ['March', 'Mar'], ['April', 'Apr'], ['May'], ['June', 'Jun'],
       ['July', 'Jul'], ['August', 'Aug'], ['September', 'Sep', 'Sept'], ['October', 'Oct'], ['November', 'Nov'],
       ['December', 'Dec']],
  de: [['Januar', 'Jan', 'Jänner'], ['Februar', 'Feb'], ['März', 'Mär', 'Mrz'], ['April', 'Apr'], ['Mai'], ['Juni', 'Jun'],
       ['Juli', 'Jul'], ['August', 'Aug'], ['September', 'Sep', 'Sept'], ['Oktober', 'Okt'], ['November', 'Nov'],
       ['Dezember', 'Dez']],
};

const base = (lang: string) => lang.split('-')[0];

/** The month (1 to 12) a word names in `lang` (in full or abbreviated, with wrapping punctuation), or 0. */
export function monthOf(word: string | undefined, lang: string): number {
  if (word === undefined) return 0;
  const c = core(word);
  const k = (MONTHS[base(lang)] ?? []).findIndex((names) => names.includes(c));
  return k + 1;
}

const DAY = /^(\d{1,2})(?:st|nd|rd|th)?$/;
const YEAR = /^(1\d{3}|2\d{3})$/;
const day = (word: string | undefined, pattern = DAY) => {
  const m = word === undefined ? null : pattern.exec(core(word));
  const d = m ? Number(m[1]) : 0;
  return d >= 1 && d <= 31 ? d : 0;
};
const year = (word: string | undefined) => (word !== undefined && YEAR.test(core(word)) ? Number(core(word)) : undefined);

// A date starting at word i of English text, and the number of words it spans.
function englishDate(words: readonly string[], i: number): [CalendarDate, number] | null {
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(core(words[i]));
  if (iso) return [{ year: Number(iso[1]), month: Number(iso[2]), day: Number(iso[3]) }, 1];
  const d = day(words[i]);
  const of = d && core(words[i + 1] ?? '') === 'of' ? 1 : 0;
  const month = monthOf(words[i + 1 + of], 'en');
  if (d && month) {
    const y = year(words[i + 2 + of]);
    return [{ day: d, month, ...(y ? { year: y } : {}) }, 2 + of + (y ? 1 : 0)];
  }
  const m = monthOf(words[i], 'en');
  if (!m) return null;
  const dd = day(words[i + 1]);
  if (dd) {
    const y = /,$/.test(words[i + 1]) ? year(words[i + 2]) : undefined;
    return [{ day: dd, month: m, ...(y ? { year: y } : {}) }, 2 + (y ? 1 : 0)];
  }
  const y = year(words[i + 1]);
  return y ? [{ month: m, year: y }, 2] : null;
}

// A date starting at word i of German text ("14. Februar 2025", "14.02.2025", "14.2.", "Februar 2025").
function germanDate(words: readonly string[], i: number): [CalendarDate, number] | null {
  const raw = words[i].replace(/^[("„‚'«»]+|[)"“‘'«»,;:!?]+$/g, '');
  const numeric = /^(\d{1,2})\.(\d{1,2})\.(?:(\d{4}|\d{2})\.?)?$/.exec(raw);  // a full stop may end the sentence
  if (numeric && Number(numeric[2]) >= 1 && Number(numeric[2]) <= 12 && Number(numeric[1]) >= 1 && Number(numeric[1]) <= 31) {
    const y = numeric[3] === undefined ? undefined : Number(numeric[3].length === 2 ? `20${numeric[3]}` : numeric[3]);
    return [{ day: Number(numeric[1]), month: Number(numeric[2]), ...(y ? { year: y } : {}) }, 1];
  }
  // "24. September", and "24 September" as some write it.
  const d = /^\d{1,2}\.?$/.test(raw) && monthOf(words[i + 1], 'de') ? day(raw.replace(/\.$/, '')) : 0;
  const month = monthOf(words[i + (d ? 1 : 0)], 'de');
  if (!month) return null;
  const y = year(words[i + (d ? 2 : 1)]);
  if (!d && !y) return null;
  return [{ ...(d ? { day: d } : {}), month, ...(y ? { year: y } : {}) }, (d ? 2 : 1) + (y ? 1 : 0)];
}

const MERIDIEM = /^(?:(a|p)\.?m\.?)$/i;

// A clock time starting at word i, and the number of words it spans. English: 9:30, 9:30 a.m.,
// 9am, 9 p.m., 9 o'clock; German: 9:30, 9.30 Uhr, 9 Uhr, 21:30.
function clockTime(words: readonly string[], i: number, lang: string): [ClockTime, number] | null {
  const c = core(words[i]);
  const next = core(words[i + 1] ?? '');
  const german = base(lang) === 'de';
  const m = /^(\d{1,2})(?:([:.])(\d{2}))?(?:\s*(a|p)\.?m\.?)?$/i.exec(c);
  if (!m) return null;
  const [hours, minutes] = [Number(m[1]), Number(m[3] ?? 0)];
  const suffix = m[4] ?? MERIDIEM.exec(next)?.[1];
  const uhr = german && next === 'Uhr';
  const oclock = !german && /^o['’]clock$/.test(next);
  const separated = m[2] === ':' || (m[2] === '.' && uhr);  // German 9.30 is a time only before Uhr
  if (!(separated || suffix || uhr || oclock) || hours > 23 || minutes > 59) return null;
  const spans = 1 + (!m[4] && (suffix || uhr || oclock) ? 1 : 0);
  if (suffix) {
    if (hours < 1 || hours > 12) return [{ minutes: NaN, twelveHour: false }, spans];  // "17 p.m.": no time of day
    return [{ minutes: ((hours % 12) + (suffix.toLowerCase() === 'p' ? 12 : 0)) * 60 + minutes, twelveHour: false }, spans];
  }
  return [{ minutes: hours * 60 + minutes, twelveHour: !german && hours <= 12 }, spans];
}

/**
 * The dates and clock times of a sentence, in order, none overlapping.
 * @param words the sentence's whitespace-separated words (Translation.sourceWords or targetWords)
 * @param lang the sentence's language; only English and German are read (others: [])
 */
export function mentionsOf(words: readonly string[], lang: string): Mention[] {
  const readDate = base(lang) === 'en' ? englishDate : base(lang) === 'de' ? germanDate : null;
  if (!readDate) return [];
  const out: Mention[] = [];
  for (let i = 0; i < words.length;) {
    const date = readDate(words, i);
    const time = date ? null : clockTime(words, i, lang);
    const n = date?.[1] ?? time?.[1] ?? 0;
    if (n === 0) {
      ++i;
      continue;
    }
    const text = words.slice(i, i + n).join(' ').replace(/^[\s"'“”„‚‘’«»(]+|[\s"'“”„‚‘’«»),;:!?]+$/g, '');
    out.push(date ? { kind: 'date', text, word: i, words: n, date: date[0] } : { kind: 'time', text, word: i, words: n, time: time![0] });
    i += n;
  }
  return out;
}

/** Whether two mentions name the same date or time (a 12-hour time without a.m./p.m. matches either half of the day). */
export function sameMention(a: Mention, b: Mention): boolean {
  if (a.date && b.date) return a.date.month === b.date.month && a.date.day === b.date.day && a.date.year === b.date.year;
  if (!a.time || !b.time) return false;
  const day = 24 * 60;
  return a.time.minutes === b.time.minutes ||
    ((a.time.twelveHour || b.time.twelveHour) && (a.time.minutes + 720) % day === b.time.minutes % day) ||
    ((a.time.twelveHour || b.time.twelveHour) && (b.time.minutes + 720) % day === a.time.minutes % day);
}

/**
 * A date as `lang` writes it in running text: CLDR's long form by Intl.DateTimeFormat (ECMA-402),
 * "14. Februar 2025", and for English the British order, "14 February 2025" (day, month, year, as
 * a German source has it); without day or year where the date has none. Null for a language whose
 * dates are not read here.
 */
export function dateForm(date: CalendarDate, lang: string): string | null {
  if (!MONTHS[base(lang)]) return null;
  const format = new Intl.DateTimeFormat(base(lang) === 'en' ? 'en-GB' : lang, {
    timeZone: 'UTC', month: 'long', ...(date.day === undefined ? {} : { day: 'numeric' }),
    ...(date.year === undefined ? {} : { year: 'numeric' }),
  });
  return format.format(new Date(Date.UTC(date.year ?? 2000, date.month - 1, date.day ?? 1)));
}

/**
 * A clock time as `lang` writes it: German on the 24-hour clock, "20" or "20:30" (before "Uhr"),
 * English on the 12-hour clock, "8" or "8:30", and "p.m." or "a.m." after it.
 * @returns the number and the word after it
 */
export function timeForm(time: ClockTime, lang: string): { number: string; after: string } {
  const [hours, minutes] = [Math.floor(time.minutes / 60), time.minutes % 60];
  const mm = minutes === 0 ? '' : `:${String(minutes).padStart(2, '0')}`;
  if (base(lang) === 'de') return { number: `${hours}${mm}`, after: 'Uhr' };
  return { number: `${hours % 12 === 0 ? 12 : hours % 12}${mm}`, after: hours < 12 ? 'a.m.' : 'p.m.' };
}
