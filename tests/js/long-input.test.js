// Long input (bindings/src/long-input.ts, cpp/cli/long_input.h): a sentence over the model's
// max_positions source tokens is translated in parts and joined, in translate, translateBatch, a
// WorkerPool and both CLIs, instead of failing the whole text. The long sentence is FLORES dev
// sentences joined by commas, on the catalog's English–German model (256 positions).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { MessageChannel } from 'node:worker_threads';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { InputTooLongError, Translator, splitSentences } from '../../dist/index.js';
import { LONG_INPUT_FACTOR, LONG_INPUT_PART_TOKENS, splitLongSentence } from '../../dist/long-input.js';
import { WorkerPool, serveTranslator } from '../../dist/worker.js';
import { DATA, NATIVE_CLI, ROOT } from './paths.js';

const GENERAL = `${ROOT}models/general-en-de/general-en-de.int8.crossattn`;

// FLORES dev sentences whose only inner punctuation is commas, joined by commas into one sentence
// of over 2,000 source tokens (about 1,700 words; the token count is checked on the translation).
const FLORES = readFileSync(`${DATA}/flores-dev/dev.en`, 'utf8').split('\n').filter((l) => /^[^.?!;:]+\.$/.test(l));
const LONG = (() => {
  const clauses = [];
  for (let words = 0; words < 1700; words += clauses.at(-1).split(' ').length) clauses.push(FLORES[clauses.length].slice(0, -1));
  return `${clauses.join(', ')}.`;
})();
const MIDDLE = `The weather was fine in the morning. ${LONG} Everyone went home in the evening.`;

// One token per word plus eos: a stand-in for the model's count in the rule's unit tests.
const wordsPlusEos = (s) => (s.trim() ? s.trim().split(/\s+/).length + 1 : 0);

let translator, long;
beforeAll(async () => {
  translator = await Translator.load(GENERAL);
  long = await translator.translate(LONG, { alignment: true });
});
afterAll(() => translator?.dispose());

// The pieces of a split sentence's source, eos left out: the sentence's own token count minus eos.
const sourcePieces = (r) => r.sourceTokens.filter((t) => t !== '</s>').length;

/** Checks that `r` is `text` translated in full in parts. */
function expectFullParts(r, text) {
  const budget = Math.min(LONG_INPUT_PART_TOKENS, translator.config.maxPositions / 2);
  expect(r.parts.length).toBeGreaterThanOrEqual(Math.ceil(2000 / budget));
  expect(r.sourceWords.join(' ')).toBe(text.split(/\s+/).join(' '));  // every source word, once, in order
  for (const part of r.parts) {
    expect(part.sourceTokens.length).toBeLessThanOrEqual(budget);
    expect(part.text.length).toBeGreaterThan(0);
    expect(part.targetTokens.at(-1)).toBe('</s>');  // no part was cut short by the output limit
  }
  expect(r.text).toBe(r.parts.map((p) => p.text).join(' '));
  expect(r.targetWords.length).toBeGreaterThan(0.6 * r.sourceWords.length);
}

test('the rule: a sentence within the limit is one part; a clause boundary is preferred, semicolon first', () => {
  expect(splitLongSentence('a b c, d e.', 'en', 8, wordsPlusEos)).toEqual(['a b c, d e.']);
  const text = 'one two, three four; five six seven and eight nine ten, eleven twelve thirteen';
  const parts = splitLongSentence(text, 'en', 12, wordsPlusEos);  // budget 6 tokens: 5 words
  expect(parts).toEqual(['one two, three four;', 'five six seven', 'and eight nine ten,', 'eleven twelve thirteen']);
  // German conjunctions cut; "1,5" and "9:30" are no boundaries (no space after the mark).
  expect(splitLongSentence('eins zwei drei vier 1,5 und fünf sechs sieben 9:30 aber acht neun', 'de', 12, wordsPlusEos))
    .toEqual(['eins zwei drei vier 1,5', 'und fünf sechs sieben 9:30', 'aber acht neun']);
});

