/**
 * A model by its Hub id, made into a .crossattn file in memory, in Node and in browsers: its files
 * fetched (hub-repository.ts), converted (convert/), and by default quantized to int8 per row
 * (convert/quantize.ts, as models/quantize.py makes the shipped int8 files). Node keeps the result
 * (hub-model.ts); the page's worker (convert-worker.ts) hands it to the page, which keeps it.
 */
import { convertFiles } from '../convert/convert-model.js';
import { writeModelFile } from '../convert/model-file.js';
import { memoryFiles } from '../convert/model-files.js';
import { quantizeRows } from '../convert/quantize.js';
import { MAX_FILE_BYTES, type ProgressCallback } from '../sources.js';
import { fetchRepository, type HubFormat } from './hub-repository.js';
import { hubEndpoint, resolveUrl, type HubModelRef } from './hub-id.js';

/** How a model is fetched by name and converted. */
export interface HubOptions {
  /** The Hub's URL: default HF_ENDPOINT when set (Node), else https://huggingface.co. Mirrors serve the same layout. */
  endpoint?: string;
  /** Where Node keeps converted models: default `$XDG_CACHE_HOME/crossattn`, else `~/.cache/crossattn`. */
  cacheDir?: string;
  /** A transformers.js repository: read its `_quantized` (q8) ONNX files instead of the fp32 ones. */
  quantized?: boolean;
  /**
   * Keep the weights as the repository stores them instead of quantizing each weight matrix to
   * int8 per row (the default: a quarter of float32's size, and the engine's faster kernels).
   */
  float32?: boolean;
  /** Attempts after the first when a connection drops or the server answers 5xx (default 3). */
  retries?: number;
  /** Download progress: bytes of the file so far, its total, and its path in the repository. */
  onProgress?: ProgressCallback;
  /** Called once every file is downloaded, as the conversion starts. */
  onConverting?: () => void;
}

/** What a converted model was made from (Node keeps it as source.json beside the model). */
export interface HubSource {
  endpoint: string;
  id: string;
  revision: string;
  format: HubFormat;
  /** The repository's files read, with their sizes and ETags. */
  files: { path: string; size: number; etag?: string }[];
  weights: 'int8' | 'as stored';
  converter: string;
}

/**
 * The .crossattn bytes of `ref`'s model, and what they were made from.
 * @param version the package's version, recorded in the file as its converter's.
 * @throws DownloadError (not-found, no-model, connection, integrity, http), or ConvertError naming a
 *   file by its URL when the repository's files do not convert.
 */
export async function convertByName(ref: HubModelRef, options: HubOptions, version: string): Promise<{ bytes: Uint8Array; source: HubSource }> {
  const endpoint = hubEndpoint(options.endpoint);
  const repository = await fetchRepository(endpoint, ref, { ...options, maxBytes: MAX_FILE_BYTES });
  options.onConverting?.();
  const root = resolveUrl(endpoint, ref, '').replace(/\/$/, '');
  const files = memoryFiles(root, ref.id.split('/')[1], repository.files);
  const model = await convertFiles(files, { quantized: options.quantized, source: `${endpoint}/${ref.id}` });
  repository.files.clear();  // the downloads' memory, before the file is written
  const bytes = await writeModelFile(options.float32 ? model : await quantizeRows(model), version);
  const source: HubSource = {
    endpoint, id: ref.id, revision: ref.revision, format: repository.format, files: repository.record,
    weights: options.float32 ? 'as stored' : 'int8', converter: `crossattn ${version}`,
  };
  return { bytes, source };
}
