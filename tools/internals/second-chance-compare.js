#!/usr/bin/env node
/**
 * Compares two second chances for numbers the model dropped (docs/copy-through.md, "Measured"), on
 * FLORES dev, for the sentences still missing a number after the alignment repair:
 *   beam:        the first hypothesis, in the model's order, of a beam of 8 (all 8 returned) that
 *                keeps more of the source's numbers (the method before 2026-11-27);
 *   constrained: what translateBatch does now (copy-through.ts recoverDropped, number-constraint.ts):
 *                the number forced in at word boundaries by a target prefix, the rest decoded by a
 *                beam of CONSTRAINED_BEAM, the best score among the candidates that keep it.
 * For each: the numbers gained, the sentences changed, and their mean chrF (tools/chrf.js) against
 * the reference before and after. One JSON line per model.
 *   node tools/internals/second-chance-compare.js [--model FILE]... [--data DIR]
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Translator } from '../../dist/index.js';
import { applyCopyThrough } from '../../dist/copy-through.js';
import { numbersKept } from '../../dist/numbers.js';
import { sentenceChrf } from '../chrf.js';

const here = (p) => new URL(p, import.meta.url).pathname;
const { values } = parseArgs({
  options: {
    model: { type: 'string', multiple: true },
    data: { type: 'string', default: process.env.CROSSATTN_DATA ?? here('../../../shared/data') },
  },
});
const models = values.model ?? [here('../../models/general-en-de/general-en-de.int8.crossattn'),
                                 here('../../models/general-de-en/general-de-en.int8.crossattn')];
const BEAM = 8;

/** Numbers gained, sentences changed and their mean chrF before and after, for one method's choices. */
function summary(repaired, chosen, references) {
  const changed = [...chosen.keys()];
  const mean = (text) => Number((changed.reduce((sum, i) => sum + sentenceChrf(text(i), references[i]), 0) / Math.max(1, changed.length)).toFixed(1));
  const gained = changed.reduce((sum, i) => sum + chosen.get(i).gained, 0);
  return { gained, sentences: changed.length, chrf_before: mean((i) => repaired[i].text), chrf_after: mean((i) => chosen.get(i).text) };
}

for (const file of models) {
  const translator = await Translator.load(file);
  const { sourceLang, targetLang, name } = translator.config;
  const read = (lang) => readFileSync(`${values.data}/flores-dev/dev.${lang}`, 'utf8').split('\n').slice(0, -1);
  const [sources, references] = [read(sourceLang), read(targetLang)];
  // The repaired translations (the repair alone, as tools/internals/number-consistency.js) and the constrained
  // ones (what translateBatch returns by default).
  const [repaired, constrained] = [[], []];
  for (let i = 0; i < sources.length; i += 16) {
    const chunk = sources.slice(i, i + 16);
    const before = await translator.translateBatch(chunk, { copyThrough: false, alignment: true, attention: false });
    repaired.push(...before.map((r) => applyCopyThrough(r, sourceLang, targetLang, {})));
    constrained.push(...await translator.translateBatch(chunk, { attention: false }));
  }
  const kept = (i, text) => numbersKept(repaired[i].sourceWords, text, sourceLang, targetLang).found;
  const dropped = repaired.flatMap((r, i) => (r.copyThrough.missing.some((m) => m.kind === 'number' || m.kind === 'time') ? [i] : []));
  const beam = await translator.translateBatch(dropped.map((i) => sources[i]), { beamSize: BEAM, nBest: BEAM, attention: false, copyThrough: false });
  const byBeam = new Map(), byConstraint = new Map();
  dropped.forEach((i, k) => {
    const now = kept(i, repaired[i].text);
    const first = beam[k].hypotheses.find((h) => kept(i, h.text) > now);
    if (first) byBeam.set(i, { text: first.text, gained: kept(i, first.text) - now });
    if (constrained[i].text !== repaired[i].text) byConstraint.set(i, { text: constrained[i].text, gained: kept(i, constrained[i].text) - now });
  });
  console.log(JSON.stringify({ model: name, set: 'flores-dev/dev', missing_after_repair: dropped.length,
                               beam: summary(repaired, byBeam, references), constrained: summary(repaired, byConstraint, references) }));
  translator.dispose();
}
