// End to end: Debian's chromium, headless, driven by playwright-core against the demo page served on
// loopback. Translates in the page's Web Workers, checks the heatmap, the word alignment, the
// per-head grid and the explain view, and fails on any request that leaves the page's origin.
// Saves screenshots to build/e2e/.
import { mkdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { serve } from '../../web/serve.js';
import { launchChromium, translateOn, waitForCachedModels } from './browser.js';

// The config of the page's en→de model (the catalog's), from its safetensors metadata.
function enDeConfig() {
  const model = readFileSync(new URL('../../models/general-en-de/general-en-de.int8.crossattn', import.meta.url));
  const header = JSON.parse(model.subarray(8, 8 + Number(model.readBigUInt64LE(0))).toString());
  return JSON.parse(header.__metadata__.config);
}

const SCREENSHOTS = new URL('../../build/e2e/', import.meta.url);

let server, url, browser, page;
const foreignRequests = [];
const pageErrors = [];

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  ({ server, url } = await serve(0));
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  const origin = new URL(url).origin;
  // Every request, from the page or its worker, must stay on the page's origin.
  await page.context().route('**/*', (route) => {
    const requestUrl = route.request().url();
    if (new URL(requestUrl).origin === origin) return route.continue();
    foreignRequests.push(requestUrl);
    return route.abort();
  });
  page.on('pageerror', (error) => pageErrors.push(error.message));
  // The server's Content-Security-Policy must not block anything the page does.
  page.on('console', (message) => {
    if (/Content.Security.Policy/i.test(message.text())) pageErrors.push(message.text());
  });
});

afterAll(async () => {
  await browser?.close();
  server?.close();
});

async function heatmapRows() {
  return page.$$eval('#heatmap g.row', (rows) => rows.length);
}

test('translates in the browser and shows one heatmap row per target token', async () => {
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 120_000 });
  await page.fill('#source', 'A man is riding a bicycle down the street.');
  await page.waitForFunction(() => document.querySelector('#heatmap')?.dataset.source === document.querySelector('#source').value);
  const text = await page.textContent('#target');
  expect(text.trim().length).toBeGreaterThan(0);
  expect(text).toMatch(/\b(ein|eine|einer|einem|einen|der|die|das|den|dem)\b/i);  // German, not English
  const targetTokens = Number(await page.getAttribute('#heatmap', 'data-target-tokens'));
  expect(targetTokens).toBeGreaterThan(1);
  expect(await heatmapRows()).toBe(targetTokens);
  const sourceTokens = Number(await page.getAttribute('#heatmap', 'data-source-tokens'));
  expect(await page.$$eval('#heatmap g.row:first-of-type rect.cell', (c) => c.length)).toBe(sourceTokens);
  await page.screenshot({ path: new URL('page.png', SCREENSHOTS).pathname, fullPage: true });
  // The README's screenshot, 1200 × 800 (tools/readme-screenshots.js copies it to docs/screenshot.png).
  await page.screenshot({ path: new URL('readme.png', SCREENSHOTS).pathname, clip: { x: 0, y: 0, width: 1200, height: 800 } });
  // The README shows a screenshot of this shape, copied from such a run (its PNG header: width, height at bytes 16 and 20).
  const size = (png) => [png.readUInt32BE(16), png.readUInt32BE(20)];
  expect(size(readFileSync(new URL('../../docs/screenshot.png', import.meta.url))))
    .toEqual(size(readFileSync(new URL('readme.png', SCREENSHOTS))));
  expect(readFileSync(new URL('../../README.md', import.meta.url), 'utf8')).toContain('](docs/screenshot.png)');

  // Hovering a cell names the token pair and its weight.
  await page.hover('#heatmap g.row:first-of-type rect.cell');
  expect(await page.textContent('#tooltip')).toMatch(/→ .*: \d\.\d{3}$/);

  // Another layer and a single head redraw the same shape.
  await page.selectOption('#layer', '0');
  await page.selectOption('#head', '1');
  expect(await heatmapRows()).toBe(targetTokens);

  expect(foreignRequests).toEqual([]);
  expect(pageErrors).toEqual([]);
});

