#!/usr/bin/env node
/**
 * Number and name consistency of translations, before and after copy-through
 * (bindings/src/copy-through.ts; issue 44, item 2).
 *   node tools/internals/number-consistency.js [--model FILE]... [--data DIR] [--limit N] [--everyday] [--verbose]
 * Default: FLORES dev (DIR/flores-dev/dev.LANG) with both shipped directions; --everyday: the
 * everyday fixture and tests/fixtures/unknown-text.json instead.
 *
 * Number consistency: the share of the source's numbers (numbers.ts numbersOf: maximal digit runs
 * joined by single . , :, in every source word) that the output contains in one of their accepted
 * target forms (numberForms: localised by Intl.NumberFormat, a time with : or ., a 12-hour p.m.
 * time also on the 24-hour clock, a number from 0 to 12 also in words), each output number counted
 * once.
 *
 * Name consistency: the share of carried names that the output contains unchanged, as a word
 * without its punctuation. A carried name is a source word capitalised inside its sentence (not
 * the first word, nor the first after . ! ? :) that the reference translation also has unchanged
 * (FLORES), or that the entry's expected words name (everyday fixture, case-insensitive): so German
 * nouns, capitalised in any position, count only where the English keeps them.
 *
 * "before" is the model's output (copyThrough false); "repaired" the same translation with the
 * alignment-based repair applied (applyCopyThrough); "after" what translateBatch returns by default:
 * the repair, and lexically constrained decoding for sentences whose numbers are still missing
 * (recoverDropped, number-constraint.ts). Greedy decoding, 16 sentences per batch. Also counts
 * outputs that contain "⁇". Prints one JSON line per model and set; on FLORES, `second_chance`
 * gives the sentences the constrained decoding changed and their mean chrF (tools/chrf.js) against
 * the references before and after it, and `seconds_after` the time of the default translateBatch
 * calls. --verbose prints each changed sentence (source, repaired, after, reference) to stderr.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Translator } from '../../dist/index.js';
import { applyCopyThrough } from '../../dist/copy-through.js';
import { sentenceChrf } from '../chrf.js';
import { capitalisedWords, core, numbersKept } from '../../dist/numbers.js';

const here = (p) => new URL(p, import.meta.url).pathname;
const { values } = parseArgs({
  options: {
    model: { type: 'string', multiple: true },
    data: { type: 'string', default: process.env.CROSSATTN_DATA ?? here('../../../shared/data') },
    limit: { type: 'string' },
    everyday: { type: 'boolean', default: false },
    verbose: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  console.log('usage: node tools/internals/number-consistency.js [--model FILE]... [--data DIR] [--limit N] [--everyday] [--verbose]');
  process.exit(0);
}
const models = values.model ?? [here('../../models/general-en-de/general-en-de.int8.crossattn'),
                                 here('../../models/general-de-en/general-de-en.int8.crossattn')];

/** Found and total carried names: `carries(name)` says whether the name should carry unchanged. */
export function namesKept(sourceWords, output, carries) {
  const names = capitalisedWords(sourceWords).filter((n) => carries(n.text));
  const words = new Set(output.split(/\s+/).map(core));
  return { found: names.filter((n) => words.has(n.text)).length, total: names.length };
}

function score(translations, sources, carries, lang) {
  const sum = { numbers: [0, 0], names: [0, 0], unknown: 0 };
  translations.forEach((r, i) => {
    const n = numbersKept(r.sourceWords, r.text, lang.sourceLang, lang.targetLang);
    const m = namesKept(r.sourceWords, r.text, (name) => carries(i, name));
    sum.numbers[0] += n.found, sum.numbers[1] += n.total;
    sum.names[0] += m.found, sum.names[1] += m.total;
    if (r.text.includes('⁇')) ++sum.unknown;
  });
  const rate = ([a, b]) => (b === 0 ? null : Number((100 * a / b).toFixed(1)));
  return { numbers: `${sum.numbers[0]}/${sum.numbers[1]}`, numbers_pct: rate(sum.numbers), names: `${sum.names[0]}/${sum.names[1]}`,
           names_pct: rate(sum.names), outputs_with_unk: sum.unknown };
}

// The sentences the second chance changed (after differs from repaired): how many, and their mean
// chrF against the references before (repaired) and after it.
function changed(repaired, after, references) {
  const which = after.flatMap((r, i) => (r.text !== repaired[i].text ? [i] : []));
  const mean = (list) => (which.length === 0 ? null : Number((which.reduce((sum, i) => sum + sentenceChrf(list[i].text, references[i]), 0) / which.length).toFixed(1)));
  return { sentences: which.length, chrf_repaired: mean(repaired), chrf_after: mean(after) };
}

async function measure(translator, set, sources, carries, references) {
  const lang = translator.config;
  const [before, full] = [[], []];
  let ms = 0;
  for (let i = 0; i < sources.length; i += 16) {
    const chunk = sources.slice(i, i + 16);
    before.push(...await translator.translateBatch(chunk, { copyThrough: false, alignment: true, attention: false }));
    const start = performance.now();
    full.push(...await translator.translateBatch(chunk, { attention: false }));
    ms += performance.now() - start;
  }
  const repaired = before.map((r) => applyCopyThrough(structuredClone(r), lang.sourceLang, lang.targetLang, { alignment: undefined }));
  console.log(JSON.stringify({ model: lang.name, set, sentences: sources.length, before: score(before, sources, carries, lang),
                               repaired: score(repaired, sources, carries, lang), after: score(full, sources, carries, lang),
                               ...(references ? { second_chance: changed(repaired, full, references) } : {}),
                               seconds_after: Number((ms / 1000).toFixed(1)) }));
  if (values.verbose) {
    full.forEach((r, i) => { if (r.text !== repaired[i].text) console.error(`${sources[i]}\n  - ${repaired[i].text}\n  + ${r.text}\n  = ${references?.[i] ?? ''}`); });
  }
}

for (const file of models) {
  const translator = await Translator.load(file);
  const { sourceLang, targetLang } = translator.config;
  if (values.everyday) {
    const entries = JSON.parse(readFileSync(here('../../tests/fixtures/everyday.json'), 'utf8'))[`${sourceLang}-${targetLang}`];
    await measure(translator, 'tests/fixtures/everyday.json', entries.map((e) => e.source),
                  (i, name) => entries[i].expect.flat().includes(name.toLowerCase()));
    const unknown = JSON.parse(readFileSync(here('../../tests/fixtures/unknown-text.json'), 'utf8'))[`${sourceLang}-${targetLang}`];
    await measure(translator, 'tests/fixtures/unknown-text.json', [...unknown.unknown.map((e) => e.source), ...unknown.numbers], () => false);
  } else {
    const read = (lang) => readFileSync(`${values.data}/flores-dev/dev.${lang}`, 'utf8').split('\n').slice(0, -1);
    const n = values.limit ? Number(values.limit) : undefined;
    const [sources, references] = [read(sourceLang).slice(0, n), read(targetLang).slice(0, n)];
    const refWords = references.map((line) => new Set(line.split(/\s+/).map(core)));
    await measure(translator, 'flores-dev/dev', sources, (i, name) => refWords[i].has(name), references);
  }
  translator.dispose();
}
