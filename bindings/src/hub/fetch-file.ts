/**
 * One file of a Hub repository downloaded into memory, as Hugging Face's own clients download it
 * (huggingface_hub file_download.py), in Node and in browsers:
 * - in Node, redirects are followed by hand so that the first response's `X-Linked-Etag` and
 *   `X-Linked-Size` (a large file's SHA-256 and size, given before the redirect to its storage) are
 *   kept; a browser follows redirects itself and shows only the last response's headers;
 * - a dropped connection, a 5xx or a 429 is retried, resuming with a Range request from the bytes
 *   already received where the server answers 206;
 * - the bytes are checked against the ETag at the end: 64 hex digits are a SHA-256 (large, LFS
 *   files), 40 the git blob SHA-1 (small files); another ETag is a server's own and checks nothing.
 */
import { DownloadError } from '../errors.js';
import type { ProgressCallback } from '../sources.js';

/** How one download runs. */
export interface FetchFileOptions {
  /** The name progress and errors give the file (its path in the repository). */
  file: string;
  /** Progress, in bytes of this file, with its name. */
  onProgress?: ProgressCallback;
  /** Attempts after the first when the connection fails or the server answers 5xx, 408 or 429 (default 3). */
  retries?: number;
  /** The largest file accepted, in bytes. */
  maxBytes: number;
  /** How long a response may send nothing, headers or body, before the attempt fails as stalled (ms; default IDLE_MS). */
  idleMs?: number;
}

/** How long a download may receive nothing before it counts as a dropped connection (ms): 30 s. */
export const IDLE_MS = 30_000;

/** What the server said of the file. */
interface Announced { etag?: string; size?: number }

const MAX_REDIRECTS = 10;
const isNode = typeof process !== 'undefined' && typeof process.versions?.node === 'string';

const reasonOf = (e: unknown) => (e instanceof Error ? (e.cause instanceof Error ? e.cause.message : e.message) : String(e));

/** An ETag without the weak marker and quotes ('W/"abc"' -> 'abc'). */
const bareEtag = (value: string | null) => (value === null ? undefined : value.replace(/^W\//, '').replace(/^"|"$/g, ''));

/** Whether a status is worth another attempt. */
const transient = (status: number) => status >= 500 || status === 429 || status === 408;

/** Reads what a response announces, keeping what an earlier one (before a redirect) said. */
function announce(response: Response, announced: Announced): void {
  announced.etag ??= bareEtag(response.headers.get('x-linked-etag')) ?? bareEtag(response.headers.get('etag'));
  const linkedSize = Number(response.headers.get('x-linked-size') ?? NaN);
  if (announced.size === undefined && Number.isSafeInteger(linkedSize)) announced.size = linkedSize;
}

/** What an error adds when the server that answered is not `url`'s: a redirect took the request to another origin (a CDN, a mirror). */
function redirectedElsewhere(url: string, final: string): string {
  const origin = new URL(final).origin;
  return origin === new URL(url).origin ? '' : ` from ${origin}, another server it was redirected to`;
}

/**
 * The response for `url` after redirects, with what the responses announced.
 * @throws DownloadError: 'not-found' for 404 or 401 (the Hub's answer for a repository it does not
 *   show), 'connection' when the server cannot be reached or answers 5xx, 'http' for another status.
 */
async function fetchFollowing(url: string, from: number, file: string, signal: AbortSignal): Promise<{ response: Response; announced: Announced }> {
  const announced: Announced = {};
  const headers: Record<string, string> = from > 0 ? { Range: `bytes=${from}-` } : {};
  let current = url;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    let response: Response;
    try {
      response = await fetch(current, { headers, redirect: isNode ? 'manual' : 'follow', signal });
    } catch (e) {
      throw new DownloadError(`cannot reach ${current}: ${reasonOf(e)}`, 'connection', current, file);
    }
    announce(response, announced);
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location !== null) {
      await response.body?.cancel();
      current = new URL(location, current).href;
      continue;
    }
    if (!response.ok) {
      await response.body?.cancel();
      const status = response.status;
      const reason = status === 404 || status === 401 ? 'not-found' : transient(status) ? 'connection' : 'http';
      const answered = redirectedElsewhere(url, isNode ? current : response.url || current);
      throw new DownloadError(`${url}: ${reason === 'not-found' ? 'not found ' : ''}(HTTP ${status}${answered})`, reason, url, file, status);
    }
    return { response, announced };
  }
  throw new DownloadError(`${url}: more than ${MAX_REDIRECTS} redirects`, 'http', url, file);
}