test('confidence: a sentence the model is unsure of is flagged in words, its doubtful words marked; a sure one is not', async () => {
  await translateOn(page, 'Where is the station?');
  expect(await page.isHidden('#confidence-warning')).toBe(true);
  expect(Number(await page.getAttribute('#target .sentence', 'data-confidence'))).toBeGreaterThanOrEqual(0.4);
  // Rare words the model has hardly seen: it guesses, and marks the words it found unlikely (the
  // thresholds: web/confidence-view.js, measured in docs/confidence.md).
  await translateOn(page, "Thrice-fortnightly, the sexton's curmudgeonly gainsaying flummoxed the plenipotentiary.");
  expect(await page.$$eval('#target .unsure', (w) => w.length)).toBeGreaterThan(0);
  // Laughter spelt out at length: the model's output is less likely than a typical human translation
  // with an error (confidence about 0.09, the bar 0.12), and the page says so.
  await translateOn(page, 'Hahahahahahahahahahahahahahahahahahahahahahahahahahahaha');
  expect(await page.textContent('#confidence-warning')).toMatch(/unsure of this translation/);
  expect(await page.$$eval('#target .sentence.doubtful', (s) => s.length)).toBe(1);
  // The marks are spans around the words: the text itself is unchanged, one span per word.
  const { text, words } = await page.$eval('#target', (o) => ({ text: o.textContent, words: o.querySelectorAll('.sentence > span').length }));
  expect(words).toBe(text.trim().split(/\s+/).length);
});

test('a paragraph is split into sentences, translated by the worker pool, each with its attention', async () => {
  const paragraph = 'Where is the station? I am very tired. My brother lives in Berlin.';
  await page.fill('#source', paragraph);
  await page.waitForFunction(() => document.querySelector('#heatmap')?.dataset.source?.startsWith('Where is'));
  const options = await page.$$eval('#sentence option', (o) => o.map((x) => x.textContent));
  expect(options).toHaveLength(3);
  expect(await page.isVisible('#sentence-control')).toBe(true);
  const text = await page.textContent('#target');
  expect(text).toMatch(/Bahnhof/);
  expect(text).toMatch(/müde/);
  expect(text).toMatch(/Bruder/);
  expect(await page.textContent('#meta')).toMatch(/^3 sentences/);
  // Choosing the second sentence shows its attention.
  await page.selectOption('#sentence', '1');
  expect(await page.getAttribute('#heatmap', 'data-source')).toBe('I am very tired.');
  await page.screenshot({ path: new URL('paragraph.png', SCREENSHOTS).pathname, fullPage: true });
  expect(foreignRequests).toEqual([]);
  expect(pageErrors).toEqual([]);
});

