// Language codes are BCP 47 language tags (bindings/src/language-tag.ts): the converter refuses
// another with a ConvertError naming the field, the loader refuses a file that carries one with a
// ModelFormatError, so no RangeError from Intl surfaces in the middle of a translation.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { ModelFormatError, Translator } from '../../dist/index.js';
import { ConvertError } from '../../dist/convert/convert-error.js';
import { convertModel } from '../../dist/convert/index.js';
import { isLanguageTag } from '../../dist/language-tag.js';
import { relabelModel } from './model-fixture.js';
import { HF, ensureFixtures } from './opus-mt-fixtures.js';
import { INT8_MODEL } from './paths.js';

test('isLanguageTag accepts BCP 47 tags and nothing else', () => {
  for (const tag of ['en', 'de', 'pt-BR', 'zh-Hant', 'gsw', 'romance']) expect(isLanguageTag(tag), tag).toBe(true);
  for (const tag of ['en_US', '', 'e', 'x-', '123', undefined, 7]) expect(isLanguageTag(tag), String(tag)).toBe(false);
});

test('the converter refuses a language code that is not a tag, naming the field', async () => {
  ensureFixtures();
  const error = await convertModel(HF, { sourceLang: 'en_US', targetLang: 'de' }).catch((e) => e);
  expect(error).toBeInstanceOf(ConvertError);
  expect(error.message).toMatch(/source_lang: "en_US" is not a BCP 47 language tag/);
});

test('the loader refuses a model file that carries one, and loads the same file with a good tag', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'crossattn-tag-'));
  try {
    const bad = await relabelModel(INT8_MODEL, join(dir, 'bad.crossattn'), { config: { target_lang: 'de_DE' } });
    const error = await Translator.load(bad).catch((e) => e);
    expect(error).toBeInstanceOf(ModelFormatError);
    expect(error.message).toMatch(/"de_DE" is not a BCP 47 language tag/);
    const good = await Translator.load(await relabelModel(INT8_MODEL, join(dir, 'good.crossattn'), { config: { target_lang: 'de-DE' } }));
    expect((await good.translate('A dog runs.')).text.length).toBeGreaterThan(0);
    good.dispose();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