test('the rule: without punctuation it cuts between words, never inside one; parts each within the budget', () => {
  const text = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
  const parts = splitLongSentence(text, 'fr', 16, wordsPlusEos);
  expect(parts.length).toBeGreaterThan(1);
  for (const p of parts) expect(wordsPlusEos(p)).toBeLessThanOrEqual(8);
  expect(parts.join(' ')).toBe(text);
  // A run without whitespace is the one thing cut between characters (grapheme clusters, so 👍🏽 stays whole).
  const run = '👍🏽'.repeat(30);
  const graphemes = (s) => [...new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(s)].length;
  const runParts = splitLongSentence(run, 'en', 16, graphemes);
  expect(runParts.join('')).toBe(run);
  for (const p of runParts) expect(p.length % 4).toBe(0);
  // Past LONG_INPUT_FACTOR × the limit, and for a cut that cannot fit, InputTooLongError.
  expect(() => splitLongSentence('w, '.repeat(200), 'en', 8, wordsPlusEos)).toThrow(InputTooLongError);
  expect(() => splitLongSentence('w, '.repeat(200), 'en', 8, wordsPlusEos)).toThrow(`up to ${LONG_INPUT_FACTOR * 8} in parts`);
  expect(() => splitLongSentence('abc', 'en', 2, (s) => s.length * 3)).toThrow(/one of its characters alone/);
});

test('translate: a 2,000-token sentence translates in full, in parts, with shapes that hold', () => {
  expect(splitSentences(LONG, 'en')).toHaveLength(1);
  expect(sourcePieces(long) + 1).toBeGreaterThanOrEqual(2000);
  expectFullParts(long, LONG);
  // Parts were cut at commas, the sentence's only clause boundaries, or before a conjunction where
  // one comma-separated clause alone is over the budget.
  long.parts.slice(0, -1).forEach((part, i) => {
    const cut = `${part.sourceWords.at(-1)} | ${long.parts[i + 1].sourceWords[0]}`;
    expect(cut).toMatch(/^\S+, \| |^\S+ \| (and|but|or|nor|yet)$/);
  });
  expect(long.parts.filter((p) => p.sourceWords.at(-1).endsWith(',')).length).toBeGreaterThan(0.9 * long.parts.length);
  // Top level: the parts' fields one after another; no crossAttention, each part has its own alignment.
  expect(long.crossAttention).toBeUndefined();
  expect(long.targetWordOfToken).toHaveLength(long.targetTokens.length);
  expect(Math.max(...long.sourceWordOfToken)).toBe(long.sourceWords.length - 1);
  expect(long.alignment.weights).toHaveLength(long.targetWords.length);
  for (const row of long.alignment.weights) expect(row.length).toBe(long.sourceWords.length);
  for (const [s, t] of long.alignment.links) {
    expect(s).toBeLessThan(long.sourceWords.length);
    expect(t).toBeLessThan(long.targetWords.length);
  }
  expect(long.confidence).toBeGreaterThan(0);
  expect(long.confidence).toBeLessThanOrEqual(1);
  expect(long.hypotheses).toHaveLength(1);
  expect(long.hypotheses[0].text).toBe(long.text);
});

test('translateBatch: one result per text; the over-long middle sentence of three translates with the other two', async () => {
  const sentences = splitSentences(MIDDLE, 'en');
  expect(sentences).toHaveLength(3);
  const results = await translator.translateBatch(sentences, { alignment: true });
  expect(results).toHaveLength(3);
  expect(results[0].parts).toBeUndefined();
  expect(results[2].parts).toBeUndefined();
  expect(results[0].text.length).toBeGreaterThan(0);
  expect(results[2].text.length).toBeGreaterThan(0);
  expectFullParts(results[1], LONG);
  // Cut as when translated alone. (Texts are compared by shape only: the int8 model's batched
  // products can differ in the last bits with the batch's make-up, and so can a greedy choice.)
  expect(results[1].parts.map((p) => p.sourceTokens)).toEqual(long.parts.map((p) => p.sourceTokens));
});

test('streaming reports a split sentence under its own index, its parts joined', async () => {
  const latest = [];
  // copyThrough false: streamed text is the engine's own, before any repair of the finished sentence.
  const results = await translator.translateBatch(['A dog runs.', LONG], {
    copyThrough: false, onToken: (e) => { latest[e.index] = e.text; },
  });
  expect(latest).toEqual(results.map((r) => r.text));
});