test('alignment, per-head grid and explain views show the current sentence', async () => {
  const source = 'A man in a blue shirt is riding a bicycle.';
  await page.fill('#source', source);
  await page.waitForFunction((s) => document.querySelector('#heatmap')?.dataset.source === s, source);
  const target = (await page.textContent('#target')).trim();

  // Alignment: one text per word on each side, one line per link, links on man-Mann.
  const words = await page.$$eval('#alignment text.word', (t) => t.map((x) => [x.classList[1], x.textContent]));
  expect(words.filter(([side]) => side === 'source').map(([, w]) => w)).toEqual(source.split(' '));
  expect(words.filter(([side]) => side === 'target').map(([, w]) => w)).toEqual(target.split(' '));
  const links = Number(await page.getAttribute('#alignment', 'data-links'));
  expect(links).toBeGreaterThanOrEqual(target.split(' ').length - 1);
  expect(await page.$$eval('#alignment line.link', (l) => l.length)).toBe(links);
  expect(await page.$$eval('#alignment line.link', (l) => l.map((x) => `${x.dataset.source}-${x.dataset.target}`))).toContain('1-1');
  await page.hover('#alignment text.word.target[data-index="1"]');
  expect(await page.$$eval('#alignment line.link.active', (l) => l.map((x) => x.dataset.target))).toContain('1');
  expect(await page.$$eval('#alignment text.word.source.active', (t) => t.map((x) => x.textContent))).toContain('man');
  await (await page.$('#alignment-panel')).screenshot({ path: new URL('alignment.png', SCREENSHOTS).pathname });

  // Per-head grid: every layer and head, each with its entropy; clicking one shows it in the heatmap.
  const captions = await page.$$eval('#head-grid figcaption', (c) => c.map((x) => x.textContent));
  const { decoder_layers: decoderLayers, n_heads: nHeads } = enDeConfig();
  expect(captions).toHaveLength(decoderLayers * nHeads);
  for (const c of captions) expect(c).toMatch(/^L\d H\d · H = \d\.\d\d$/);
  expect(await page.$$eval('#head-grid .head.sharpest', (f) => f.length)).toBeGreaterThanOrEqual(1);
  await page.click('#head-grid .head[data-layer="1"][data-head="2"]');
  expect(await page.inputValue('#layer')).toBe('1');
  expect(await page.inputValue('#head')).toBe('2');
  await (await page.$('#heads-panel')).screenshot({ path: new URL('heads.png', SCREENSHOTS).pathname });

  // Explain: shapes with this sentence's n and m, one residual row per target token and layer columns.
  const targetTokens = Number(await page.getAttribute('#heatmap', 'data-target-tokens'));
  const sourceTokens = Number(await page.getAttribute('#heatmap', 'data-source-tokens'));
  const explain = await page.textContent('#explain');
  expect(explain).toContain(`[${targetTokens}, ${sourceTokens}]`);  // the weights [m, n]
  expect(explain).toContain(`n = ${sourceTokens}`);
  expect(explain).toContain(`m = ${targetTokens}`);
  expect(await page.$$eval('#explain table.residual tbody tr', (r) => r.length)).toBe(targetTokens);
  expect(await page.$$eval('#explain table.residual tbody tr:first-child td', (r) => r.length)).toBe(1 + 3 * decoderLayers);
  expect(await page.$$eval('#explain .residual-summary li', (l) => l.length)).toBe(decoderLayers);
  // Deep encoder, shallow decoder: this sentence's work per stack, and the measured comparison
  // (models/architecture.json, tools/architecture-compare.js) as a table with one column per model.
  expect(explain).toContain(`the decoder ran its ${decoderLayers} layers ${targetTokens} times, once per target token`);
  const architecture = JSON.parse(readFileSync(new URL('../../models/architecture.json', import.meta.url), 'utf8'));
  const columns = await page.$$eval('#explain table.architecture thead th', (t) => t.map((x) => x.textContent));
  expect(columns.slice(1)).toEqual(architecture.candidates.map((c) => c.name));
  await (await page.$('#explain-panel')).screenshot({ path: new URL('explain.png', SCREENSHOTS).pathname });
  await page.screenshot({ path: new URL('views.png', SCREENSHOTS).pathname, fullPage: true });
  expect(foreignRequests).toEqual([]);
  expect(pageErrors).toEqual([]);
});

