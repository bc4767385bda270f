// The per-head view: one small heatmap for every decoder layer and head, labelled with the head's
// mean attention entropy (nats): low entropy means sharp, alignment-like attention; log(S) would
// be uniform. Clicking a head shows it in the large heatmap. From the keyboard the grid is one Tab
// stop, a toolbar of buttons with a roving tabindex (WAI-ARIA Authoring Practices, toolbar pattern,
// https://www.w3.org/WAI/ARIA/apg/patterns/toolbar/): the arrow keys move along a layer (Left, Right)
// and across layers (Up, Down), Home and End to the first and last head, Enter or Space selects.
import { interpolateBlues } from 'd3-scale-chromatic';
import { meanEntropy } from '../dist/index.js';
import { el } from './svg.js';

/**
 * Draws attention [layers][heads][T][S] as a grid of small heatmaps into container;
 * onSelect(layer, head) is called when one is clicked, or chosen with Enter or Space.
 */
export function drawHeadGrid(container, attention, onSelect) {
  const t = attention[0][0].length, s = attention[0][0][0].length;
  const cell = Math.max(2, Math.min(7, Math.floor(120 / Math.max(t, s))));
  const entropies = attention.map((heads) => heads.map(meanEntropy));
  const sharpest = Math.min(...entropies.flat());
  const figures = [];
  attention.forEach((heads, l) => heads.forEach((rows, h) => {
    const figure = document.createElement('figure');
    figure.className = 'head';
    figure.dataset.layer = l;
    figure.dataset.head = h;
    figure.classList.toggle('sharpest', entropies[l][h] === sharpest);
    const label = `L${l + 1} H${h + 1} · H = ${entropies[l][h].toFixed(2)}`;
    const svg = el('svg', { width: s * cell, height: t * cell, role: 'img', 'aria-label': `layer ${l + 1} head ${h + 1}` }, figure);
    rows.forEach((row, i) => row.forEach((w, j) => {
      el('rect', { x: j * cell, y: i * cell, width: cell, height: cell, fill: interpolateBlues(Math.sqrt(w)) }, svg);
    }));
    const caption = document.createElement('figcaption');
    caption.textContent = label;
    figure.append(caption);
    // A button for keyboard and screen-reader users too: the arrow keys reach it, Enter or Space selects it.
    figure.tabIndex = figures.length === 0 ? 0 : -1;
    figure.setAttribute('role', 'button');
    figure.setAttribute('aria-label', `${label}: show layer ${l + 1}, head ${h + 1} in the heatmap`);
    figure.addEventListener('click', () => onSelect(l, h));
    figure.addEventListener('focus', () => {
      for (const other of figures) other.tabIndex = -1;
      figure.tabIndex = 0;
    });
    figure.addEventListener('keydown', (event) => {
      const i = figures.indexOf(figure), heads = attention[0].length;
      const moves = { ArrowLeft: i - 1, ArrowRight: i + 1, ArrowUp: i - heads, ArrowDown: i + heads, Home: 0, End: figures.length - 1 };
      if (event.key in moves) {
        event.preventDefault();
        figures[moves[event.key]]?.focus();  // past an edge the focus stays
      } else if (event.key === 'Enter' || event.key === ' ') {
        event.preventDefault();
        onSelect(l, h);
      }
    });
    figures.push(figure);
  }));
  container.style.gridTemplateColumns = `repeat(${attention[0].length}, max-content)`;
  container.setAttribute('role', 'toolbar');
  container.setAttribute('aria-label', 'decoder layers and heads');
  container.replaceChildren(...figures);
  return { uniform: Math.log(s), sharpest };
}
