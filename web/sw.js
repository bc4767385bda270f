// The page's service worker: after one visit the page, its scripts, the wasm and the models come
// from the Cache API, so the page loads and translates with the network off.
//
// Same-origin GET requests go to the network first and refresh the cache (a rebuilt page or wasm
// is picked up at once); when the network fails they are answered from the cache. The page also
// sends the URLs it loaded before this worker controlled it, to be cached.
//
// Model files, the largest, are kept until their catalog entry changes: each is stored with the
// SHA-256 of its bytes (header x-crossattn-sha256), and a model the catalog (models/catalog.json, as
// last fetched) lists with another sha256 is downloaded again; once the new one is stored, the old
// one is deleted (a new file name for the same direction included).
// Offline, the kept version answers whatever the catalog says. A model the catalog does not list
// (opened by its URL) is kept as it was first fetched. Models the user opens from a file are kept
// by the page itself (opened-models.js, in the cache 'crossattn-opened-v1', which this worker never
// touches). The page reads this worker's cache too (offline.js): the names below are shared with it.
const CACHE = 'crossattn-v1';
const SHA256_HEADER = 'x-crossattn-sha256';
const DIRECTION_HEADER = 'x-crossattn-direction';
const CATALOG_URL = new URL('../models/catalog.json', self.location.href).href;

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

const isModel = (url) => new URL(url).pathname.endsWith('.crossattn');

// The URLs the page loaded before this worker controlled it: the rest (the catalog among them)
// first, then the models, each stored as the fetch handler stores it. A failed one is fetched again later.
self.addEventListener('message', (event) => {
  if (event.data?.type !== 'cache') return;
  const urls = event.data.urls.filter((url) => new URL(url).origin === self.location.origin);
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await Promise.all(urls.filter((url) => !isModel(url)).map(async (url) => {
      if (!(await cache.match(url))) await cache.add(url).catch(() => {});
    }));
    for (const url of urls.filter(isModel)) {
      if (await cache.match(url)) continue;
      const response = await fetch(url).catch(() => null);
      if (!response?.ok || !response.body) continue;
      await keepModel(url, response.body, response.headers, (await catalogEntry(url))?.direction).catch(() => {});
    }
  })());
});

/** The catalog's entry for model `url` ({sha256, direction}), from the catalog last fetched; null if it lists none. */
async function catalogEntry(url) {
  const response = await caches.match(CATALOG_URL, { cacheName: CACHE, ignoreVary: true });
  if (!response) return null;
  try {
    const { directions } = await response.json();
    const d = directions.find((e) => new URL(e.model, CATALOG_URL).href === url);
    return d ? { sha256: typeof d.sha256 === 'string' ? d.sha256.toLowerCase() : null, direction: `${d.source_lang}-${d.target_lang}` } : null;
  } catch {
    return null;  // not JSON: the page says so when it reads the catalog
  }
}

const hex = (buffer) => Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, '0')).join('');

// Stores the model `body` (a stream) under `url`, tagged with its SHA-256 (and direction, when the
// catalog lists it); then deletes every other kept model of that direction.
async function keepModel(url, body, headers, direction) {
  const bytes = await new Response(body).arrayBuffer();
  const sha256 = hex(await crypto.subtle.digest('SHA-256', bytes));
  const cache = await caches.open(CACHE);
  await cache.put(url, new Response(bytes, { headers: {
    'content-type': headers.get('content-type') ?? 'application/octet-stream', 'content-length': String(bytes.byteLength),
    [SHA256_HEADER]: sha256, ...(direction ? { [DIRECTION_HEADER]: direction } : {}),
  } }));
  if (!direction) return;
  for (const request of await cache.keys()) {
    if (request.url === url || !isModel(request.url)) continue;
    const old = await cache.match(request);
    if (old?.headers.get(DIRECTION_HEADER) === direction) await cache.delete(request);
  }
}

// A model file: the kept copy while it is current; else the network, its bytes streamed to the page
// and, at the same time, stored (event.waitUntil keeps the worker alive until they are); offline,
// the kept copy of any version, or a 503 whose status text says the model was not downloaded.
async function model(event) {
  const { url } = event.request;
  const cache = await caches.open(CACHE);
  const kept = await cache.match(url, { ignoreVary: true });
  const entry = await catalogEntry(url);
  if (kept && (!entry?.sha256 || kept.headers.get(SHA256_HEADER) === entry.sha256)) return kept;
  let response;
  try {
    // An update revalidates with the server: an HTTP cache must not answer with the old file.
    response = await fetch(event.request, kept ? { cache: 'no-cache' } : {});
  } catch {
    return kept ?? new Response('not downloaded for offline use', { status: 503, statusText: 'not downloaded for offline use' });
  }
  if (!response.ok || !response.body) return kept ?? response;  // a failed update: the kept version still works
  const [toPage, toCache] = response.body.tee();
  event.waitUntil(keepModel(url, toCache, response.headers, entry?.direction).catch(() => {}));  // kept next time, then
  return new Response(toPage, { status: response.status, statusText: response.statusText, headers: response.headers });
}

// The network's answer goes to the page as it arrives, while a copy is stored (event.waitUntil keeps
// the worker alive until it is): the page never waits for a whole file to be stored first, so the
// engine's wasm compiles while it streams in (WebAssembly.compileStreaming) and each script runs as
// soon as it has arrived. The catalog alone is stored before the page gets it: model() reads it from
// the cache, and the page asks for a model right after reading it. Offline, the stored copy.
async function networkFirst(event) {
  const { request } = event;
  try {
    const response = await fetch(request);
    if (!response.ok) return response;
    const copy = response.clone();  // now: once the page reads the response, it cannot be cloned
    const stored = caches.open(CACHE).then((cache) => cache.put(request, copy));
    if (request.url === CATALOG_URL) await stored;
    else event.waitUntil(stored.catch(() => {}));
    return response;
  } catch (error) {
    const cached = await caches.match(request, { cacheName: CACHE, ignoreVary: true });
    if (cached) return cached;
    throw error;
  }
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET' || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(isModel(request.url) ? model(event) : networkFirst(event));
});
