// End to end: the page, the CLI and the library give the same text for the same sentence at the
// page's options (en→de, beam search of 4), number repair and its second chance included; and a
// sentence whose translation lacks something of the source is underlined and its loss listed.
// The library translates a paragraph as the page and the CLI do: split into sentences
// (splitParagraphs), translated as one batch, joined (joinParagraphs). Texts: FLORES dev lines
// (two of them of several sentences, one with a number the model drops) and issue 59's examples.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { serve } from '../../web/serve.js';
import { Translator, joinParagraphs, splitParagraphs } from '../../dist/index.js';
import { DATA, ROOT } from '../js/paths.js';
import { launchChromium, openPage, translateOn } from './browser.js';

const flores = readFileSync(`${DATA}/flores-dev/dev.en`, 'utf8').split('\n');
const severalSentences = flores.filter((line) => splitParagraphs(line, 'en').flat().length > 1).slice(0, 2);
const TEXTS = [
  ...flores.slice(0, 6), ...severalSentences,
  flores.find((line) => line.includes('1950')) ?? flores[6],
  'The meeting has been moved to 14 February 2025 at 9:30 a.m.',
  'I paid $1,299.99 for the laptop.',
  'Please write to anna.schmidt@example.com before Friday.',
];
const FLAGGED = 'The concert starts at 8 p.m. and tickets cost £45.';

let server, url, browser;

beforeAll(async () => {
  ({ server, url } = await serve(0));
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  server?.close();
});

test('the page, the CLI and the library give the same text', async () => {
  const { page, errors } = await openPage(browser, url);
  const onPage = [];
  for (const text of TEXTS) {
    // The heatmap shows the text's first sentence once every sentence is translated.
    await page.fill('#source', text);
    await page.waitForFunction((first) => document.querySelector('#heatmap')?.dataset.source === first &&
      !document.querySelector('#target').classList.contains('streaming'), splitParagraphs(text, 'en')[0][0]);
    onPage.push(await page.textContent('#target'));
  }
  const cli = execFileSync('node', [`${ROOT}dist/cli.js`, 'translate', '--from', 'en', '--to', 'de'],
                           { input: TEXTS.join('\n') + '\n', encoding: 'utf8' }).trimEnd().split('\n');
  const t = await Translator.load(`${ROOT}models/general-en-de/general-en-de.int8.crossattn`);
  const library = [];
  for (const text of TEXTS) {
    const paragraphs = splitParagraphs(text, 'en');
    const results = await t.translateBatch(paragraphs.flat(), { beamSize: 4 });
    library.push(joinParagraphs(paragraphs, results.map((r) => r.text)));
  }
  t.dispose();
  expect(onPage).toEqual(library);
  expect(cli).toEqual(library);
  expect(errors).toEqual([]);
}, 300_000);

test('a translation that lacks something of the source is underlined, and the loss is listed in words', async () => {
  const { page } = await openPage(browser, url);
  await translateOn(page, FLAGGED);
  expect(await page.$$eval('#target .sentence.flagged', (s) => s.length)).toBe(1);
  expect(await page.isVisible('#carry-notes')).toBe(true);
  expect(await page.textContent('#carry-notes')).toMatch(/£45/);
  expect(await page.textContent('#confidence-legend')).toMatch(/lacks or invents a date, time, number or price/);
  await translateOn(page, 'I am very tired.');
  expect(await page.isVisible('#carry-notes')).toBe(false);
}, 120_000);
