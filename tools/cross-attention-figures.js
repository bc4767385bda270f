#!/usr/bin/env node
// Figures and numbers for docs/cross-attention.md, made from a shipped model by the library itself:
//   node tools/cross-attention-figures.js [--model FILE] [--out DIR]
// Writes DIR/heatmap.svg (the averaged attention of the last two decoder layers with the word
// alignment marked), DIR/heads.svg (every layer and head with its mean entropy) and
// DIR/residual.svg (|x|, |u| and cos(x, u) per decoder layer), and prints the numbers as Markdown.
import { mkdirSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { interpolateBlues } from 'd3-scale-chromatic';
import { Translator, meanEntropy as entropy } from '../dist/index.js';
import { readLines } from './bleu.js';

const { values: args } = parseArgs({
  options: {
    model: { type: 'string', default: new URL('../models/multi30k-en-de/multi30k-en-de.crossattn', import.meta.url).pathname },
    out: { type: 'string', default: new URL('../docs/figures', import.meta.url).pathname },
    data: { type: 'string', default: new URL('../../shared/data', import.meta.url).pathname },
  },
});
const SENTENCE = 'A man in a blue shirt is riding a bicycle.';
const translator = await Translator.load(args.model);
const { decoderLayers, nHeads } = translator.config;
const r = await translator.translate(SENTENCE, { attention: true, alignment: true, residual: true });

const escape = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
const token = (p) => escape(p.replace(/^▁/, '') || '␣');
const svg = (w, h, body) => `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" font-family="sans-serif" font-size="12">\n${body}</svg>\n`;
const mean = (a) => a.reduce((x, y) => x + y, 0) / a.length;

// heatmap.svg: words, weights [targetWords][sourceWords], links outlined.
function heatmap() {
  const { weights, links } = r.alignment, cell = 30, left = 90, top = 80;
  const linked = new Set(links.map(([s, t]) => `${s}-${t}`));
  let body = '';
  r.sourceWords.forEach((w, s) => {
    const x = left + s * cell + cell / 2;
    body += `<text x="${x}" y="${top - 6}" transform="rotate(-50 ${x} ${top - 6})">${escape(w)}</text>\n`;
  });
  weights.forEach((row, t) => {
    body += `<text x="${left - 6}" y="${top + t * cell + cell * 0.65}" text-anchor="end">${escape(r.targetWords[t])}</text>\n`;
    row.forEach((w, s) => {
      const stroke = linked.has(`${s}-${t}`) ? ' stroke="#d62728" stroke-width="2.5"' : '';
      body += `<rect x="${left + s * cell}" y="${top + t * cell}" width="${cell - 1}" height="${cell - 1}" fill="${interpolateBlues(Math.sqrt(w))}"${stroke}/>\n`;
    });
  });
  return svg(left + cell * r.sourceWords.length + 10, top + cell * weights.length + 10, body);
}

// heads.svg: a grid of small token-level heatmaps, layers as rows, heads as columns.
function heads() {
  const t = r.targetTokens.length, s = r.sourceTokens.length, cell = 6, w = s * cell + 30, h = t * cell + 30;
  let body = '';
  r.crossAttention.forEach((layer, l) => layer.forEach((rows, k) => {
    const x0 = 10 + k * w, y0 = 10 + l * h;
    rows.forEach((row, i) => row.forEach((p, j) => {
      body += `<rect x="${x0 + j * cell}" y="${y0 + i * cell}" width="${cell}" height="${cell}" fill="${interpolateBlues(Math.sqrt(p))}"/>`;
    }));
    body += `\n<text x="${x0}" y="${y0 + t * cell + 14}">L${l + 1} H${k + 1} · H=${entropy(rows).toFixed(2)}</text>\n`;
  }));
  return svg(10 + nHeads * w, 10 + decoderLayers * h, body);
}

// residual.svg: per layer, |x| and |u| per target position as paired bars, cos(x, u) as a dot.
function residual() {
  const { inputNorm, updateNorm, cosine } = r.residual;
  const t = r.targetTokens.length, bar = 7, group = 2 * bar + 6, height = 120, top = 20;
  const max = Math.max(...inputNorm.flatMap((a) => Array.from(a)));
  const panel = t * group + 40;
  let body = `<text x="10" y="14">|x| (grey), |u| (blue), cos(x, u) (red dot, axis 0..1 on the right of each panel)</text>\n`;
  inputNorm.forEach((xs, l) => {
    const x0 = 10 + l * panel;
    body += `<text x="${x0}" y="${top + height + 28}">decoder layer ${l + 1}</text>\n`;
    for (let i = 0; i < t; ++i) {
      const hx = (height * xs[i]) / max, hu = (height * updateNorm[l][i]) / max, x = x0 + i * group;
      body += `<rect x="${x}" y="${top + height - hx}" width="${bar}" height="${hx}" fill="#9aa3b2"/>`;
      body += `<rect x="${x + bar}" y="${top + height - hu}" width="${bar}" height="${hu}" fill="#2d5bd1"/>`;
      body += `<circle cx="${x + bar}" cy="${top + height - height * Math.max(0, cosine[l][i])}" r="2.5" fill="#d62728"/>`;
      body += `<text x="${x + bar}" y="${top + height + 12}" font-size="9" text-anchor="middle">${token(r.targetTokens[i])}</text>\n`;
    }
  });
  return svg(10 + decoderLayers * panel, top + height + 40, body);
}

mkdirSync(args.out, { recursive: true });
writeFileSync(`${args.out}/heatmap.svg`, heatmap());
writeFileSync(`${args.out}/heads.svg`, heads());
writeFileSync(`${args.out}/residual.svg`, residual());

// Numbers over 200 sentences of test_2016_flickr: the residual statistics per layer.
const sentences = readLines(`${args.data}/multi30k/test_2016_flickr.en.gz`).slice(0, 200);
const stats = Array.from({ length: decoderLayers }, () => ({ ratio: [], cos: [], x: [], u: [] }));
const headEntropy = Array.from({ length: decoderLayers }, () => Array.from({ length: nHeads }, () => []));
for (const s of sentences) {
  const one = await translator.translate(s, { attention: true, residual: true });
  for (let l = 0; l < decoderLayers; ++l) {
    for (let i = 0; i < one.targetTokens.length; ++i) {
      const x = one.residual.inputNorm[l][i], u = one.residual.updateNorm[l][i];
      stats[l].x.push(x), stats[l].u.push(u), stats[l].ratio.push(u / x), stats[l].cos.push(one.residual.cosine[l][i]);
    }
    for (let h = 0; h < nHeads; ++h) headEntropy[l][h].push(entropy(one.crossAttention[l][h]));
  }
}
console.log(`Example: "${SENTENCE}" → "${r.text}" (n = ${r.sourceTokens.length} source tokens, m = ${r.targetTokens.length} target tokens)\n`);
console.log(`Residual statistics over ${sentences.length} sentences of test_2016_flickr (${stats[0].x.length} target positions):\n`);
console.log('| decoder layer | mean \\|x\\| | mean \\|u\\| | mean \\|u\\| / \\|x\\| | mean cos(x, u) |\n| --- | ---: | ---: | ---: | ---: |');
stats.forEach((s, l) => console.log(`| ${l + 1} | ${mean(s.x).toFixed(1)} | ${mean(s.u).toFixed(1)} | ${mean(s.ratio).toFixed(2)} | ${mean(s.cos).toFixed(2)} |`));
console.log(`\nMean attention entropy per head (nats) over the same sentences:\n`);
console.log(`| layer | ${Array.from({ length: nHeads }, (_, h) => `head ${h + 1}`).join(' | ')} |\n| --- |${' ---: |'.repeat(nHeads)}`);
headEntropy.forEach((hs, l) => console.log(`| ${l + 1} | ${hs.map((e) => mean(e).toFixed(2)).join(' | ')} |`));
translator.dispose();
