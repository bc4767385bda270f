// End to end: a pair no model joins, translated on the page through English. The page has the
// catalog's German → English model; a local Hub stand-in serves the OPUS-MT-shaped fixture as
// Helsinki-NLP/opus-mt-en-fr (this repository has no French model: its weights are the fixture's
// en→de, so its "French" is German). Once that is opened by its id, the direction choice offers
// German → French through English; choosing it translates in two legs, and the attention and
// alignment views show each leg, chosen by the leg control.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startHub } from '../js/fixtures/hub-server.js';
import { HF, ensureFixtures } from '../js/opus-mt-fixtures.js';
import { openPage, servedPage } from './browser.js';

let hub, served, url, browser;

beforeAll(async () => {
  ensureFixtures();
  hub = await startHub({ 'Helsinki-NLP/opus-mt-en-fr': HF });
  served = await servedPage({ hub: hub.url });
  ({ url, browser } = served);
}, 300_000);

afterAll(async () => {
  await served?.close();
  await hub?.close();
});

test('German → French through English: offered once en→fr is opened, two legs, each leg\'s views', async () => {
  const { context, page, errors } = await openPage(browser, url);
  expect(await page.$$eval('#direction optgroup[label="Through English"] option', (o) => o.length)).toBe(0);
  await page.fill('#hub-id', 'Helsinki-NLP/opus-mt-en-fr');
  await page.click('#hub-open');
  await page.waitForFunction(() => document.body.dataset.model?.startsWith('opened-'), null, { timeout: 180_000 });
  const pivots = await page.$$eval('#direction optgroup[label="Through English"] option', (o) => o.map((x) => [x.value, x.textContent]));
  expect(pivots.map(([, label]) => label)).toEqual(['German → French (through English)']);

  await page.selectOption('#direction', pivots[0][0]);
  const sentence = 'Ich bin sehr müde.';
  await page.waitForFunction((id) => document.body.dataset.model === id, pivots[0][0], { timeout: 120_000 });
  await page.fill('#source', sentence);
  await page.waitForFunction((id) => document.querySelector('#heatmap')?.dataset.model === id && !document.getElementById('leg-control').hidden,
    pivots[0][0], { timeout: 120_000 });
  expect(await page.$$eval('#leg option', (o) => o.map((x) => x.textContent))).toEqual(['German → English', 'English → French']);
  await page.waitForFunction(() => /tired/i.test(document.querySelector('#heatmap').dataset.source), null, { timeout: 60_000 });  // leg 2 reads the English
  const english = await page.getAttribute('#heatmap', 'data-source');
  expect(await page.textContent('#target')).not.toBe('');

  await page.selectOption('#leg', '0');  // leg 1: German → English, its own attention and alignment
  await page.waitForFunction((s) => document.querySelector('#heatmap').dataset.source === s, sentence);
  expect(Number(await page.getAttribute('#alignment', 'data-links'))).toBeGreaterThan(0);
  expect(english).not.toBe(sentence);
  expect(errors).toEqual([]);
  await context.close();
}, 300_000);
