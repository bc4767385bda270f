// What the browser tests share: Debian's chromium launched headless and quiet, and the page steps
// every test repeats (type a text and wait for its translation; wait until the models are cached).
import { chromium } from 'playwright-core';
import { serve } from '../../web/serve.js';

const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

/** Debian's chromium, headless, with no background traffic of its own. */
export function launchChromium() {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
           '--disable-sync', '--no-first-run', '--disable-quic'],
  });
}

/**
 * The page served on a free port (web/serve.js, with `options` such as { hub }) and chromium
 * launched: { url, browser, close() }.
 */
export async function servedPage(options = {}) {
  const { server, url } = await serve(0, options);
  const browser = await launchChromium();
  return {
    url, browser,
    async close() {
      await browser.close();
      server.close();
    },
  };
}

/** Types `text` into the page's source box and waits until its translation and heatmap are shown. */
export async function translateOn(page, text) {
  await page.fill('#source', text);
  await page.waitForFunction((s) => document.querySelector('#heatmap')?.dataset.source === s, text);
}

/** Waits until the service worker's cache holds `count` model files. */
export async function waitForCachedModels(page, count) {
  await page.waitForFunction((n) => caches.keys().then(async (keys) => {
    const cache = keys.length ? await caches.open(keys[0]) : null;
    return (await cache?.keys() ?? []).filter((r) => r.url.endsWith('.crossattn')).length >= n;
  }), count, { timeout: 60_000 });
}

/**
 * A fresh browser context (its own caches and storage) with the page at `url` loaded and its first
 * translation shown. `errors` collects the page's uncaught errors.
 */
export async function openPage(browser, url, contextOptions = { viewport: { width: 1200, height: 900 } }) {
  const context = await browser.newContext(contextOptions);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 120_000 });
  return { context, page, errors };
}
