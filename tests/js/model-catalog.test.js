// The model catalog takes entries for any language pair: BCP-47 codes with scripts and regions,
// several directions, and the words on a model's source and licence, for the page's footer.
import { expect, test } from 'vitest';
import { modelFor, parseCatalog } from '../../dist/index.js';

const catalog = JSON.stringify({ directions: [
  { source_lang: 'en', target_lang: 'pt-BR', model: 'opus-mt-en-pt.crossattn', source: 'Helsinki-NLP/opus-mt-tc-big-en-pt', license: 'CC-BY-4.0' },
  { source_lang: 'zh-Hant', target_lang: 'en', model: 'zh-en/model.crossattn', card: 'zh-en/README.md' },
  { source_lang: 'sr-Latn', target_lang: 'fr', model: 'sr-fr.crossattn', package: 'crossattn-sr-fr' },
] });

test('any BCP-47 pair is read as it is written, and looked up by its codes', () => {
  const entries = parseCatalog(catalog, 'https://example.org/models/catalog.json');
  expect(entries.map((e) => `${e.sourceLang}→${e.targetLang}`)).toEqual(['en→pt-BR', 'zh-Hant→en', 'sr-Latn→fr']);
  expect(modelFor(entries, 'zh-Hant', 'en').model).toBe('https://example.org/models/zh-en/model.crossattn');
  expect(modelFor(entries, 'zh-Hant', 'en').card).toBe('https://example.org/models/zh-en/README.md');
  expect(modelFor(entries, 'sr-Latn', 'fr').package).toBe('crossattn-sr-fr');
  expect(() => modelFor(entries, 'pt-BR', 'en')).toThrow('no model translates pt-BR to en (available: en→pt-BR, zh-Hant→en, sr-Latn→fr)');
});

test("an entry's source and licence come through when given, and are absent otherwise", () => {
  const [withProvenance, without] = parseCatalog(catalog, '/srv/models');
  expect(withProvenance).toMatchObject({ source: 'Helsinki-NLP/opus-mt-tc-big-en-pt', license: 'CC-BY-4.0',
                                         model: '/srv/models/opus-mt-en-pt.crossattn' });
  expect('source' in without || 'license' in without).toBe(false);
});

test('an entry without a language code is refused, naming the field', () => {
  expect(() => parseCatalog(JSON.stringify({ directions: [{ source_lang: 'en', model: 'x.crossattn' }] }), '/'))
    .toThrow('invalid model catalog: a direction has no string "target_lang"');
});
