// The engine's option table from JavaScript: optionSpecs() is what the engine does when an option is
// left out, docs/api.md's table is made from it, and sampling keeps its promises (a seed repeats,
// topK 1 is greedy, recorded probabilities are the model's).
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { optionSpecs, Translator } from '../../dist/index.js';
import { BEGIN, END, optionsTable } from '../../tools/options-table.js';
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

test("docs/api.md's options table is the one tools/options-table.js makes from the engine", async () => {
  const api = readFileSync(`${ROOT}docs/api.md`, 'utf8');
  const inDocs = api.slice(api.indexOf(BEGIN) + BEGIN.length, api.indexOf(END)).trim();
  expect(inDocs).toBe(await optionsTable());
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
  await expect(translator.translate(text, { sample: true, beamSize: 2 })).rejects.toThrow(/sample draws one hypothesis: beamSize must be 1/);
  await expect(translator.translate(text, { sample: true, topP: 0 })).rejects.toThrow(/topP must be a finite number in \(0, 1\]/);
});
