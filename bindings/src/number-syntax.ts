/**
 * Whether a number is written as its language writes numbers, and which currency a price names.
 * copy-through.ts repairs a number only when the repaired word passes illFormedNumbers, and flags
 * the numbers of an output that do not ("$,299,99.99": a separator with no digit before it, and a
 * German number with two decimal commas).
 *
 * The rules are the grouping and decimal separators of CLDR's number symbols (Unicode CLDR,
 * numbers/symbols: English "," groups and "." decimals; German "." groups and "," decimals), as
 * Intl.NumberFormat writes them: a group separator is followed by exactly three digits, and the
 * decimal separator comes once, after the groups.
 */
import { core } from './numbers.js';

/** A digit run with its separators, a separator before the first digit included ("$,299"). */
const NUMBER_WITH_SEPARATORS = /[.,]*\d+(?:[.,:]+\d+)*/g;

const SEPARATORS: Record<string, { group: string; decimal: string }> = {
  en: { group: ',', decimal: '.' },
  de: { group: '.', decimal: ',' },
};

/** Whether one number (digits and single separators, none at either end) is well formed in `lang`. */
function wellFormed(number: string, lang: string): boolean {
  const symbols = SEPARATORS[lang.split('-')[0]];
  if (!symbols || number.includes(':')) return true;  // a time or a ratio (9:30, 16:9), as written
  const { group, decimal } = symbols;
  const g = group === '.' ? '\\.' : ',';
  const d = decimal === '.' ? '\\.' : ',';
  if (number.includes(group) && number.includes(decimal)) return new RegExp(`^\\d{1,3}(?:${g}\\d{3})+${d}\\d+$`).test(number);
  if (number.includes(decimal)) return decimal === '.' || number.split(decimal).length === 2;  // English 3.1.6 is a version
  if (!number.includes(group)) return true;
  // Group separators only: English 1,299 groups; German 1.299 groups, and 14.02.2025, 1.5 and 3.10
  // are dates and versions as often as numbers.
  return group === '.' || new RegExp(`^\\d{1,3}(?:${g}\\d{3})+$`).test(number);
}

/**
 * The numbers of `word` that are not well formed in `lang`: a separator before the first digit
 * or two in a row ("$,299", "1,,5"), a group separator not followed by three digits or after the
 * decimal separator ("299,99.99" in German; "1,5" in English), or two decimal separators.
 * Sentence punctuation after the number is not part of it ("2025." and "1,5," are well formed).
 * Languages without rules here: [].
 */
export function illFormedNumbers(word: string, lang: string): string[] {
  const text = core(word);
  return [...text.matchAll(NUMBER_WITH_SEPARATORS)].filter((m) => {
    const n = m[0];
    // A separator with no digit before it, unless it ends an abbreviation (German "Nr.1").
    if (/^[.,]/.test(n) && !/\p{L}/u.test(text[m.index! - 1] ?? '')) return true;
    if (/[.,:]{2}/.test(n)) return true;
    return !wellFormed(n.replace(/^[.,]+/, ''), lang);
  }).map((m) => m[0]);
}

/** Currencies by ISO 4217 code: the symbols and the English and German words that name them. */
const CURRENCIES: Record<string, string[]> = {
  USD: ['$', 'US$', 'USD', 'dollar', 'dollars', 'Dollar', 'US-Dollar', 'Dollars'],
  EUR: ['€', 'EUR', 'euro', 'euros', 'Euro', 'Euros'],
  GBP: ['£', 'GBP', 'pound', 'pounds', 'Pfund', 'sterling'],
  JPY: ['¥', 'JPY', 'yen', 'Yen'],
  CHF: ['CHF', 'Franken', 'francs'],
};

// The currency a token names: a whole word of CURRENCIES, or a symbol at either end of a number ("$5", "5€").
function currencyIn(token: string): string | null {
  const c = core(token);
  for (const [code, names] of Object.entries(CURRENCIES)) {
    if (names.includes(c)) return code;
    if (names.some((n) => n.length <= 3 && !/^[A-Za-z]/.test(n) && (c.startsWith(n) || c.endsWith(n)) && /\d/.test(c))) return code;
  }
  return null;
}

/**
 * The currency of the number in word `i`: its own symbol ("$1,299.99", "5€"), else that of the
 * word just before or after it ("USD 5", "5 €", "5 euros"); null when it names none.
 * @returns an ISO 4217 code of CURRENCIES
 */
export function currencyAt(words: readonly string[], i: number): string | null {
  return currencyIn(words[i]) ?? (words[i - 1] === undefined ? null : currencyIn(words[i - 1])) ??
    (words[i + 1] === undefined ? null : currencyIn(words[i + 1]));
}

/** The symbol of currency `code` (ISO 4217, as currencyAt returns): "$", "€"; its code where it has none here. */
export function currencySymbol(code: string): string {
  return CURRENCIES[code]?.[0] ?? code;
}

/** Whether any word of `words` names the currency `code` (ISO 4217, as currencyAt returns). */
export function namesCurrency(words: readonly string[], code: string): boolean {
  return words.some((w) => currencyIn(w) === code);
}
