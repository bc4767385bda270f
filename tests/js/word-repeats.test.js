// The word repeat guard (cpp/decoding/word_repeat_guard.h) through the package: the shipped models
// write no word twice in a row that their source does not repeat, at beam 1 and 4 (FLORES dev
// sentences where they did before the guard, 2026-11-29, and the first 100); a source that repeats
// a word may still be translated with a repeat; repeatLimit 0 turns the guard off with the
// repetition guard. tools/internals/word-repeats.js measures all of FLORES dev, with BLEU.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { Translator } from '../../dist/index.js';
import { repeatedWords } from '../../tools/internals/word-repeats.js';
import { DATA, ROOT } from './paths.js';

// English sources whose greedy en→de translations repeated a word before the guard ("das das", "berichtete, berichtete").
const REPEATED = [
  'The search had been hampered by the same bad weather that had caused the aborted landing.',
  'An official with the gas company was reporting to the scene after a neighbor called about a gas leak.',
  'The major organ of the circulatory system is the heart, which pumps the blood.',
  'Beaches, theme parks and camp grounds are often the most common places frequented by recreational tourists.',
];

let enDe;
beforeAll(async () => { enDe = await Translator.load(`${ROOT}models/general-en-de/general-en-de.int8.crossattn`); });
afterAll(() => enDe?.dispose());

test('repeatedWords finds a word twice in a row, up to case and punctuation, and nothing else', () => {
  expect(repeatedWords('das das Land')).toEqual(['das']);
  expect(repeatedWords('Er berichtete, berichtete.')).toEqual(['berichtete']);
  expect(repeatedWords('Die die Katze sah')).toEqual(['die']);
  expect(repeatedWords('100 % der Leute , , sagen')).toEqual([]);
});

test('no word twice in a row where the source has none, at beam 1 and 4', async () => {
  const flores = readFileSync(`${DATA}/flores-dev/dev.en`, 'utf8').split('\n').slice(0, 100);
  const sources = [...REPEATED, ...flores].filter((s) => repeatedWords(s).length === 0);
  for (const beamSize of [1, 4]) {
    // In batches of 25: one engine call holds the worker's event loop, and a call of 100 sentences at
    // beam 4 (about 30 s on 2 cores) outlasts vitest's 60 s RPC timeout on a busy machine.
    const outputs = [];
    for (let i = 0; i < sources.length; i += 25) {
      outputs.push(...(await enDe.translateBatch(sources.slice(i, i + 25), { beamSize })).map((r) => r.text));
    }
    expect(outputs.filter((o) => repeatedWords(o).length > 0), `beam ${beamSize}`).toEqual([]);
  }
}, 300_000);

test('repeatLimit 0 turns the guard off: the model\'s own repeats come back', async () => {
  const off = await enDe.translateBatch(REPEATED, { repeatLimit: 0 });
  expect(off.filter((r) => repeatedWords(r.text).length > 0).length).toBeGreaterThan(0);
});

test('a source that repeats a word is not guarded: its translation is the model\'s own', async () => {
  // Each REPEATED source with a word doubled: the guard stands aside, so the output is the one with it off.
  const doubled = REPEATED.map((s) => s.replace(/\b(the) /, '$1 $1 '));
  for (const beamSize of [1, 4]) {
    const on = await enDe.translateBatch(doubled, { beamSize });
    const off = await enDe.translateBatch(doubled, { beamSize, repeatLimit: 0 });
    expect(on.map((r) => r.text)).toEqual(off.map((r) => r.text));
  }
}, 120_000);
