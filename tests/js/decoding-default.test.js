// The decoding defaults of docs/api.md, "Decoding defaults" (2026-11-27): the demo page and both
// command-line tools decode a sentence by beam search of SENTENCE_BEAM_SIZE (4); the API (translate,
// translateBatch) stays greedy. Each check uses sentences on which the two searches differ, so a
// default that slips back either way fails.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { Translator } from '../../dist/index.js';
import { SENTENCE_BEAM_SIZE } from '../../dist/search.js';
import { readLines } from '../../tools/bleu.js';
import { DATA, MODEL, NATIVE_CLI, ROOT } from './paths.js';

let translator;
let differing;  // [{ source, greedy, beam }]: sentences whose greedy and beam translations differ
beforeAll(async () => {
  translator = await Translator.load(MODEL);
  differing = [];
  for (const source of readLines(`${DATA}/multi30k/test_2016_flickr.en.gz`).slice(0, 40)) {
    if (differing.length === 3) break;  // enough to tell them apart, few enough to stay cheap
    const [greedy, beam] = await Promise.all([1, SENTENCE_BEAM_SIZE].map((beamSize) =>
      translator.translate(source, { beamSize, attention: false })));
    if (greedy.text !== beam.text) differing.push({ source, greedy, beam });
  }
});
afterAll(() => translator?.dispose());

const input = () => differing.map((d) => d.source).join('\n') + '\n';

test('the sentences tell the two searches apart', () => {
  expect(SENTENCE_BEAM_SIZE).toBe(4);
  expect(differing.length).toBeGreaterThanOrEqual(2);
});

test('the API decodes greedily unless beamSize is given', async () => {
  const { source, greedy } = differing[0];
  expect((await translator.translate(source, { attention: false })).text).toBe(greedy.text);
  const batch = await translator.translateBatch(differing.map((d) => d.source), { attention: false });
  expect(batch.map((r) => r.text)).toEqual(differing.map((d) => d.greedy.text));
});

test('the npm CLI decodes by beam search of 4 unless --beam-size or --sample is given', () => {
  const cli = (args) => spawnSync('node', [`${ROOT}dist/cli.js`, 'translate', '--model', MODEL, ...args],
                                  { input: input(), encoding: 'utf8' });
  const byDefault = cli([]), greedy = cli(['--beam-size', '1']), sampled = cli(['--sample', '--seed', '1']);
  for (const r of [byDefault, greedy, sampled]) expect(r.status, r.stderr).toBe(0);
  expect(byDefault.stdout.trim().split('\n')).toEqual(differing.map((d) => d.beam.text));
  expect(greedy.stdout.trim().split('\n')).toEqual(differing.map((d) => d.greedy.text));
  const nBest = cli(['--n-best', '6']);  // more hypotheses than the default beam: the beam grows to hold them
  expect(nBest.status, nBest.stderr).toBe(0);
  expect(nBest.stdout.trim().split('\n')).toHaveLength(6 * differing.length);
});

test('the native CLI decodes by beam search of 4 unless --beam-size or --sample is given', () => {
  const cli = (args) => spawnSync(NATIVE_CLI, ['translate', '--model', MODEL, '--json', ...args], { input: input(), encoding: 'utf8' });
  const byDefault = cli([]), greedy = cli(['--beam-size', '1']), sampled = cli(['--sample', '--seed', '1']);
  for (const r of [byDefault, greedy, sampled]) expect(r.status, r.stderr).toBe(0);
  const ids = (r) => r.stdout.trim().split('\n').map((line) => JSON.parse(line).target_ids);
  expect(ids(byDefault)).toEqual(differing.map((d) => d.beam.targetIds));
  expect(ids(greedy)).toEqual(differing.map((d) => d.greedy.targetIds));
});

test("the page's decoding choice starts at the sentence beam size, which the page reads from the engine's table", () => {
  const html = readFileSync(`${ROOT}web/index.html`, 'utf8');
  const select = /<select id="beam-size">([\s\S]*?)<\/select>/.exec(html);
  expect(select, 'web/index.html has the #beam-size select').not.toBeNull();
  const options = [...select[1].matchAll(/<option( value="\d+")?( data-sentence-beam)?( selected)?>/g)];
  expect(options.filter((m) => m[3]).map((m) => Boolean(m[2]))).toEqual([true]);  // the selected one is the sentence beam
  const app = readFileSync(`${ROOT}web/app.js`, 'utf8');
  expect(app).toMatch(/sentenceBeam\.value = String\(SENTENCE_BEAM_SIZE\)/);
  expect(SENTENCE_BEAM_SIZE).toBe(4);
});
