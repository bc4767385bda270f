// The models a user opened on the page (a file, a dropped file or a URL), kept for offline use in
// Cache Storage, in a cache of their own beside the service worker's (sw.js): one entry per model,
// its bytes as the body and what the page lists it by (ModelInfo, size, where it came from) in a
// header, so that the list is read without reading the models. The entries' URLs are keys only:
// nothing is ever fetched from them. Needs a secure context (https or localhost), as Cache Storage does.
const CACHE = 'crossattn-opened-v1';
const INFO_HEADER = 'x-crossattn-model';
const keyOf = (id) => new URL(`opened-models/${id}.crossattn`, import.meta.url).href;

/**
 * The id of a model file: the first 16 hex digits of its SHA-256, so that the same file opened twice
 * is one model.
 */
export async function modelId(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return `opened-${Array.from(digest.subarray(0, 8), (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * Keeps `bytes` under `id` with `about` ({info: ModelInfo, size, from: a file name or URL}).
 * @throws the browser's error when Cache Storage is missing or full (QuotaExceededError).
 */
export async function keepOpened(id, bytes, about) {
  const cache = await caches.open(CACHE);
  await cache.put(keyOf(id), new Response(bytes, {
    headers: { 'content-type': 'application/octet-stream', [INFO_HEADER]: encodeURIComponent(JSON.stringify(about)) },
  }));
}

/** Every kept model, in the order they were opened: [{id, info, size, from}]; [] without Cache Storage. */
export async function listOpened() {
  if (!globalThis.caches || !(await caches.has(CACHE))) return [];
  const cache = await caches.open(CACHE);
  const list = [];
  for (const request of await cache.keys()) {
    const response = await cache.match(request);
    const id = new URL(request.url).pathname.split('/').pop().replace(/\.crossattn$/, '');
    try {
      list.push({ id, ...JSON.parse(decodeURIComponent(response.headers.get(INFO_HEADER))) });
    } catch {
      await cache.delete(request);  // not written by keepOpened: drop it rather than list a model without a name
    }
  }
  return list;
}

/** The bytes kept under `id`. @throws Error when they are gone (the browser may evict the cache). */
export async function readOpened(id) {
  const response = globalThis.caches && await (await caches.open(CACHE)).match(keyOf(id));
  if (!response) throw new Error('the browser no longer keeps this model: open its file again');
  return new Uint8Array(await response.arrayBuffer());
}

/**
 * Deletes the model kept under `id`, and the service worker's copy of `url` when it was opened
 * from a URL of the page's origin (sw.js caches every model file it fetches).
 */
export async function removeOpened(id, url) {
  await (await caches.open(CACHE)).delete(keyOf(id));
  if (url && new URL(url, location.href).origin === location.origin) {
    for (const name of await caches.keys()) await (await caches.open(name)).delete(url, { ignoreVary: true });
  }
}
