/**
 * crossattn convert INPUT -o OUTPUT [--name NAME] [--from L --to L] [--license SPDX] [--source TEXT] [--quantized]
 *
 * Writes one .crossattn file from a Hugging Face MarianMT folder, a transformers.js folder or a Marian
 * model (docs/convert.md), and prints what it wrote. Bad input is one line on stderr naming the file
 * and the field, exit 1, and no output file; a bad command line is one line on stderr, exit 2, as for
 * translate and align (cli-args.ts).
 */
import { parseStrictly } from '../cli-args.js';
import { CrossattnError } from '../errors.js';
import { convertFile } from './index.js';

export const CONVERT_USAGE = `usage: crossattn convert INPUT -o OUTPUT.crossattn [--name NAME] [--from L --to L] [--license SPDX] [--source TEXT] [--quantized]

INPUT is a Hugging Face MarianMT folder (OPUS-MT: config.json, model.safetensors, vocab.json, source.spm,
target.spm), a transformers.js folder (Xenova/opus-mt-*: config.json, tokenizer.json, onnx/), or a Marian
model as Bergamot and Firefox ship it (a .npz or .bin file, or its folder, with model.yml and .spm
vocabularies, and optionally lex.*.s2t.bin). docs/convert.md has each step.
  -o, --output FILE   the .crossattn file to write (written whole or not at all)
  --name NAME         the model's name (default: from INPUT)
  --from L --to L     its languages, when INPUT does not say them (BCP 47 codes such as en, de)
  --license SPDX      the licence to record (default: the model card's license: in README.md, else unknown)
  --source TEXT       where the model comes from (default: from INPUT)
  --quantized         transformers.js: read the _quantized (q8) ONNX files`;

const OPTIONS = {
  output: { type: 'string', short: 'o' }, name: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' },
  license: { type: 'string' }, source: { type: 'string' }, quantized: { type: 'boolean' }, help: { type: 'boolean', short: 'h' },
} as const;

function fail(message: string, code: number): never {
  process.stderr.write(`crossattn convert: ${message}\n`);
  process.exit(code);
}

/** Runs `crossattn convert` with the arguments after "convert"; `version` is the package's. */
export async function runConvert(args: string[], version: string): Promise<void> {
  const usageError = (message: string): never => fail(`${message}; see crossattn convert --help`, 2);
  const { values: v, positionals } = parseStrictly(args, OPTIONS, usageError);
  if (v.help) {
    process.stdout.write(`${CONVERT_USAGE}\n`);
    return;
  }
  if (positionals.length !== 1) usageError(positionals.length ? `one INPUT, not ${positionals.length}` : 'give the INPUT to convert');
  if (v.output === undefined) return usageError('give the file to write with -o OUTPUT.crossattn');
  if (v.output === '') return usageError('-o needs a file name, not an empty one');
  if ((v.from === undefined) !== (v.to === undefined)) usageError('--from and --to go together');
  try {
    const model = await convertFile(positionals[0], v.output, version, {
      name: v.name, sourceLang: v.from, targetLang: v.to, license: v.license, source: v.source, quantized: v.quantized,
    });
    const c = model.config;
    process.stdout.write(`${v.output}: ${c.name}, ${c.source_lang}→${c.target_lang}, ${c.encoder_layers}+${c.decoder_layers} layers, ` +
      `d_model ${c.d_model}, vocabulary ${c.vocab_size}, from ${model.provenance.convertedFrom} (${model.provenance.license || 'licence unknown'})\n`);
  } catch (e) {
    if (e instanceof CrossattnError) fail(e.message, 1);
    throw e;
  }
}
