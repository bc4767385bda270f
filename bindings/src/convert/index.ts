/**
 * `crossattn convert`: one .crossattn file from a model in another engine's format. The format is
 * recognised from the files (docs/convert.md):
 * - a Hugging Face MarianMT folder (OPUS-MT): config.json with model_type "marian" and model.safetensors;
 * - a transformers.js folder (Xenova/opus-mt-*): config.json, tokenizer.json and onnx/encoder_model*.onnx;
 * - a Marian model as Bergamot and Firefox ship it: a .npz or .bin file (gzipped or not), or a folder holding one.
 */
import { existsSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { ConvertError } from './convert-error.js';
import { writeModelFile, type ConvertedModel, type ConvertOptions } from './model-file.js';

/** The formats `convert` reads. */
export type InputFormat = 'huggingface-marian' | 'transformers.js' | 'marian';

const isFile = (path: string) => existsSync(path) && statSync(path).isFile();
const isDir = (path: string) => existsSync(path) && statSync(path).isDirectory();

/**
 * The format of `input`, a file or folder, and the folder or file its converter reads.
 * @throws ConvertError when it does not exist or holds none of the formats.
 */
export function detectFormat(input: string): { format: InputFormat; path: string } {
  if (!existsSync(input)) throw new ConvertError(input, 'input', 'no such file or folder');
  if (isFile(input)) {
    if (/\.(npz|bin)(\.gz)?$/.test(input)) return { format: 'marian', path: input };
    if (input.endsWith('.onnx')) return detectFormat(dirname(dirname(input)));
    if (/\.safetensors$|config\.json$/.test(input)) return detectFormat(dirname(input));
    throw new ConvertError(input, 'input', 'not a model file crossattn converts (.npz, .bin, a Hugging Face or transformers.js folder)');
  }
  const has = (name: string) => isFile(join(input, name));
  if (isDir(join(input, 'onnx')) && has('tokenizer.json')) return { format: 'transformers.js', path: input };
  if (has('config.json') && (has('model.safetensors') || has('pytorch_model.bin'))) return { format: 'huggingface-marian', path: input };
  if (readdirSync(input).some((f) => /\.(npz|bin)(\.gz)?$/.test(f) && !/^lex\./.test(f))) return { format: 'marian', path: input };
  throw new ConvertError(input, 'input', 'holds no model crossattn converts: a Hugging Face MarianMT folder (config.json, ' +
    'model.safetensors), a transformers.js folder (tokenizer.json, onnx/), or a Marian model (.npz or .bin)');
}

/** The converted model of `input` in memory (the converters are loaded on first use). */
export async function convertModel(input: string, options: ConvertOptions = {}): Promise<ConvertedModel> {
  const { format, path } = detectFormat(input);
  if (format === 'huggingface-marian') return (await import('./huggingface.js')).convertHuggingFace(path, options);
  if (format === 'transformers.js') return (await import('./transformers-js.js')).convertTransformersJs(path, options);
  return (await import('./marian.js')).convertMarian(path, options);
}

/**
 * Converts `input` and writes the .crossattn file to `output`. The file appears whole or not at
 * all: it is written beside `output` under a temporary name and renamed.
 * @param version the converter's version, recorded in the file's metadata.
 * @returns the converted model (its config and provenance, for a summary).
 * @throws ConvertError for bad input; nothing is written then.
 */
export async function convertFile(input: string, output: string, version: string, options: ConvertOptions = {}): Promise<ConvertedModel> {
  const model = await convertModel(input, options);
  const bytes = await writeModelFile(model, version);
  const partial = join(dirname(output), `.${basename(output)}.partial`);
  try {
    writeFileSync(partial, bytes);
    renameSync(partial, output);
  } catch (e) {
    rmSync(partial, { force: true });
    throw new ConvertError(output, 'output', `cannot write: ${e instanceof Error ? e.message : String(e)}`);
  }
  return model;
}
