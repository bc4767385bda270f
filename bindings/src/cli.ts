#!/usr/bin/env node
/**
 * crossattn translate [--model FILE | --from L --to L] [--json] [--max-length N] [--beam-size N] [--n-best N] [--length-penalty A] [--repeat-limit N] [TEXT]
 * crossattn align --src FILE --tgt FILE [--model FILE] [--layers L,..] [--heads H,..] [--method M] [--threshold X] [--shift]
 *
 * translate: translates TEXT, or without it one sentence per line of stdin to one line of stdout,
 * with the WebAssembly engine. With --json each line is the full result (tokens, log-probability,
 * cross-attention [layers][heads][T][S], the n-best list). --beam-size N > 1 decodes with beam
 * search (greedy by default); --repeat-limit N sets the repetition guard (0: off, default 3); with --n-best N > 1 and without --json each input line gives N lines
 * in Moses n-best form, "LINE ||| TEXT ||| LOG_PROB ||| SCORE", LINE counting from 0.
 *
 * align: forced alignment of each line of --src to the same line of --tgt, one line per pair on
 * stdout in Pharaoh format ("s-t", 0-based indices of whitespace-separated words), the input of
 * AER scorers such as tools/aer.js. The options select layers, heads, method (argmax,
 * grow-diag-final-and, threshold), threshold and Shift-Att
 * (docs/alignment.md); the defaults are those measured best there.
 *
 * --from and --to (language codes such as en, de) pick the package's model for that direction, as
 * its models/catalog.json lists it; the default model is the catalog's first (English to German).
 */
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { pharaoh, type AlignmentMethod, type AlignmentOptions } from './alignment.js';
import { CrossattnError } from './errors.js';
import { modelFor, parseCatalog } from './model-catalog.js';
import type { SearchOptions } from './search.js';
import { Translator } from './translator.js';

const MODELS_DIR = fileURLToPath(new URL('../models/', import.meta.url));
const USAGE = `usage: crossattn translate [--model FILE | --from L --to L] [--json] [--max-length N] [--beam-size N] [--n-best N] [--length-penalty A] [--repeat-limit N] [TEXT]
       crossattn align --src FILE --tgt FILE [--model FILE] [--layers L,..] [--heads H,..] [--method M] [--threshold X] [--shift]`;

function fail(message: string, code: number): never {
  process.stderr.write(`crossattn: ${message}\n`);
  process.exit(code);
}

interface Options {
  command: 'translate' | 'align';
  model?: string;
  from?: string;
  to?: string;
  json: boolean;
  search: SearchOptions;
  text?: string;
  src?: string;
  tgt?: string;
  alignment: AlignmentOptions;
}

function integers(value: string): number[] {
  return value.split(',').map((v) => (/^-?\d+$/.test(v.trim()) ? Number(v) : fail(`'${value}' is not a list of integers`, 2)));
}

function parse(args: string[]): Options {
  const command = args[0];
  if (command !== 'translate' && command !== 'align') fail(USAGE, 2);
  const options: Options = { command, json: false, search: {}, alignment: {} };
  for (let i = 1; i < args.length; ++i) {
    const arg = args[i];
    const value = () => (i + 1 < args.length ? args[++i] : fail(`${arg} needs a value\n${USAGE}`, 2));
    if (arg === '--model') options.model = value();
    else if (arg === '--help' || arg === '-h') fail(USAGE, 0);
    else if (command === 'translate' && arg === '--from') options.from = value();
    else if (command === 'translate' && arg === '--to') options.to = value();
    else if (command === 'translate' && arg === '--json') options.json = true;
    else if (command === 'translate' && arg === '--max-length') options.search.maxLength = Number(value());
    else if (command === 'translate' && arg === '--beam-size') options.search.beamSize = Number(value());
    else if (command === 'translate' && arg === '--n-best') options.search.nBest = Number(value());
    else if (command === 'translate' && arg === '--length-penalty') options.search.lengthPenalty = Number(value());
    else if (command === 'translate' && arg === '--repeat-limit') options.search.repeatLimit = Number(value());
    else if (command === 'align' && arg === '--src') options.src = value();
    else if (command === 'align' && arg === '--tgt') options.tgt = value();
    else if (command === 'align' && arg === '--layers') options.alignment.layers = integers(value());
    else if (command === 'align' && arg === '--heads') options.alignment.heads = integers(value());
    else if (command === 'align' && arg === '--method') options.alignment.method = value() as AlignmentMethod;
    else if (command === 'align' && arg === '--threshold') options.alignment.threshold = Number(value());
    else if (command === 'align' && arg === '--shift') options.alignment.shift = true;
    else if (command === 'translate' && !arg.startsWith('--') && options.text === undefined) options.text = arg;
    else fail(`unexpected argument '${arg}'\n${USAGE}`, 2);
  }
  if (command === 'align' && (options.src === undefined || options.tgt === undefined)) fail(`align needs --src and --tgt\n${USAGE}`, 2);
  if ((options.from === undefined) !== (options.to === undefined)) fail(`--from and --to go together\n${USAGE}`, 2);
  if (options.from !== undefined && options.model !== undefined) fail(`give --model or --from/--to, not both\n${USAGE}`, 2);
  return options;
}

