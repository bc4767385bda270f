// End to end, on a phone-sized touch screen (Debian's chromium through playwright-core): after a
// translation with a word the model found unlikely, the legend of the confidence marks is visible
// near the output; the word's mark is a tinted dotted box, not a spell-check underline, readable;
// tapping the word (or focusing it by keyboard) says its probability in the legend's status line.
import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { serve } from '../../web/serve.js';
import { WORD_THRESHOLD } from '../../web/confidence-view.js';
import { launchChromium, translateOn } from './browser.js';

// Made-up words: the en→de model guesses at them, and gives two of its words a probability below
// WORD_THRESHOLD with the catalog's model of 2026-11-27 and the page's beam of 4, so the
// page marks at least two: one sentence, since the page's heatmap shows the current sentence.
const NONSENSE = 'Twas brillig, and the slithy toves did gyre and gimble in the wabe, and all mimsy were the borogoves, and the mome raths outgrabe.';
const SCREENSHOTS = new URL('../../build/e2e/', import.meta.url);

let server, url, browser, page;
const pageErrors = [];

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  ({ server, url } = await serve(0));
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 120_000 });
});

afterAll(async () => {
  await browser?.close();
  server?.close();
});

// WCAG 2.1 contrast ratio of two CSS rgb() colours.
function contrast(a, b) {
  const luminance = (css) => {
    const [r, g, b] = css.match(/[\d.]+/g).slice(0, 3).map((v) => {
      const c = Number(v) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

test('after a translation with an unsure word, the legend is shown and the mark is a readable box, not an underline', async () => {
  await translateOn(page, NONSENSE);
  expect(await page.$$eval('#target .unsure', (w) => w.length)).toBeGreaterThanOrEqual(2);
  expect(await page.isVisible('#confidence-legend')).toBe(true);
  const legend = await page.textContent('#confidence-legend');
  expect(legend).toMatch(/unsure of this sentence/);
  expect(legend).toMatch(/word the model found unlikely/);
  expect(await page.isVisible('#confidence-legend .sample.unsure')).toBe(true);
  // The legend sits right below the output, in the same pane.
  const [output, box] = [await page.locator('#target').boundingBox(), await page.locator('#confidence-legend').boundingBox()];
  expect(box.y).toBeGreaterThanOrEqual(output.y + output.height);
  expect(box.y - (output.y + output.height)).toBeLessThan(120);

  const style = await page.$eval('#target .unsure', (w) => {
    const s = getComputedStyle(w), pane = getComputedStyle(w.closest('.pane'));
    return { line: s.textDecorationLine, decorationStyle: s.textDecorationStyle, outline: s.outlineStyle, outlineColor: s.outlineColor,
             color: s.color, background: s.backgroundColor, paneBackground: pane.backgroundColor };
  });
  expect(style.line).toBe('none');                                  // no underline, wavy or other
  expect(style.outline).toBe('dotted');
  expect(style.background).not.toMatch(/rgba\(0, 0, 0, 0\)|transparent/);
  expect(contrast(style.color, style.background)).toBeGreaterThanOrEqual(4.5);          // text stays readable
  expect(contrast(style.outlineColor, style.paneBackground)).toBeGreaterThanOrEqual(3);  // the box is visible
  await page.locator('#target').locator('xpath=..').screenshot({ path: new URL('confidence-legend.png', SCREENSHOTS).pathname });
});

test('tapping a marked word says its probability; so does focusing one by keyboard', async () => {
  const words = page.locator('#target .unsure');
  const first = await words.first().textContent();
  const probability = Number(await words.first().getAttribute('data-probability'));
  expect(probability).toBeLessThan(WORD_THRESHOLD);
  await words.first().tap();
  const detail = page.locator('#confidence-detail');
  await expect.poll(() => detail.textContent()).toContain(`“${first}”`);
  expect(await detail.textContent()).toMatch(/probability of [\d.]+%/);
  expect(await detail.getAttribute('role')).toBe('status');
  expect(await page.evaluate(() => document.activeElement?.classList.contains('unsure'))).toBe(true);

  // Keyboard: the marked words are in the tab order, and focus alone explains them.
  expect(await words.first().getAttribute('tabindex')).toBe('0');
  const last = words.last();
  await last.focus();
  await expect.poll(() => detail.textContent()).toContain(`“${await last.textContent()}”`);
  expect(pageErrors).toEqual([]);
});

test('a translation the model is sure of has no marks and no legend', async () => {
  await translateOn(page, 'Where is the station?');
  expect(await page.$$eval('#target .unsure, #target .doubtful', (m) => m.length)).toBe(0);
  expect(await page.isHidden('#confidence-legend')).toBe(true);
});
