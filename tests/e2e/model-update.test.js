// End to end (Debian's chromium against web/serve.js serving a copy of the site whose catalog and
// model change): the service worker keeps a model until its catalog entry (sha256) changes. Version 1
// is visited; the catalog and the file change to version 2; a reload offline still uses version 1, a
// reload online gets version 2 (and keeps it offline); a version 3 under a new file name replaces it
// in the cache, the old file deleted. The versions are told apart by the name in the loaded file.
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { serve } from '../../web/serve.js';
import { launchChromium, translateOn } from './browser.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const EN_DE = 'general-en-de/general-en-de.int8.crossattn';
// Version 2 of the en→de model: another en→de model file, whose config names it tatoeba-en-de.
const V2 = join(ROOT, 'models/tatoeba-en-de/tatoeba-en-de.int8.crossattn');

let site, server, url, browser;

/** Puts `file` at models/`model` of the site and makes the catalog's en→de entry name it, with its sha256 and size. */
function publish(model, file) {
  const bytes = readFileSync(file);
  writeFileSync(join(site, 'models', model), bytes);
  const catalog = JSON.parse(readFileSync(join(ROOT, 'models/catalog.json'), 'utf8'));
  Object.assign(catalog.directions.find((d) => d.source_lang === 'en' && d.target_lang === 'de'),
    { model, sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.length });
  writeFileSync(join(site, 'models/catalog.json'), JSON.stringify(catalog));
  return createHash('sha256').update(bytes).digest('hex');
}

beforeAll(async () => {
  // The repository's layout: the page, the engine and d3 as they are; a models folder of its own.
  site = mkdtempSync(join(tmpdir(), 'crossattn-update-'));
  for (const dir of ['web', 'dist', 'node_modules']) symlinkSync(join(ROOT, dir), join(site, dir));
  mkdirSync(join(site, 'models/general-en-de'), { recursive: true });
  symlinkSync(join(ROOT, 'models/general-de-en'), join(site, 'models/general-de-en'));
  copyFileSync(join(ROOT, 'models/general-en-de/README.md'), join(site, 'models/general-en-de/README.md'));
  copyFileSync(join(ROOT, 'models/architecture.json'), join(site, 'models/architecture.json'));
  publish(EN_DE, join(ROOT, 'models', EN_DE));
  ({ server, url } = await serve(0, { root: site }));
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  server?.close();
  if (site) rmSync(site, { recursive: true, force: true });
});

/** Reloads and waits until the page translates with a model whose file names it `name`. */
async function reloadWith(page, name) {
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]', { timeout: 120_000 });
  await translateOn(page, 'I am very tired.');
  expect(await page.textContent('#model-card')).toBe(name);
  expect(await page.textContent('#target')).toMatch(/müde/);
  expect(await page.isHidden('#error')).toBe(true);
}

/** The model files the service worker keeps: [url path, sha256 header]. */
const keptModels = (page) => page.evaluate(async () => {
  const cache = await caches.open('crossattn-v1');
  const models = (await cache.keys()).filter((r) => r.url.endsWith('.crossattn'));
  return Promise.all(models.map(async (r) => [new URL(r.url).pathname, (await cache.match(r)).headers.get('x-crossattn-sha256')]));
});

/** Waits until the service worker keeps exactly `expected` ([url path, sha256]) of the model files. */
async function waitForKept(page, expected) {
  await expect.poll(() => keptModels(page).then((m) => m.sort()), { timeout: 60_000, interval: 250 }).toEqual(expected.sort());
}

test('a model is kept until its catalog entry changes: offline the kept version, online the new one, the old deleted', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const v1 = createHash('sha256').update(readFileSync(join(ROOT, 'models', EN_DE))).digest('hex');
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 120_000 });
  expect(await page.textContent('#model-card')).toBe('general-en-de');
  await waitForKept(page, [[`/models/${EN_DE}`, v1]]);

  // Version 2 is published: the same file name, another file, its catalog entry changed.
  const v2 = publish(EN_DE, V2);
  await context.setOffline(true);
  await reloadWith(page, 'general-en-de');  // offline: version 1, as kept
  await context.setOffline(false);
  await reloadWith(page, 'tatoeba-en-de');  // online: version 2
  await waitForKept(page, [[`/models/${EN_DE}`, v2]]);
  await context.setOffline(true);
  await reloadWith(page, 'tatoeba-en-de');  // and kept for offline use
  expect(await page.getAttribute('#offline', 'data-kept')).toBe('en-de');

  // Version 3 under a new file name: fetched online, and the file of version 2 deleted.
  await context.setOffline(false);
  const renamed = 'general-en-de/general-en-de-v3.int8.crossattn';
  const v3 = publish(renamed, join(ROOT, 'models', EN_DE));
  await reloadWith(page, 'general-en-de');
  await waitForKept(page, [[`/models/${renamed}`, v3]]);
  expect(errors).toEqual([]);
  await context.close();
});
