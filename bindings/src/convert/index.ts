/**
 * `crossattn convert`: one .crossattn file from a model in another engine's format. The format is
 * recognised from the files (docs/convert.md):
 * - a Hugging Face MarianMT folder (OPUS-MT): config.json with model_type "marian" and model.safetensors
 *   or pytorch_model.bin;
 * - a transformers.js folder (Xenova/opus-mt-*): config.json, tokenizer.json and onnx/encoder_model*.onnx;
 * - a Marian model as Bergamot and Firefox ship it: a .npz or .bin file (gzipped or not), or a folder holding one.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, lstatSync, openSync, realpathSync, renameSync, rmSync, statSync, writeSync, type Stats } from 'node:fs';
import { basename, dirname, join, sep } from 'node:path';
import { ConvertError } from './convert-error.js';
import { engineRefusal } from './engine-check.js';
import { Translator } from '../translator.js';
import { convertFiles, filesFormat, type InputFormat } from './convert-model.js';
import { folderFiles } from './folder-files.js';
import { writeModelFile, type ConvertedModel, type ConvertOptions } from './model-file.js';

export type { InputFormat } from './convert-model.js';

/**
 * The format of `input`, a file or folder, and the folder its converter reads (with the model file
 * named, for a Marian model given as a file).
 * @throws ConvertError when it does not exist or holds none of the formats.
 */
export function detectFormat(input: string): { format: InputFormat; path: string; model?: string } {
  if (!existsSync(input)) throw new ConvertError(input, 'input', 'no such file or folder');
  const kind = statSync(input);
  if (!kind.isFile() && !kind.isDirectory()) throw new ConvertError(input, 'input', 'is not a regular file or a folder (a FIFO, socket or device)');
  if (kind.isFile()) {
    if (/\.safetensors$|config\.json$|pytorch_model\.bin$/.test(input)) return detectFormat(dirname(input));
    if (/\.(npz|bin)(\.gz)?$/.test(input)) return { format: 'marian', path: dirname(input), model: basename(input) };
    if (input.endsWith('.onnx')) return detectFormat(dirname(dirname(input)));
    throw new ConvertError(input, 'input', 'not a model file crossattn converts (.npz, .bin, a Hugging Face or transformers.js folder)');
  }
  return { format: filesFormat(folderFiles(input)), path: input };
}

/** The converted model of `input` (a file or folder) in memory (the converters are loaded on first use). */
export async function convertModel(input: string, options: ConvertOptions = {}): Promise<ConvertedModel> {
  const { format, path, model } = detectFormat(input);
  return convertFiles(folderFiles(path), options, format, model);
}

/** What convertFile reports of the model it wrote: its config and where it came from. */
export type ConvertSummary = Pick<ConvertedModel, 'config' | 'provenance'>;

/**
 * Converts `input` and writes the .crossattn file to `output`. The file appears whole or not at
 * all: it is written beside `output` to a temporary file that this call creates (O_EXCL: never one
 * that exists, nor through a symlink planted in its place), loaded and run by the engine from there,
 * and renamed over `output` (a symlink at `output` is replaced, not written through). The converted
 * tensors and the file's bytes are let go before the engine loads it, so that memory holds one of
 * them at a time.
 * @param version the converter's version, recorded in the file's metadata.
 * @returns the model's config and provenance, for a summary.
 * @throws ConvertError for bad input, an output that is one of the input's files ('output'), or a
 *   converted model the engine refuses to load or run ('engine'); nothing is written then. A
 *   temporary file that cannot be removed after a failure is named in the message.
 */
export async function convertFile(input: string, output: string, version: string, options: ConvertOptions = {}): Promise<ConvertSummary> {
  checkOutput(input, output);
  const { summary, partial } = await writePartial(input, output, version, options);
  const refusal = await engineRefusal(partial, Translator);
  if (refusal !== undefined) throw new ConvertError(output, 'engine', `the engine refuses the converted model: ${refusal}${discard(partial)}`);
  try {
    renameSync(partial, output);
  } catch (e) {
    throw new ConvertError(output, 'output', `cannot write: ${e instanceof Error ? e.message : String(e)}${discard(partial)}`);
  }
  return summary;
}

/** Converts `input` and writes its .crossattn bytes to a temporary file beside `output`, created here; returns the summary and its path. */
async function writePartial(input: string, output: string, version: string, options: ConvertOptions): Promise<{ summary: ConvertSummary; partial: string }> {
  const model = await convertModel(input, options);
  const bytes = await writeModelFile(model, version);
  const partial = join(dirname(output), `.${basename(output)}.${process.pid}.${randomBytes(6).toString('hex')}.partial`);
  let fd: number | undefined;
  try {
    fd = openSync(partial, 'wx', 0o644);
    for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at);
    closeSync(fd);
  } catch (e) {
    if (fd !== undefined) closeSync(fd);
    throw new ConvertError(output, 'output', `cannot write: ${e instanceof Error ? e.message : String(e)}${fd === undefined ? '' : discard(partial)}`);
  }
  return { summary: { config: model.config, provenance: model.provenance }, partial };
}

/** Removes a temporary file after a failure: '' once it is gone, else words naming it for the error. */
function discard(partial: string): string {
  try {
    if (existsSync(partial)) rmSync(partial);
    return '';
  } catch {
    return `; the temporary file ${partial} is left and may be removed`;
  }
}

// The output must be a file or nothing yet (not a folder, FIFO or device, which the rename would
// replace), and may not be the input, nor a file inside the input folder that is not a .crossattn
// (writing there would destroy what the converter reads).
function checkOutput(input: string, output: string): void {
  const there = lstatOrUndefined(output);
  if (there && !there.isFile() && !there.isSymbolicLink()) {  // renaming over a device or FIFO would replace it
    throw new ConvertError(output, 'output', `is ${there.isDirectory() ? 'a folder' : 'not a regular file (a FIFO, socket or device)'}: name a .crossattn file to write`);
  }
  if (!existsSync(output) || !existsSync(input)) return;
  const [from, to] = [realpathSync(input), realpathSync(output)];
  const folder = statSync(from).isDirectory() ? from : dirname(from);
  if (to === from || (to.startsWith(`${folder}${sep}`) && !to.endsWith('.crossattn'))) {
    throw new ConvertError(output, 'output', `is ${to === from ? 'the input' : `a file of the input folder ${folder}`}: write the .crossattn elsewhere`);
  }
}

/** `path`'s own stat (a symlink's, not its target's), or undefined when nothing is there. */
function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}
