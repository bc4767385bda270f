// The files made from the model file's spec (cpp/model/tensor_spec.json) are what
// tools/model-spec/index.js makes from it, and the generators refuse a spec word no checker has code
// for rather than writing a table one would misread.
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { conditionName, generatedHeader } from '../../tools/model-spec/cpp.js';
import { generatedFiles } from '../../tools/model-spec/index.js';
import { checkSpec, SPEC } from '../../tools/model-spec/spec.js';
import { generatedTypeScript } from '../../tools/model-spec/typescript.js';

const spec = () => JSON.parse(readFileSync(SPEC, 'utf8'));

test.each(generatedFiles().map(([file, now, made]) => [file, now, made]))('%s is what the spec makes', (file, now, made) => {
  expect(now, `${file}: run node tools/model-spec/index.js --write`).toBe(made);
});

test('every generated file but the docs says it is generated and not to be edited', () => {
  for (const [file, now] of generatedFiles().filter(([file]) => !file.endsWith('.md'))) {
    expect(now, file).toContain('Do not edit: `node tools/model-spec/index.js --write` makes it anew');
  }
});

test('every tensor of the spec has its row in the engine, with its condition, kind and shape rules', () => {
  const s = checkSpec(spec());
  const header = generatedHeader(s);
  for (const key of Object.keys(s.conditions)) expect(header).toContain(`  ${conditionName(key)},  // ${key}: config `);
  expect(header).toContain(`kConditionCount = ${Object.keys(s.conditions).length};`);
  expect(header).toContain('{"shortlist.offsets", 1, {{Dim::kVs, 1}, {Dim::kAny, 0}}, TensorKind::kIds, When::kAlways}');
  expect(header).toContain('{"lm_head.weight", 2, {{Dim::kV, 0}, {Dim::kD, 0}}, TensorKind::kMatrix, When::kNotTiedEmbeddings}');
  expect(header).toContain('{Scope::kDecoderLayer, "decoder.layers.{i}.", false, kGroup2, std::size(kGroup2)}');
  const rows = header.split('\n').filter((line) => /^ {4}\{"[a-z0-9_.]+", \d, \{/.test(line));
  expect(rows.length).toBe(s.groups.reduce((n, g) => n + g.tensors.length, 0));
});

test('every config field has its row in the engine and its member in the TypeScript type', () => {
  const s = checkSpec(spec());
  const header = generatedHeader(s), ts = generatedTypeScript(s);
  const fields = s.config.flatMap((row) => row.fields);
  for (const f of fields) {
    expect(header).toContain(`    {"${f.name}", FieldType::k`);
    const optional = f.default !== undefined || f.default_from !== undefined;
    expect(ts).toContain(`  ${f.name}${optional ? '?' : ''}: `);
  }
  expect(header).toContain('{"pad_id", FieldType::kInt, 0.0, kUnbounded, "vocab_size", "", "", nullptr, 0}');
  expect(ts).toContain("  activation: \"relu\" | \"gelu\" | \"swish\" | \"silu\";");
});

test('a spec word no checker has code for is refused by name', () => {
  const broken = (edit) => { const s = spec(); edit(s); return () => checkSpec(s); };
  expect(broken((s) => { s.groups[0].tensors[0].when = 'rope'; })).toThrow('shared.weight: unknown condition "rope"');
  expect(broken((s) => { s.groups[0].tensors[0].kind = 'i4'; })).toThrow('shared.weight: unknown kind "i4"');
  expect(broken((s) => { s.groups[0].tensors[0].shape = ['H', 'D']; })).toThrow('shared.weight: unknown dimension rule "H"');
  expect(broken((s) => { s.groups[0].tensors[0].shape = ['D-1']; })).toThrow('unknown dimension rule "D-1"');
  expect(broken((s) => { s.groups[1].scope = 'layer'; })).toThrow('group 1: unknown scope "layer"');
  expect(broken((s) => { s.config[0].fields[0].type = 'date'; })).toThrow('config field "name": unknown type "date"');
  expect(broken((s) => { s.config[0].fields[0].default_from = 'vocab_size'; })).toThrow('default_from names "vocab_size", not a field before it');
  expect(broken((s) => { s.conditions.pre_norm.is = 'sandwich'; })).toThrow('"sandwich" is not a value of layer_norm');
  expect(broken((s) => { s.dimensions.D.field = 'activation'; })).toThrow('dimension "D": "activation" is not an int field');
});
