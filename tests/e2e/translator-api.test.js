// End to end: crossattn/translator-api in Chromium, imported as a page imports it (dist/translator-api,
// with an import map for eld), its models from the catalog web/serve.js serves: a direction is
// 'downloadable' in a fresh profile, create() without a user activation is NotAllowedError, with
// one it downloads with progress events, translates and streams, and the model is then 'available'
// from Cache Storage, after a reload too; the LanguageDetector detects German.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { servedPage } from './browser.js';

let served, url, browser;

const PAGE = `<!doctype html><meta charset="utf-8">
<script type="importmap">{"imports": {"eld/extrasmall": "/node_modules/eld/src/entries/static.extrasmall.js"}}</script>
<button id="go">Translate</button>
<script type="module">
  import * as api from '/dist/translator-api/index.js';
  api.configureTranslatorApi({ catalog: new URL('/models/catalog.json', location.href) });
  globalThis.api = api;
  document.getElementById('go').addEventListener('click', () => {
    globalThis.progress = [];
    globalThis.created = api.Translator.create({ sourceLanguage: 'en', targetLanguage: 'de',
      monitor: (m) => m.addEventListener('downloadprogress', (e) => globalThis.progress.push(e.loaded)) });
    globalThis.created.catch(() => {});
  });
  document.body.dataset.ready = 'true';
</script>`;

beforeAll(async () => {
  served = await servedPage();
  ({ url, browser } = served);
}, 120_000);

afterAll(() => served?.close());

test('in a page: downloadable, a user activation to download, progress, translate, streaming, kept in Cache Storage; detection', async () => {
  const context = await browser.newContext();
  await context.route(`${url}/api-test.html`, (route) => route.fulfill({ body: PAGE, contentType: 'text/html' }));
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${url}/api-test.html`);
  await page.waitForSelector('body[data-ready="true"]');
  const pair = { sourceLanguage: 'en', targetLanguage: 'de' };
  expect(await page.evaluate((p) => api.Translator.availability(p), pair)).toBe('downloadable');
  // Playwright's evaluate runs as a user gesture: opening a window consumes that activation, as the web-platform-tests do.
  expect(await page.evaluate(async (p) => {
    window.open('about:blank', '_blank')?.close();
    const active = navigator.userActivation.isActive;
    return [active, await api.Translator.create(p).then(() => 'created', (e) => e.name)];
  }, pair)).toEqual([false, 'NotAllowedError']);

  await page.click('#go');  // a user activation
  const result = await page.evaluate(async () => {
    const t = await globalThis.created;
    const chunks = [];
    for await (const chunk of t.translateStreaming('I am very tired. Where is the station?')) chunks.push(chunk);
    return { progress: globalThis.progress, text: await t.translate('I am very tired.'), chunks, languages: [t.sourceLanguage, t.targetLanguage] };
  });
  expect(result.languages).toEqual(['en', 'de']);
  expect(result.progress[0]).toBe(0);
  expect(result.progress.at(-1)).toBe(1);
  expect(result.progress.length).toBeGreaterThan(2);  // fractions of the download between
  expect(result.text).toMatch(/müde/);
  expect(result.chunks.length).toBe(2);
  expect(await page.evaluate((p) => api.Translator.availability(p), pair)).toBe('available');

  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  expect(await page.evaluate((p) => api.Translator.availability(p), pair)).toBe('available');  // from Cache Storage
  const detected = await page.evaluate(async () => (await (await api.LanguageDetector.create()).detect('Wo ist der Bahnhof?'))[0]);
  expect(detected.detectedLanguage).toBe('de');
  expect(errors).toEqual([]);
  await context.close();
}, 300_000);
