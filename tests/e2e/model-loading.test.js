// End to end (Debian's chromium against web/serve.js): what the page says while a model loads and
// once it has. The progress line names the model and its total size and keeps its place when it
// hides (nothing below it moves); the footer names the loaded model from its file, and is hidden
// while none is loaded rather than showing a placeholder; a model that fails to load is said in
// words with a Retry button that loads it.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { serve } from '../../web/serve.js';
import { launchChromium, translateOn } from './browser.js';

const MODELS = new URL('../../models/', import.meta.url);
const catalog = JSON.parse(readFileSync(new URL('catalog.json', MODELS), 'utf8'));
const enDe = catalog.directions.find((d) => d.source_lang === 'en' && d.target_lang === 'de');
// The name in the en→de model file's config (what Translator.info.name reads).
const file = readFileSync(new URL(enDe.model, MODELS));
const fileName = JSON.parse(JSON.parse(file.subarray(8, 8 + Number(file.readBigUInt64LE(0)))).__metadata__.config).name;

let server, url, browser;

beforeAll(async () => {
  ({ server, url } = await serve(0));
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  server?.close();
});

// Run in the page before its scripts: records, at every change of the progress line, what it and the
// footer say and where the direction choice (just below it) is.
function recordLoading() {
  window.loading = [];
  document.addEventListener('DOMContentLoaded', () => {
    const $ = (id) => document.getElementById(id);
    new MutationObserver(() => window.loading.push({
      shown: !$('load').hidden, name: $('model-name').textContent, progress: $('progress-text').textContent,
      credit: $('model-credit').hidden ? null : $('model-credit').textContent,
      y: document.querySelector('.direction').getBoundingClientRect().top,
    })).observe($('load'), { attributes: true, childList: true, characterData: true, subtree: true });
  });
}

test('the progress line names the model and its total size, then hides without moving the page; the footer comes from the file', async () => {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  const page = await context.newPage();
  await page.addInitScript(recordLoading);
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 120_000 });
  const records = await page.evaluate(() => window.loading);
  const shown = records.filter((r) => r.shown);
  expect(shown.length).toBeGreaterThan(1);
  const total = `${(enDe.size / 1e6).toFixed(1)}\u00a0MB`;  // number and unit on one line
  for (const r of shown) {
    expect(r.name).toBe(enDe.model.split('/').pop().replace(/\.crossattn$/, ''));  // the file's name
    expect(r.progress).toMatch(new RegExp(`^(\\d+\\.\\d\u00a0MB|0) of ${total.replace('.', '\\.')}$`));
    expect(r.credit).toBeNull();  // no footer for a model that is not loaded yet
  }
  expect(shown.at(-1).progress).toBe(`${total} of ${total}`);
  expect(await page.isHidden('#load')).toBe(true);
  const y = await page.evaluate(() => document.querySelector('.direction').getBoundingClientRect().top);
  for (const r of records) expect(r.y).toBe(y);  // the same place while loading and after

  // The footer: the file's name for the model, linked to its card; this file carries no provenance, so the catalog's words.
  expect(await page.textContent('#model-card')).toBe(fileName);
  expect(new URL(await page.getAttribute('#model-card', 'href')).pathname).toBe(`/models/${enDe.card}`);
  expect(await page.textContent('#model-credit')).toBe(`Model: ${fileName} — ${enDe.source}, ${enDe.license}.`);
  expect(await page.textContent('footer')).not.toMatch(/Multi30k|\(int8\)/);
  await context.close();
});

test('a model that fails to load: said in words, no footer, and Retry loads it', async () => {
  const context = await browser.newContext({ serviceWorkers: 'block' });  // else the service worker's fetches skip route()
  let failures = 1;
  await context.route('**/*.crossattn', (route) => (failures-- > 0
    ? route.fulfill({ status: 500, body: 'server error' }) : route.continue()));
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForSelector('#error:not([hidden])', { timeout: 60_000 });
  expect(await page.textContent('#error')).toMatch(/^Cannot load the model: cannot fetch .*HTTP 500$/);
  expect(await page.isVisible('#retry')).toBe(true);
  expect(await page.isHidden('#load')).toBe(true);
  expect(await page.isHidden('#model-credit')).toBe(true);

  await page.click('#retry');
  await page.waitForFunction(() => document.querySelector('#heatmap')?.dataset.direction === 'en-de', null, { timeout: 120_000 });
  expect(await page.isHidden('#error')).toBe(true);
  expect(await page.isHidden('#retry')).toBe(true);
  expect(await page.textContent('#model-card')).toBe(fileName);
  await translateOn(page, 'I love my dog.');
  expect(await page.textContent('#target')).toMatch(/Hund/);
  await context.close();
});
