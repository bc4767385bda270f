/**
 * Which files of a Hub repository make a model crossattn converts, fetched into memory: `config.json`,
 * then `model.safetensors`, else `pytorch_model.bin` (with `vocab.json`, `source.spm`, `target.spm`,
 * `tokenizer_config.json` if present, and `target_vocab.json` for separate vocabularies: OPUS-MT's
 * Hugging Face layout), else the transformers.js ONNX files (`onnx/encoder_model.onnx` and
 * `onnx/decoder_model_merged.onnx` or `onnx/decoder_model.onnx`, or their `_quantized` q8 forms,
 * with `tokenizer.json`).
 */
import { DownloadError } from '../errors.js';
import type { ProgressCallback } from '../sources.js';
import { fetchFile } from './fetch-file.js';
import { resolveUrl, type HubModelRef } from './hub-id.js';

/** The layout a repository's model came in. */
export type HubFormat = 'safetensors' | 'pytorch' | 'onnx';

/** A repository's files, fetched. */
export interface FetchedRepository {
  format: HubFormat;
  /** Each file's bytes by its path in the repository. */
  files: Map<string, Uint8Array>;
  /** Each file's size and ETag (its SHA-256 or git SHA-1 when the server gives one). */
  record: { path: string; size: number; etag?: string }[];
}

/** How a repository is fetched. */
export interface FetchRepositoryOptions {
  /** Read the `_quantized` (q8) ONNX files of a transformers.js repository. */
  quantized?: boolean;
  retries?: number;
  onProgress?: ProgressCallback;
  /** The largest file accepted, in bytes. */
  maxBytes: number;
}

/** The HF MarianMT files besides the weights; '?' marks optional ones. */
const MARIAN_FILES = ['vocab.json', 'source.spm', 'target.spm', 'tokenizer_config.json?'];

class Fetcher {
  readonly files = new Map<string, Uint8Array>();
  readonly record: FetchedRepository['record'] = [];

  constructor(readonly endpoint: string, readonly ref: HubModelRef, private readonly options: FetchRepositoryOptions) {}

  /** Fetches `path`; false when it does not exist and `optional`. */
  async get(path: string, optional = false): Promise<boolean> {
    try {
      const { bytes, etag } = await fetchFile(resolveUrl(this.endpoint, this.ref, path), { ...this.options, file: path });
      this.files.set(path, bytes);
      this.record.push({ path, size: bytes.length, etag });
      return true;
    } catch (e) {
      if (optional && e instanceof DownloadError && e.reason === 'not-found') return false;
      throw e;
    }
  }

  /** The first of `paths` the repository has, fetched; undefined when it has none. */
  async first(paths: string[]): Promise<string | undefined> {
    for (const path of paths) if (await this.get(path, true)) return path;
    return undefined;
  }

  url(path: string): string {
    return resolveUrl(this.endpoint, this.ref, path);
  }
}

/** The rest of a Hugging Face MarianMT folder, once its weights are fetched. */
async function fetchMarianFiles(f: Fetcher): Promise<void> {
  for (const file of MARIAN_FILES) await f.get(file.replace(/\?$/, ''), file.endsWith('?'));
  let config: { share_encoder_decoder_embeddings?: unknown } = {};
  try {
    config = JSON.parse(new TextDecoder().decode(f.files.get('config.json')));
  } catch {
    return;  // the converter names the broken config.json
  }
  if (config?.share_encoder_decoder_embeddings === false) await f.get('target_vocab.json');
}

/** A transformers.js repository's decoder and tokenizer, once its encoder is fetched. */
async function fetchOnnxFiles(f: Fetcher, suffix: string): Promise<void> {
  const decoders = [`onnx/decoder_model_merged${suffix}.onnx`, `onnx/decoder_model${suffix}.onnx`];
  if ((await f.first(decoders)) === undefined) {
    throw new DownloadError(`${f.ref.id} has onnx/encoder_model${suffix}.onnx but neither ${decoders.join(' nor ')}`, 'no-model', f.url(decoders[0]), decoders[0]);
  }
  await f.get('tokenizer.json');
  await f.get('tokenizer_config.json', true);
}

/**
 * Fetches the files of `ref`'s model from `endpoint`, trying the layouts in order.
 * @throws DownloadError: 'not-found' (no such repository or revision: its config.json is not found),
 *   'no-model' (none of the layouts), or as fetchFile for a file that fails.
 */
export async function fetchRepository(endpoint: string, ref: HubModelRef, options: FetchRepositoryOptions): Promise<FetchedRepository> {
  const f = new Fetcher(endpoint, ref, options);
  if (!(await f.get('config.json', true))) {
    throw new DownloadError(`${endpoint} has no repository ${ref.id} at revision ${ref.revision} (its config.json is not found)`, 'not-found', f.url('config.json'), 'config.json');
  }
  await f.get('README.md', true);  // the model card, whose front matter may state the licence (model-card.ts)
  const weights = await f.first(['model.safetensors', 'pytorch_model.bin']);
  if (weights !== undefined) {
    await fetchMarianFiles(f);
    return { format: weights === 'model.safetensors' ? 'safetensors' : 'pytorch', files: f.files, record: f.record };
  }
  const suffix = options.quantized ? '_quantized' : '';
  if (await f.first([`onnx/encoder_model${suffix}.onnx`])) {
    await fetchOnnxFiles(f, suffix);
    return { format: 'onnx', files: f.files, record: f.record };
  }
  throw new DownloadError(`${ref.id} at revision ${ref.revision} holds no model crossattn converts: none of model.safetensors, ` +
    `pytorch_model.bin, onnx/encoder_model${suffix}.onnx`, 'no-model', f.url('model.safetensors'));
}
