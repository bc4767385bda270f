// The result's TypeScript declarations and docs/api.md's Translation table are made from the engine's
// field table (cpp/translation.h) by tools/internals/result-types.js: a hand edit of either fails here.
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { API, BEGIN, END, TS_FILE, jsDoc, resultFields, resultTypes, translationTable } from '../../tools/internals/result-types.js';

test('bindings/src/result.generated.ts and the table of docs/api.md are what the engine table makes', async () => {
  const fields = await resultFields();
  expect(readFileSync(TS_FILE, 'utf8')).toBe(resultTypes(fields));
  const api = readFileSync(API, 'utf8');
  expect(api.slice(api.indexOf(BEGIN) + BEGIN.length, api.indexOf(END)).trim()).toBe(translationTable(fields));
});

test('every field crosses under its camelCase name, the best hypothesis\' among them', async () => {
  const { hypothesis, translation } = await resultFields();
  for (const f of [...hypothesis, ...translation]) expect(f.jsName).toBe(jsDoc(f.name));
  const inherited = translation.filter((f) => f.fromHypothesis).map((f) => f.name);
  expect(inherited).toEqual(hypothesis.map((f) => f.name));
  expect(jsDoc('see token_log_probs in layers/cross_attention.h')).toBe('see tokenLogProbs in layers/cross_attention.h');
});
