// Offline use of the catalog's models: which directions this browser keeps (in the service worker's
// cache, sw.js, which stores each model with the SHA-256 of its bytes), the "keep for offline"
// control that downloads every catalog model not kept yet (their sizes shown first), and the words
// for a model that cannot load because it was never downloaded and the network is gone.
// The cache name and header are sw.js's.
import { megabytes } from './model-loading.js';
import { markOnce } from './page-marks.js';

const CACHE = 'crossattn-v1';
const SHA256_HEADER = 'x-crossattn-sha256';
const $ = (id) => document.getElementById(id);

/**
 * What this browser keeps of `entry`'s model: 'current' (the catalog's version, or any when the
 * catalog gives no sha256), 'outdated' (another version: it still works offline) or null (none).
 */
export async function keptVersion(entry) {
  if (!globalThis.caches) return null;
  const kept = await caches.match(entry.model, { cacheName: CACHE, ignoreVary: true });
  if (!kept) return null;
  return !entry.sha256 || kept.headers.get(SHA256_HEADER) === entry.sha256 ? 'current' : 'outdated';
}

/** Resolves once `entry`'s current version is kept (the service worker stores a download after the page has it), or after `ms`. */
async function whenKept(entry, ms) {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((ok) => setTimeout(ok, 100))) {
    if (await keptVersion(entry) === 'current') return true;
  }
  return false;
}

/**
 * The reason a catalog model did not load, in words, when it is that the network is gone and the
 * model was never downloaded for offline use; null for any other failure.
 */
export async function offlineReason(entry, error, label) {
  if (entry.opened || await keptVersion(entry)) return null;
  const offline = navigator.onLine === false || /Failed to fetch|NetworkError|Load failed|HTTP 503/.test(error.message);
  return offline ? `${label} is not downloaded for offline use, and the network cannot be reached` +
    `${navigator.onLine === false ? ' (this browser is offline)' : ''}. Connect, then Retry; ` +
    'online, “Keep for offline” downloads every direction.' : null;
}

/**
 * The offline line of the page: which catalog directions work offline, which do not (with their
 * sizes), and the "keep for offline" button with the total it would download. Hidden where no
 * service worker controls the page (nothing would be kept). `label(entry)` names a direction.
 */
export async function renderOffline(entries, label) {
  const section = $('offline');
  section.hidden = !navigator.serviceWorker?.controller;
  if (section.hidden) return;
  const states = await Promise.all(entries.map(keptVersion));
  const having = (state) => entries.filter((_, i) => states[i] === state);
  const [current, outdated, none] = [having('current'), having('outdated'), having(null)];
  const names = (list) => list.map(label).join(', ');
  const sized = (e) => (e.size ? `${label(e)} (${megabytes(e.size)})` : label(e));
  $('offline-status').textContent = [
    none.length < entries.length ? `Works offline: ${names(entries.filter((e) => !none.includes(e)))}.`
      : 'No direction is downloaded for offline use yet.',
    outdated.length ? `An update is available for ${names(outdated)}.` : '',
    none.length ? `Not downloaded for offline use: ${none.map(sized).join(', ')}.` : '',
  ].filter(Boolean).join(' ');
  const missing = [...outdated, ...none], total = missing.reduce((sum, e) => sum + (e.size ?? 0), 0);
  $('keep-offline').hidden = missing.length === 0;
  $('keep-offline').textContent = `Keep for offline: download ${missing.length === entries.length ? 'every direction' : names(missing)}` +
    (total ? ` (${megabytes(total)})` : '');
  section.dataset.kept = current.map((e) => `${e.sourceLang}-${e.targetLang}`).join(' ');
}

// Downloads `entry`'s model through the service worker (which keeps it), showing the bytes so far.
async function download(entry, label) {
  const response = await fetch(entry.model);
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const total = Number(response.headers.get('content-length')) || entry.size || 0;
  const reader = response.body.getReader();
  for (let loaded = 0; ;) {
    const { done, value } = await reader.read();
    if (done) break;
    loaded += value.length;
    $('keep-progress').value = total ? loaded / total : 0;
    $('offline-status').textContent = `Downloading ${label(entry)} for offline use: ${megabytes(loaded)}` +
      (total ? ` of ${megabytes(total)}` : '');
  }
  if (!(await whenKept(entry, 30_000))) throw new Error('the browser did not keep it (storage full?)');
}

/**
 * Wires the "keep for offline" button: it downloads, one after the other, every catalog model not
 * kept in its current version, then shows the offline line again. A failure is said in the line
 * and stops there; the button tries again.
 */
export function wireKeepOffline(entries, label) {
  const button = $('keep-offline');
  button.addEventListener('click', async () => {
    button.disabled = true;
    $('keep-progress').hidden = false;
    let failure = null;
    for (const entry of entries) {
      if (await keptVersion(entry) === 'current') continue;
      try {
        await download(entry, label);
      } catch (e) {
        failure = `Could not download ${label(entry)} for offline use: ${e.message}.`;
        break;
      }
    }
    $('keep-progress').hidden = true;
    button.disabled = false;
    await renderOffline(entries, label);
    if (failure) $('offline-status').textContent = `${failure} ${$('offline-status').textContent}`;
  });
}

/** Shows the offline line again once `entry`, just loaded, is kept by the service worker. */
export async function refreshWhenKept(entry, entries, label) {
  if (!entry.opened && navigator.serviceWorker?.controller) await whenKept(entry, 30_000);
  await renderOffline(entries, label);
}

/**
 * Offline after the first visit (sw.js): once the service worker controls the page, every later
 * request (catalog, model, wasm, worker scripts) passes through it and is cached; the ones made
 * before are sent to it to cache, once `started` (a promise of a download begun before, such as the
 * engine's: page-start.js) has settled. Without service workers (or when registration fails) the
 * page works as before, online. Marks crossattn:service-worker when it returns (page-marks.js).
 */
export async function goOfflineCapable(started = null) {
  await takeControl(started);
  markOnce('service-worker');
}

async function takeControl(started) {
  if (!('serviceWorker' in navigator)) return;
  try {
    await navigator.serviceWorker.register(new URL('./sw.js', import.meta.url));
    if (!navigator.serviceWorker.controller) {  // the first visit: wait (briefly) for it to take over
      await Promise.race([
        new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true })),
        new Promise((resolve) => setTimeout(resolve, 3000)),
      ]);
    }
    const { controller } = navigator.serviceWorker;
    if (!controller) return;
    Promise.resolve(started).catch(() => {}).then(() => {
      const urls = [location.href, ...performance.getEntriesByType('resource').map((e) => e.name)];
      controller.postMessage({ type: 'cache', urls });
    });
  } catch (e) {
    console.warn(`no offline cache: ${e.message}`);
  }
}
