#!/usr/bin/env node
// The engine's tables of the model file's tensors, made from the tensor spec (cpp/model/tensor_spec.json),
// so that the loader's checker (cpp/model/tensor_spec.cc) reads constants compiled in rather than
// parsing and interpreting the JSON at load:
//   cpp/model/tensor_spec.generated.h  per group its scope, layer prefix and all-or-none flag; per tensor
//                                      its name, shape rules, kind and condition, as constexpr tables;
//                                      and each name as a constant, which the loader reads tensors by
//   node tools/tensor-spec-table.js          prints the header
//   node tools/tensor-spec-table.js --check  exits 1 when the file differs from what the spec makes
//   node tools/tensor-spec-table.js --write  rewrites it
// tests/js/tensor-spec-table.test.js makes it anew in memory and fails when the file differs (a hand
// edit, or a spec changed without --write).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

export const SPEC = fileURLToPath(new URL('../cpp/model/tensor_spec.json', import.meta.url));
export const GENERATED_H = fileURLToPath(new URL('../cpp/model/tensor_spec.generated.h', import.meta.url));

// The C++ names of the spec's words. A scope, kind or dimension the engine has no code for is an
// error here, not at load; a condition becomes an enumerator of its own, named from its key.
const SCOPES = { model: 'kModel', encoder_layer: 'kEncoderLayer', decoder_layer: 'kDecoderLayer', optional: 'kOptional' };
const KINDS = { matrix: 'kMatrix', vector: 'kVector', ids: 'kIds', f32: 'kF32' };
const DIMENSIONS = { D: 'kD', F: 'kF', V: 'kV', Vs: 'kVs', n: 'kAny' };

/** The enumerator of a condition key: "shared_vocab" is kSharedVocab, "!shared_vocab" kNotSharedVocab. */
export function conditionName(key) {
  const words = key.replace(/^!/, 'not_').split('_');
  return `k${words.map((w) => w[0].toUpperCase() + w.slice(1)).join('')}`;
}

/** A shape rule ("D", "Vs+1") as a C++ initializer {Dim::kD, 0}. */
function dimensionRule(rule, where) {
  const match = /^([A-Za-z]+)(?:\+(\d+))?$/.exec(rule);
  if (!match || !(match[1] in DIMENSIONS)) throw new Error(`${where}: unknown dimension rule ${JSON.stringify(rule)}`);
  return `{Dim::${DIMENSIONS[match[1]]}, ${match[2] ?? 0}}`;
}

/** One tensor's row of a group's table. */
function tensorRow(t, rank, conditions, where) {
  if (!(t.kind in KINDS)) throw new Error(`${where}: unknown kind ${JSON.stringify(t.kind)}`);
  if (t.when !== undefined && !(t.when in conditions)) throw new Error(`${where}: unknown condition ${JSON.stringify(t.when)}`);
  const dims = t.shape.map((d) => dimensionRule(d, where));
  while (dims.length < rank) dims.push('{Dim::kAny, 0}');  // past the tensor's rank: unread
  const when = t.when === undefined ? 'kAlways' : conditionName(t.when);
  return `    {${JSON.stringify(t.name)}, ${t.shape.length}, {${dims.join(', ')}}, TensorKind::${KINDS[t.kind]}, When::${when}},`;
}

/** The enumerators of the spec's conditions, each with its meaning as a comment. */
function conditionEnum(conditions) {
  const lines = Object.entries(conditions).map(([key, meaning]) => `  ${conditionName(key)},  // ${key}: ${meaning}`);
  return `enum class When : uint8_t {\n  kAlways,  // no condition: every config\n${lines.join('\n')}\n};\n\n` +
    `/// How many conditions the spec names (When's enumerators but kAlways).\n` +
    `inline constexpr size_t kConditionCount = ${lines.length};`;
}

/** The constant of a tensor name: "self_attn.q_proj.weight" is kSelfAttnQProjWeight. */
export function nameConstant(name) {
  return `k${name.split(/[._]/).map((w) => w[0].toUpperCase() + w.slice(1)).join('')}`;
}

// The structs of names the loader reads tensors by: one for the tensors a model has once (the
// model and optional groups), one per layer scope with its prefix.
const NAME_STRUCTS = [
  { struct: 'ModelTensors', scopes: ['model', 'optional'],
    doc: "The names of the tensors a model has once (the spec's model and optional groups)." },
  { struct: 'EncoderLayerTensors', scopes: ['encoder_layer'],
    doc: "The names of an encoder layer's tensors after its prefix kPrefix, whose \"{i}\" is the layer's index (layer_prefix)." },
  { struct: 'DecoderLayerTensors', scopes: ['decoder_layer'],
    doc: "The names of a decoder layer's tensors after its prefix kPrefix, whose \"{i}\" is the layer's index (layer_prefix)." },
];

