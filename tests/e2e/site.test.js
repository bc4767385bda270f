// End to end: the static build (web/build.js) served by a plain static file server under a subpath,
// with the headers its _headers file documents. The page must load everything from below that
// subpath, translate, and after one visit translate again with the network off.
import { readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { buildSite } from '../../web/build.js';
import { launchChromium, translateOn, waitForCachedModels } from './browser.js';

const SITE = fileURLToPath(new URL('../../build/e2e/site/', import.meta.url));
const PREFIX = '/some/deep/prefix/';
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json',
                '.md': 'text/markdown' };

/** The `/*` block of a _headers file, as an object; and the content type it sets for `ext`, if any. */
function parseHeaders(text) {
  const blocks = {};
  let current = null;
  for (const line of text.split('\n')) {
    if (/^\S/.test(line)) blocks[current = line.trim()] = {};
    else if (line.trim() && current) {
      const [key, ...value] = line.trim().split(':');
      blocks[current][key.trim()] = value.join(':').trim();
    }
  }
  return blocks;
}

let server, origin, browser;
const outside = [];  // requests that left the prefix or the origin
const pageErrors = [];

beforeAll(async () => {
  await buildSite(SITE);
  const headers = parseHeaders(readFileSync(join(SITE, '_headers'), 'utf8'));
  server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (!path.startsWith(PREFIX)) outside.push(path);
    const file = join(SITE, normalize(path.slice(PREFIX.length - 1)).replace(/\/$/, '/index.html'));
    let ok = false;
    try {
      ok = file.startsWith(SITE) && statSync(file).isFile();
    } catch {}
    if (!ok) {
      res.writeHead(404);
      return res.end();
    }
    const ext = extname(file);
    res.writeHead(200, { 'content-type': TYPES[ext] ?? 'application/octet-stream', ...headers['/*'], ...headers[`/*${ext}`] });
    res.end(readFileSync(file));
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  origin = `http://127.0.0.1:${server.address().port}`;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  server?.close();
});

test('the static build works from a subpath of a plain static server, and offline after one visit', async () => {
  const context = await browser.newContext();
  await context.route('**/*', (route) => {
    if (new URL(route.request().url()).origin === origin) return route.continue();
    outside.push(route.request().url());
    return route.abort();
  });
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('console', (message) => {
    if (/Content.Security.Policy|Failed to load/i.test(message.text())) pageErrors.push(message.text());
  });
  await page.goto(`${origin}${PREFIX}`);  // the redirect to web/
  await page.waitForSelector('body[data-ready="true"]', { timeout: 120_000 });
  expect(new URL(page.url()).pathname).toBe(`${PREFIX}web/`);
  // The static site ships the single-thread engine only, so its headers leave it not isolated.
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(false);
  await translateOn(page, 'Where is the station?');
  expect(await page.textContent('#target')).toMatch(/Bahnhof/);
  // Chromium has relaxed SIMD, so the single-thread page runs that build, and its footer quotes it.
  const measured = JSON.parse(readFileSync(new URL('../../docs/performance.json', import.meta.url), 'utf8'));
  const relaxed = measured.models.find((m) => m.name === 'general-en-de').engines['crossattn-wasm-int8-shortlist-relaxed'];
  expect(await page.textContent('#speed')).toContain(`the relaxed SIMD build), measured by npm run bench`);
  expect(await page.textContent('#speed')).toContain(`${Math.round(relaxed.tokens_per_s)} target tokens/s`);
  await waitForCachedModels(page, 1);

  await context.setOffline(true);
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]', { timeout: 120_000 });
  await translateOn(page, 'I am very tired.');
  expect(await page.textContent('#target')).toMatch(/müde/);
  expect(await page.isHidden('#error')).toBe(true);
  await context.close();
  expect(outside).toEqual([]);
  expect(pageErrors).toEqual([]);
});
