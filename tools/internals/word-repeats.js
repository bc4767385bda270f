#!/usr/bin/env node
/**
 * Words written twice in a row ("an an", "earlier earlier") that the source does not repeat
 * (issue 59, item 3), and BLEU beside them, on FLORES dev for both shipped directions.
 *   node tools/internals/word-repeats.js [--data DIR] [--limit N] [--model FILE]... [--beam-size N]... [--verbose]
 *
 * A repeat is two neighbouring whitespace-separated words equal without their wrapping punctuation
 * (numbers.ts core), case-insensitively, with a letter or digit in them; it counts when the source
 * has no such pair of its own. Prints one JSON line per model and beam size: outputs with a repeat,
 * the repeats, and corpus BLEU (tools/bleu.js, 13a) against the references. --verbose prints each
 * output with a repeat to stderr. The beam sizes default to 1 and 4.
 */
import { parseArgs } from 'node:util';
import { Translator } from '../../dist/index.js';
import { core } from '../../dist/numbers.js';
import { corpusBleu, readLines } from '../bleu.js';

const here = (p) => new URL(p, import.meta.url).pathname;

/** The words of `text` that repeat the word before them ("an an" → ["an"]), as defined above. */
export function repeatedWords(text) {
  const words = text.split(/\s+/).map((w) => core(w).toLowerCase());
  return words.filter((w, i) => i > 0 && w === words[i - 1] && /[\p{L}\p{N}]/u.test(w));
}

async function main() {
  const { values } = parseArgs({
    options: {
      data: { type: 'string', default: process.env.CROSSATTN_DATA ?? here('../../../shared/data') },
      limit: { type: 'string' },
      model: { type: 'string', multiple: true },
      'beam-size': { type: 'string', multiple: true },
      verbose: { type: 'boolean', default: false },
    },
  });
  const models = values.model ?? [here('../../models/general-en-de/general-en-de.int8.crossattn'),
                                   here('../../models/general-de-en/general-de-en.int8.crossattn')];
  for (const file of models) {
    const t = await Translator.load(file);
    const { sourceLang, targetLang } = t.config;
    const limit = values.limit ? Number(values.limit) : undefined;
    const sources = readLines(`${values.data}/flores-dev/dev.${sourceLang}`).slice(0, limit);
    const references = readLines(`${values.data}/flores-dev/dev.${targetLang}`).slice(0, limit);
    for (const beamSize of (values['beam-size'] ?? ['1', '4']).map(Number)) {
      const outputs = [];
      for (let i = 0; i < sources.length; i += 16) {
        outputs.push(...(await t.translateBatch(sources.slice(i, i + 16), { beamSize })).map((r) => r.text));
      }
      const repeats = outputs.map((o, i) => (repeatedWords(sources[i]).length ? [] : repeatedWords(o)));
      if (values.verbose) repeats.forEach((r, i) => r.length && console.error(JSON.stringify({ source: sources[i], output: outputs[i], repeats: r })));
      console.log(JSON.stringify({
        model: file.split('/').pop(), beam_size: beamSize, sentences: sources.length,
        outputs_with_repeat: repeats.filter((r) => r.length).length, repeats: repeats.flat().length,
        bleu: Number(corpusBleu(outputs, [references]).score.toFixed(2)),
      }));
    }
    t.dispose();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
