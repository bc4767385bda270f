// The page's service worker: after one visit the page, its scripts, the wasm and the models come
// from the Cache API, so the page loads and translates with the network off.
//
// Same-origin GET requests go to the network first and refresh the cache (a rebuilt page or wasm
// is picked up at once); when the network fails they are answered from the cache. Model files,
// the largest, are answered from the cache first. The page also sends the URLs it loaded before
// this worker controlled it, to be cached. Models the user opens from a file are kept by the page
// itself (opened-models.js, in the cache 'crossattn-opened-v1', which this worker never touches).
const CACHE = 'crossattn-v1';

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

self.addEventListener('message', (event) => {
  if (event.data?.type !== 'cache') return;
  const urls = event.data.urls.filter((url) => new URL(url).origin === self.location.origin);
  event.waitUntil(caches.open(CACHE).then((cache) => Promise.all(urls.map(async (url) => {
    if (!(await cache.match(url))) await cache.add(url).catch(() => {});  // a failed one is fetched again later
  }))));
});

async function networkFirst(request) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(request, response.clone());
    return response;
  } catch (error) {
    const cached = await cache.match(request, { ignoreVary: true });
    if (cached) return cached;
    throw error;
  }
}

async function cacheFirst(request) {
  const cache = await caches.open(CACHE);
  const cached = await cache.match(request, { ignoreVary: true });
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET' || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(request.url.endsWith('.crossattn') ? cacheFirst(request) : networkFirst(request));
});
