// Accessibility on a phone: the demo page at 375 px wide, after a translation, checked by axe-core
// (no serious or critical violation), and the word alignment view used from the keyboard: one Tab
// stop, arrow keys move between its words (roving tabindex, the WAI-ARIA grid pattern), and the
// word with the focus shows its links; the per-head grid is one Tab stop as well.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { serve } from '../../web/serve.js';
import { launchChromium, translateOn } from './browser.js';

const AXE = readFileSync(new URL('../../node_modules/axe-core/axe.min.js', import.meta.url), 'utf8');
const SOURCE = 'A man in a blue shirt is riding a bicycle down the street.';

let server, url, browser, page;
const pageErrors = [];

beforeAll(async () => {
  ({ server, url } = await serve(0));
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 375, height: 800 }, deviceScaleFactor: 2 });
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 120_000 });
  await translateOn(page, SOURCE);
  await page.waitForSelector('#alignment svg');
});

afterAll(async () => {
  await browser?.close();
  server?.close();
});

test('axe-core at 375 px after a translation: no serious or critical violation', async () => {
  // Injected through the DevTools protocol, which the page's Content-Security-Policy does not govern.
  await page.evaluate(AXE);
  const { violations } = await page.evaluate(() => globalThis.axe.run(document, { resultTypes: ['violations'] }));
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(serious).toEqual([]);
  expect(pageErrors).toEqual([]);
});

/** The focused element inside #alignment as [row, index, text], or null when the focus is elsewhere. */
const focusedWord = () => page.evaluate(() => {
  const a = document.activeElement;
  if (!a?.closest('#alignment')) return null;
  return [a.classList.contains('source') ? 'source' : 'target', Number(a.dataset.index), a.textContent];
});

test('the alignment view is one Tab stop; arrow keys, Home and End move between its words', async () => {
  const tabStops = await page.$$eval('#alignment [tabindex]', (els) => els.filter((e) => e.tabIndex >= 0).length);
  expect(tabStops).toBe(1);
  const words = await page.$$eval('#alignment .word', (els) => els.map((e) => [e.classList.contains('source') ? 'source' : 'target', e.textContent]));
  const sourceWords = words.filter(([row]) => row === 'source').map(([, w]) => w);
  const targetWords = words.filter(([row]) => row === 'target').map(([, w]) => w);
  expect(sourceWords.length).toBeGreaterThan(5);

  // Tab from the element just before the view lands on its first source word; the next Tab leaves it.
  await page.evaluate(() => document.querySelector('#alignment-panel h2').setAttribute('tabindex', '-1'));
  await page.focus('#alignment-panel h2');
  await page.keyboard.press('Tab');
  expect(await focusedWord()).toEqual(['source', 0, sourceWords[0]]);
  expect(await page.$$eval('#alignment line.link.active', (l) => l.length)).toBeGreaterThan(0);

  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  expect(await focusedWord()).toEqual(['source', 2, sourceWords[2]]);
  await page.keyboard.press('ArrowLeft');
  expect(await focusedWord()).toEqual(['source', 1, sourceWords[1]]);
  // The focused word's links are the active ones.
  const active = await page.$$eval('#alignment line.link.active', (l) => l.map((x) => Number(x.dataset.source)));
  expect(active.length).toBeGreaterThan(0);
  expect(new Set(active)).toEqual(new Set([1]));
  await page.keyboard.press('End');
  expect(await focusedWord()).toEqual(['source', sourceWords.length - 1, sourceWords.at(-1)]);
  await page.keyboard.press('ArrowRight');  // stays at the end of the row
  expect(await focusedWord()).toEqual(['source', sourceWords.length - 1, sourceWords.at(-1)]);
  await page.keyboard.press('Home');
  expect(await focusedWord()).toEqual(['source', 0, sourceWords[0]]);

  // Down goes to the target row: to a word linked to the focused one when it has links.
  await page.keyboard.press('ArrowRight');
  const linked = await page.$$eval('#alignment line.link[data-source="1"]', (l) => l.map((x) => Number(x.dataset.target)));
  await page.keyboard.press('ArrowDown');
  const [row, index, text] = await focusedWord();
  expect(row).toBe('target');
  expect(text).toBe(targetWords[index]);
  if (linked.length) expect(linked).toContain(index);
  await page.keyboard.press('ArrowUp');
  expect((await focusedWord())[0]).toBe('source');

  // Still one Tab stop, the word last focused: Tab leaves the view, Shift+Tab comes back to that word.
  const last = await focusedWord();
  expect(await page.$$eval('#alignment [tabindex]', (els) => els.filter((e) => e.tabIndex >= 0).length)).toBe(1);
  await page.keyboard.press('Tab');
  expect(await focusedWord()).toBeNull();
  await page.keyboard.press('Shift+Tab');
  expect(await focusedWord()).toEqual(last);
  expect(pageErrors).toEqual([]);
});

test('the head grid is one Tab stop too: the arrow keys move across heads and layers, Enter shows the head', async () => {
  const tabStops = () => page.$$eval('#head-grid [tabindex]', (els) => els.filter((e) => e.tabIndex >= 0).length);
  expect(await tabStops()).toBe(1);
  const heads = await page.$$eval('#head-grid .head[data-layer="0"]', (f) => f.length);
  const focused = () => page.evaluate(() => {
    const f = document.activeElement.closest('#head-grid .head');
    return f ? [Number(f.dataset.layer), Number(f.dataset.head)] : null;
  });
  await page.focus('#head-grid .head[tabindex="0"]');
  expect(await focused()).toEqual([0, 0]);
  await page.keyboard.press('ArrowLeft');  // the first head: the focus stays
  expect(await focused()).toEqual([0, 0]);
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowDown');
  expect(await focused()).toEqual([1, 1]);
  await page.keyboard.press('ArrowUp');
  expect(await focused()).toEqual([0, 1]);
  await page.keyboard.press('End');
  const layers = await page.$$eval('#head-grid .head', (f) => f.length) / heads;
  expect(await focused()).toEqual([layers - 1, heads - 1]);
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  expect([await page.inputValue('#layer'), await page.inputValue('#head')]).toEqual(['0', '1']);
  expect(await tabStops()).toBe(1);
  expect(pageErrors).toEqual([]);
});