/** The hex digest of `bytes` (SHA-256, or SHA-1 of the git blob header and the bytes). */
export async function digest(algorithm: 'SHA-256' | 'SHA-1', bytes: Uint8Array): Promise<string> {
  const input = algorithm === 'SHA-1' ? concat([new TextEncoder().encode(`blob ${bytes.length}\0`), bytes]) : bytes;
  const hash = new Uint8Array(await crypto.subtle.digest(algorithm, input as Uint8Array<ArrayBuffer>));
  return Array.from(hash, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The bytes received so far: written into one array of the announced size as they arrive (no second
 * copy of a large file), or kept as chunks when the size is unknown or exceeded.
 */
class Received {
  private buffer: Uint8Array | null = null;
  private chunks: Uint8Array[] = [];
  length = 0;

  /** Makes room for `total` bytes, when known, before the first byte. */
  expect(total: number): void {
    if (this.length === 0 && total > 0 && (this.buffer === null || this.buffer.length !== total)) this.buffer = new Uint8Array(total);
  }

  add(chunk: Uint8Array): void {
    if (this.buffer !== null && this.chunks.length === 0 && this.length + chunk.length <= this.buffer.length) {
      this.buffer.set(chunk, this.length);
    } else {
      if (this.buffer !== null && this.chunks.length === 0) this.chunks.push(this.buffer.subarray(0, this.length));
      this.chunks.push(chunk);
    }
    this.length += chunk.length;
  }

  /** Forgets what was received (a server that answers a Range request with the whole file). */
  reset(): void {
    this.chunks = [];
    this.length = 0;
  }

  bytes(): Uint8Array {
    if (this.chunks.length === 0) return (this.buffer ?? new Uint8Array(0)).subarray(0, this.length);
    return concat(this.chunks);
  }
}

/** The chunks as one array. */
function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/**
 * Checks the bytes against the size and ETag the server announced.
 * @throws DownloadError 'integrity' on a mismatch.
 */
async function checkIntegrity(bytes: Uint8Array, announced: Announced, url: string, file: string): Promise<void> {
  if (announced.size !== undefined && announced.size !== bytes.length) {
    throw new DownloadError(`${url}: ${bytes.length} bytes arrived, the server announced ${announced.size}`, 'integrity', url, file);
  }
  const etag = announced.etag?.toLowerCase();
  if (etag === undefined || !/^([0-9a-f]{40}|[0-9a-f]{64})$/.test(etag)) return;
  const sha256 = etag.length === 64;
  const got = await digest(sha256 ? 'SHA-256' : 'SHA-1', bytes);
  if (got !== etag) {
    throw new DownloadError(`${url}: the bytes have ${sha256 ? 'SHA-256' : 'git SHA-1'} ${got}, the server's ETag says ${etag}`, 'integrity', url, file);
  }
}

/** One attempt, adding to `received` (which holds the bytes of earlier attempts); returns what was announced. */
async function attempt(url: string, received: Received, options: FetchFileOptions): Promise<Announced> {
  // Nothing for idleMs, headers or body: the attempt is aborted as a stalled connection (and retried).
  const idleMs = options.idleMs ?? IDLE_MS;
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const waiting = () => {
    clearTimeout(timer);
    timer = setTimeout(() => controller.abort(new Error(`stalled: nothing received for ${idleMs / 1000} s`)), idleMs);
  };
  waiting();
  try {
    return await receive(url, received, options, controller.signal, waiting);
  } catch (e) {
    if (controller.signal.aborted && !(e instanceof DownloadError && e.reason !== 'connection')) {
      throw new DownloadError(`${url}: ${reasonOf(controller.signal.reason)}`, 'connection', url, options.file);
    }
    throw e;
  } finally {
    clearTimeout(timer);
  }
}

// The body of one attempt into `received`; `alive` is called at each arrival of data.
async function receive(url: string, received: Received, options: FetchFileOptions, signal: AbortSignal,
                       alive: () => void): Promise<Announced> {
  const { response, announced } = await fetchFollowing(url, received.length, options.file, signal);
  alive();
  if (received.length > 0 && response.status !== 206) received.reset();  // a 200 to a Range request sends the whole file again
  let loaded = received.length;
  const length = Number(response.headers.get('content-length') ?? NaN);
  const total = announced.size ?? (Number.isFinite(length) ? loaded + length : 0);
  const tooLarge = (bytes: number) => new DownloadError(`${url}: ${bytes} bytes, more than the ${options.maxBytes} accepted`, 'http', url, options.file);
  if (total > options.maxBytes) {
    await response.body?.cancel();
    throw tooLarge(total);
  }
  if (total <= options.maxBytes) received.expect(total);
  if (!response.body) return announced;
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return announced;
      alive();
      loaded += value.length;
      if (loaded > options.maxBytes) throw tooLarge(loaded);
      received.add(value);
      options.onProgress?.(loaded, total, options.file);
    }
  } catch (e) {
    await reader.cancel().catch(() => {});
    if (e instanceof DownloadError) throw e;
    throw new DownloadError(`${url}: the connection dropped (${reasonOf(e)})`, 'connection', url, options.file);
  }
}

/**
 * The bytes of `url` and its ETag, following redirects, retrying a dropped connection or a 5xx with
 * a Range request from the bytes already received, and checking the ETag's hash at the end.
 * @throws DownloadError: 'not-found' (404, or 401 as the Hub answers for a repository it does not
 *   show), 'connection' (unreachable or dropped, after the retries), 'integrity' (size or hash
 *   differs from what the server announced), 'http' (another status, or too large).
 */
export async function fetchFile(url: string, options: FetchFileOptions): Promise<{ bytes: Uint8Array; etag?: string }> {
  const retries = options.retries ?? 3;
  const received = new Received();
  for (let n = 0; ; n++) {
    try {
      const announced = await attempt(url, received, options);
      const bytes = received.bytes();
      await checkIntegrity(bytes, announced, url, options.file);
      return { bytes, etag: announced.etag };
    } catch (e) {
      if (!(e instanceof DownloadError) || e.reason !== 'connection' || n >= retries) throw e;
      await new Promise((resolve) => setTimeout(resolve, 100 * 2 ** n));
    }
  }
}
