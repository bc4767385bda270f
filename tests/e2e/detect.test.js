// End to end: the page detects the language of the text typed (crossattn's detectLanguage in
// Chromium, eld's database loaded on first use), shows "Detected: German", and switches the direction
// to the model that translates from it, keeping the text; a direction chosen by hand overrides it.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openPage, servedPage } from './browser.js';

let served, url, browser;

beforeAll(async () => {
  served = await servedPage();
  ({ url, browser } = served);
}, 120_000);

afterAll(() => served?.close());

const GERMAN = 'Wo ist der Bahnhof? Ich habe meinen Zug verpasst.';

test('German typed under English → German: "Detected: German", the direction turns to German → English, the text stays', async () => {
  const { context, page, errors } = await openPage(browser, url);
  expect(await page.evaluate(() => document.body.dataset.direction)).toBe('en-de');
  await page.fill('#source', GERMAN);
  await page.waitForFunction(() => document.getElementById('detected').textContent === 'Detected: German', null, { timeout: 60_000 });
  await page.waitForFunction(() => document.body.dataset.direction === 'de-en' && /station|train/i.test(document.getElementById('target').textContent),
    null, { timeout: 120_000 });
  expect(await page.inputValue('#source')).toBe(GERMAN);

  // Chosen by hand: English → German stays, with the text, though the text is German.
  await page.selectOption('#direction', 'en-de');
  await page.waitForFunction(() => document.body.dataset.direction === 'en-de', null, { timeout: 120_000 });
  expect(await page.inputValue('#source')).toBe(GERMAN);
  await page.fill('#source', `${GERMAN} Der nächste fährt morgen.`);
  await page.waitForTimeout(1000);
  expect(await page.evaluate(() => document.body.dataset.direction)).toBe('en-de');
  expect(errors).toEqual([]);
  await context.close();
}, 300_000);