test('the translation streams in, a new keystroke cancels it, beam search lists its hypotheses', async () => {
  // Streaming: every text the target shows on the way is a prefix of the final translation; greedy
  // decoding streams token by token (beam search, the default, shows the prefix its hypotheses agree on).
  await page.selectOption('#beam-size', '1');  // translates the text there again: let that finish first
  await page.waitForFunction(() => !document.querySelector('#target').classList.contains('streaming'));
  await page.evaluate(() => {
    window.seenTargets = [];
    new MutationObserver(() => window.seenTargets.push(document.querySelector('#target').textContent))
      .observe(document.querySelector('#target'), { childList: true, characterData: true, subtree: true });
  });
  const long = 'A man in a blue shirt and a woman in a red dress are standing next to a large brown dog on a busy street.';
  await page.fill('#source', long);
  await page.waitForFunction((s) => document.querySelector('#heatmap')?.dataset.source === s, long);
  const final = (await page.textContent('#target')).trim();
  const seen = (await page.evaluate(() => window.seenTargets)).filter((t) => t !== '');
  expect(new Set(seen).size).toBeGreaterThan(3);  // token by token, not all at once
  for (const t of seen) expect(final.startsWith(t.trim()), t).toBe(true);

  // Cancellation: replacing a long paragraph while it streams cancels it; the new text wins.
  const cancelledBefore = Number(await page.evaluate(() => document.body.dataset.cancelled ?? 0));
  // 256 sentences: their translation takes far longer than the next keystroke does to arrive, even
  // on the isolated page's threaded worker (64 took under a second on 2 threads). The next text goes
  // in once the paragraph's own tokens stream (the target is longer than the one sentence's
  // translation that stood there), so the paragraph is surely still being translated.
  const paragraph = Array(256).fill(long).join(' ');
  await page.fill('#source', paragraph);
  await page.waitForFunction((before) => document.querySelector('#target').classList.contains('streaming') &&
    document.querySelector('#target').textContent.trim().length > before, final.length);
  const next = 'Two dogs play in the snow.';
  await page.fill('#source', next);
  await page.waitForFunction((s) => document.querySelector('#heatmap')?.dataset.source === s, next);
  expect(Number(await page.evaluate(() => document.body.dataset.cancelled))).toBe(cancelledBefore + 1);
  expect(await page.textContent('#target')).toMatch(/Hunde/);
  expect(await page.textContent('#meta')).toMatch(/^1 sentence,/);

  // Beam search: the other hypotheses are listed, and a choice other than the default survives a reload.
  await page.selectOption('#beam-size', '4');
  await page.waitForFunction(() => /beam 4/.test(document.querySelector('#meta').textContent));
  expect(await page.$$eval('#hypotheses li', (l) => l.length)).toBe(2);
  for (const item of await page.$$eval('#hypotheses li', (l) => l.map((x) => x.textContent))) {
    expect(item).toMatch(/score -\d+\.\d\d$/);
  }
  await page.screenshot({ path: new URL('beam.png', SCREENSHOTS).pathname, fullPage: true });
  await page.selectOption('#beam-size', '1');
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]', { timeout: 120_000 });
  expect(await page.inputValue('#beam-size')).toBe('1');
  expect(foreignRequests).toEqual([]);
  expect(pageErrors).toEqual([]);
});

