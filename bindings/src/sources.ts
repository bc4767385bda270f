/** Reading bytes from what a user hands us: bytes, a URL, or (in Node) a file path. */
import { InvalidInputError, LoadError } from './errors.js';

/** Bytes of a model or wasm file: given directly, or a URL, or a file path in Node. */
export type ByteSource = string | URL | ArrayBuffer | Uint8Array;

/**
 * Called while a download progresses: bytes so far and the total (0 when the server gives none);
 * `file` names the file when a model comes as several (a Hub repository's, by its path there).
 */
export type ProgressCallback = (loadedBytes: number, totalBytes: number, file?: string) => void;

const isNode = typeof process !== 'undefined' && typeof process.versions?.node === 'string';

function isUrlLike(s: string): boolean {
  return /^(https?|file|blob|data):/i.test(s);
}

/** The largest file read (bytes): a model or wasm file past it is refused before it is read. */
export const MAX_FILE_BYTES = 1 << 30;

const tooLarge = (what: string, bytes: number) =>
  new LoadError(`${what} is ${bytes} bytes; files above ${MAX_FILE_BYTES} bytes (1 GiB) are refused`);

/**
 * Storage that readInto fills: allocate(size) gives room for at least `size` bytes (the engine's
 * heap, possibly once the engine is ready, or a plain Uint8Array), view(buffer) its bytes (taken
 * anew before each write), free(buffer) gives it back when the read fails or needs a larger one.
 */
export interface FileSink<B> {
  allocate(size: number): B | Promise<B>;
  view(buffer: B): Uint8Array;
  free(buffer: B): void;
}

/** A file read into a sink's buffer: its first `size` bytes are the file. */
export interface FileInSink<B> {
  buffer: B;
  size: number;
}

const plainSink: FileSink<Uint8Array> = { allocate: (size) => new Uint8Array(size), view: (b) => b, free: () => {} };

async function copyInto<B>(bytes: Uint8Array, sink: FileSink<B>): Promise<FileInSink<B>> {
  const buffer = await sink.allocate(bytes.length);
  sink.view(buffer).set(bytes);
  return { buffer, size: bytes.length };
}

// A download written into the sink as it arrives when the server announces its length; chunks past
// that length (a compressed transfer whose announced length is the compressed one) switch to
// collecting the rest and copying once at the end.
async function fetchInto<B>(url: string | URL, sink: FileSink<B>, onProgress?: ProgressCallback): Promise<FileInSink<B>> {
  let response: Response;
  try {
    response = await fetch(url);
  } catch (e) {
    throw new LoadError(`cannot fetch ${url}: ${e instanceof Error ? (e.cause instanceof Error ? e.cause.message : e.message) : String(e)}`);
  }
  if (!response.ok) throw new LoadError(`cannot fetch ${url}: HTTP ${response.status}`);
  const total = Number(response.headers.get('content-length') ?? 0);
  if (total > MAX_FILE_BYTES) throw tooLarge(String(url), total);
  if (!response.body) return copyInto(new Uint8Array(await response.arrayBuffer()), sink);
  const reader = response.body.getReader();
  let buffer: B | null = total > 0 ? await sink.allocate(total) : null;
  const chunks: Uint8Array[] = [];  // once the bytes outgrow `buffer` (or there is none)
  let loaded = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (loaded + value.length > MAX_FILE_BYTES) {
        await reader.cancel();
        throw tooLarge(String(url), loaded + value.length);
      }
      if (buffer !== null && loaded + value.length <= total) {
        sink.view(buffer).set(value, loaded);
      } else {
        if (buffer !== null) {
          chunks.push(sink.view(buffer).slice(0, loaded));
          sink.free(buffer);
          buffer = null;
        }
        chunks.push(value);
      }
      loaded += value.length;
      onProgress?.(loaded, total);
    }
  } catch (e) {
    if (buffer !== null) sink.free(buffer);
    throw e;
  }
  if (buffer !== null) return { buffer, size: loaded };
  const into = await sink.allocate(loaded), view = sink.view(into);
  let offset = 0;
  for (const chunk of chunks) {
    view.set(chunk, offset);
    offset += chunk.length;
  }
  return { buffer: into, size: loaded };
}

/**
 * A file of at most MAX_FILE_BYTES read in Node straight into the sink; anything else (missing, a
 * FIFO, a device, a folder, a socket) is a LoadError, at once. The file is opened non-blocking, and
 * its type and size come from fstat on the opened descriptor, before any read: a plain open() of a
 * FIFO waits for a writer forever (and holds one of libuv's four file-I/O threads while it does),
 * and stat-then-open would look at one file and open another if the path changed in between.
 * O_NONBLOCK changes nothing for a regular file (POSIX open(3p), "O_NONBLOCK"); Windows has none.
 */
async function readFileInto<B>(path: string | URL, sink: FileSink<B>): Promise<FileInSink<B>> {
  const { open } = await import('node:fs/promises');
  const { constants } = await import('node:fs');
  const name = path instanceof URL ? path.pathname : path;
  try {
    const file = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    try {
      const stat = await file.stat();
      if (!stat.isFile()) throw new LoadError(`${name} is not a regular file`);
      if (stat.size > MAX_FILE_BYTES) throw tooLarge(name, stat.size);
      const buffer = await sink.allocate(stat.size);
      let size = 0;
      try {
        while (size < stat.size) {
          const { bytesRead } = await file.read(sink.view(buffer), size, stat.size - size, size);
          if (bytesRead === 0) break;  // the file shrank while it was read
          size += bytesRead;
        }
      } catch (e) {
        sink.free(buffer);
        throw e;
      }
      return { buffer, size };
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
 * Reads `source` into a buffer that `sink` allocates: a file in Node, or a download of announced
 * length, goes there directly, with no whole-file copy on the JS side. In Node, a string that is not
 * a URL is a file path; file: URLs are read.
 * @throws InvalidInputError if `source` is none of bytes, a URL or a string; LoadError if it cannot
 *   be read or fetched, is not a regular file, or is larger than MAX_FILE_BYTES.
 */
export async function readInto<B>(source: ByteSource, sink: FileSink<B>, onProgress?: ProgressCallback): Promise<FileInSink<B>> {
  if (source instanceof Uint8Array) return copyInto(source, sink);
  if (source instanceof ArrayBuffer) return copyInto(new Uint8Array(source), sink);
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
    const read = await readFileInto(asUrl ?? (source as string), sink);
    onProgress?.(read.size, read.size);
    return read;
  }
  return fetchInto(asUrl ?? source, sink, onProgress);
}

/** The bytes of `source` (the same object when it is a Uint8Array), as readInto reads them. */
export async function readBytes(source: ByteSource, onProgress?: ProgressCallback): Promise<Uint8Array> {
  if (source instanceof Uint8Array) return source;
  const { buffer, size } = await readInto(source, plainSink, onProgress);
  return buffer.subarray(0, size);
}
