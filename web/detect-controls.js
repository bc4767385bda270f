// The page's language detection: the text in the box is detected as the user types (detectLanguage,
// eld's database: bindings/src/detect-language.ts) and "Detected: German" is shown beside the
// direction. When the text is surely (confidence 0.9 or more) in another language than the
// direction's source and a model translates from it, the page switches to that model (towards the
// same target language where there is one, else back to the source's) and keeps the text. Choosing
// a direction by hand overrides detection until the box is emptied, and then keeps the text too.
import { detectLanguage } from '../dist/index.js';

/** The least confidence detection switches the direction on. */
const SURE = 0.9;
/** Fewer letters than this are not detected: short text fools any detector. */
const MIN_LETTERS = 12;

const primary = (tag) => tag.split('-')[0].toLowerCase();

/**
 * Fetches the detector's data in the background (a chunk of its own, 285 KB gzipped), so that the
 * service worker keeps it and detection works offline after one visit.
 */
export function warmDetection() {
  detectLanguage('').catch(() => {});
}

/**
 * Wires detection to the box. `page` gives: models() (the direction choice's), active() (the model
 * in use), useDirection(id) (switches, keeping the text) and languageName(tag).
 * @returns { byHand(): boolean }: whether detection switched the direction for the current text, so
 *   that a choice by hand keeps the text (and from then on overrides detection).
 */
export function wireDetection(source, label, page) {
  let overridden = false, switched = false, asked = 0, timer = 0;
  async function detect() {
    const ticket = ++asked, text = source.value;
    if ((text.match(/\p{L}/gu) ?? []).length < MIN_LETTERS) return;
    let top;
    try {
      [top] = await detectLanguage(text);
    } catch {
      label.hidden = true;  // offline before the detector's data was ever fetched: no detection, the page goes on
      return;
    }
    if (ticket !== asked || !top) return;
    label.hidden = false;
    label.textContent = `Detected: ${page.languageName(top.language)}`;
    label.dataset.language = top.language;
    const now = page.active();
    if (overridden || top.confidence < SURE || !now || primary(top.language) === primary(now.sourceLang)) return;
    const from = page.models().filter((m) => primary(m.sourceLang) === primary(top.language));
    const next = from.find((m) => m.targetLang === now.targetLang) ?? from.find((m) => m.targetLang === now.sourceLang) ?? from[0];
    if (!next) return;
    switched = true;
    page.useDirection(next.id);
  }
  source.addEventListener('input', () => {
    clearTimeout(timer);
    if (source.value.trim() === '') {
      overridden = switched = false;
      label.hidden = true;
      return;
    }
    timer = setTimeout(detect, 250);
  });
  return {
    byHand() {
      const keepText = switched || overridden;
      overridden = true;
      return keepText;
    },
  };
}