/** The name structs' C++ text: each tensor's name as a constant (nameConstant), a layer scope's prefix as kPrefix. */
function nameStructs(spec) {
  return NAME_STRUCTS.map(({ struct, scopes, doc }) => {
    const groups = spec.groups.filter((g) => scopes.includes(g.scope));
    const members = groups.flatMap((g) => g.tensors.map((t) => [nameConstant(t.name), t.name]));
    const seen = new Set();
    for (const [constant, name] of members) {
      if (seen.has(constant)) throw new Error(`tensor_spec.json: two tensors of ${struct} make the constant ${constant} (${name})`);
      seen.add(constant);
    }
    const prefix = groups.find((g) => g.prefix)?.prefix;
    const lines = [...(prefix ? [['kPrefix', prefix]] : []), ...members]
      .map(([constant, name]) => `  static constexpr std::string_view ${constant} = ${JSON.stringify(name)};`);
    return `/// ${doc}\nstruct ${struct} {\n${lines.join('\n')}\n};`;
  }).join('\n\n');
}

/** cpp/model/tensor_spec.generated.h's text for the spec `spec` (tensor_spec.json, parsed). */
export function generatedHeader(spec = JSON.parse(readFileSync(SPEC, 'utf8'))) {
  const rank = Math.max(...spec.groups.flatMap((g) => g.tensors.map((t) => t.shape.length)));
  const tables = spec.groups.map((group, g) => {
    if (!(group.scope in SCOPES)) throw new Error(`tensor_spec.json group ${g}: unknown scope ${JSON.stringify(group.scope)}`);
    const rows = group.tensors.map((t) => tensorRow(t, rank, spec.conditions, `tensor_spec.json ${t.name}`));
    return `inline constexpr TensorRule kGroup${g}[] = {  // ${group.scope}${group.prefix ? ` ${group.prefix}` : ''}\n${rows.join('\n')}\n};`;
  });
  const groups = spec.groups.map((group, g) => `    {Scope::${SCOPES[group.scope]}, ${JSON.stringify(group.prefix ?? '')}, ` +
    `${group.all_or_none === true}, kGroup${g}, std::size(kGroup${g})},`);
  const dimensions = Object.entries(DIMENSIONS).map(([key, name]) => `${name} /* ${key} */`).join(', ');
  return `// Made by tools/tensor-spec-table.js from cpp/model/tensor_spec.json: the spec's groups and tensors as
// constant tables, which cpp/model/tensor_spec.cc expands for a config, and the tensors' names as
// constants, which the loader (weights.cc, shortlist.cc, lexicon.cc) reads them by.
// Do not edit: \`node tools/tensor-spec-table.js --write\` makes it anew; tests/js/tensor-spec-table.test.js
// fails when it differs from what the spec makes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string_view>

#include "model/tensor_spec.h"

namespace crossattn::tensor_spec {

/// Where a group's tensors sit: once in the model, once per encoder or decoder layer (the prefix's
/// "{i}" is the layer's index), or once in an optional all-or-none group.
enum class Scope : uint8_t { kModel, kEncoderLayer, kDecoderLayer, kOptional };

/// The config size a dimension rule starts from; kAny is any length.
enum class Dim : uint8_t { ${dimensions} };

/// One dimension's rule: the size of \`base\` plus \`extra\` ("Vs+1" is {kVs, 1}).
struct DimRule {
  Dim base;
  int32_t extra;
};

/// The config a tensor is called for by (the spec's "conditions").
${conditionEnum(spec.conditions)}

/// The largest rank of a tensor in the spec.
inline constexpr size_t kMaxRank = ${rank};

/// One tensor of a group: its name after the group's prefix, its \`rank\` dimension rules, kind and condition.
struct TensorRule {
  std::string_view name;
  uint8_t rank;
  DimRule shape[kMaxRank];
  TensorKind kind;
  When when;
};

/// One group of the spec, its tensors in the spec's order.
struct GroupRule {
  Scope scope;
  std::string_view prefix;
  bool all_or_none;
  const TensorRule* tensors;
  size_t size;
};

${tables.join('\n\n')}

/// The spec's groups, in its order (a group's index is ExpectedTensor::optional_group).
inline constexpr GroupRule kGroups[] = {
${groups.join('\n')}
};

${nameStructs(spec)}

}  // namespace crossattn::tensor_spec
`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { write: { type: 'boolean', default: false }, check: { type: 'boolean', default: false } } });
  const header = generatedHeader();
  if (values.write) {
    writeFileSync(GENERATED_H, header);
  } else if (values.check) {
    if (readFileSync(GENERATED_H, 'utf8') !== header) {
      console.error(`${GENERATED_H} differs from cpp/model/tensor_spec.json: run node tools/tensor-spec-table.js --write`);
      process.exit(1);
    }
  } else {
    process.stdout.write(header);
  }
}