test('a WorkerPool of two workers translates the long sentence through the same code', async () => {
  const channels = [new MessageChannel(), new MessageChannel()];
  for (const c of channels) {
    serveTranslator(c.port1);
    c.port1.start();
    c.port2.start();
  }
  const pool = await WorkerPool.load(channels.map((c) => c.port2), GENERAL);
  try {
    const results = await pool.translateBatch(['The weather was fine in the morning.', LONG]);
    expect(results).toHaveLength(2);
    expect(results[0].parts).toBeUndefined();
    expectFullParts(results[1], LONG);
    expect(results[1].parts.map((p) => p.sourceTokens)).toEqual(long.parts.map((p) => p.sourceTokens));
  } finally {
    for (const c of channels) { c.port1.close(); c.port2.close(); }  // ports, not Workers: nothing to terminate
  }
});

test('the npm CLI translates the long sentence and the text around it, exit 0, every part present', () => {
  const npm = (args, input) => spawnSync('node', [`${ROOT}dist/cli.js`, 'translate', '--beam-size', '1', ...args],
                                         { input, encoding: 'utf8', maxBuffer: 512 << 20 });
  const out = npm([], `${LONG}\n${MIDDLE}\n`);
  expect(out.status, out.stderr).toBe(0);
  const lines = out.stdout.split('\n').filter((l) => l !== '');
  expect(lines).toHaveLength(2);
  const words = (s) => s.split(/\s+/).length;
  expect(words(lines[0])).toBeGreaterThan(0.6 * words(LONG));
  expect(words(lines[1])).toBeGreaterThan(words(lines[0]));
  // --json: the joined fields, and each part with its own cross-attention [L][H][T][S] as arrays.
  const json = npm(['--json'], `${LONG}\n`);
  expect(json.status, json.stderr).toBe(0);
  const j = JSON.parse(json.stdout);
  expect(j.crossAttention).toBeUndefined();
  expect(j.parts.map((p) => p.sourceTokens)).toEqual(long.parts.map((p) => p.sourceTokens));
  expect(j.text).toBe(j.parts.map((p) => p.text).join(' '));
  for (const part of j.parts) {
    expect(part.text.length).toBeGreaterThan(0);
    expect(part.crossAttention[0][0]).toHaveLength(part.targetTokens.length);
    expect(part.crossAttention[0][0][0]).toHaveLength(part.sourceTokens.length);
  }
});

test('the native CLI refuses the long sentence, naming the npm CLI, and translates the next line, exit 1', () => {
  // Long input is split in one language, TypeScript (long-input.ts); crossattn-cli says where.
  const cli = spawnSync(NATIVE_CLI, ['translate', '--model', GENERAL, '--beam-size', '1'],
                        { input: `${LONG}\nThe weather is nice today.\n`, encoding: 'utf8', maxBuffer: 256 << 20 });
  expect(cli.status).toBe(1);
  expect(cli.stderr).toMatch(/^crossattn-cli: InputTooLongError: line 1 of stdin: .*the npm CLI \(crossattn translate\) translates it in parts\n$/);
  const lines = cli.stdout.split('\n');
  expect(lines[0]).toBe('');
  expect(lines[1].split(/\s+/).length).toBeGreaterThanOrEqual(3);
  expect(spawnSync(NATIVE_CLI, ['--help'], { encoding: 'utf8' }).stderr).toMatch(/translates it in parts/);
});

test('HTML: a long sentence in a paragraph translates in parts and keeps its markup', async () => {
  const r = await translator.translate(`<p>${LONG}</p>`, { html: true });
  expect(r.text).toMatch(/^<p>.+<\/p>$/s);
  expect(r.sentences).toHaveLength(1);
  expect(r.sentences[0].parts.map((p) => p.sourceTokens)).toEqual(long.parts.map((p) => p.sourceTokens));
  expect(r.sentences[0].text).toBe(r.sentences[0].parts.map((p) => p.text).join(' '));
  expect(r.text.split(/\s+/).length).toBeGreaterThan(0.6 * LONG.split(/\s+/).length);
});
