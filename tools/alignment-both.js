#!/usr/bin/env node
// Word alignment with the models of both directions, by AER: the en→de model alone, the de→en
// model alone (its links turned around), and the two symmetrized (Translator.alignSymmetric:
// averaged word attention, then linked), for the decoder layers and link methods that matter.
// Two golds: ../shared/data/align-dev (RWTH German–English, Europarl, 150 pairs) and the
// hand-made Multi30k gold of tests/fixtures (40 caption pairs, the models' own domain).
//   node tools/alignment-both.js [--data DIR] [--en-de FILE] [--de-en FILE]   (Markdown, docs/alignment.md)
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Translator, pharaoh } from '../dist/index.js';
import { alignmentErrorRate, readAlignDev } from './aer.js';
import { readLines } from './bleu.js';

const models = new URL('../models/', import.meta.url).pathname;
const { values } = parseArgs({
  options: {
    data: { type: 'string', default: process.env.CROSSATTN_DATA ?? new URL('../../shared/data', import.meta.url).pathname },
    'en-de': { type: 'string', default: `${models}tatoeba-en-de/tatoeba-en-de.int8.crossattn` },
    'de-en': { type: 'string', default: `${models}tatoeba-de-en/tatoeba-de-en.int8.crossattn` },
  },
});

function captions(prefix) {
  const en = readLines(`${prefix}.en`), de = readLines(`${prefix}.de`);
  return { pairs: en.map((e, i) => ({ en: e, de: de[i] })), gold: readLines(`${prefix}.gold`) };
}

const sets = [
  ['align-dev (RWTH, Europarl)', readAlignDev(`${values.data}/align-dev`)],
  ['Multi30k gold (captions)', captions(new URL('../tests/fixtures/alignment-gold/multi30k-test2016', import.meta.url).pathname)],
];
const enDe = await Translator.load(values['en-de']);
const deEn = await Translator.load(values['de-en']);
const percent = (x) => (100 * x).toFixed(1);
const flip = (links) => links.map(([s, t]) => [t, s]).sort((a, b) => a[1] - b[1] || a[0] - b[0]);
// null layers: each model's default reading (its alignment layer, else its trained head, else the last two layers).
const SETTINGS = [[null, 'grow-diag-final-and'], [[-2, -1], 'grow-diag-final-and'], [[-2, -1], 'argmax'], [[0, 1, 2], 'grow-diag-final-and']];

console.log(`Models ${enDe.config.name} and ${deEn.config.name}; AER % (lower is better), heads averaged unless the defaults read a trained head or layer, no shift.\n`);
console.log(`| gold | layers | method | en→de alone | de→en alone | symmetrized |\n| --- | --- | --- | ---: | ---: | ---: |`);
for (const [name, { pairs, gold }] of sets) {
  for (const [layers, method] of SETTINGS) {
    const alignment = layers ? { layers, method } : { method };
    const rows = { forward: [], backward: [], both: [] };
    for (const { en, de } of pairs) {
      rows.forward.push(pharaoh((await enDe.align(en, de, { attention: false, alignment })).alignment));
      rows.backward.push(pharaoh({ links: flip((await deEn.align(de, en, { attention: false, alignment })).alignment.links) }));
      rows.both.push(pharaoh(await enDe.alignSymmetric(deEn, en, de, { alignment })));
    }
    const aer = (hyp) => percent(alignmentErrorRate(gold, hyp).aer);
    const layerNames = layers ? layers.map((l) => (l < 0 ? enDe.config.decoderLayers + l : l)).join('+') : 'defaults';
    console.log(`| ${name} | ${layerNames} | ${method} | ${aer(rows.forward)} | ${aer(rows.backward)} | ${aer(rows.both)} |`);
  }
}
enDe.dispose();
deEn.dispose();
