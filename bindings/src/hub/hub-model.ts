/**
 * A model by its Hub id in Node: the repository's files downloaded (download-file.ts), converted
 * (convert/), and the converted file kept (hub-cache.ts), so that a second load makes no request
 * and works offline. The files are looked for in this order: `model.safetensors`, else
 * `pytorch_model.bin` (a Hugging Face MarianMT folder, OPUS-MT's layout), else the transformers.js
 * ONNX files (`onnx/encoder_model.onnx` and `onnx/decoder_model_merged.onnx`, or their
 * `_quantized` q8 forms with `quantized`).
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ConvertError } from '../convert/convert-error.js';
import { CrossattnError, DownloadError, LoadError } from '../errors.js';
import { MAX_FILE_BYTES, type ProgressCallback } from '../sources.js';
import { downloadFile } from './download-file.js';
import { cacheRoot, MODEL_FILE, modelFolder, SOURCE_FILE } from './hub-cache.js';
import { hubEndpoint, resolveUrl, type HubModelRef } from './hub-id.js';

/** How a model is fetched by name. */
export interface HubOptions {
  /** The Hub's URL: default HF_ENDPOINT when set, else https://huggingface.co. Mirrors serve the same layout. */
  endpoint?: string;
  /** Where converted models are kept: default `$XDG_CACHE_HOME/crossattn`, else `~/.cache/crossattn`. */
  cacheDir?: string;
  /** A transformers.js repository: read its `_quantized` (q8) ONNX files instead of the fp32 ones. */
  quantized?: boolean;
  /**
   * Keep the weights as the repository stores them (float32) instead of quantizing each linear
   * layer and embedding to int8 per row (the default, as models/quantize.py: a quarter of the size,
   * and the engine's faster kernels).
   */
  float32?: boolean;
  /** Attempts after the first when a connection drops or the server answers 5xx (default 3). */
  retries?: number;
  /** Download progress: bytes of the file so far, its total, and its path in the repository. */
  onProgress?: ProgressCallback;
}

/** What a kept model was made from (source.json). */
export interface HubSource {
  endpoint: string;
  id: string;
  revision: string;
  format: 'safetensors' | 'pytorch' | 'onnx';
  /** The repository's files read, with their ETags. */
  files: { path: string; size: number; etag?: string }[];
  weights: 'int8' | 'as stored';
  converter: string;
}

/** The Hugging Face MarianMT files besides the weights; `?` marks optional ones. */
const MARIAN_FILES = ['vocab.json', 'source.spm', 'target.spm', 'tokenizer_config.json?'];

/** Downloads the repository's files into a staging folder, file by file. */
class Staging {
  readonly files: HubSource['files'] = [];

  constructor(readonly folder: string, private readonly endpoint: string, private readonly ref: HubModelRef, private readonly options: HubOptions) {}

  /** Downloads `path` of the repository; false when it does not exist and `optional`. */
  async get(path: string, optional = false): Promise<boolean> {
    const url = resolveUrl(this.endpoint, this.ref, path), to = join(this.folder, path);
    mkdirSync(dirname(to), { recursive: true });
    try {
      const { size, etag } = await downloadFile(url, to, { file: path, maxBytes: MAX_FILE_BYTES, retries: this.options.retries, onProgress: this.options.onProgress });
      this.files.push({ path, size, etag });
      return true;
    } catch (e) {
      rmSync(to, { force: true });
      if (optional && e instanceof DownloadError && e.reason === 'not-found') return false;
      throw e;
    }
  }

  /** The first of `paths` the repository has, downloaded; undefined when it has none. */
  async first(paths: string[]): Promise<string | undefined> {
    for (const path of paths) if (await this.get(path, true)) return path;
    return undefined;
  }
}

