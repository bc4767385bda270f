// The cross-attention heatmap: target tokens as rows, source tokens as columns, one SVG rect per
// weight, coloured by d3's sequential Blues scale. Hovering a cell names the pair and its weight.
import { interpolateBlues } from 'd3-scale-chromatic';
import { el, hoverText } from './svg.js';

const CELL = 26;

/** A SentencePiece piece as a reader sees it: "▁Hund" -> "Hund". */
export function displayToken(piece) {
  return piece.replace(/^▁/, '') || '␣';
}

/**
 * The [T][S] weights to show: one head's rows, or with head === 'avg' the mean over heads.
 * attention is [layers][heads][T][S] (Float32Array rows).
 */
export function selectWeights(attention, layer, head) {
  const heads = attention[layer];
  if (head !== 'avg') return heads[head];
  return heads[0].map((_, t) => {
    const row = new Float32Array(heads[0][t].length);
    for (const h of heads) h[t].forEach((w, s) => { row[s] += w / heads.length; });
    return row;
  });
}

/** Draws weights [T][S] into container; tooltip is a positioned element for hover text. */
export function drawHeatmap(container, weights, sourceTokens, targetTokens, tooltip) {
  const labelWidth = 12 + 8 * Math.max(...targetTokens.map((t) => displayToken(t).length));
  const labelHeight = 12 + 7 * Math.max(...sourceTokens.map((t) => displayToken(t).length));
  const width = labelWidth + CELL * sourceTokens.length + 8;
  const height = labelHeight + CELL * targetTokens.length + 8;
  const svg = el('svg', { width, height, role: 'img', 'aria-label': 'cross-attention heatmap' });
  sourceTokens.forEach((token, s) => {
    const x = labelWidth + s * CELL + CELL / 2;
    const text = el('text', { x, y: labelHeight - 6, transform: `rotate(-55 ${x} ${labelHeight - 6})`,
                              class: token === '</s>' ? 'eos' : '' }, svg);
    text.textContent = displayToken(token);
  });
  targetTokens.forEach((token, t) => {
    const row = el('g', { class: 'row', 'data-target-index': t }, svg);
    const label = el('text', { x: labelWidth - 8, y: labelHeight + t * CELL + CELL * 0.68, 'text-anchor': 'end',
                               class: token === '</s>' ? 'eos' : '' }, row);
    label.textContent = displayToken(token);
    weights[t].forEach((w, s) => {
      const cell = el('rect', { class: 'cell', x: labelWidth + s * CELL, y: labelHeight + t * CELL, width: CELL - 1,
                                height: CELL - 1, fill: interpolateBlues(Math.sqrt(w)) }, row);
      hoverText(cell, tooltip, `"${displayToken(token)}" → "${displayToken(sourceTokens[s])}": ${w.toFixed(3)}`);
    });
  });
  drawLegend(svg, labelWidth + CELL * sourceTokens.length + 16, labelHeight, CELL * Math.min(targetTokens.length, 6));
  svg.setAttribute('width', width + 70);
  container.replaceChildren(svg);
  // A wide heatmap scrolls sideways inside its panel: the container is a Tab stop, so that the arrow
  // keys scroll it (WCAG 2.1.1; axe-core's rule scrollable-region-focusable).
  container.tabIndex = 0;
  container.setAttribute('role', 'region');
  container.setAttribute('aria-label', 'cross-attention heatmap, scrollable');
}

// A vertical colour bar from weight 0 (top) to 1 (bottom), on the same square-root scale as the cells.
function drawLegend(svg, x, y, height) {
  const steps = 20;
  for (let i = 0; i < steps; ++i) {
    el('rect', { x, y: y + (i * height) / steps, width: 12, height: height / steps + 0.5,
                 fill: interpolateBlues(Math.sqrt(i / (steps - 1))) }, svg);
  }
  for (const [w, dy] of [[0, 10], [1, height]]) {
    el('text', { x: x + 18, y: y + dy }, svg).textContent = String(w);
  }
  el('text', { x: x + 18, y: y + height / 2 + 4 }, svg).textContent = 'weight';
}