test('both directions: the swap button turns the translation around, and the choice is remembered', async () => {
  const shown = (source, direction) => page.waitForFunction(([s, d]) => {
    const heatmap = document.querySelector('#heatmap');
    return heatmap?.dataset.source === s && heatmap.dataset.direction === d;
  }, [source, direction]);
  expect(await page.inputValue('#direction')).toBe('en-de');
  const english = 'Where is the station?';
  await page.fill('#source', english);
  await shown(english, 'en-de');
  const german = (await page.textContent('#target')).trim();
  expect(german).toMatch(/Bahnhof/);

  // Swap: German to English, with the German translation as the new source.
  await page.click('#swap');
  await shown(german, 'de-en');
  expect(await page.inputValue('#source')).toBe(german);
  expect(await page.inputValue('#direction')).toBe('de-en');
  expect(await page.textContent('#target')).toMatch(/station/i);
  expect([await page.textContent('#source-lang'), await page.textContent('#target-lang')]).toEqual(['German', 'English']);
  expect(await page.textContent('#model-card')).toBe('general-de-en');
  // The footer's speed line is the last `npm run bench` run's (docs/performance.json) for this model.
  const measured = JSON.parse(readFileSync(new URL('../../docs/performance.json', import.meta.url), 'utf8'));
  const deEn = measured.models.find((m) => m.name === 'general-de-en').engines['crossattn-wasm-int8-shortlist'];
  expect(await page.isVisible('#speed')).toBe(true);
  expect(await page.textContent('#speed')).toContain(`${Math.round(deEn.tokens_per_s)} target tokens/s`);
  expect(await page.textContent('#speed')).toContain(measured.date.slice(0, 10));
  expect(await heatmapRows()).toBe(Number(await page.getAttribute('#heatmap', 'data-target-tokens')));
  await page.screenshot({ path: new URL('de-en.png', SCREENSHOTS).pathname, fullPage: true });

  // The direction survives a reload.
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]', { timeout: 120_000 });
  expect(await page.inputValue('#direction')).toBe('de-en');
  expect(await page.inputValue('#source')).toMatch(/geschlafen/);  // the German example, not English text
  const tired = 'Ich bin sehr müde.';
  await page.fill('#source', tired);
  await shown(tired, 'de-en');
  const tiredEnglish = (await page.textContent('#target')).trim();
  expect(tiredEnglish).toMatch(/tired/);

  // Back to English to German with the select: like the swap button, the translation becomes the source.
  await page.selectOption('#direction', 'en-de');
  await shown(tiredEnglish, 'en-de');
  expect(await page.inputValue('#source')).toBe(tiredEnglish);
  const dog = 'I love my dog.';
  await page.fill('#source', dog);
  await shown(dog, 'en-de');
  expect(await page.textContent('#target')).toMatch(/Hund/);
  expect(await page.textContent('#model-card')).toBe('general-en-de');
  // Both models are loaded now: the word alignment becomes the symmetrized one of both directions,
  // the same links as the API's alignSymmetric of the pair.
  await page.waitForSelector('#alignment[data-directions="2"]', { state: 'attached' });
  expect(await page.textContent('#alignment-directions')).toMatch(/German→English model/);
  const drawn = await page.$$eval('#alignment .links line', (lines) => lines.map((l) => `${l.dataset.source}-${l.dataset.target}`).join(' '));
  const hund = (await page.textContent('#target')).trim();
  const expected = await page.evaluate(`(async () => {
    const { Translator, modelFor, parseCatalog, pharaoh } = await import('/dist/index.js');
    const catalog = parseCatalog(await (await fetch('/models/catalog.json')).text(), new URL('/models/catalog.json', location.href).href);
    const [forward, reverse] = await Promise.all([modelFor(catalog, 'en', 'de'), modelFor(catalog, 'de', 'en')].map((e) => Translator.load(e.model)));
    const both = await forward.alignSymmetric(reverse, ${JSON.stringify(dog)}, ${JSON.stringify(hund)});
    return pharaoh(both);
  })()`);
  expect(drawn).toBe(expected);
  expect(foreignRequests).toEqual([]);
  expect(pageErrors).toEqual([]);
});

test('every failure is visible: a sentence too long, a model or a worker that does not load', async () => {
  // Too long: the error in words, and nothing left of the previous translation.
  await page.fill('#source', 'I love my dog.');
  await page.waitForFunction(() => document.querySelector('#heatmap')?.dataset.source === 'I love my dog.');
  expect((await page.textContent('#target')).trim().length).toBeGreaterThan(0);
  await page.fill('#source', 'dog '.repeat(5000));  // past 16 x 256 tokens: shorter is translated in parts
  await page.waitForSelector('#error:not([hidden])');
  expect(await page.textContent('#error')).toMatch(/too long for this model/);
  expect((await page.textContent('#target')).trim()).toBe('');
  expect(await page.isHidden('#attention')).toBe(true);
  // The page stays usable: the next sentence translates and the error goes away.
  await page.fill('#source', 'I love my dog.');
  await page.waitForSelector('#error', { state: 'hidden' });
  expect(await page.textContent('#target')).toMatch(/Hund/);

  // A model file that cannot be fetched, and a worker script that does not load: said in words, no hang.
  for (const [pattern, expected] of [['**/*.crossattn', /Cannot load the model/], ['**/web/worker.js', /Cannot load the model: the worker stopped/]]) {
    const context = await browser.newContext({ serviceWorkers: 'block' });  // else the service worker's fetches skip route()
    const broken = await context.newPage();
    await broken.route(pattern, (route) => route.fulfill({ status: 404, body: 'not found' }));
    await broken.goto(url);
    await broken.waitForSelector('#error:not([hidden])', { timeout: 60_000 });
    expect(await broken.textContent('#error'), pattern).toMatch(expected);
    expect(await broken.isHidden('#load')).toBe(true);
    await context.close();
  }
  expect(pageErrors).toEqual([]);
});

