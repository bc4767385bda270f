// End to end: a model of one's own on the page (Debian's chromium, headless, against web/serve.js).
// The model is converted by `crossattn convert` from a Hugging Face MarianMT folder
// (tools/opus-mt-fixtures.py: the committed bench model in OPUS-MT's layout), its provenance then
// set to say it is a test fixture (tests/js/model-fixture.js): a different architecture from the
// catalog's en→de model (6 + 2 layers, 8 heads, post-norm, its own vocabulary), so that every view
// must read its layers and heads from the model. Opened with the file picker, it must translate with its
// heatmap, alignment, head grid and explain view, name its source and licence in the footer, stay
// after an offline reload, and go (with its cached copy) when removed.
import { mkdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { serve } from '../../web/serve.js';
import { convertFile } from '../../dist/convert/index.js';
import { relabelModel } from '../js/model-fixture.js';
import { HF, ensureFixtures } from '../js/opus-mt-fixtures.js';
import { launchChromium, openPage, translateOn } from './browser.js';

const BUILD = new URL('../../build/e2e/', import.meta.url);
const NAME = 'fixture-opus-mt-en-de';
const PROVENANCE = { source: 'test fixture', license: 'MIT', attribution: 'The bench model, converted from a Hugging Face MarianMT folder, for the page tests.' };

let server, url, browser, fixture, fixtureConfig;

beforeAll(async () => {
  mkdirSync(BUILD, { recursive: true });
  ensureFixtures();
  const converted = new URL(`${NAME}.converted.crossattn`, BUILD).pathname;
  await convertFile(HF, converted, 'test', { name: NAME });
  fixture = await relabelModel(converted, new URL(`${NAME}.crossattn`, BUILD).pathname, { metadata: PROVENANCE });
  const file = readFileSync(fixture);
  fixtureConfig = JSON.parse(JSON.parse(file.subarray(8, 8 + Number(file.readBigUInt64LE(0)))).__metadata__.config);
  ({ server, url } = await serve(0));
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  server?.close();
});

/** Waits until the page uses an opened model, and returns its id. */
async function openedModelInUse(page) {
  await page.waitForFunction(() => document.body.dataset.model?.startsWith('opened-') &&
    document.querySelector('#heatmap')?.dataset.model === document.body.dataset.model, null, { timeout: 120_000 });
  return page.evaluate(() => document.body.dataset.model);
}

/** URLs of the .crossattn entries of the cache called `name`. */
function cachedModels(page, name) {
  return page.evaluate(async (n) => (await caches.has(n)) ? (await (await caches.open(n)).keys())
    .map((r) => r.url).filter((u) => u.endsWith('.crossattn')) : [], name);
}

test('a model opened from a file translates with every view, names its source and licence, and stays after an offline reload', async () => {
  const { context, page, errors } = await openPage(browser, url);
  await page.setInputFiles('#model-file', fixture);
  const id = await openedModelInUse(page);

  // Listed beside the catalog's model of the same direction; both can be chosen.
  const labels = await page.$$eval('#direction option', (o) => o.map((x) => [x.value, x.textContent]));
  expect(labels).toContainEqual(['en-de', 'English → German']);
  expect(labels).toContainEqual([id, `English → German (${NAME})`]);
  expect(await page.$$eval('#opened-models li', (l) => l.map((x) => x.dataset.model))).toEqual([id]);
  expect(await page.textContent('footer p:first-child')).toBe(`Model: ${NAME} — ${PROVENANCE.source}, ${PROVENANCE.license}.`);
  expect(await page.textContent('#model-attribution')).toBe(`${PROVENANCE.attribution} Converted from a Hugging Face MarianMT model by crossattn convert test.`);

  // Every view, with this model's layers and heads.
  const source = 'I am very tired.';
  await translateOn(page, source);
  expect(await page.getAttribute('#heatmap', 'data-model')).toBe(id);
  expect(await page.textContent('#target')).toMatch(/müde/);
  const targetTokens = Number(await page.getAttribute('#heatmap', 'data-target-tokens'));
  expect(await page.$$eval('#heatmap g.row', (r) => r.length)).toBe(targetTokens);
  const { decoder_layers: layers, n_heads: heads } = fixtureConfig;
  expect(await page.$$eval('#layer option', (o) => o.length)).toBe(layers);
  expect(await page.$$eval('#head option', (o) => o.length)).toBe(heads + 1);  // and the average
  expect(await page.$$eval('#head-grid figcaption', (c) => c.length)).toBe(layers * heads);
  const links = Number(await page.getAttribute('#alignment', 'data-links'));
  expect(links).toBeGreaterThan(0);
  expect(await page.$$eval('#alignment line.link', (l) => l.length)).toBe(links);
  expect(await page.$$eval('#alignment text.word.source', (t) => t.map((x) => x.textContent))).toEqual(source.split(' '));
  expect(await page.$$eval('#explain table.residual tbody tr:first-child td', (r) => r.length)).toBe(1 + 3 * layers);
  expect(await page.textContent('#explain')).toContain(`the decoder ran its ${layers} layers ${targetTokens} times`);
  await page.screenshot({ path: new URL('opened-model.png', BUILD).pathname, fullPage: true });

  // Accessible with the opened model listed.
  await page.evaluate(readFileSync(new URL('../../node_modules/axe-core/axe.min.js', import.meta.url), 'utf8'));
  const { violations } = await page.evaluate(() => globalThis.axe.run(document, { resultTypes: ['violations'] }));
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);

  // A file that is no model: said in words, and the opened model stays in use.
  await page.setInputFiles('#model-file', { name: 'notes.crossattn', mimeType: 'application/octet-stream', buffer: Buffer.from('not a model file') });
  await page.waitForSelector('#open-error:not([hidden])');
  expect(await page.textContent('#open-error')).toMatch(/^Cannot open notes\.crossattn: .+The model in use stays\.$/);
  expect(await page.evaluate(() => document.body.dataset.model)).toBe(id);
  await translateOn(page, 'My brother lives in Berlin.');
  expect(await page.textContent('#target')).toMatch(/Bruder/);

  // Offline: the page, the catalog's model (service worker) and the opened one (its own cache) reload without the network.
  await page.waitForFunction(() => caches.open('crossattn-v1').then(async (c) =>
    (await c.keys()).some((r) => r.url.endsWith('.crossattn'))), null, { timeout: 60_000 });
  expect(await cachedModels(page, 'crossattn-opened-v1')).toHaveLength(1);
  await context.setOffline(true);
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]', { timeout: 120_000 });
  expect(await page.inputValue('#direction')).toBe(id);
  expect(await page.$$eval('#opened-models li', (l) => l.length)).toBe(1);
  await translateOn(page, 'Where is the station?');
  expect(await page.getAttribute('#heatmap', 'data-model')).toBe(id);
  expect(await page.textContent('#target')).toMatch(/Bahnhof/);
  expect(await page.$$eval('#head-grid figcaption', (c) => c.length)).toBe(layers * heads);
  // The catalog's model of the same direction is still there, with its 4 decoder layers; the text stays.
  await page.selectOption('#direction', 'en-de');
  await page.waitForFunction(() => document.querySelector('#heatmap')?.dataset.model === 'en-de', null, { timeout: 120_000 });
  expect(await page.inputValue('#source')).toBe('Where is the station?');
  expect(await page.textContent('#model-card')).toBe('general-en-de');
  expect(await page.isHidden('#error')).toBe(true);
  expect(errors).toEqual([]);
  await context.close();
});

