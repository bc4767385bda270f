#!/usr/bin/env node
// The ways of turning one model's cross-attention into word alignments, side by side on align-dev
// (../shared/data/align-dev: the first 150 RWTH German–English Europarl pairs): AER, precision,
// recall, and the cost in ms per pair (forced alignment through the package, wasm, one thread,
// this machine, the same run). The rows: naive averaging, the attention default, Shift-Att, the
// model's trained alignment head (guided alignment) and its alignment layer when it has them, each read from attention alone
// and weighed by the model file's alignment lexicon (the last rows; equal to the attention rows for
// a file without one), and with --reverse-model both directions symmetrized. Prints the Markdown
// table of docs/alignment.md; --json FILE also writes the rows there (docs/alignment.json: the one
// file the README's and docs/alignment.md's figures for the shipped pair come from, checked by
// tests/js/docs-numbers.test.js).
//   node tools/alignment-methods.js --model FILE [--reverse-model FILE] [--data DIR] [--json FILE]
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { InvalidInputError, Translator, pharaoh } from '../dist/index.js';
import { alignmentErrorRate, readAlignDev } from './aer.js';

const { values } = parseArgs({
  options: {
    model: { type: 'string' },
    'reverse-model': { type: 'string' },
    data: { type: 'string', default: process.env.CROSSATTN_DATA ?? new URL('../../shared/data', import.meta.url).pathname },
    json: { type: 'string' },
  },
});
if (!values.model) {
  console.error('usage: node tools/alignment-methods.js --model FILE [--reverse-model FILE] [--data DIR] [--json FILE]');
  process.exit(2);
}
const { pairs, gold } = readAlignDev(`${values.data}/align-dev`);
const model = await Translator.load(values.model);
const reverse = values['reverse-model'] ? await Translator.load(values['reverse-model']) : null;
const { decoderLayers, alignmentHead, alignmentLayer } = model.config;
const gdfa = 'grow-diag-final-and';

const lexicon = false;
const methods = [
  ['every layer and head averaged, argmax (naive)', { layers: [...Array(decoderLayers).keys()], method: 'argmax', lexicon }],
  ['last two layers, heads averaged, grow-diag-final-and', { layers: [-2, -1], method: gdfa, lexicon }],
  ['last two layers, heads averaged, Shift-Att, grow-diag-final-and', { layers: [-2, -1], method: gdfa, shift: true, lexicon }],
];
const where = alignmentHead ? `layer ${alignmentHead.layer} head ${alignmentHead.head}` : '';
// The head named explicitly: with no layers and heads, a file with an alignment layer reads the layer.
const head = alignmentHead ? { layers: [alignmentHead.layer], heads: [alignmentHead.head] } : {};
if (alignmentHead) {
  methods.push([`trained head (${where}), argmax`, { ...head, method: 'argmax', lexicon }],
    [`trained head (${where}), grow-diag-final-and`, { ...head, method: gdfa, lexicon }],
    [`trained head (${where}), threshold 0.3`, { ...head, method: 'threshold', threshold: 0.3, lexicon }]);
}
if (alignmentLayer) methods.push(['alignment layer, grow-diag-final-and, attention alone', { method: gdfa, lexicon }]);
methods.push(['last two layers, heads averaged, × alignment lexicon, grow-diag-final-and', { layers: [-2, -1], method: gdfa }]);
if (alignmentHead) {
  methods.push([`trained head (${where}) × alignment lexicon, argmax`, { ...head, method: 'argmax' }],
    [`trained head (${where}) × alignment lexicon, grow-diag-final-and`, { ...head, method: gdfa }]);
}
if (alignmentLayer) {
  methods.push(['alignment layer × alignment lexicon, argmax', { method: 'argmax' }],
    ['alignment layer × alignment lexicon, grow-diag-final-and', { method: gdfa }]);
}
// Each model's own defaults (its trained head when it has one, else the last two layers; × its
// lexicon): what align() and `crossattn align` do when given no alignment options.
methods.push(["the defaults (each model's own), as `crossattn align` reads them", {}]);

/** AER of `align` (pair -> alignment) over align-dev, and its mean time per pair in ms. */
async function measure(align) {
  const hyps = [];
  const start = performance.now();
  for (const pair of pairs) hyps.push(pharaoh(await align(pair)));
  return { ...alignmentErrorRate(gold, hyps), ms: (performance.now() - start) / pairs.length };
}

const rows = [];
for (const [name, alignment] of methods) {
  rows.push([name, await measure(async ({ en, de }) => (await model.align(en, de, { attention: false, alignment })).alignment)]);
  if (reverse) {
    // A method that names layers the reverse model lacks (naive averaging of all layers, when the
    // two have different decoder depths) has no symmetrized row.
    const symmetrized = await measure(({ en, de }) => model.alignSymmetric(reverse, en, de, { alignment }))
      .catch((e) => { if (e instanceof InvalidInputError) return null; throw e; });
    if (symmetrized) rows.push([`${name}, both directions symmetrized`, symmetrized]);
  }
}
const percent = (x) => (100 * x).toFixed(1);
console.log(`Model ${model.config.name}${reverse ? ` and ${reverse.config.name}` : ''} on align-dev (${pairs.length} pairs); ` +
  'the options left out are the defaults; AER % (lower is better).\n');
console.log('| method | AER | precision | recall | ms per pair |\n| --- | ---: | ---: | ---: | ---: |');
for (const [name, r] of rows) {
  console.log(`| ${name} | ${percent(r.aer)} | ${percent(r.precision)} | ${percent(r.recall)} | ${r.ms.toFixed(1)} |`);
}
if (values.json) {
  const round = (x) => Number(percent(x));
  writeFileSync(values.json, `${JSON.stringify({
    date: new Date().toISOString().slice(0, 10), set: `align-dev (${pairs.length} pairs)`,
    command: `node tools/alignment-methods.js --model ${values.model}${reverse ? ` --reverse-model ${values['reverse-model']}` : ''} --json ${values.json}`,
    model: model.config.name, reverse: reverse?.config.name ?? null,
    rows: rows.map(([method, r]) => ({ method, aer: round(r.aer), precision: round(r.precision), recall: round(r.recall) })),
  }, null, 2)}\n`);
}
model.dispose();
reverse?.dispose();
