// Each direction of the shipped catalog (models/catalog.json) translates everyday sentences in
// WebAssembly to outputs with the words a translator would use (tests/fixtures/everyday.json, written
// by hand; the same fixture runs natively in tests/cpp/everyday_test.cc), with the API's greedy
// default and with the CLIs' beam search (SENTENCE_BEAM_SIZE), and the native CLI gives the same
// text as the beam on the model the catalog names.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { Translator, modelFor, parseCatalog } from '../../dist/index.js';
import { SENTENCE_BEAM_SIZE } from '../../dist/search.js';
import { NATIVE_CLI, ROOT } from './paths.js';

const MODELS = `${ROOT}models/`;
const catalog = parseCatalog(readFileSync(`${MODELS}catalog.json`, 'utf8'), MODELS);
const fixture = JSON.parse(readFileSync(`${ROOT}tests/fixtures/everyday.json`, 'utf8'));

describe.each(['en-de', 'de-en'])('%s', (direction) => {
  const [from, to] = direction.split('-');

  test('the catalog model translates everyday sentences with the expected words, as the native CLI does', async () => {
    const entry = modelFor(catalog, from, to);
    const translator = await Translator.load(entry.model);
    expect(`${translator.config.sourceLang}-${translator.config.targetLang}`).toBe(direction);
    const cases = fixture[direction];
    expect(cases.length).toBeGreaterThanOrEqual(5);
    const texts = [];
    for (const { source, expect: words } of cases) {
      for (const beamSize of [1, SENTENCE_BEAM_SIZE]) {
        const { text } = await translator.translate(source, { attention: false, beamSize });
        if (beamSize > 1) texts.push(text);
        for (const alternatives of words) {
          expect(alternatives.some((w) => text.toLowerCase().includes(w)), `beam ${beamSize}: ${source} -> ${text}: none of ${alternatives}`).toBe(true);
        }
      }
    }
    translator.dispose();
    const native = spawnSync(NATIVE_CLI, ['translate', '--model', entry.model], {
      input: cases.map((c) => c.source).join('\n') + '\n', encoding: 'utf8',
    });
    expect(native.status, native.stderr).toBe(0);
    expect(native.stdout.trim().split('\n')).toEqual(texts);
  });
});

describe('catalog', () => {
  const text = JSON.stringify({ directions: [
    { source_lang: 'en', target_lang: 'de', model: 'a.crossattn', card: 'a.md' },
    { source_lang: 'de', target_lang: 'en', model: 'b.crossattn' },
  ] });

  test('resolves file names against a folder or a URL', () => {
    expect(parseCatalog(text, '/models').map((e) => e.model)).toEqual(['/models/a.crossattn', '/models/b.crossattn']);
    const web = parseCatalog(text, 'http://localhost:8080/models/catalog.json');
    expect(web[0]).toEqual({ sourceLang: 'en', targetLang: 'de', model: 'http://localhost:8080/models/a.crossattn',
                             card: 'http://localhost:8080/models/a.md' });
    expect(web[1].card).toBeUndefined();
  });

  test('a missing direction or a malformed catalog is a clear error', () => {
    expect(() => modelFor(parseCatalog(text, '/m'), 'en', 'fr')).toThrow(/no model translates en to fr \(available: en→de, de→en\)/);
    expect(() => parseCatalog('{"directions": {}}', '/m')).toThrow(/no "directions" array/);
    expect(() => parseCatalog('{"directions": [{"source_lang": "en", "target_lang": "de"}]}', '/m')).toThrow(/no string "model"/);
    expect(() => parseCatalog('not json', '/m')).toThrow(SyntaxError);
  });
});
