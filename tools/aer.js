#!/usr/bin/env node
// Alignment error rate (Och & Ney 2003, section 5): with sure links S, possible links P (S is a
// subset of P) and hypothesis links A, summed over the corpus,
//   precision = |A ∩ P| / |A|,  recall = |A ∩ S| / |S|,  AER = 1 - (|A ∩ S| + |A ∩ P|) / (|A| + |S|).
// Files hold one sentence pair per line in Pharaoh format: "s-t" links, 0-based source-target word
// indices; in gold files "s-t" is sure and "s?t" or "spt" (as lilt/alignment-scripts writes) possible.
//   node tools/aer.js GOLD HYPOTHESES
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readLines } from './bleu.js';

/**
 * The sure and possible links of one Pharaoh line, as "s-t" strings; sure links are also possible.
 * @throws Error for a token that is not a link.
 */
export function parseLinks(line) {
  const sure = new Set();
  const possible = new Set();
  for (const token of line.trim().split(/\s+/).filter(Boolean)) {
    const m = /^(\d+)([-?p])(\d+)$/.exec(token);
    if (!m) throw new Error(`'${token}' is not an alignment link (expected s-t, s?t or spt)`);
    const link = `${Number(m[1])}-${Number(m[3])}`;
    possible.add(link);
    if (m[2] === '-') sure.add(link);
  }
  return { sure, possible };
}

/**
 * Corpus-level AER, precision and recall (fractions in [0, 1]) of hypothesis lines against gold lines.
 * @throws Error when the two have different numbers of lines or a line does not parse.
 */
export function alignmentErrorRate(goldLines, hypLines) {
  if (goldLines.length !== hypLines.length) {
    throw new Error(`${goldLines.length} gold lines but ${hypLines.length} hypothesis lines`);
  }
  let a = 0, s = 0, aAndS = 0, aAndP = 0;
  goldLines.forEach((goldLine, i) => {
    const gold = parseLinks(goldLine);
    const hyp = parseLinks(hypLines[i]).possible;  // every hypothesis link counts
    a += hyp.size;
    s += gold.sure.size;
    for (const link of hyp) {
      aAndS += gold.sure.has(link);
      aAndP += gold.possible.has(link);
    }
  });
  return {
    aer: a + s === 0 ? 0 : 1 - (aAndS + aAndP) / (a + s),
    precision: a === 0 ? 0 : aAndP / a,
    recall: s === 0 ? 0 : aAndS / s,
  };
}

/**
 * ../shared/data/align-dev (RWTH German–English, Europarl): "DE ||| EN" lines and 1-based "de-en"
 * gold links (p: possible) -> pairs {en, de} and 0-based gold lines "en-de" (en→de word order).
 */
export function readAlignDev(dir) {
  const pairs = readLines(`${dir}/dev.de-en`).map((line) => {
    const [de, en] = line.split(' ||| ');
    return { en, de };
  });
  const gold = readLines(`${dir}/dev.talp`).map((line) => line.trim().split(/\s+/).filter(Boolean).map((link) => {
    const [, de, kind, en] = /^(\d+)([-p])(\d+)$/.exec(link);
    return `${en - 1}${kind === 'p' ? 'p' : '-'}${de - 1}`;
  }).join(' '));
  return { pairs, gold };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [goldPath, hypPath] = process.argv.slice(2);
  if (!goldPath || !hypPath) {
    console.error('usage: node tools/aer.js GOLD HYPOTHESES');
    process.exit(2);
  }
  const r = alignmentErrorRate(readLines(goldPath), readLines(hypPath));
  console.log(`AER = ${(100 * r.aer).toFixed(1)}% precision = ${(100 * r.precision).toFixed(1)}% recall = ${(100 * r.recall).toFixed(1)}%`);
}
