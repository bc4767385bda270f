#!/usr/bin/env node
// Corpus BLEU (Papineni et al. 2002) as sacreBLEU 2.x computes it by default (Post 2018): the 13a
// tokenizer of mteval-v13a, n-grams up to 4, exponential smoothing, closest reference length.
//   node tools/bleu.js HYPOTHESES REFERENCES [REFERENCES...]     (one sentence per line, .gz allowed)
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

const MAX_ORDER = 4;

/** sacreBLEU's "13a" tokenization of one line. */
export function tokenize13a(line) {
  if (line === '') return '';
  line = line.replaceAll('<skipped>', '').replaceAll('-\n', '').replaceAll('\n', ' ');
  if (line.includes('&')) {
    line = line.replaceAll('&quot;', '"').replaceAll('&amp;', '&').replaceAll('&lt;', '<').replaceAll('&gt;', '>');
  }
  line = ` ${line} `
    .replace(/([{-~[-` -&(-+:-@/])/g, ' $1 ')  // punctuation
    .replace(/([^0-9])([.,])/g, '$1 $2 ')       // period and comma unless preceded by a digit
    .replace(/([.,])([^0-9])/g, ' $1 $2')       // period and comma unless followed by a digit
    .replace(/([0-9])(-)/g, '$1 $2 ');          // dash when preceded by a digit
  return line.split(/\s+/).filter(Boolean).join(' ');
}

function ngramCounts(tokens) {
  const counts = new Map();
  for (let n = 1; n <= MAX_ORDER; ++n) {
    for (let i = 0; i + n <= tokens.length; ++i) {
      const key = tokens.slice(i, i + n).join(' ');
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  return counts;
}

/**
 * Corpus BLEU of hypotheses [N] against referenceStreams [R][N]. Returns
 * {score (0..100), precisions [4] (percent), bp, sysLen, refLen}.
 */
export function corpusBleu(hypotheses, referenceStreams) {
  for (const refs of referenceStreams) {
    if (refs.length !== hypotheses.length) throw new Error(`${hypotheses.length} hypotheses but ${refs.length} references`);
  }
  const correct = new Array(MAX_ORDER).fill(0), total = new Array(MAX_ORDER).fill(0);
  let sysLen = 0, refLen = 0;
  hypotheses.forEach((hyp, i) => {
    const hypTokens = tokenize13a(hyp.trim()).split(' ').filter(Boolean);
    const maxRef = new Map();
    let closest = null;
    for (const refs of referenceStreams) {
      const refTokens = tokenize13a(refs[i].trim()).split(' ').filter(Boolean);
      const diff = Math.abs(refTokens.length - hypTokens.length);
      if (closest === null || diff < closest.diff || (diff === closest.diff && refTokens.length < closest.len)) {
        closest = { diff, len: refTokens.length };
      }
      for (const [gram, count] of ngramCounts(refTokens)) maxRef.set(gram, Math.max(maxRef.get(gram) ?? 0, count));
    }
    sysLen += hypTokens.length;
    refLen += closest.len;
    for (const [gram, count] of ngramCounts(hypTokens)) {
      const n = gram.split(' ').length;
      correct[n - 1] += Math.min(count, maxRef.get(gram) ?? 0);
    }
    for (let n = 1; n <= MAX_ORDER; ++n) total[n - 1] += Math.max(0, hypTokens.length - n + 1);
  });
  const precisions = new Array(MAX_ORDER).fill(0);
  let smooth = 1;
  for (let n = 0; n < MAX_ORDER; ++n) {
    if (total[n] === 0) break;
    if (correct[n] === 0) {
      smooth *= 2;
      precisions[n] = 100 / (smooth * total[n]);
    } else {
      precisions[n] = (100 * correct[n]) / total[n];
    }
  }
  if (sysLen === 0) return { score: 0, precisions, bp: 0, sysLen, refLen };
  const bp = sysLen < refLen ? Math.exp(1 - refLen / sysLen) : 1;
  const logSum = precisions.reduce((s, p) => s + (p === 0 ? -9999999999 : Math.log(p)), 0);
  return { score: bp * Math.exp(logSum / MAX_ORDER), precisions, bp, sysLen, refLen };
}

/** Lines of a text file, gunzipped when it ends in .gz; no trailing empty line. */
export function readLines(path) {
  const bytes = readFileSync(path);
  const text = (path.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [hypPath, ...refPaths] = process.argv.slice(2);
  if (!hypPath || refPaths.length === 0) {
    console.error('usage: node tools/bleu.js HYPOTHESES REFERENCES [REFERENCES...]');
    process.exit(2);
  }
  const r = corpusBleu(readLines(hypPath), refPaths.map(readLines));
  const p = r.precisions.map((x) => x.toFixed(1)).join('/');
  console.log(`BLEU = ${r.score.toFixed(2)} ${p} (BP = ${r.bp.toFixed(3)} ratio = ${(r.sysLen / r.refLen).toFixed(3)} hyp_len = ${r.sysLen} ref_len = ${r.refLen})`);
}
