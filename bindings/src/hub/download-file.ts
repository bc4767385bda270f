/**
 * One file of a Hub repository downloaded to disk (Node) as Hugging Face's own clients do it
 * (huggingface_hub file_download.py): redirects followed by hand so that the first response's
 * `X-Linked-Etag` and `X-Linked-Size` (a large file's SHA-256 and size, given before the redirect to
 * its storage) are kept; a dropped connection retried, resuming with a Range request where the server
 * answers 206; the bytes checked against the ETag at the end: a SHA-256 for large (LFS) files, the git
 * blob SHA-1 for small ones.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { DownloadError } from '../errors.js';
import type { ProgressCallback } from '../sources.js';

/** How one download runs. */
export interface DownloadFileOptions {
  /** Progress, in bytes of this file, with its name. */
  onProgress?: ProgressCallback;
  /** The name progress and errors give the file (its path in the repository). */
  file: string;
  /** Attempts after the first when the connection fails or the server answers 5xx or 429 (default 3). */
  retries?: number;
  /** The largest file accepted, in bytes. */
  maxBytes: number;
}

/** What the server said of the file, read from the first response. */
interface Announced { etag?: string; size?: number }

const MAX_REDIRECTS = 10;

const reasonOf = (e: unknown) => (e instanceof Error ? (e.cause instanceof Error ? e.cause.message : e.message) : String(e));

/** An ETag without the weak marker and quotes ("W/\"abc\"" -> "abc"). */
const bareEtag = (value: string | null) => (value === null ? undefined : value.replace(/^W\//, '').replace(/^"|"$/g, ''));

/** Whether a status is worth another attempt. */
const transient = (status: number) => status >= 500 || status === 429 || status === 408;

/**
 * The response for `url` after following redirects, with what the first response announced.
 * @throws DownloadError ('not-found' for 404 or 401 — the Hub answers 401 for a repository it does
 *   not show —, 'http' for another status, 'connection' when the server cannot be reached).
 */
async function fetchFollowing(url: string, from: number, file: string): Promise<{ response: Response; announced: Announced; url: string }> {
  const announced: Announced = {};
  let current = url;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    let response: Response;
    try {
      response = await fetch(current, { redirect: 'manual', headers: from > 0 ? { Range: `bytes=${from}-` } : {} });
    } catch (e) {
      throw new DownloadError(`cannot reach ${current}: ${reasonOf(e)}`, 'connection', current, file);
    }
    announced.etag ??= bareEtag(response.headers.get('x-linked-etag')) ?? bareEtag(response.headers.get('etag'));
    const linkedSize = response.headers.get('x-linked-size');
    if (linkedSize !== null && announced.size === undefined) announced.size = Number(linkedSize);
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location !== null) {
      await response.body?.cancel();
      current = new URL(location, current).href;
      continue;
    }
    if (response.status === 404 || response.status === 401) {
      await response.body?.cancel();
      throw new DownloadError(`${url}: not found (HTTP ${response.status})`, 'not-found', url, file, response.status);
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new DownloadError(`${url}: HTTP ${response.status}`, transient(response.status) ? 'connection' : 'http', url, file, response.status);
    }
    return { response, announced, url: current };
  }
  throw new DownloadError(`${url}: more than ${MAX_REDIRECTS} redirects`, 'http', url, file);
}

/** The file's SHA-256 and git blob SHA-1 (hex), read back from disk. */
async function hashes(path: string, size: number): Promise<{ sha256: string; gitSha1: string }> {
  const sha256 = createHash('sha256'), gitSha1 = createHash('sha1').update(`blob ${size}\0`);
  for await (const chunk of createReadStream(path)) {
    sha256.update(chunk as Buffer);
    gitSha1.update(chunk as Buffer);
  }
  return { sha256: sha256.digest('hex'), gitSha1: gitSha1.digest('hex') };
}

