// Every number README.md and docs/api.md state about limits, sizes and defaults, read from the text
// and checked against where it comes from: the code (dist/, cpp/), the shipped models' files, or the
// package as `npm pack` makes it. A text that changes a number, or stops saying it, fails here.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { InvalidInputError, MAX_THREADS, Translator, optionSpecs, parseCatalog } from '../../dist/index.js';
import { LONG_INPUT_FACTOR, LONG_INPUT_PART_TOKENS } from '../../dist/long-input.js';
import { readMetadata } from '../../dist/model-info.js';
import { MAX_FILE_BYTES } from '../../dist/sources.js';
import { ROOT } from './paths.js';

const README = readFileSync(`${ROOT}README.md`, 'utf8');
const API = readFileSync(`${ROOT}docs/api.md`, 'utf8');
const TRANSLATOR_CC = readFileSync(`${ROOT}cpp/translator.cc`, 'utf8');

/** The number the first group of `pattern` captures in `text` (thousands separators dropped). */
function stated(text, pattern) {
  const match = pattern.exec(text);
  expect(match, `the text no longer says ${pattern}`).not.toBeNull();
  return Number(match[1].replace(/,/g, ''));
}

/** The value of a `constexpr ... NAME = N;` (or `N ll << S`) in cpp/translator.cc. */
function constant(name) {
  const match = new RegExp(`constexpr long long ${name} = (\\d+)(?:ll << (\\d+))?;`).exec(TRANSLATOR_CC);
  expect(match, `cpp/translator.cc defines ${name}`).not.toBeNull();
  return Number(match[1]) * 2 ** Number(match[2] ?? 0);
}

const MODELS = `${ROOT}models/`;
const catalog = parseCatalog(readFileSync(`${MODELS}catalog.json`, 'utf8'), MODELS);
/** The config of a model file, as its header's metadata holds it. */
const configOf = (file) => JSON.parse(readMetadata(readFileSync(file)).config);
const shipped = catalog.map((entry) => ({ entry, config: configOf(entry.model) }));
let specs;  // the engine's option table
beforeAll(async () => { specs = await optionSpecs(); });

test('the packed size of the core package is what the README says', () => {
  const megabytes = stated(README, /about\s+([\d.]+) MB packed/);
  const [pack] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8' }));
  // "about 0.9 MB": the size rounds to the stated digits.
  expect(Math.abs(pack.size / 1e6 - megabytes), `npm pack: ${pack.size} bytes`).toBeLessThanOrEqual(0.05);
});

