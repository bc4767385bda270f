/** Reading bytes from what a user hands us: bytes, a URL, or (in Node) a file path. */
import { InvalidInputError, LoadError } from './errors.js';

/** Bytes of a model or wasm file: given directly, or a URL, or a file path in Node. */
export type ByteSource = string | URL | ArrayBuffer | Uint8Array;

/** Called while a download progresses: bytes so far and the total (0 when the server gives none). */
export type ProgressCallback = (loadedBytes: number, totalBytes: number) => void;

const isNode = typeof process !== 'undefined' && typeof process.versions?.node === 'string';

function isUrlLike(s: string): boolean {
  return /^(https?|file|blob|data):/i.test(s);
}

/** The largest file read (bytes): a model or wasm file past it is refused before it is read. */
export const MAX_FILE_BYTES = 1 << 30;

const tooLarge = (what: string, bytes: number) =>
  new LoadError(`${what} is ${bytes} bytes; files above ${MAX_FILE_BYTES} bytes (1 GiB) are refused`);

async function fetchWithProgress(url: string | URL, onProgress?: ProgressCallback): Promise<Uint8Array> {
  let response: Response;
  try {
    response = await fetch(url);
  } catch (e) {
    throw new LoadError(`cannot fetch ${url}: ${e instanceof Error ? (e.cause instanceof Error ? e.cause.message : e.message) : String(e)}`);
  }
  if (!response.ok) throw new LoadError(`cannot fetch ${url}: HTTP ${response.status}`);
  const total = Number(response.headers.get('content-length') ?? 0);
  if (total > MAX_FILE_BYTES) throw tooLarge(String(url), total);
  if (!response.body || !onProgress) return new Uint8Array(await response.arrayBuffer());
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let loaded = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    loaded += value.length;
    if (loaded > MAX_FILE_BYTES) {
      await reader.cancel();
      throw tooLarge(String(url), loaded);
    }
    onProgress(loaded, total);
  }
  const bytes = new Uint8Array(loaded);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}

/** A file of at most MAX_FILE_BYTES, read in Node; anything else (missing, a device, a folder) is a LoadError. */
async function readFileBounded(path: string | URL): Promise<Uint8Array> {
  const { open } = await import('node:fs/promises');
  const name = path instanceof URL ? path.pathname : path;
  try {
    const file = await open(path, 'r');
    try {
      const stat = await file.stat();
      if (!stat.isFile()) throw new LoadError(`${name} is not a regular file`);
      if (stat.size > MAX_FILE_BYTES) throw tooLarge(name, stat.size);
      return new Uint8Array(await file.readFile());
    } finally {
      await file.close();
    }
  } catch (e) {
    if (e instanceof LoadError) throw e;
    const code = (e as { code?: string }).code;
    throw new LoadError(code === 'ENOENT' ? `${name} does not exist` : `cannot read ${name}: ${code ?? String(e)}`);
  }
}

/**
 * The bytes of `source`. In Node, a string that is not a URL is a file path; file: URLs are read.
 * @throws InvalidInputError if `source` is none of bytes, a URL or a string; LoadError if it cannot
 *   be read or fetched, is not a regular file, or is larger than MAX_FILE_BYTES.
 */
export async function readBytes(source: ByteSource, onProgress?: ProgressCallback): Promise<Uint8Array> {
  if (source instanceof Uint8Array) return source;
  if (source instanceof ArrayBuffer) return new Uint8Array(source);
  if (typeof source !== 'string' && !(source instanceof URL)) {
    throw new InvalidInputError('a model or wasm file must be given as bytes (Uint8Array, ArrayBuffer), a URL or a path');
  }
  let asUrl: URL | null = null;
  try {
    asUrl = source instanceof URL ? source : isUrlLike(source) ? new URL(source) : null;
  } catch {
    throw new InvalidInputError(`not a valid URL: ${source}`);
  }
  if (isNode && (asUrl === null || asUrl.protocol === 'file:')) {
    const bytes = await readFileBounded(asUrl ?? (source as string));
    onProgress?.(bytes.length, bytes.length);
    return bytes;
  }
  return fetchWithProgress(asUrl ?? source, onProgress);
}
