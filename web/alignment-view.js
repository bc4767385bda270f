// The alignment view: source words above, target words below, a line for every link of the word
// alignment (Translation.alignment), its width and opacity from the attention weight of the pair.
// Hovering a word highlights its links and the words at their other ends.
import { el, hoverText } from './svg.js';

const CHAR = 8.2, GAP = 14, TOP = 24, BOTTOM = 150;

// x centre of each word when the words are laid out left to right from x0.
function layout(words, x0) {
  const centres = [];
  let x = x0;
  for (const w of words) {
    const width = w.length * CHAR;
    centres.push(x + width / 2);
    x += width + GAP;
  }
  return { centres, width: x - x0 - GAP };
}

/** Draws result's word alignment into container (an element); tooltip names a link's weight. */
export function drawAlignment(container, result, tooltip) {
  const { sourceWords, targetWords, alignment } = result;
  const src = layout(sourceWords, 0), tgt = layout(targetWords, 0);
  const width = Math.max(src.width, tgt.width) + 16;
  const shift = (row) => (width - row.width) / 2;
  const svg = el('svg', { width, height: BOTTOM + 20, role: 'img', 'aria-label': 'word alignment' });
  const links = el('g', { class: 'links' }, svg);
  for (const [s, t] of alignment.links) {
    const w = alignment.weights[t][s];
    const line = el('line', {
      x1: src.centres[s] + shift(src), y1: TOP + 8, x2: tgt.centres[t] + shift(tgt), y2: BOTTOM - 18,
      'stroke-width': (1 + 6 * w).toFixed(2), 'stroke-opacity': (0.35 + 0.65 * w).toFixed(2),
      class: 'link', 'data-source': s, 'data-target': t,
    }, links);
    hoverText(line, tooltip, `"${sourceWords[s]}" — "${targetWords[t]}": attention ${w.toFixed(3)}`);
  }
  const words = (list, row, y, side) => list.forEach((word, i) => {
    const text = el('text', { x: row.centres[i] + shift(row), y, 'text-anchor': 'middle', class: `word ${side}`,
                              'data-index': i }, svg);
    text.textContent = word;
    text.setAttribute('tabindex', '0');  // focus shows a word's links as hovering does
    text.addEventListener('mouseenter', () => highlight(svg, side, i));
    text.addEventListener('mouseleave', () => highlight(svg, null));
    text.addEventListener('focus', () => highlight(svg, side, i));
    text.addEventListener('blur', () => highlight(svg, null));
  });
  words(sourceWords, src, TOP, 'source');
  words(targetWords, tgt, BOTTOM, 'target');
  container.replaceChildren(svg);
  container.dataset.links = String(alignment.links.length);
}

// Marks the links of one word (side 'source' or 'target', index i) and their other ends as active.
function highlight(svg, side, i) {
  svg.classList.toggle('focus', side !== null);
  const ends = { source: new Set(), target: new Set() };
  for (const line of svg.querySelectorAll('.link')) {
    const on = side !== null && Number(line.dataset[side]) === i;
    line.classList.toggle('active', on);
    if (on) ends.source.add(Number(line.dataset.source)), ends.target.add(Number(line.dataset.target));
  }
  for (const word of svg.querySelectorAll('.word')) {
    const wordSide = word.classList.contains('source') ? 'source' : 'target';
    word.classList.toggle('active', ends[wordSide].has(Number(word.dataset.index)));
  }
}