test("the token limits: the shipped models' max_positions, the long-input factor and part length", () => {
  const maxPositions = stated(API, /`maxPositions` source tokens \((\d+) for the shipped general\s+models/);
  expect(shipped.map((m) => m.config.max_positions)).toEqual(shipped.map(() => maxPositions));
  expect(stated(API, /cut into parts of at most\s+(\d+) source tokens/)).toBe(LONG_INPUT_PART_TOKENS);
  expect(stated(API, /A sentence of more than (\d+) × `maxPositions` source tokens/)).toBe(LONG_INPUT_FACTOR);
  expect(stated(API, /× `maxPositions` source tokens \(([\d,]+) for the shipped general models\)/)).toBe(LONG_INPUT_FACTOR * maxPositions);
  expect(stated(API, /\| source tokens of one sentence \| (\d+) × the model's `max_positions`/)).toBe(LONG_INPUT_FACTOR);
  expect(stated(API, /`InputTooLongError` \| A sentence of more than (\d+) × `maxPositions`/)).toBe(LONG_INPUT_FACTOR);
});

describe('the work budget of docs/api.md, "Limits"', () => {
  let translator;
  const steps = constant('kMaxBeamSteps');
  beforeAll(async () => { translator = await Translator.load(catalog[0].model); });
  afterAll(() => translator?.dispose());

  test('its numbers are the constants of cpp/translator.cc and sources.ts', () => {
    expect(stated(API, /longest possible output \| ([\d,]+) \(beam/)).toBe(steps);
    const maxPositions = stated(API, /\(beam \d+ over the (\d+) tokens of the shipped general models' `max_positions`/);
    expect(stated(API, /\(beam (\d+) over the \d+ tokens of the shipped/) * maxPositions).toBe(steps);
    expect(shipped.every((m) => m.config.max_positions === maxPositions)).toBe(true);
    const beamMax = (specs.find((o) => o.jsName === 'beamSize')).max;
    expect(stated(API, /; beam (\d+) over \d+\) \|/)).toBe(beamMax);
    expect(stated(API, /; beam \d+ over (\d+)\) \|/) * beamMax).toBe(steps);
    expect(stated(API, /× 4 bytes \| (\d+) MiB \|/) * 2 ** 20).toBe(constant('kMaxAttentionBytes'));
    expect(stated(API, /\| model and wasm files \| (\d+) GiB/) * 2 ** 30).toBe(MAX_FILE_BYTES);
    expect(stated(API, /or above (\d+) GiB \(read sizes/) * 2 ** 30).toBe(MAX_FILE_BYTES);
  });

  test('the engine takes a beam at the budget over the longest output and refuses one more', async () => {
    const beam = stated(API, /\(beam (\d+) over the \d+ tokens of the shipped/);
    const longest = { maxLengthRatio: 1000 };  // the output limit becomes max_positions
    expect((await translator.translate('A dog.', { ...longest, beamSize: beam })).text.length).toBeGreaterThan(0);
    await expect(translator.translate('A dog.', { ...longest, beamSize: beam + 1 })).rejects.toThrow(InvalidInputError);
    await expect(translator.translate('A dog.', { ...longest, beamSize: beam + 1 })).rejects.toThrow(String(steps));
  });
});

test("threads: MAX_THREADS as the README and docs/api.md give it", () => {
  expect(stated(README, /`threads: 'auto'`, up to (\d+)/)).toBe(MAX_THREADS);
  expect(stated(API, /1 to `MAX_THREADS` = (\d+)/)).toBe(MAX_THREADS);
  expect(stated(API, /`min\((\d+), navigator\.hardwareConcurrency\)`/)).toBe(MAX_THREADS);
});

test("option defaults: docs/api.md's table and the README's words are the engine's option table", () => {
  const byName = new Map(specs.map((o) => [o.group === 'alignment' ? `alignment.${o.jsName}` : o.jsName, o]));
  const rows = [...API.matchAll(/^\| `([\w.]+)` \| (?:`--[\w-]+`)? *\| (?:[^|\\]|\\.)+ \| (`[^`]*`|none)(?:; `(\d+)` for a sentence typed in the page or either CLI)? \|/gm)];
  expect(rows.length).toBe(byName.size);
  for (const [, name, cell, sentence] of rows) {
    const spec = byName.get(name);
    expect(spec, `${name} is an option of the engine`).toBeDefined();
    expect(sentence === undefined ? undefined : Number(sentence), name).toBe(spec.sentenceDefault);
    if (cell === 'none') expect(spec.default).toEqual([]);
    else expect(JSON.parse(cell.slice(1, -1)), name).toEqual(spec.default);
  }
  // README: "--repeat-limit 0 ... (default: no span 4 times in a row)": the default limit allows 3.
  expect(stated(README, /default: no span (\d+) times in a row/)).toBe(byName.get('repeatLimit').default + 1);
  expect(README).toMatch(/Greedy decoding is the fast default/);
  expect(byName.get('beamSize').default).toBe(1);
});

test("the README's shipped models: layers and vocabulary as their files say", () => {
  const enDe = shipped.find((m) => m.entry.sourceLang === 'en' && m.entry.targetLang === 'de').config;
  const [, encoder, decoder, pieces] = /(\d+) encoder \+ (\d+) decoder layers on a ([\d,]+)-piece vocabulary/.exec(README) ?? [];
  expect([Number(encoder), Number(decoder), Number(pieces?.replace(/,/g, ''))])
    .toEqual([enDe.encoder_layers, enDe.decoder_layers, enDe.vocab_size]);
  for (const direction of ['en-de', 'de-en']) {
    const config = configOf(`${MODELS}tatoeba-${direction}/tatoeba-${direction}.int8.crossattn`);
    const row = README.split('\n').find((line) => line.includes(`models/tatoeba-${direction}/`));
    const [, enc, dec] = /(\d+)\+(\d+) layers/.exec(row) ?? [];
    expect([Number(enc), Number(dec)], `tatoeba-${direction}`).toEqual([config.encoder_layers, config.decoder_layers]);
  }
});

test('the README\'s alignment error rates are those docs/alignment.json holds (tools/alignment-methods.js --json)', () => {
  const figures = JSON.parse(readFileSync(`${ROOT}docs/alignment.json`, 'utf8'));
  const row = (method) => figures.rows.find((r) => r.method === method);
  const defaults = "the defaults (each model's own), as `crossattn align` reads them";
  expect(figures).toMatchObject({ model: 'general-en-de', reverse: 'general-de-en' });
  const line = README.split('\n').find((l) => l.includes('word alignment AER on align-dev'));
  expect(line).toBeDefined();
  expect(stated(line, /\| ([\d.]+)% \//)).toBe(row(defaults).aer);
  expect(stated(line, /\/ ([\d.]+)% \|/)).toBe(row(`${defaults}, both directions symmetrized`).aer);
  const doc = readFileSync(`${ROOT}docs/alignment.md`, 'utf8');
  expect(doc).toContain(`AER **${row(defaults).aer}**`);
  expect(doc).toContain(`**${row(`${defaults}, both directions symmetrized`).aer}** symmetrized`);
});
