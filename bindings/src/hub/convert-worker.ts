/**
 * A Web Worker that fetches a model by its Hub id and converts it (convert-by-name.ts), off the
 * page's thread: the page keeps typing and translating while hundreds of megabytes download and
 * convert. `npm run build` bundles this file with the converters into dist/convert-worker.js, a
 * module worker with no imports; convert-client.ts talks to it.
 *
 * Messages in: {type: 'convert', name, options: {endpoint, quantized, float32, retries}} for a model by
 * its Hub id, or {type: 'convert-files', set, options: {float32, retries}} for a set of files at URLs
 * (convert-file-set.ts: a Firefox Translations model as models/pairs.json lists it).
 * Out: {type: 'progress', file, loaded, total} while it downloads, {type: 'converting'} once, then
 * {type: 'done', bytes, source} (the bytes'
 * buffer transferred) or {type: 'error', name, message, reason?, file?, field?}.
 */
import { ConvertError } from '../convert/convert-error.js';
import { CrossattnError, DownloadError, InvalidInputError } from '../errors.js';
import { convertByName, type HubOptions } from './convert-by-name.js';
import { convertFileSet, type FileSet } from './convert-file-set.js';
import { parseHubId } from './hub-id.js';

/** The package's version, written into the bundle by tools/build-convert-worker.js. */
declare const __CROSSATTN_VERSION__: string;

/** A message the worker accepts. */
export type ConvertRequest =
  | { type: 'convert'; name: string; options: Omit<HubOptions, 'onProgress' | 'onConverting' | 'cacheDir'> }
  | { type: 'convert-files'; set: FileSet; options: { float32?: boolean; retries?: number } };

const scope = globalThis as unknown as { postMessage(message: unknown, transfer?: Transferable[]): void; onmessage: ((e: MessageEvent<ConvertRequest>) => void) | null };

async function convert(request: ConvertRequest): Promise<void> {
  const onProgress = (loaded: number, total: number, file?: string) => scope.postMessage({ type: 'progress', file, loaded, total });
  const onConverting = () => scope.postMessage({ type: 'converting' });
  if (request.type === 'convert-files') {
    const bytes = await convertFileSet(request.set, { ...request.options, onProgress, onConverting }, __CROSSATTN_VERSION__);
    return scope.postMessage({ type: 'done', bytes }, [bytes.buffer as ArrayBuffer]);
  }
  const ref = parseHubId(request.name);
  if (ref === null) throw new InvalidInputError(`'${request.name}' is not a Hugging Face Hub id (owner/name, or owner/name@revision)`);
  const { bytes, source } = await convertByName(ref, { ...request.options, onProgress, onConverting }, __CROSSATTN_VERSION__);
  scope.postMessage({ type: 'done', bytes, source }, [bytes.buffer as ArrayBuffer]);
}

scope.onmessage = (event) => {
  if (event.data?.type !== 'convert' && event.data?.type !== 'convert-files') return;
  convert(event.data).catch((e: unknown) => {
    const error = e instanceof Error ? e : new Error(String(e));
    scope.postMessage({
      type: 'error', name: e instanceof CrossattnError ? error.name : 'Error', message: error.message,
      reason: e instanceof DownloadError ? e.reason : undefined,
      ...(e instanceof ConvertError ? { file: e.file, field: e.field } : {}),
    });
  });
};
