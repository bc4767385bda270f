// End to end: a model by its Hugging Face Hub id on the page (Debian's chromium, headless, against
// web/serve.js), from a fresh browser profile. A local stand-in for the Hub (tests/js/fixtures/hub-server.js:
// resolve/{revision} paths, a redirect to storage, ETags, CORS) serves the OPUS-MT-shaped fixture
// (tools/opus-mt-fixtures.py) as Helsinki-NLP/opus-mt-en-de; the page is served with that endpoint
// (serve's `hub`, as HF_ENDPOINT does for `node web/serve.js`). The id typed in is downloaded with
// progress, converted to int8 in a worker, opened, translated with every view, and kept for an
// offline reload; an id the hub does not have is said in words, and the model in use stays.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { serve } from '../../web/serve.js';
import { startHub } from '../js/fixtures/hub-server.js';
import { HF, ensureFixtures } from '../js/opus-mt-fixtures.js';
import { launchChromium, openPage, translateOn } from './browser.js';

const ID = 'Helsinki-NLP/opus-mt-en-de';
let hub, server, url, browser, cardless;

beforeAll(async () => {
  ensureFixtures();
  // someone/my-model: the same files without a model card, so nothing states its licence.
  cardless = mkdtempSync(join(tmpdir(), 'crossattn-cardless-'));
  cpSync(HF, cardless, { recursive: true });
  rmSync(join(cardless, 'README.md'));
  hub = await startHub({ [ID]: HF, 'someone/my-model': cardless });
  ({ server, url } = await serve(0, { hub: hub.url }));
  browser = await launchChromium();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  server?.close();
  await hub?.close();
  if (cardless) rmSync(cardless, { recursive: true, force: true });
});

/** Starts recording every text the status line shows. */
function recordStatus(page) {
  return page.evaluate(() => {
    const status = document.getElementById('open-status');
    globalThis.statusTexts = [];
    new MutationObserver(() => globalThis.statusTexts.push(status.textContent)).observe(status, { childList: true, characterData: true, subtree: true });
  });
}

