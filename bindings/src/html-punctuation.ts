/**
 * Punctuation and inline elements in HTML translation (html.ts, step 5): punctuation stays on the
 * side of an element it was on in the source. The model writes punctuation glued to a word
 * ("Einstellungen."), and the alignment links whole words, so each target word is cut into units
 * (leading punctuation, core, trailing punctuation) and an element's span of target words becomes
 * a span of units that leaves out the punctuation its source text did not hold: "Open the
 * <a>settings</a>." → "Öffnen Sie die <a>Einstellungen</a>.", while "<a>settings.</a>" keeps it.
 */

/** A piece of a target word: its leading punctuation, its core or its trailing punctuation. */
export interface Unit {
  text: string;
  kind: 'leading' | 'core' | 'trailing';
  wordStart: boolean;  // the first unit of its word: a space goes before it
}

/** What placeUnits reads and sets of an inline element (html.ts, Item). */
export interface Spanned {
  parent: number;          // enclosing element's index, -1 for none; parents come first
  span: [number, number];  // target words [a, b), turned into target units
  ownsLeading: boolean;    // its source text begins with LEADING punctuation
  ownsTrailing: boolean;   // its source text ends with TRAILING punctuation
}

/** Punctuation that ends a word (sentence punctuation, closing brackets and quotes). */
export const TRAILING = /[.,;:!?…)\]}»›"'“”’]+$/u;
/** Punctuation that begins a word (opening brackets and quotes, Spanish ¿ ¡). */
export const LEADING = /^[(\[{«‹"'„“‘¿¡]+/u;

/**
 * The target words cut into units: leading punctuation, core, trailing punctuation (a word of
 * punctuation alone is one core unit). `first[w]` is the index of word w's first unit, and
 * `first[words.length]` the number of units.
 */
export function cutWords(words: string[]): { units: Unit[]; first: number[] } {
  const units: Unit[] = [], first: number[] = [];
  for (const word of words) {
    first.push(units.length);
    const leading = LEADING.exec(word)?.[0] ?? '';
    const trailing = TRAILING.exec(word.slice(leading.length))?.[0] ?? '';
    const core = word.slice(leading.length, word.length - trailing.length);
    if (core === '') {
      units.push({ text: word, kind: 'core', wordStart: true });
      continue;
    }
    if (leading) units.push({ text: leading, kind: 'leading', wordStart: true });
    units.push({ text: core, kind: 'core', wordStart: !leading });
    if (trailing) units.push({ text: trailing, kind: 'trailing', wordStart: false });
  }
  first.push(units.length);
  return { units, first };
}

/**
 * Turns the items' spans of target words (placeItems) into spans of target units (cutWords): an
 * item that does not own its leading or trailing punctuation leaves that unit of its first or
 * last word out. Items come parents first; each is clipped to its parent's units again.
 */
export function placeUnits(items: Spanned[], units: Unit[], first: number[]) {
  for (const item of items) {
    const [a, b] = item.span;
    let ua = first[a], ub = first[b];
    if (b > a) {
      if (!item.ownsLeading && units[ua].kind === 'leading') ua++;
      if (!item.ownsTrailing && units[ub - 1].kind === 'trailing') ub--;
    }
    const [lo, hi] = item.parent >= 0 ? items[item.parent].span : [0, units.length];
    ua = Math.min(Math.max(ua, lo), hi);
    item.span = [ua, Math.min(Math.max(ub, ua), hi)];
  }
}
