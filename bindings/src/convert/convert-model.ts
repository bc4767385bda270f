/**
 * Conversion from a model's files wherever they are (model-files.ts): the format recognised from
 * the files, and its converter, loaded on first use. Runs in Node and in browsers (the page's
 * worker converts a download with it); index.ts adds Node's paths.
 */
import { ConvertError } from './convert-error.js';
import type { ConvertedModel, ConvertOptions } from './model-file.js';
import type { ModelFiles } from './model-files.js';
import { isLanguageTag } from '../language-tag.js';

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
  const converted = format === 'huggingface-marian' ? await (await import('./huggingface.js')).convertHuggingFace(files, options)
    : format === 'transformers.js' ? await (await import('./transformers-js.js')).convertTransformersJs(files, options)
      : await (await import('./marian.js')).convertMarian(files, model, options);
  for (const field of ['source_lang', 'target_lang'] as const) {
    const tag = converted.config[field];
    if (!isLanguageTag(tag)) {
      throw new ConvertError(files.root, field, `${JSON.stringify(tag)} is not a BCP 47 language tag (as "en" or "pt-BR"): give --from and --to`);
    }
  }
  return converted;
}
