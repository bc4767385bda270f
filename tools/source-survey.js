#!/usr/bin/env node
// A survey of parallel-data sources for choosing their weights without training: per source, the
// share of labels and of in-file duplicates, the words per pair, what it shares with FLORES dev and
// devtest, and how the shipped models read a seeded sample of its sentence pairs: chrF of the en→de
// model's translation (greedy, shortlist) against the source's German, and the per-piece
// cross-entropy (nats) of its German given its English, and of its English given its German, by
// forced decoding (Translator.align, whole vocabulary). A clean, general-domain source scores near
// FLORES dev (the first row); misaligned or odd text scores far from it. Rows of sources the shipped
// models were trained on score better than unseen text of the same quality would.
//   node tools/source-survey.js [--data DIR] [--flores-devtest PREFIX] [--sample N] SOURCE...
// PREFIX: FLORES-101 devtest files PREFIX/eng.devtest and PREFIX/deu.devtest (optional). Prints
// one JSON line per source, then a Markdown table; the pairs sharing a 10-word run with FLORES on stderr.
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Translator } from '../dist/index.js';
import { readLines } from './bleu.js';
import { sentenceChrf } from './chrf.js';

const { values, positionals: sources } = parseArgs({
  allowPositionals: true,
  options: {
    data: { type: 'string', default: new URL('../../shared/data', import.meta.url).pathname },
    'flores-devtest': { type: 'string' }, sample: { type: 'string', default: '200' },
  },
});
const MODELS = new URL('../models/', import.meta.url).pathname;
const SHINGLE = 10;  // words in a run that counts as shared with FLORES

/** Lower-case letters and digits only: the form in which two copies of a sentence compare equal. */
const squash = (s) => s.normalize('NFC').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
/** The runs of SHINGLE consecutive words of `s`, squashed. */
function shingles(s) {
  const words = s.normalize('NFC').toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  return Array.from({ length: Math.max(0, words.length - SHINGLE + 1) }, (_, i) => words.slice(i, i + SHINGLE).join(' '));
}
/** prepare_general.py's is_label: fewer than 3 English words and no final . ! ? */
const isLabel = (en) => en.split(/\s+/).filter(Boolean).length < 3 && !/[.!?]\s*$/.test(en);

/** A seeded generator (mulberry32) for the sample. */
function random(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function floresSets() {
  const lines = [...readLines(`${values.data}/flores-dev/dev.en`), ...readLines(`${values.data}/flores-dev/dev.de`)];
  const devtest = values['flores-devtest'];
  if (devtest) lines.push(...readLines(`${devtest}/eng.devtest`), ...readLines(`${devtest}/deu.devtest`));
  return { exact: new Set(lines.map(squash)), runs: new Set(lines.flatMap(shingles)), lines: lines.length };
}

/** Mean chrF and per-piece cross-entropy of both directions over `pairs` [[en, de]]. */
async function modelScores(pairs, enDe, deEn) {
  let chrf = 0, ceDe = [0, 0], ceEn = [0, 0];
  for (const [en, de] of pairs) {
    chrf += sentenceChrf((await enDe.translate(en, { attention: false })).text, de);
    for (const [t, src, tgt, sum] of [[enDe, en, de, ceDe], [deEn, de, en, ceEn]]) {
      const r = await t.align(src, tgt, { attention: false, alignment: false, shortlist: false });
      sum[0] -= r.logProb, sum[1] += r.targetTokens.length;
    }
  }
  return { chrf: chrf / pairs.length, ce_de: ceDe[0] / ceDe[1], ce_en: ceEn[0] / ceEn[1] };
}

/** The survey row of one source's pairs [[en, de]]. */
async function survey(name, pairs, flores, enDe, deEn) {
  const seen = new Set(), shared = [];
  let labels = 0, duplicates = 0, words = 0, exact = 0;
  for (const [en, de] of pairs) {
    if (isLabel(en)) labels++;
    const key = `${squash(en)}\t${squash(de)}`;
    if (seen.has(key)) duplicates++;
    seen.add(key);
    words += en.split(/\s+/).filter(Boolean).length;
    if (flores.exact.has(squash(en)) || flores.exact.has(squash(de))) exact++;
    if ([...shingles(en), ...shingles(de)].some((s) => flores.runs.has(s))) shared.push(`${name}: ${en} ||| ${de}`);
  }
  const next = random(12345);
  const sentences = pairs.filter(([en, de]) => !isLabel(en) && Math.max(en.length, de.length) <= 400);
  const sample = sentences.map((p) => [next(), p]).sort((a, b) => a[0] - b[0]).slice(0, Number(values.sample)).map(([, p]) => p);
  for (const line of shared) console.error(line);
  return {
    source: name, pairs: pairs.length, words_en: words / pairs.length, labels: labels / pairs.length,
    duplicates: duplicates / pairs.length, flores_exact: exact, flores_run: shared.length, sampled: sample.length,
    ...(await modelScores(sample, enDe, deEn)),
  };
}

function readTsv(path) {
  return readLines(path).map((line) => line.split('\t')).filter((f) => f.length === 2);
}

const flores = floresSets();
const [enDe, deEn] = await Promise.all(['en-de', 'de-en'].map((d) => Translator.load(`${MODELS}general-${d}/general-${d}.int8.crossattn`)));
const floresDe = readLines(`${values.data}/flores-dev/dev.de`);
const floresPairs = readLines(`${values.data}/flores-dev/dev.en`).map((en, i) => [en, floresDe[i]]);
const rows = [await survey('FLORES dev (reference)', floresPairs, { exact: new Set(), runs: new Set() }, enDe, deEn)];
console.log(JSON.stringify(rows[0]));
for (const name of sources) {
  const path = `${values.data}/parallel-en-de/${name}.tsv.gz`;
  if (!existsSync(path)) throw new Error(`no source ${path}`);
  rows.push(await survey(name, readTsv(path), flores, enDe, deEn));
  console.log(JSON.stringify(rows.at(-1)));
}
enDe.dispose(), deEn.dispose();
const pct = (x) => `${(100 * x).toFixed(1)}%`;
console.log(`\nFLORES lines compared: ${flores.lines}\n`);
console.log('| source | pairs | English words per pair | labels | in-file duplicates | FLORES: equal side | FLORES: shared 10-word run | ' +
            'sampled | chrF en→de | cross-entropy de given en | cross-entropy en given de |');
console.log('| --- |' + ' ---: |'.repeat(10));
for (const r of rows) {
  console.log(`| ${r.source} | ${r.pairs.toLocaleString('en')} | ${r.words_en.toFixed(1)} | ${pct(r.labels)} | ${pct(r.duplicates)} | ` +
              `${r.flores_exact} | ${r.flores_run} | ${r.sampled} | ${r.chrf.toFixed(1)} | ${r.ce_de.toFixed(2)} | ${r.ce_en.toFixed(2)} |`);
}
