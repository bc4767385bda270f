// End to end (Debian's chromium against web/serve.js): every direction offline. The page says which
// directions are kept for offline use; "keep for offline" downloads the others (their sizes shown
// first, from models/catalog.json); an offline swap to a direction not downloaded says so in words
// and puts the page back as it was (direction, text, a fresh translation), with a Retry button that
// works once the network is back.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { serve } from '../../web/serve.js';
import { launchChromium, openPage, translateOn } from './browser.js';

const catalog = JSON.parse(readFileSync(new URL('../../models/catalog.json', import.meta.url), 'utf8'));
const sizeOf = (from, to) => catalog.directions.find((d) => d.source_lang === from && d.target_lang === to).size;
const megabytes = (bytes) => `${(bytes / 1e6).toFixed(1)}\u00a0MB`;  // number and unit on one line

let server, url, browser;

beforeAll(async () => {
  ({ server, url } = await serve(0));
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  server?.close();
});

/** Waits until the offline line lists `directions` (e.g. 'en-de de-en') as kept in their current version. */
const keptAre = (page, directions) => page.waitForFunction((d) => document.querySelector('#offline')?.dataset.kept === d,
  directions, { timeout: 60_000 });

test('offline, a swap to a direction not downloaded says so in words and rolls the page back; Retry works once online', async () => {
  const { context, page, errors } = await openPage(browser, url);
  await keptAre(page, 'en-de');  // the model in use is kept; the other direction is not
  expect(await page.textContent('#offline-status')).toBe(
    `Works offline: English → German. Not downloaded for offline use: German → English (${megabytes(sizeOf('de', 'en'))}).`);
  const english = 'Where is the station?';
  await translateOn(page, english);
  const german = (await page.textContent('#target')).trim();
  await page.evaluate(() => {  // every text the output and the meta line show from now on
    window.seen = [];
    new MutationObserver(() => window.seen.push([document.querySelector('#target').textContent, document.querySelector('#meta').textContent]))
      .observe(document.querySelector('main'), { childList: true, characterData: true, subtree: true });
  });

  await context.setOffline(true);
  await page.click('#swap');
  await page.waitForSelector('#error:not([hidden])');
  const error = await page.textContent('#error');
  expect(error).toMatch(/^Cannot load the model: German → English is not downloaded for offline use/);  // the direction by name
  expect(error).not.toMatch(/Failed to fetch/);
  expect(error).toMatch(/offline/);
  expect(await page.isVisible('#retry')).toBe(true);
  // Back as it was: the direction, the English text, and its translation made again by the English→German model.
  expect(await page.inputValue('#direction')).toBe('en-de');
  expect(await page.inputValue('#source')).toBe(english);
  expect([await page.textContent('#source-lang'), await page.textContent('#target-lang')]).toEqual(['English', 'German']);
  await page.waitForFunction((s) => document.querySelector('#heatmap')?.dataset.source === s &&
    document.querySelector('#heatmap').dataset.direction === 'en-de' && !document.querySelector('#target.streaming'), english);
  expect((await page.textContent('#target')).trim()).toBe(german);
  expect(await page.textContent('#meta')).toMatch(/^1 sentence,/);
  expect(await page.textContent('#model-card')).toBe('general-en-de');
  // The stale translation went before the new one came: the output and meta line were empty in between.
  expect(await page.evaluate(() => window.seen.some(([target, meta]) => target === '' && meta === ''))).toBe(true);
  expect(await page.isVisible('#error')).toBe(true);  // the fresh translation leaves the reason shown

  // Retry offline: the same words again, the page unchanged.
  await page.evaluate(() => { document.querySelector('#error').textContent = ''; });
  await page.click('#retry');
  await page.waitForFunction(() => /not downloaded for offline use/.test(document.querySelector('#error').textContent));
  expect(await page.inputValue('#direction')).toBe('en-de');
  expect(await page.inputValue('#source')).toBe(english);

  // Online again, Retry makes the swap: German to English, the German translation as the text.
  await context.setOffline(false);
  await page.click('#retry');
  await page.waitForFunction((s) => document.querySelector('#heatmap')?.dataset.source === s &&
    document.querySelector('#heatmap').dataset.direction === 'de-en', german, { timeout: 120_000 });
  expect(await page.inputValue('#source')).toBe(german);
  expect(await page.textContent('#target')).toMatch(/station/i);
  expect(await page.isHidden('#error')).toBe(true);
  expect(await page.isHidden('#retry')).toBe(true);
  await keptAre(page, 'en-de de-en');
  expect(errors).toEqual([]);
  await context.close();
});

test('"keep for offline" shows the size, downloads every direction not kept, and then every direction works offline', async () => {
  const { context, page, errors } = await openPage(browser, url);
  await keptAre(page, 'en-de');
  const size = megabytes(sizeOf('de', 'en'));
  expect(await page.textContent('#keep-offline')).toBe(`Keep for offline: download German → English (${size})`);
  await page.click('#keep-offline');
  await keptAre(page, 'en-de de-en');
  expect(await page.textContent('#offline-status')).toBe('Works offline: English → German, German → English.');
  expect(await page.isHidden('#keep-offline')).toBe(true);
  expect(await page.isHidden('#keep-progress')).toBe(true);
  // Downloading for offline use is not loading: the page still uses English→German.
  expect(await page.evaluate(() => document.body.dataset.direction)).toBe('en-de');

  await context.setOffline(true);
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]', { timeout: 120_000 });
  await page.click('#swap');
  await page.waitForFunction(() => document.querySelector('#heatmap')?.dataset.direction === 'de-en', null, { timeout: 120_000 });
  await translateOn(page, 'Ich bin sehr müde.');
  expect(await page.textContent('#target')).toMatch(/tired/);
  expect(await page.isHidden('#error')).toBe(true);
  expect(errors).toEqual([]);
  await context.close();
});
