// The engine's option table from JavaScript: optionSpecs() is what the engine does when an option is
// left out, docs/api.md's table is made from it, and sampling keeps its promises (a seed repeats,
// topK 1 is greedy, recorded probabilities are the model's).
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { InvalidInputError, optionSpecs, SENTENCE_BEAM_SIZE, Translator } from '../../dist/index.js';
import { BEGIN, END, GENERATED_TS, generatedTypes, optionsTable } from '../../tools/internals/options-table.js';
import { MODEL, ROOT } from './paths.js';

let translator;
beforeAll(async () => {
  translator = await Translator.load(MODEL);
});
afterAll(() => translator.dispose());

const SOURCES = ['A man is riding a bicycle down the street.', 'Two dogs play in the snow.'];

test('every default of the table is what the engine does when the option is left out', async () => {
  const specs = await optionSpecs();
  expect(specs.map((o) => o.jsName)).toEqual(expect.arrayContaining(['beamSize', 'nBest', 'repeatLimit', 'topP', 'threshold']));
  const explicit = { alignment: {} };
  for (const o of specs) {
    if (o.type === 'int[]' && o.default.length === 0) continue;  // "none given" means the last two layers, all heads
    if (o.group === 'alignment') explicit.alignment[o.jsName] = o.default;
    else explicit[o.jsName] = o.default;
  }
  const plain = await translator.translateBatch(SOURCES, { alignment: true });
  const spelled = await translator.translateBatch(SOURCES, explicit);
  for (let i = 0; i < SOURCES.length; ++i) {
    expect(spelled[i].targetIds).toEqual(plain[i].targetIds);
    expect(spelled[i].alignment.links).toEqual(plain[i].alignment.links);
    expect(spelled[i].crossAttention !== undefined).toBe(plain[i].crossAttention !== undefined);
  }
});

test("docs/api.md's options table and options.generated.ts are what tools/internals/options-table.js makes from the engine", async () => {
  const api = readFileSync(`${ROOT}docs/api.md`, 'utf8');
  const inDocs = api.slice(api.indexOf(BEGIN) + BEGIN.length, api.indexOf(END)).trim();
  expect(inDocs, 'docs/api.md: run node tools/internals/options-table.js --write').toBe(await optionsTable());
  expect(readFileSync(GENERATED_TS, 'utf8'), `${GENERATED_TS}: run node tools/internals/options-table.js --write`).toBe(await generatedTypes());
});

test('an option the engine refuses names it, its value and its limit, in the message and in error.fault', async () => {
  const error = await translator.translate('A dog.', { beamSize: 2, nBest: 3 }).then(() => null, (e) => e);
  expect(error).toBeInstanceOf(InvalidInputError);
  expect(error.message).toBe('nBest must be at most beamSize, not 3');
  expect(error.fault).toEqual({ option: 'nBest', value: '3', limit: 'at most', other: 'beamSize' });
  const threshold = await translator.translate('A dog.', { alignment: { threshold: 2 } }).then(() => null, (e) => e);
  expect(threshold.message).toBe('alignment.threshold must be a finite number in (0, 1], not 2');
  expect(threshold.fault.option).toBe('threshold');
  const plain = await translator.translate('A dog.', null).then(() => null, (e) => e);
  expect(plain).toBeInstanceOf(InvalidInputError);
  expect(plain.fault).toBeUndefined();
});

test('sampling: a seed repeats its translation, seeds differ, topK 1 is greedy, probabilities stay the model\'s', async () => {
  const text = SOURCES[0];
  const greedy = await translator.translate(text);
  expect((await translator.translate(text, { sample: true, topK: 1, seed: 5 })).text).toBe(greedy.text);
  const texts = new Set();
  for (let seed = 0; seed < 6; ++seed) {
    const options = { sample: true, temperature: 1.5, seed };
    const a = await translator.translate(text, options);
    expect((await translator.translate(text, options)).targetIds).toEqual(a.targetIds);
    // In a batch the sentence draws the same tokens as alone.
    expect((await translator.translateBatch([SOURCES[1], text], options))[1].targetIds).toEqual(a.targetIds);
    texts.add(a.text);
    // The recorded log-probabilities are the model's own (temperature 1): forced decoding agrees.
    const forced = await translator.align(text, a.text, { attention: false, alignment: false });
    if (forced.targetIds.join() === a.targetIds.join()) expect(forced.logProb).toBeCloseTo(a.logProb, 3);
  }
  expect(texts.size).toBeGreaterThan(2);
  await expect(translator.translate(text, { sample: true, beamSize: 2 })).rejects.toThrow('beamSize must be 1 with sample, not 2 (sampling draws one hypothesis)');
  await expect(translator.translate(text, { sample: true, topP: 0 })).rejects.toThrow('topP must be a finite number in (0, 1], not 0');
});

test('the sentence beam size has one home, the engine\'s option table, which the API\'s export and the docs read', async () => {
  const beam = (await optionSpecs()).find((o) => o.name === 'beam_size');
  expect(beam.default).toBe(1);  // the API stays greedy
  expect(beam.sentenceDefault).toBe(SENTENCE_BEAM_SIZE);
  expect(SENTENCE_BEAM_SIZE).toBeGreaterThan(1);
  expect(readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8'))
    .toContain(`| \`beamSize\` | \`--beam-size\` | int from 1 to 64 | \`1\`; \`${SENTENCE_BEAM_SIZE}\` for a sentence typed in the page or either CLI |`);
});
