/**
 * Conversion from a model's files wherever they are (model-files.ts): the format recognised from
 * the files, and its converter, loaded on first use. Runs in Node and in browsers (the page's
 * worker converts a download with it); index.ts adds Node's paths.
 */
import { ConvertError } from './convert-error.js';
import type { ConvertedModel, ConvertOptions } from './model-file.js';
import type { ModelFiles } from './model-files.js';

/** The formats `convert` reads. */
export type InputFormat = 'huggingface-marian' | 'transformers.js' | 'marian';

/** A Marian model file's name (.npz or .bin, gzipped or not; not a shortlist). */
export const MARIAN_MODEL = (name: string) => /\.(npz|bin)(\.gz)?$/.test(name) && !/^lex\./.test(name);

/**
 * The format of the model in `files`.
 * @throws ConvertError when they hold none of the formats.
 */
export function filesFormat(files: ModelFiles): InputFormat {
  if (files.has('tokenizer.json') && ['encoder_model.onnx', 'encoder_model_quantized.onnx'].some((f) => files.has(`onnx/${f}`))) return 'transformers.js';
  if (files.has('config.json') && (files.has('model.safetensors') || files.has('pytorch_model.bin'))) return 'huggingface-marian';
  if (files.names().some(MARIAN_MODEL)) return 'marian';
  throw new ConvertError(files.root, 'input', 'holds no model crossattn converts: a Hugging Face MarianMT folder (config.json, ' +
    'model.safetensors or pytorch_model.bin), a transformers.js folder (tokenizer.json, onnx/), or a Marian model (.npz or .bin)');
}

/**
 * The converted model of `files` in memory.
 * @param model a Marian model's file name in `files`, when the folder holds several.
 * @throws ConvertError naming the file and field (each converter says which).
 */
export async function convertFiles(files: ModelFiles, options: ConvertOptions = {}, format = filesFormat(files), model?: string): Promise<ConvertedModel> {
  if (format === 'huggingface-marian') return (await import('./huggingface.js')).convertHuggingFace(files, options);
  if (format === 'transformers.js') return (await import('./transformers-js.js')).convertTransformersJs(files, options);
  return (await import('./marian.js')).convertMarian(files, model, options);
}
