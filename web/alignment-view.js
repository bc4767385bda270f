// The alignment view: source words above, target words below, a line for every link of the word
// alignment (Translation.alignment), its width and opacity from the attention weight of the pair.
// Hovering a word highlights its links and the words at their other ends.
//
// From the keyboard the view is one Tab stop, a grid of two rows (source words, target words) as the
// WAI-ARIA Authoring Practices' grid pattern has it (https://www.w3.org/WAI/ARIA/apg/patterns/grid/,
// keyboard interaction, with a roving tabindex): Left and Right move along a row, Home and End to its
// ends, Down and Up to the other row (to a word linked to the focused one, else the nearest one). The
// focused word shows its links as hovering does; Tab leaves the view and comes back to that word.
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
  const svg = el('svg', { width, height: BOTTOM + 20, role: 'grid', 'aria-label': 'word alignment: source words, then target words' });
  const links = el('g', { class: 'links', 'aria-hidden': 'true' }, svg);
  for (const [s, t] of alignment.links) {
    const w = alignment.weights[t][s];
    const line = el('line', {
      x1: src.centres[s] + shift(src), y1: TOP + 8, x2: tgt.centres[t] + shift(tgt), y2: BOTTOM - 18,
      'stroke-width': (1 + 6 * w).toFixed(2), 'stroke-opacity': (0.35 + 0.65 * w).toFixed(2),
      class: 'link', 'data-source': s, 'data-target': t,
    }, links);
    hoverText(line, tooltip, `"${sourceWords[s]}" — "${targetWords[t]}": attention ${w.toFixed(3)}`);
  }
  const otherEnds = (side, i) => alignment.links.filter((link) => link[side === 'source' ? 0 : 1] === i)
    .map(([s, t]) => (side === 'source' ? targetWords[t] : sourceWords[s]));
  const words = (list, row, y, side) => {
    const g = el('g', { role: 'row', 'aria-label': `${side} words` }, svg);
    list.forEach((word, i) => {
      const linked = otherEnds(side, i);
      const text = el('text', { x: row.centres[i] + shift(row), y, 'text-anchor': 'middle', class: `word ${side}`,
                                'data-index': i, role: 'gridcell', tabindex: -1,
                                'aria-label': `${word}: ${linked.length ? `linked to ${linked.join(', ')}` : 'no link'}` }, g);
      text.textContent = word;
      text.addEventListener('mouseenter', () => highlight(svg, side, i));
      text.addEventListener('mouseleave', () => highlight(svg, null));
      text.addEventListener('focus', () => {
        for (const other of svg.querySelectorAll('.word[tabindex="0"]')) other.setAttribute('tabindex', '-1');
        text.setAttribute('tabindex', '0');
        highlight(svg, side, i);
      });
      text.addEventListener('blur', () => highlight(svg, null));
    });
  };
  words(sourceWords, src, TOP, 'source');
  words(targetWords, tgt, BOTTOM, 'target');
  svg.querySelector('.word')?.setAttribute('tabindex', '0');
  svg.addEventListener('keydown', (event) => {
    const next = event.target.classList?.contains('word') ? neighbour(svg, event.target, event.key, alignment.links) : null;
    if (!next) return;
    event.preventDefault();
    next.focus();
  });
  container.replaceChildren(svg);
  container.dataset.links = String(alignment.links.length);
}

/**
 * The word that `key` moves the focus to from `word`, or null for a key that does not move it: along
 * the row (ArrowLeft/Right, Home/End, staying at its ends), or to the other row (ArrowDown from the
 * source words, ArrowUp from the target words): the first word linked to this one ([source, target]
 * pairs in `links`), else the one nearest to it on screen.
 */
function neighbour(svg, word, key, links) {
  const side = word.classList.contains('source') ? 'source' : 'target';
  const row = [...svg.querySelectorAll(`.word.${side}`)], i = Number(word.dataset.index);
  if (key === 'ArrowLeft') return row[Math.max(0, i - 1)];
  if (key === 'ArrowRight') return row[Math.min(row.length - 1, i + 1)];
  if (key === 'Home') return row[0];
  if (key === 'End') return row.at(-1);
  if ((key === 'ArrowDown' && side === 'target') || (key === 'ArrowUp' && side === 'source')) return word;
  if (key !== 'ArrowDown' && key !== 'ArrowUp') return null;
  const other = [...svg.querySelectorAll(`.word.${side === 'source' ? 'target' : 'source'}`)];
  const link = links.find((l) => l[side === 'source' ? 0 : 1] === i);
  if (link) return other[link[side === 'source' ? 1 : 0]];
  const x = Number(word.getAttribute('x')), distance = (w) => Math.abs(Number(w.getAttribute('x')) - x);
  return other.reduce((best, w) => (distance(w) < distance(best) ? w : best), other[0]) ?? word;
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
