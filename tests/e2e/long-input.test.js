// End to end: the demo page (Debian's chromium, headless, through playwright-core) translates a text
// whose middle sentence is over 2,000 source tokens (FLORES dev sentences joined by commas) in full:
// the sentence in parts (docs/api.md, "Long input"), no error, every sentence shown.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { Translator, splitSentences } from '../../dist/index.js';
import { serve } from '../../web/serve.js';
import { launchChromium } from './browser.js';

const ROOT = new URL('../../', import.meta.url);
const MODEL = new URL('models/general-en-de/general-en-de.int8.crossattn', ROOT);  // the page's en→de (the catalog's)
const FLORES = readFileSync(new URL('../shared/data/flores-dev/dev.en', ROOT), 'utf8').split('\n')
  .filter((l) => /^[^.?!;:]+\.$/.test(l));
const LONG = (() => {
  const clauses = [];
  for (let words = 0; words < 1700; words += clauses.at(-1).split(' ').length) clauses.push(FLORES[clauses.length].slice(0, -1));
  return `${clauses.join(', ')}.`;
})();
const TEXT = `The weather was fine in the morning. ${LONG} Everyone went home in the evening.`;

let server, url, browser, page;
const pageErrors = [];

beforeAll(async () => {
  ({ server, url } = await serve(0));
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  page.on('pageerror', (error) => pageErrors.push(error.message));
});

afterAll(async () => {
  await browser?.close();
  server?.close();
});

test('a pasted text with a 2,000-token sentence translates in full on the page', async () => {
  const sentences = splitSentences(TEXT, 'en');
  expect(sentences).toHaveLength(3);
  const translator = await Translator.load(MODEL.pathname);
  const expected = await translator.translateBatch(sentences, { alignment: true });
  translator.dispose();
  expect(expected[1].parts.length).toBeGreaterThan(1);  // the middle sentence is over the limit
  expect(expected[1].sourceTokens.filter((t) => t !== '</s>').length + 1).toBeGreaterThanOrEqual(2000);

  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 120_000 });
  await page.fill('#source', TEXT);
  await page.waitForFunction(() => /^3 sentences/.test(document.querySelector('#meta').textContent) &&
    !document.querySelector('#target').classList.contains('streaming'), null, { timeout: 170_000 });
  expect(await page.isHidden('#error')).toBe(true);
  // One span per sentence; the middle one holds the whole long sentence's translation. (Compared by
  // size, not text: the int8 model's batched products can differ in the last bits between batches.)
  const spans = await page.$$eval('#target span.sentence', (all) => all.map((e) => e.textContent));
  expect(spans).toHaveLength(3);
  const words = (s) => s.trim().split(/\s+/).filter(Boolean).length;
  expect(words(spans[0])).toBeGreaterThan(2);
  expect(words(spans[2])).toBeGreaterThan(2);
  expect(words(spans[1])).toBeGreaterThan(0.6 * words(LONG));
  expect(words(spans[1])).toBeGreaterThan(0.6 * words(expected[1].text));
  expect(pageErrors).toEqual([]);
});
