/** Reading bytes from what a user hands us: bytes, a URL, or (in Node) a file path. */

/** Bytes of a model or wasm file: given directly, or a URL, or a file path in Node. */
export type ByteSource = string | URL | ArrayBuffer | Uint8Array;

/** Called while a download progresses: bytes so far and the total (0 when the server gives none). */
export type ProgressCallback = (loadedBytes: number, totalBytes: number) => void;

const isNode = typeof process !== 'undefined' && typeof process.versions?.node === 'string';

function isUrlLike(s: string): boolean {
  return /^(https?|file|blob|data):/i.test(s);
}

async function fetchWithProgress(url: string | URL, onProgress?: ProgressCallback): Promise<Uint8Array> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`cannot fetch ${url}: HTTP ${response.status}`);
  const total = Number(response.headers.get('content-length') ?? 0);
  if (!response.body || !onProgress) return new Uint8Array(await response.arrayBuffer());
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let loaded = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    loaded += value.length;
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

/** The bytes of `source`. In Node, a string that is not a URL is a file path; file: URLs are read. */
export async function readBytes(source: ByteSource, onProgress?: ProgressCallback): Promise<Uint8Array> {
  if (source instanceof Uint8Array) return source;
  if (source instanceof ArrayBuffer) return new Uint8Array(source);
  const asUrl = source instanceof URL ? source : isUrlLike(source) ? new URL(source) : null;
  if (isNode && (asUrl === null || asUrl.protocol === 'file:')) {
    const { readFile } = await import('node:fs/promises');
    const bytes = new Uint8Array(await readFile(asUrl ?? (source as string)));
    onProgress?.(bytes.length, bytes.length);
    return bytes;
  }
  return fetchWithProgress(asUrl ?? source, onProgress);
}
