// bench/shortlist-candidates.js, which counts the output rows behind the bench's shortlist ceiling,
// against the engine: a shortlisted translation writes only candidates, the frequent pieces and eos
// are candidates of every sentence, and a file without a shortlist has none.
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { shortlistCandidates } from '../../bench/shortlist-candidates.js';
import { Translator } from '../../dist/index.js';
import { DATA, INT8_MODEL, ROOT } from './paths.js';

const MODEL = `${ROOT}models/general-en-de/general-en-de.int8.crossattn`;

test('a shortlisted translation writes only the candidates the file lists for its source', async () => {
  const candidates = shortlistCandidates(MODEL);
  const translator = await Translator.load(readFileSync(MODEL));
  const always = candidates([]);
  const lines = readFileSync(`${DATA}/flores-dev/dev.en`, 'utf8').split('\n').filter(Boolean).slice(0, 20);
  for (const line of lines) {
    const r = await translator.translate(line, { attention: false, copyThrough: false, shortlist: true });
    const rows = candidates(r.sourceIds);
    for (const id of always) expect(rows.has(id)).toBe(true);
    expect(rows.size).toBeGreaterThan(always.size);
    for (const id of r.targetIds) expect(rows.has(id), `target id ${id} of "${line}"`).toBe(true);
    expect(always.has(r.targetIds.at(-1)), 'eos, the last target id').toBe(true);
  }
  translator.dispose();
});

test('a model file without a shortlist has no candidates', () => {
  expect(shortlistCandidates(INT8_MODEL)).toBeNull();
});
