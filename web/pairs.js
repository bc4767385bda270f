// The language pairs the page can download (models/pairs.json, written by tools/pairs-catalog.js from
// OPUS-MT's and Firefox Translations' repositories), listed in the direction choice after the models
// that are ready: an OPUS-MT model by its Hub id, a Firefox model by its files and size. Choosing one
// downloads and converts it (hub-controls.js); the list is optional: without it, the page offers the
// models it ships and the ones opened here.
const PAIRS_URL = new URL('../models/pairs.json', import.meta.url);
const KINDS = {
  'opus-mt': 'Download: OPUS-MT models from the Hugging Face Hub (CC BY 4.0)',
  firefox: 'Download: Firefox Translations models (MPL 2.0)',
};

/** models/pairs.json's pairs, [] when it cannot be read. */
export async function loadPairs() {
  try {
    const response = await fetch(PAIRS_URL);
    return response.ok ? (await response.json()).pairs.filter((p) => KINDS[p.kind] && (p.id || p.files?.length)) : [];
  } catch {
    return [];
  }
}

/** The value a pair's option carries in the direction choice. */
export const pairValue = (index) => `download:${index}`;

/** The pair an option value names, or undefined. */
export function pairOf(pairs, value) {
  const m = /^download:(\d+)$/.exec(value);
  return m ? pairs[Number(m[1])] : undefined;
}

/**
 * One optgroup per kind of pair, each pair labelled by its languages (`name(code)`), its published
 * score and, where the list knows it, its download size; sorted by label.
 */
export function pairGroups(pairs, name, megabytes) {
  return Object.entries(KINDS).map(([kind, label]) => {
    const group = document.createElement('optgroup');
    group.label = label;
    const options = pairs.map((p, i) => [p, i]).filter(([p]) => p.kind === kind).map(([p, i]) => {
      const details = [p.size ? megabytes(p.size) : null, p.score ? `${p.score.metric} ${p.score.value} on ${p.score.testset}` : null];
      return new Option(`${name(p.sourceLang)} → ${name(p.targetLang)} (${details.filter(Boolean).join(', ') || kind})`, pairValue(i));
    });
    group.append(...options.sort((a, b) => a.text.localeCompare(b.text)));
    return group;
  }).filter((g) => g.children.length > 0);
}