test('a model by its id: downloaded with progress, converted in a worker, translating with every view, and kept offline', async () => {
  const { context, page, errors } = await openPage(browser, url);
  await recordStatus(page);
  const before = hub.requests.length;
  await page.fill('#hub-id', ID);
  await page.click('#hub-open');
  await page.waitForFunction(() => document.body.dataset.model?.startsWith('opened-') &&
    document.querySelector('#heatmap')?.dataset.model === document.body.dataset.model, null, { timeout: 180_000 });
  const id = await page.evaluate(() => document.body.dataset.model);

  const statuses = await page.evaluate(() => globalThis.statusTexts);
  expect(statuses.some((s) => /^Downloading Helsinki-NLP\/opus-mt-en-de: model\.safetensors, [\d.]+\u00a0MB of [\d.]+\u00a0MB$/.test(s))).toBe(true);
  expect(statuses).toContain(`Converting ${ID}, in a worker…`);
  const paths = hub.requests.slice(before).map((r) => r.path);
  expect(paths).toContain(`/${ID}/resolve/main/config.json`);
  expect(paths).toContain(`/${ID}/resolve/main/model.safetensors`);
  expect(paths.some((p) => p.startsWith('/lfs/'))).toBe(true);

  expect(await page.textContent('footer p:first-child')).toBe(`Model: opus-mt-en-de — ${hub.url}/${ID}, CC-BY-4.0.`);
  expect(await page.$$eval('#opened-models li', (l) => l.map((x) => x.dataset.model))).toEqual([id]);
  await translateOn(page, 'I am very tired.');
  expect(await page.textContent('#target')).toMatch(/müde/);
  const targetTokens = Number(await page.getAttribute('#heatmap', 'data-target-tokens'));
  expect(await page.$$eval('#heatmap g.row', (r) => r.length)).toBe(targetTokens);
  expect(Number(await page.getAttribute('#alignment', 'data-links'))).toBeGreaterThan(0);

  // The direction choice offers the pairs of models/pairs.json for download, en→fr among them; choosing
  // the OPUS-MT en→de pair downloads Helsinki-NLP/opus-mt-en-de (the stand-in's fixture: the same file, the same model).
  await page.waitForSelector('#direction optgroup[label^="Download: OPUS-MT"]', { state: 'attached' });
  const offered = await page.$$eval('#direction optgroup[label^="Download: OPUS-MT"] option', (o) => o.map((x) => [x.value, x.textContent]));
  expect(offered.some(([, label]) => label.startsWith('English → French ('))).toBe(true);
  expect(await page.$$eval('#direction optgroup[label^="Download: Firefox"] option', (o) => o.some((x) => x.textContent.startsWith('English → French (')))).toBe(true);
  const [enDe] = offered.find(([, label]) => label.startsWith('English → German ('));
  const listed = hub.requests.length, seen = await page.evaluate(() => globalThis.statusTexts.length);
  await page.selectOption('#direction', enDe);
  expect(await page.inputValue('#direction')).toBe(id);  // the model in use stays chosen while it downloads
  await page.waitForFunction((n) => globalThis.statusTexts.slice(n).includes('Opened opus-mt-en-de.'), seen, { timeout: 180_000 });
  expect(hub.requests.slice(listed).map((r) => r.path)).toContain(`/${ID}/resolve/main/model.safetensors`);
  expect(await page.evaluate(() => document.body.dataset.model)).toBe(id);  // the same bytes: the same opened model
  expect(await page.$$eval('#opened-models li', (l) => l.length)).toBe(1);

  // A repository that is not OPUS-MT's and has no model card: its source is where it came from, and its licence is
  // unknown, which the footer says (the Helsinki-NLP one above took CC-BY-4.0 from its card).
  await page.fill('#hub-id', 'someone/my-model');
  await page.click('#hub-open');
  await page.waitForFunction(() => document.querySelector('#model-card')?.textContent === 'my-model', null, { timeout: 180_000 });
  expect(await page.textContent('footer p:first-child')).toBe(`Model: my-model — ${hub.url}/someone/my-model, licence unknown.`);
  await page.selectOption('#direction', id);
  await page.waitForFunction((m) => document.querySelector('#heatmap')?.dataset.model === m, id, { timeout: 120_000 });

  // An id the hub does not have: said in words; the model in use stays.
  await page.fill('#hub-id', 'nobody/opus-mt-xx-yy');
  await page.click('#hub-open');
  await page.waitForSelector('#open-error:not([hidden])');
  expect(await page.textContent('#open-error')).toMatch(/^Cannot download nobody\/opus-mt-xx-yy: .*has no repository nobody\/opus-mt-xx-yy at revision main.*The model in use stays\.$/);
  expect(await page.evaluate(() => document.body.dataset.model)).toBe(id);

  // Offline, from the browser's own copy: no request reaches the hub.
  const requests = hub.requests.length;
  await context.setOffline(true);
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]', { timeout: 120_000 });
  expect(await page.inputValue('#direction')).toBe(id);
  await translateOn(page, 'Where is the station?');
  expect(await page.getAttribute('#heatmap', 'data-model')).toBe(id);
  expect(await page.textContent('#target')).toMatch(/Bahnhof/);
  expect(hub.requests.length).toBe(requests);
  expect(errors).toEqual([]);
  await context.close();
}, 300_000);

test('a download that stalls can be cancelled: the worker ends, the page says so, and the model in use stays', async () => {
  const { context, page, errors } = await openPage(browser, url);
  const before = await page.evaluate(() => document.body.dataset.model);
  hub.faults.stall[`${ID}/model.safetensors`] = { after: 1 << 16, times: 1 };  // some bytes, then nothing
  await page.fill('#hub-id', ID);
  await page.click('#hub-open');
  await page.waitForFunction(() => /^Downloading .*model\.safetensors/.test(document.getElementById('open-status').textContent), null, { timeout: 60_000 });
  await page.click('#hub-cancel');
  await page.waitForSelector('#open-error:not([hidden])');
  expect(await page.textContent('#open-error')).toBe(`Downloading ${ID} was cancelled; the model in use stays.`);
  expect(await page.isVisible('#hub-cancel')).toBe(false);
  expect(await page.isEnabled('#hub-open')).toBe(true);
  expect(await page.evaluate(() => document.body.dataset.model)).toBe(before);
  await translateOn(page, 'I am very tired.');
  expect(await page.textContent('#target')).not.toBe('');
  expect(errors).toEqual([]);
  await context.close();
}, 120_000);
