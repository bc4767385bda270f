/**
 * A model given as a set of files at URLs, as models/pairs.json lists a Firefox Translations model
 * (its model, lexical shortlist and vocabulary, each with its size and SHA-256): fetched
 * (fetch-file.ts), each checked against the listed hash, and converted (convert/) into .crossattn
 * bytes, in Node and in the page's conversion worker.
 */
import { convertFiles } from '../convert/convert-model.js';
import { writeModelFile } from '../convert/model-file.js';
import { memoryFiles } from '../convert/model-files.js';
import { quantizeRows } from '../convert/quantize.js';
import { DownloadError } from '../errors.js';
import { MAX_FILE_BYTES, type ProgressCallback } from '../sources.js';
import { digest, fetchFile } from './fetch-file.js';

/** One file of a set: its name in the model's folder, where it is, and what it must be. */
export interface ListedFile { name: string; url: string; size?: number; sha256?: string }

/** A model as a set of files (a models/pairs.json record). */
export interface FileSet {
  /** The model's folder name ('enfr'), which its converter may read languages from. */
  name: string;
  /** Where it comes from (a web page), recorded as the model's source. */
  source: string;
  /** The licence and the credit the list gives (models/pairs.json: license, attribution), recorded as they are. */
  license?: string;
  attribution?: string;
  files: ListedFile[];
}

/**
 * The .crossattn bytes of the model `set` lists. Float weights are quantized to int8 per row unless
 * `float32`; int8 ones (Bergamot's intgemm8) stay as they are.
 * @throws DownloadError (a file missing, unreachable, or not of the listed size or SHA-256), or
 *   ConvertError naming a file by its URL.
 */
export async function convertFileSet(set: FileSet, options: { float32?: boolean; retries?: number; onProgress?: ProgressCallback; onConverting?: () => void } = {},
  version: string): Promise<Uint8Array> {
  const files = new Map<string, Uint8Array>();
  for (const f of set.files) {
    const { bytes } = await fetchFile(f.url, { file: f.name, maxBytes: f.size ?? MAX_FILE_BYTES, retries: options.retries, onProgress: options.onProgress });
    if (f.size !== undefined && bytes.length !== f.size) throw new DownloadError(`${f.url}: ${bytes.length} bytes, the list says ${f.size}`, 'integrity', f.url, f.name);
    const got = f.sha256 === undefined ? undefined : await digest('SHA-256', bytes);
    if (got !== f.sha256) throw new DownloadError(`${f.url}: SHA-256 ${got}, the list says ${f.sha256}`, 'integrity', f.url, f.name);
    files.set(f.name, bytes);
  }
  options.onConverting?.();
  const root = set.files[0]?.url.replace(/\/[^/]*$/, '') ?? set.source;
  const model = await convertFiles(memoryFiles(root, set.name, files), { source: set.source, license: set.license, attribution: set.attribution });
  files.clear();
  return writeModelFile(options.float32 ? model : await quantizeRows(model), version);
}