/**
 * Checks the downloaded file against the ETag: 64 hex digits are its SHA-256, 40 its git blob SHA-1;
 * another ETag (a server's own) is not a hash and checks nothing.
 * @throws DownloadError 'integrity' on a mismatch.
 */
async function checkIntegrity(path: string, size: number, announced: Announced, url: string, file: string): Promise<void> {
  if (announced.size !== undefined && announced.size !== size) {
    throw new DownloadError(`${url}: ${size} bytes arrived, the server announced ${announced.size}`, 'integrity', url, file);
  }
  const etag = announced.etag?.toLowerCase();
  if (etag === undefined || !/^([0-9a-f]{40}|[0-9a-f]{64})$/.test(etag)) return;
  const { sha256, gitSha1 } = await hashes(path, size);
  const got = etag.length === 64 ? sha256 : gitSha1;
  if (got !== etag) {
    throw new DownloadError(`${url}: the bytes have ${etag.length === 64 ? 'SHA-256' : 'git SHA-1'} ${got}, the server's ETag says ${etag}`, 'integrity', url, file);
  }
}

/** Appends the response's body to the file at `path` from byte `from`; returns the bytes now there. */
async function receive(response: Response, path: string, from: number, total: number, options: DownloadFileOptions, url: string): Promise<number> {
  const handle = await open(path, from > 0 ? 'a' : 'w');
  let loaded = from;
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      loaded += chunk.length;
      if (loaded > options.maxBytes) {
        throw new DownloadError(`${url}: larger than the ${options.maxBytes} bytes accepted`, 'http', url, options.file);
      }
      await handle.write(chunk);
      options.onProgress?.(loaded, total, options.file);
    }
  } finally {
    await handle.close();
  }
  return loaded;
}

/** One attempt from byte `from`: the bytes now in the file, and what the server announced. */
async function attempt(url: string, path: string, from: number, options: DownloadFileOptions): Promise<{ size: number; announced: Announced }> {
  const { response, announced, url: final } = await fetchFollowing(url, from, options.file);
  const resumed = from > 0 && response.status === 206;
  const start = resumed ? from : 0;  // a 200 to a Range request sends the whole file again
  const length = Number(response.headers.get('content-length') ?? NaN);
  const total = announced.size ?? (Number.isFinite(length) ? start + length : 0);
  if (total > options.maxBytes) {
    await response.body?.cancel();
    throw new DownloadError(`${url}: ${total} bytes, more than the ${options.maxBytes} accepted`, 'http', url, options.file);
  }
  try {
    return { size: await receive(response, path, start, total, options, final), announced };
  } catch (e) {
    if (e instanceof DownloadError) throw e;
    throw new DownloadError(`${url}: the connection dropped (${reasonOf(e)})`, 'connection', url, options.file);
  }
}

/**
 * Downloads `url` to `path` (created or replaced), following redirects, retrying a dropped
 * connection or a 5xx with a Range request from the bytes already written (a server that ignores
 * Range sends the whole file again), and checking the ETag's hash at the end.
 * @returns the file's size in bytes and its ETag.
 * @throws DownloadError: 'not-found' (404, or 401 as the Hub answers for a repository it does not
 *   show), 'connection' (unreachable or dropped, after the retries), 'integrity' (size or hash
 *   differs from what the server announced), 'http' (another status, or too large). The partial
 *   file is left for the caller to remove.
 */
export async function downloadFile(url: string, path: string, options: DownloadFileOptions): Promise<{ size: number; etag?: string }> {
  const retries = options.retries ?? 3;
  for (let n = 0; ; n++) {
    const from = n === 0 ? 0 : await stat(path).then((s) => s.size, () => 0);
    try {
      const { size, announced } = await attempt(url, path, from, options);
      await checkIntegrity(path, size, announced, url, options.file);
      return { size, etag: announced.etag };
    } catch (e) {
      if (!(e instanceof DownloadError) || e.reason !== 'connection' || n >= retries) throw e;
      await new Promise((resolve) => setTimeout(resolve, 100 * 2 ** n));
    }
  }
}
