// The engine's tensor tables (cpp/model/tensor_spec.generated.h) are what tools/tensor-spec-table.js
// makes from the tensor spec (cpp/model/tensor_spec.json), and the generator refuses a spec word the
// engine has no code for rather than writing a table the loader would misread.
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { conditionName, GENERATED_H, generatedHeader, SPEC } from '../../tools/tensor-spec-table.js';

const spec = () => JSON.parse(readFileSync(SPEC, 'utf8'));

test('cpp/model/tensor_spec.generated.h is what tools/tensor-spec-table.js makes from tensor_spec.json', () => {
  expect(readFileSync(GENERATED_H, 'utf8'), `${GENERATED_H}: run node tools/tensor-spec-table.js --write`).toBe(generatedHeader());
});

test('every tensor of the spec has its row, with its condition, kind and shape rules', () => {
  const header = generatedHeader();
  const s = spec();
  for (const key of Object.keys(s.conditions)) expect(header).toContain(`  ${conditionName(key)},  // ${key}: `);
  expect(header).toContain(`kConditionCount = ${Object.keys(s.conditions).length};`);
  expect(header).toContain('{"shortlist.offsets", 1, {{Dim::kVs, 1}, {Dim::kAny, 0}}, TensorKind::kIds, When::kAlways}');
  expect(header).toContain('{"lm_head.weight", 2, {{Dim::kV, 0}, {Dim::kD, 0}}, TensorKind::kMatrix, When::kNotTiedEmbeddings}');
  expect(header).toContain('{Scope::kDecoderLayer, "decoder.layers.{i}.", false, kGroup2, std::size(kGroup2)}');
  const rows = header.split('\n').filter((line) => /^ {4}\{"/.test(line));
  expect(rows.length).toBe(s.groups.reduce((n, g) => n + g.tensors.length, 0));
});

test('a condition, kind, dimension or scope the engine has no code for is refused by name', () => {
  const broken = (edit) => { const s = spec(); edit(s); return () => generatedHeader(s); };
  expect(broken((s) => { s.groups[0].tensors[0].when = 'rope'; })).toThrow('shared.weight: unknown condition "rope"');
  expect(broken((s) => { s.groups[0].tensors[0].kind = 'i4'; })).toThrow('shared.weight: unknown kind "i4"');
  expect(broken((s) => { s.groups[0].tensors[0].shape = ['H', 'D']; })).toThrow('shared.weight: unknown dimension rule "H"');
  expect(broken((s) => { s.groups[0].tensors[0].shape = ['D-1']; })).toThrow('unknown dimension rule "D-1"');
  expect(broken((s) => { s.groups[1].scope = 'layer'; })).toThrow('group 1: unknown scope "layer"');
});
