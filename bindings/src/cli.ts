#!/usr/bin/env node
/**
 * crossattn translate [--model FILE] [--json] [--max-length N] [TEXT]
 *
 * Translates TEXT, or without it one sentence per line of stdin to one line of stdout, with the
 * WebAssembly engine. The default model is the one shipped in the package. With --json each line is
 * the full result (tokens, log-probability, cross-attention [layers][heads][T][S]).
 */
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { CrossattnError } from './errors.js';
import { Translator } from './translator.js';

const DEFAULT_MODEL = fileURLToPath(new URL('../models/multi30k-en-de.crossattn', import.meta.url));
const USAGE = 'usage: crossattn translate [--model FILE] [--json] [--max-length N] [TEXT]';

function fail(message: string, code: number): never {
  process.stderr.write(`crossattn: ${message}\n`);
  process.exit(code);
}

function parse(args: string[]) {
  if (args[0] !== 'translate') fail(USAGE, 2);
  const options = { model: DEFAULT_MODEL, json: false, maxLength: 0, text: undefined as string | undefined };
  for (let i = 1; i < args.length; ++i) {
    const arg = args[i];
    if (arg === '--model' && i + 1 < args.length) options.model = args[++i];
    else if (arg === '--json') options.json = true;
    else if (arg === '--max-length' && i + 1 < args.length) options.maxLength = Number(args[++i]);
    else if (arg === '--help' || arg === '-h') fail(USAGE, 0);
    else if (arg.startsWith('--') || options.text !== undefined) fail(`unexpected argument '${arg}'\n${USAGE}`, 2);
    else options.text = arg;
  }
  return options;
}

async function main() {
  const options = parse(process.argv.slice(2));
  let translator: Translator;
  try {
    translator = await Translator.load(options.model);
  } catch (e) {
    fail(e instanceof Error ? `cannot load model '${options.model}': ${e.message}` : String(e), 1);
  }
  const emit = async (line: string) => {
    const r = await translator.translate(line, { attention: options.json, maxLength: options.maxLength });
    if (!options.json) return r.text;
    return JSON.stringify({ ...r, crossAttention: r.crossAttention?.map((l) => l.map((h) => h.map((row) => Array.from(row)))) });
  };
  let failures = 0;
  const lines = options.text !== undefined ? [options.text] : createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    try {
      process.stdout.write((await emit(line)) + '\n');
    } catch (e) {
      if (!(e instanceof CrossattnError)) throw e;
      process.stderr.write(`crossattn: ${e.name}: ${e.message}\n`);
      process.stdout.write('\n');  // keep output lines aligned with input lines
      failures++;
    }
  }
  translator.dispose();
  if (failures) process.exit(1);
}

main().catch((e) => fail(e instanceof Error ? e.message : String(e), 1));
