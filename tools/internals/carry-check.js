#!/usr/bin/env node
/**
 * Dates, times, prices and amounts through translation: whether each output carries what its
 * source has, or says that it does not (issue 59's "do no harm").
 *   node tools/internals/carry-check.js [--fixture FILE] [--model FILE]... [--beam-size N]... [--verbose]
 *   node tools/internals/carry-check.js --flores [--data DIR] [--limit N] [--model FILE]... [--beam-size N]...
 *
 * Fixture mode (default tests/fixtures/dates-prices.json): each entry lists, by hand, the accepted
 * target forms of each of its source's spans. A span is *kept* when the output holds one of its
 * forms (not inside a longer number), *flagged* when the output lacks it and the translation's
 * copy-through report names something missing or doubtful, and *lost* when neither: the case that
 * must not happen. An output holding an ill-formed number (number-syntax.ts) counts as *damaged*.
 *
 * FLORES mode: the flag rate on FLORES dev (997 sentences per direction), and the flags themselves
 * with --verbose, to see what a reader is shown on ordinary text.
 *
 * Prints one JSON line per model and beam size. The models default to both shipped directions; the
 * beam sizes to 1 (the API's default) and 4 (the CLI's and the page's).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Translator, isFlagged } from '../../dist/index.js';
import { illFormedNumbers } from '../../dist/number-syntax.js';

const here = (p) => new URL(p, import.meta.url).pathname;

/**
 * Whether `output` holds `form` as written, not inside a longer number or word ("14. Februar" is
 * not in "114. Februar", "3" not in "2023").
 */
export function holds(output, form) {
  const escaped = form.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![\\p{L}\\p{N}]|\\p{N}[.,])${escaped}(?![\\p{L}\\p{N}]|[.,]\\p{N})`, 'u').test(output);
}

/**
 * The verdict on one fixture entry's translation `r`: per span, kept, flagged or lost; and the
 * output's ill-formed numbers.
 * @param entry { source, carry: string[][] }
 */
export function judge(entry, r, targetLang) {
  const spans = entry.carry.map((forms) => {
    if (forms.some((f) => holds(r.text, f))) return 'kept';
    return isFlagged(r.copyThrough) ? 'flagged' : 'lost';
  });
  const damaged = r.targetWords.flatMap((w) => illFormedNumbers(w, targetLang));
  return { spans, damaged };
}

/** Counts of kept, flagged and lost spans, damaged outputs, and flagged outputs over `verdicts`. */
export function tally(verdicts, results) {
  const spans = verdicts.flatMap((v) => v.spans);
  const count = (s) => spans.filter((x) => x === s).length;
  return {
    spans: spans.length, kept: count('kept'), flagged: count('flagged'), lost: count('lost'),
    damaged_outputs: verdicts.filter((v) => v.damaged.length > 0).length,
    flagged_outputs: results.filter((r) => isFlagged(r.copyThrough)).length,
  };
}

async function main() {
  const { values } = parseArgs({
    options: {
      fixture: { type: 'string', default: here('../../tests/fixtures/dates-prices.json') },
      flores: { type: 'boolean', default: false },
      data: { type: 'string', default: process.env.CROSSATTN_DATA ?? here('../../../shared/data') },
      limit: { type: 'string' },
      model: { type: 'string', multiple: true },
      'beam-size': { type: 'string', multiple: true },
      verbose: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log('usage: node tools/internals/carry-check.js [--fixture FILE | --flores [--data DIR] [--limit N]] [--model FILE]... [--beam-size N]... [--verbose]');
    return;
  }
  const models = values.model ?? [here('../../models/general-en-de/general-en-de.int8.crossattn'),
                                   here('../../models/general-de-en/general-de-en.int8.crossattn')];
  const beams = (values['beam-size'] ?? ['1', '4']).map(Number);
  const fixture = values.flores ? null : JSON.parse(readFileSync(values.fixture, 'utf8'));
  for (const file of models) {
    const t = await Translator.load(file);
    const { sourceLang, targetLang } = t.config;
    const entries = fixture ? fixture[`${sourceLang}-${targetLang}`]
      : readFileSync(`${values.data}/flores-dev/dev.${sourceLang}`, 'utf8').trim().split('\n')
        .slice(0, values.limit ? Number(values.limit) : undefined).map((source) => ({ source, carry: [] }));
    for (const beamSize of beams) {
      const results = [];
      for (let i = 0; i < entries.length; i += 16) {
        results.push(...await t.translateBatch(entries.slice(i, i + 16).map((e) => e.source), { beamSize }));
      }
      const verdicts = entries.map((e, i) => judge(e, results[i], targetLang));
      if (values.verbose) {
        results.forEach((r, i) => {
          if (!isFlagged(r.copyThrough) && !verdicts[i].spans.includes('lost') && !verdicts[i].damaged.length) return;
          console.error(JSON.stringify({ source: entries[i].source, output: r.text, spans: verdicts[i].spans,
                                         missing: r.copyThrough?.missing, doubtful: r.copyThrough?.doubtful }));
        });
      }
      console.log(JSON.stringify({ model: file.split('/').pop(), set: fixture ? values.fixture.split('/').pop() : 'flores-dev',
                                   beam_size: beamSize, sentences: entries.length, ...tally(verdicts, results) }));
    }
    t.dispose();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