/** Downloads what the repository's format needs; returns the format. */
async function downloadModel(staging: Staging, ref: HubModelRef, endpoint: string, options: HubOptions): Promise<HubSource['format']> {
  if (!(await staging.get('config.json', true))) {
    throw new DownloadError(`${endpoint} has no repository ${ref.id} at revision ${ref.revision} (its config.json is not found)`, 'not-found', resolveUrl(endpoint, ref, 'config.json'), 'config.json');
  }
  const weights = await staging.first(['model.safetensors', 'pytorch_model.bin']);
  if (weights !== undefined) {
    for (const file of MARIAN_FILES) await staging.get(file.replace(/\?$/, ''), file.endsWith('?'));
    const config = JSON.parse(readFileSync(join(staging.folder, 'config.json'), 'utf8')) as { share_encoder_decoder_embeddings?: boolean };
    if (config.share_encoder_decoder_embeddings === false) await staging.get('target_vocab.json');
    return weights === 'model.safetensors' ? 'safetensors' : 'pytorch';
  }
  const suffix = options.quantized ? '_quantized' : '';
  if (await staging.first([`onnx/encoder_model${suffix}.onnx`])) {
    const decoders = [`onnx/decoder_model_merged${suffix}.onnx`, `onnx/decoder_model${suffix}.onnx`];
    if ((await staging.first(decoders)) === undefined) {
      throw new DownloadError(`${ref.id} has onnx/encoder_model${suffix}.onnx but neither ${decoders.join(' nor ')}`, 'no-model', resolveUrl(endpoint, ref, decoders[0]), decoders[0]);
    }
    await staging.get('tokenizer.json');
    await staging.get('tokenizer_config.json', true);
    return 'onnx';
  }
  throw new DownloadError(`${ref.id} at revision ${ref.revision} holds no model crossattn converts: none of model.safetensors, ` +
    `pytorch_model.bin, onnx/encoder_model${suffix}.onnx`, 'no-model', resolveUrl(endpoint, ref, 'model.safetensors'));
}

/** A ConvertError about a staged file, re-worded with the file's URL (the staging folder is removed). */
function convertErrorAt(e: unknown, staged: string, endpoint: string, ref: HubModelRef): unknown {
  if (!(e instanceof ConvertError) || !e.file.startsWith(staged)) return e;
  const url = resolveUrl(endpoint, ref, e.file.slice(staged.length + 1) || '.');
  return new ConvertError(url, e.field, e.message.slice(`${e.file}: `.length).replace(/^[^:]*: /, ''));
}

/** Converts the staged folder and writes the model and source.json beside it. */
async function convertStaged(staged: string, out: string, source: Omit<HubSource, 'weights' | 'converter'>, options: HubOptions, version: string): Promise<void> {
  const { convertModel } = await import('../convert/index.js');
  const { writeModelFile } = await import('../convert/model-file.js');
  const { quantizeRows } = await import('../convert/quantize.js');
  const model = await convertModel(staged, { quantized: options.quantized, source: `${source.endpoint}/${source.id}` });
  const weights = options.float32 ? 'as stored' : 'int8';
  writeFileSync(join(out, MODEL_FILE), await writeModelFile(options.float32 ? model : quantizeRows(model), version));
  const record: HubSource = { ...source, weights, converter: `crossattn ${version}` };
  writeFileSync(join(out, SOURCE_FILE), `${JSON.stringify(record, null, 2)}\n`);
}

/**
 * The path of the converted model for `ref`: the kept one when there is one (no request is made),
 * else the repository's files downloaded, converted and kept.
 * @param version the package's version, recorded in the file as its converter's.
 * @throws DownloadError (not-found, no-model, connection, integrity, http) or ConvertError (a
 *   repository whose files crossattn cannot convert, named by URL); nothing is kept after either.
 */
export async function fetchHubModel(ref: HubModelRef, options: HubOptions, version: string): Promise<string> {
  const endpoint = hubEndpoint(options.endpoint);
  const folder = modelFolder(cacheRoot(options.cacheDir), endpoint, ref);
  if (existsSync(join(folder, MODEL_FILE))) return join(folder, MODEL_FILE);
  const work = `${folder}.partial-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const staged = join(work, 'files', ref.id.split('/')[1]);  // the repository's name names the model (convert's identify)
  const out = join(work, 'model');
  try {
    mkdirSync(staged, { recursive: true });
    mkdirSync(out);
    const staging = new Staging(staged, endpoint, ref, options);
    const format = await downloadModel(staging, ref, endpoint, options);
    await convertStaged(staged, out, { endpoint, id: ref.id, revision: ref.revision, format, files: staging.files }, options, version);
    mkdirSync(dirname(folder), { recursive: true });
    try {
      renameSync(out, folder);
    } catch (e) {
      if (!existsSync(join(folder, MODEL_FILE))) throw e;  // another process kept the same model first
    }
    return join(folder, MODEL_FILE);
  } catch (e) {
    if (e instanceof CrossattnError) throw convertErrorAt(e, staged, endpoint, ref);
    throw new LoadError(`cannot keep ${ref.id} in ${folder}: ${e instanceof Error ? e.message : String(e)}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
