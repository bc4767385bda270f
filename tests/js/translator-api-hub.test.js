// The Translator API with models by name (hubProvider after the catalog), against a local stand-in
// for the Hugging Face Hub (fixtures/hub-server.js) that serves the OPUS-MT-shaped fixture as
// Helsinki-NLP/opus-mt-en-fr (this repository has no French model: its weights are the fixture's
// en→de, so its "French" is German): de→fr goes through English, de→en from the catalog and en→fr
// downloaded from the hub with progress, converted, kept, and then 'available'.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { Translator, catalogProvider, configureTranslatorApi, firstOf, hubProvider } from '../../dist/translator-api/index.js';
import { startHub } from './fixtures/hub-server.js';
import { HF, ensureFixtures } from './opus-mt-fixtures.js';

let hub, cacheDir;

beforeAll(async () => {
  ensureFixtures();
  hub = await startHub({ 'Helsinki-NLP/opus-mt-en-fr': HF });
  cacheDir = mkdtempSync(join(tmpdir(), 'crossattn-api-hub-'));
  configureTranslatorApi({ provider: firstOf(catalogProvider(), hubProvider({ endpoint: hub.url, cacheDir, float32: true })) });
}, 300_000);

afterAll(async () => {
  configureTranslatorApi({ provider: catalogProvider() });
  await hub?.close();
  rmSync(cacheDir, { recursive: true, force: true });
});

test('de→fr through English: downloadable, downloaded with progress on create, both legs in the result, then available', async () => {
  const pair = { sourceLanguage: 'de', targetLanguage: 'fr' };
  expect(await Translator.availability({ sourceLanguage: 'en', targetLanguage: 'fr' })).toBe('downloadable');
  expect(await Translator.availability({ sourceLanguage: 'it', targetLanguage: 'fr' })).toBe('unavailable');  // the hub has no opus-mt-it-en
  expect(await Translator.availability(pair)).toBe('downloadable');
  const loaded = [];
  const t = await Translator.create({ ...pair, monitor: (m) => m.addEventListener('downloadprogress', (e) => loaded.push(e.loaded)) });
  expect(loaded[0]).toBe(0);
  expect(loaded.at(-1)).toBe(1);
  expect(loaded.length).toBeGreaterThan(2);  // fractions of the download between
  expect(t.engines.map((e) => `${e.info.sourceLang}>${e.info.targetLang}`)).toEqual(['de>en', 'en>fr']);
  const r = await t.translateDetailed('Ich bin sehr müde.', { alignment: true });
  expect(r.legs[0].text).toMatch(/tired/);
  expect(r.text).toBe(r.legs[1].text);
  expect(r.alignment.links.length).toBeGreaterThan(0);
  expect(await t.translate('Ich bin sehr müde.')).toBe(r.text);
  expect(await Translator.availability(pair)).toBe('available');
  expect(hub.requests.some((q) => q.path === '/Helsinki-NLP/opus-mt-en-fr/resolve/main/model.safetensors')).toBe(true);
}, 300_000);