test('accessible: no serious or critical axe-core violation, the head grid works from the keyboard, nothing overflows at 375 px', async () => {
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 120_000 });
  const source = 'A man in a blue shirt is riding a bicycle.';
  await page.fill('#source', source);
  await page.waitForFunction((s) => document.querySelector('#heatmap')?.dataset.source === s, source);

  // axe-core (injected through the DevTools protocol, which the page's CSP does not govern) on every view.
  await page.evaluate(readFileSync(new URL('../../node_modules/axe-core/axe.min.js', import.meta.url), 'utf8'));
  const { violations } = await page.evaluate(() => globalThis.axe.run(document, { resultTypes: ['violations'] }));
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(serious).toEqual([]);

  // Keyboard: Tab reaches a head of the grid, Enter shows it in the heatmap; focus shows an alignment word's links.
  await page.focus('#head-grid .head[data-layer="0"][data-head="1"]');
  await page.keyboard.press('Enter');
  expect([await page.inputValue('#layer'), await page.inputValue('#head')]).toEqual(['0', '1']);
  await page.focus('#alignment text.word.source[data-index="1"]');
  expect(await page.$$eval('#alignment line.link.active', (l) => l.length)).toBeGreaterThan(0);

  expect(await page.isHidden('#heatmap-scroll-cue')).toBe(true);  // the heatmap fits a desktop window

  // A phone: one column, no horizontal scrolling of the page.
  const phone = await browser.newContext({ viewport: { width: 375, height: 800 }, deviceScaleFactor: 2 });
  const small = await phone.newPage();
  await small.goto(url);
  await small.waitForSelector('body[data-ready="true"]', { timeout: 120_000 });
  await small.fill('#source', source);
  await small.waitForFunction((s) => document.querySelector('#heatmap')?.dataset.source === s, source);
  expect(await small.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  // The heatmap is wider than a phone: it scrolls in its own box, and a line above it says so.
  const heatmap = await small.evaluate(() => ({ scroll: document.getElementById('heatmap').scrollWidth, box: document.getElementById('heatmap').clientWidth }));
  expect(heatmap.scroll).toBeGreaterThan(heatmap.box);
  expect(await small.isVisible('#heatmap-scroll-cue')).toBe(true);
  expect(await small.textContent('#heatmap-scroll-cue')).toMatch(/scroll it sideways/);
  await small.screenshot({ path: new URL('mobile.png', SCREENSHOTS).pathname });  // docs/mobile.png is a copy
  await phone.close();
  expect(pageErrors).toEqual([]);
});

test('offline after one visit: with the network off, a reload loads the page and the models from the cache and translates', async () => {
  const context = await browser.newContext();
  const visit = await context.newPage();
  await visit.goto(url);
  await visit.waitForSelector('body[data-ready="true"]', { timeout: 120_000 });
  await visit.waitForFunction(() => (document.querySelector('#target')?.textContent ?? '').trim().length > 0);
  // Both directions once, so that both models are cached.
  await visit.click('#swap');
  await visit.waitForFunction(() => document.body.dataset.direction === 'de-en' && !document.querySelector('#load:not([hidden])'));
  await waitForCachedModels(visit, 2);
  await context.setOffline(true);
  await visit.reload();
  await visit.waitForSelector('body[data-ready="true"]', { timeout: 120_000 });
  await translateOn(visit, 'Ich bin sehr müde.');
  expect(await visit.textContent('#target')).toMatch(/tired/);
  expect(await visit.isHidden('#error')).toBe(true);
  await context.close();
});
