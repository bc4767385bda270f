// The per-head view: one small heatmap for every decoder layer and head, labelled with the head's
// mean attention entropy (nats): low entropy means sharp, alignment-like attention; log(S) would
// be uniform. Clicking a head shows it in the large heatmap.
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
    // A button for keyboard and screen-reader users too: Tab reaches it, Enter or Space selects it.
    figure.tabIndex = 0;
    figure.setAttribute('role', 'button');
    figure.setAttribute('aria-label', `${label}: show layer ${l + 1}, head ${h + 1} in the heatmap`);
    figure.addEventListener('click', () => onSelect(l, h));
    figure.addEventListener('keydown', (event) => {
      if (event.key !== 'Enter' && event.key !== ' ') return;
      event.preventDefault();
      onSelect(l, h);
    });
    figures.push(figure);
  }));
  container.style.gridTemplateColumns = `repeat(${attention[0].length}, max-content)`;
  container.replaceChildren(...figures);
  return { uniform: Math.log(s), sharpest };
}
