// Translator.info: a model file's name, direction and provenance metadata (docs/model-format.md),
// read from the file, in the library and in the CLI's --json output.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { Translator } from '../../dist/index.js';
import { readMetadata } from '../../dist/model-info.js';
import { relabelModel } from './model-fixture.js';
import { INT8_MODEL, ROOT } from './paths.js';

const PROVENANCE = { source: 'test fixture', license: 'MIT', attribution: 'Made by the tests from multi30k-en-de.',
                     converted_from: 'marian', converter: 'tests/js/model-fixture.js' };
let fixture, translator;

beforeAll(async () => {
  fixture = await relabelModel(INT8_MODEL, join(mkdtempSync(join(tmpdir(), 'crossattn-info-')), 'fixture.crossattn'),
                               { config: { name: 'fixture-en-de' }, metadata: PROVENANCE });
  translator = await Translator.load(fixture);
});
afterAll(() => translator?.dispose());

test('info holds the config name and languages and every provenance key of the file', () => {
  expect(translator.info).toEqual({
    name: 'fixture-en-de', sourceLang: 'en', targetLang: 'de', source: PROVENANCE.source, license: PROVENANCE.license,
    attribution: PROVENANCE.attribution, convertedFrom: PROVENANCE.converted_from, converter: PROVENANCE.converter,
  });
  expect(translator.config.name).toBe(translator.info.name);
});

test('a file without provenance metadata gives only its name and languages', async () => {
  const plain = await Translator.load(INT8_MODEL);
  const { name } = JSON.parse(readMetadata(readFileSync(INT8_MODEL)).config);
  expect(plain.info).toEqual({ name, sourceLang: 'en', targetLang: 'de' });
  plain.dispose();
});

test('readMetadata refuses bytes that are no safetensors header', () => {
  expect(() => readMetadata(new Uint8Array(4))).toThrow('model file: header: fewer than 8 bytes');
  const huge = new Uint8Array(16);
  new DataView(huge.buffer).setBigUint64(0, 1000n, true);
  expect(() => readMetadata(huge)).toThrow('model file: header: its length exceeds the file');
});

test("the CLI's translate --json names the model and its provenance on each line", () => {
  const r = spawnSync('node', [`${ROOT}dist/cli.js`, 'translate', '--model', fixture, '--json'],
                      { input: 'A dog runs.\nTwo men are talking.\n', encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  const lines = r.stdout.trim().split('\n').map((line) => JSON.parse(line));
  expect(lines).toHaveLength(2);
  for (const line of lines) expect(line.model).toEqual(translator.info);
  const html = spawnSync('node', [`${ROOT}dist/cli.js`, 'translate', '--model', fixture, '--html', '--json', '<p>A dog runs.</p>'],
                         { encoding: 'utf8' });
  expect(html.status, html.stderr).toBe(0);
  expect(JSON.parse(html.stdout).model.license).toBe('MIT');
});
