/**
 * The page's side of the conversion worker (convert-worker.ts, bundled as dist/convert-worker.js):
 * asks it for a model by its Hub id and resolves to the .crossattn bytes, which Translator.load or
 * WorkerPool.load then takes.
 *
 * @example
 *   const worker = new Worker(new URL('crossattn/convert-worker.js', import.meta.url), { type: 'module' });
 *   const { bytes } = await convertInWorker(worker, 'Helsinki-NLP/opus-mt-en-fr', {
 *     onProgress: (loaded, total, file) => console.log(file, loaded, total),
 *   });
 *   const t = await Translator.load(bytes);
 */
import { CrossattnError, DownloadError, InvalidInputError, LoadError, WorkerError, type DownloadFailure } from '../errors.js';
import { ConvertError } from '../convert/convert-error.js';
import type { HubOptions, HubSource } from './convert-by-name.js';
import type { FileSet } from './convert-file-set.js';
import type { ConvertRequest } from './convert-worker.js';

type Reply =
  | { type: 'progress'; file: string; loaded: number; total: number }
  | { type: 'converting' }
  | { type: 'done'; bytes: Uint8Array; source?: HubSource }
  | { type: 'error'; name: string; message: string; reason?: DownloadFailure; file?: string; field?: string };

/** The typed error for a worker's {name, message, reason}. */
function errorOf(reply: Extract<Reply, { type: 'error' }>): CrossattnError {
  if (reply.name === 'DownloadError') return new DownloadError(reply.message, reply.reason ?? 'http');
  if (reply.name === 'ConvertError' && reply.file !== undefined && reply.field !== undefined) {
    const prefix = `${reply.file}: ${reply.field}: `;  // ConvertError's own message starts so
    return new ConvertError(reply.file, reply.field, reply.message.startsWith(prefix) ? reply.message.slice(prefix.length) : reply.message);
  }
  if (reply.name === 'InvalidInputError') return new InvalidInputError(reply.message);
  return new LoadError(reply.message);
}

/** Sends `message` to the conversion worker and resolves with its result, passing its progress on. */
function request(worker: Worker, message: ConvertRequest, progress: Progress): Promise<{ bytes: Uint8Array; source?: HubSource }> {
  return new Promise((resolve, reject) => {
    const done = () => {
      worker.removeEventListener('message', onMessage);
      worker.removeEventListener('error', onError);
    };
    const onError = (e: ErrorEvent) => {
      done();
      reject(new WorkerError(`the conversion worker failed: ${e.message || 'its script did not load'}`));
    };
    const onMessage = (e: MessageEvent<Reply>) => {
      const reply = e.data;
      if (reply.type === 'progress') return progress.onProgress?.(reply.loaded, reply.total, reply.file);
      if (reply.type === 'converting') return progress.onConverting?.();
      done();
      if (reply.type === 'done') resolve({ bytes: reply.bytes, source: reply.source });
      else reject(errorOf(reply));
    };
    worker.addEventListener('message', onMessage);
    worker.addEventListener('error', onError);
    worker.postMessage(message);
  });
}

/** Progress callbacks of a conversion in the worker. */
type Progress = Pick<HubOptions, 'onProgress' | 'onConverting'>;

/**
 * Converts the model named `name` (a Hub id) in `worker`, which must run dist/convert-worker.js.
 * One conversion at a time per worker; the worker stays usable after an error.
 * @throws DownloadError, ConvertError, InvalidInputError (not a Hub id) or LoadError, as the worker
 *   met them; WorkerError when the worker fails to start or dies.
 */
export async function convertInWorker(worker: Worker, name: string, options: Omit<HubOptions, 'cacheDir'> = {}): Promise<{ bytes: Uint8Array; source: HubSource }> {
  const { onProgress, onConverting, ...rest } = options;
  const { bytes, source } = await request(worker, { type: 'convert', name, options: rest }, { onProgress, onConverting });
  return { bytes, source: source! };
}

/**
 * Converts the model `set` lists (files at URLs with their sizes and SHA-256s: a Firefox Translations
 * record of models/pairs.json) in `worker`, as convertInWorker does a Hub id.
 * @throws DownloadError (a file missing or not as listed), ConvertError, LoadError; WorkerError.
 */
export async function convertFileSetInWorker(worker: Worker, set: FileSet, options: { float32?: boolean; retries?: number } & Progress = {}): Promise<Uint8Array> {
  const { onProgress, onConverting, ...rest } = options;
  return (await request(worker, { type: 'convert-files', set, options: rest }, { onProgress, onConverting })).bytes;
}