test('the remove control deletes an opened model and its cached copies, the page going on with the catalog model; a dropped file opens too', async () => {
  const { context, page, errors } = await openPage(browser, url);
  // Opened from a URL this time: the service worker caches that download too.
  const modelUrl = new URL('/models/tatoeba-en-de/tatoeba-en-de.int8.crossattn', url).href;
  await page.fill('#model-url', modelUrl);
  await page.click('#model-url-open');
  const id = await openedModelInUse(page);
  expect(await page.textContent('#model-card')).toBe('tatoeba-en-de');
  expect(await page.textContent('footer p:first-child')).toMatch(/^Model: tatoeba-en-de — its file does not say/);
  expect(await cachedModels(page, 'crossattn-opened-v1')).toHaveLength(1);
  await page.waitForFunction((u) => caches.match(u).then(Boolean), modelUrl);

  await page.click(`#opened-models li[data-model="${id}"] button.remove`);
  await page.waitForFunction(() => document.querySelector('#heatmap')?.dataset.model === 'en-de', null, { timeout: 120_000 });
  expect(await page.isHidden('#opened-models')).toBe(true);
  expect(await page.$$eval('#direction option', (o) => o.map((x) => x.value))).not.toContain(id);
  expect(await page.textContent('#open-status')).toBe('Removed tatoeba-en-de.');
  expect(await cachedModels(page, 'crossattn-opened-v1')).toEqual([]);
  expect(await page.evaluate((u) => caches.match(u).then(Boolean), modelUrl)).toBe(false);
  expect(await page.textContent('#model-card')).toBe('general-en-de');
  await translateOn(page, 'I love my dog.');
  expect(await page.textContent('#target')).toMatch(/Hund/);

  // Gone after a reload too.
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]', { timeout: 120_000 });
  expect(await page.$$eval('#direction option', (o) => o.map((x) => x.value).filter((v) => !v.startsWith('download:')))).toEqual(['en-de', 'de-en']);

  // A file dropped on the page opens the same way (the same bytes: the same id).
  await page.evaluate(async (u) => {
    const data = new DataTransfer();
    data.items.add(new File([await (await fetch(u)).arrayBuffer()], 'dropped.crossattn'));
    document.body.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  }, modelUrl);
  expect(await openedModelInUse(page)).toBe(id);
  expect(await page.textContent(`#opened-models li[data-model="${id}"]`)).toMatch(/from dropped\.crossattn/);
  expect(errors).toEqual([]);
  await context.close();
});

test('opening a model by its URL can be cancelled, and stops by itself when nothing arrives for 30 s; the model in use stays', async () => {
  const { context, page, errors } = await openPage(browser, url);
  await page.clock.install();  // the page's timers, so that 30 s of silence pass at once
  // A server that answers nothing: the request hangs until the page gives up.
  await context.route('**/hanging.crossattn', () => {});  // the context's: the page's service worker makes the request
  const model = await page.evaluate(() => document.body.dataset.model);
  await page.fill('#model-url', `${url}hanging.crossattn`);
  await page.click('#model-url-open');
  await page.waitForSelector('#model-url-cancel:not([hidden])');
  await page.click('#model-url-cancel');
  await page.waitForFunction(() => /was cancelled; the model in use stays/.test(document.querySelector('#open-error')?.textContent ?? ''));
  expect(await page.isVisible('#model-url-cancel')).toBe(false);

  await page.click('#model-url-open');
  await page.waitForSelector('#model-url-cancel:not([hidden])');
  await page.clock.runFor(31_000);
  await page.waitForFunction(() => /nothing arrived for 30 s, so the download stopped/.test(document.querySelector('#open-error')?.textContent ?? ''));
  expect(await page.evaluate(() => document.body.dataset.model)).toBe(model);
  await translateOn(page, 'The house is small.');
  expect(await page.textContent('#target')).toMatch(/Haus/);
  expect(errors).toEqual([]);
  await context.close();
}, 120_000);