function lines(path: string): string[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    fail(`cannot read '${path}': ${e instanceof Error ? e.message : String(e)}`, 1);
  }
  const out = text.split(/\r?\n/);
  if (out.at(-1) === '') out.pop();
  return out;
}

/** Writes one output line per input; an engine error leaves the line empty and counts as a failure. */
async function each<T>(items: AsyncIterable<T> | Iterable<T>, emit: (item: T) => Promise<string>): Promise<number> {
  let failures = 0;
  for await (const item of items) {
    try {
      process.stdout.write((await emit(item)) + '\n');
    } catch (e) {
      if (!(e instanceof CrossattnError)) throw e;
      process.stderr.write(`crossattn: ${e.name}: ${e.message}\n`);
      process.stdout.write('\n');  // keep output lines aligned with input lines
      failures++;
    }
  }
  return failures;
}

async function main() {
  const options = parse(process.argv.slice(2));
  let model = options.model;
  if (model === undefined) {
    try {
      const catalog = parseCatalog(readFileSync(`${MODELS_DIR}catalog.json`, 'utf8'), MODELS_DIR);
      model = (options.from === undefined ? catalog[0] : modelFor(catalog, options.from, options.to!))?.model;
    } catch (e) {
      fail(`${e instanceof Error ? e.message : String(e)} in ${MODELS_DIR}catalog.json`, 1);
    }
    if (model === undefined) fail(`${MODELS_DIR}catalog.json lists no model`, 1);
  }
  let translator: Translator;
  try {
    translator = await Translator.load(model);
  } catch (e) {
    fail(e instanceof Error ? `cannot load model '${model}': ${e.message}` : String(e), 1);
  }
  let failures: number;
  if (options.command === 'align') {
    const src = lines(options.src!), tgt = lines(options.tgt!);
    if (src.length !== tgt.length) fail(`--src has ${src.length} lines but --tgt has ${tgt.length}`, 1);
    failures = await each(src.keys(), async (i) => {
      const r = await translator.align(src[i], tgt[i], { attention: false, alignment: options.alignment });
      return r.alignment ? pharaoh(r.alignment) : '';
    });
  } else {
    const input = options.text !== undefined ? [options.text] : createInterface({ input: process.stdin, crlfDelay: Infinity });
    let lineNumber = 0;
    failures = await each(input, async (line) => {
      const n = lineNumber++;
      const r = await translator.translate(line, { ...options.search, attention: options.json });
      if (!options.json && (options.search.nBest ?? 1) > 1) {
        return r.hypotheses.map((h) => `${n} ||| ${h.text} ||| ${h.logProb} ||| ${h.score}`).join('\n');
      }
      if (!options.json) return r.text;
      return JSON.stringify({ ...r, crossAttention: r.crossAttention?.map((l) => l.map((h) => h.map((row) => Array.from(row)))) });
    });
  }
  translator.dispose();
  if (failures) process.exit(1);
}

main().catch((e) => fail(e instanceof Error ? e.message : String(e), 1));
