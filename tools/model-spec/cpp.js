// The engine's tables of the model file, made from its spec (cpp/model/tensor_spec.json), so that
// the loader (cpp/model/config.cc, cpp/model/tensor_spec.cc) reads constants compiled in rather than
// parsing and interpreting the JSON at load. cpp/model/tensor_spec.generated.h holds:
//   - the config's fields: type, range, default, an enum's values (config.cc checks a config by them);
//   - per tensor group its scope, layer prefix and all-or-none flag; per tensor its name, shape rules,
//     kind and condition;
//   - each tensor name as a constant, which the loader reads tensors by.
// tools/model-spec/index.js writes it with the other generated files.
import { configFields, dimensionRule } from './spec.js';

// The C++ names of the spec's words; spec.js has refused any other. A condition becomes an
// enumerator of its own, named from its key.
const SCOPES = { model: 'kModel', encoder_layer: 'kEncoderLayer', decoder_layer: 'kDecoderLayer', optional: 'kOptional' };
const KINDS = { matrix: 'kMatrix', vector: 'kVector', ids: 'kIds', f32: 'kF32' };
const DIMENSIONS = { D: 'kD', F: 'kF', V: 'kV', Vs: 'kVs', n: 'kAny' };
const FIELD_TYPES = { int: 'kInt', number: 'kNumber', bool: 'kBool', string: 'kString', enum: 'kEnum' };

/** The enumerator of a condition key: "shared_vocab" is kSharedVocab, "!shared_vocab" kNotSharedVocab. */
export function conditionName(key) {
  const words = key.replace(/^!/, 'not_').split('_');
  return `k${words.map((w) => w[0].toUpperCase() + w.slice(1)).join('')}`;
}

/** A shape rule ("D", "Vs+1") as a C++ initializer {Dim::kD, 0}. */
function dimensionInit(rule, dimensions, where) {
  const [key, extra] = dimensionRule(rule, dimensions, where);
  if (!(key in DIMENSIONS)) throw new Error(`${where}: the engine has no dimension ${JSON.stringify(key)}`);
  return `{Dim::${DIMENSIONS[key]}, ${extra}}`;
}

/** One tensor's row of a group's table. */
function tensorRow(t, rank, dimensions) {
  const dims = t.shape.map((d) => dimensionInit(d, dimensions, `tensor_spec.json ${t.name}`));
  while (dims.length < rank) dims.push('{Dim::kAny, 0}');  // past the tensor's rank: unread
  const when = t.when === undefined ? 'kAlways' : conditionName(t.when);
  return `    {${JSON.stringify(t.name)}, ${t.shape.length}, {${dims.join(', ')}}, TensorKind::${KINDS[t.kind]}, When::${when}},`;
}

/** The enumerators of the spec's conditions, each with what it tests as a comment. */
function conditionEnum(conditions) {
  const lines = Object.entries(conditions).map(([key, c]) => `  ${conditionName(key)},  // ${key}: config ${c.field} is ${JSON.stringify(c.is)}`);
  return `enum class When : uint8_t {\n  kAlways,  // no condition: every config\n${lines.join('\n')}\n};\n\n` +
    `/// How many conditions the spec names (When's enumerators but kAlways).\n` +
    `inline constexpr size_t kConditionCount = ${lines.length};`;
}

/** A number as a C++ double literal. */
const cppDouble = (x) => (Number.isInteger(x) ? `${x}.0` : String(x));

/** One config field's row: name, type, range, the field it stays below, default (JSON text) or the field it defaults to, values. */
function fieldRow(f) {
  const values = f.type === 'enum' ? `k${conditionName(f.name).slice(1)}Values, ${f.values.length}` : 'nullptr, 0';
  const range = f.min === undefined ? '0.0, 0.0' : `${cppDouble(f.min)}, ${f.max === undefined ? 'kUnbounded' : cppDouble(f.max)}`;
  const fallback = f.default === undefined ? '""' : JSON.stringify(JSON.stringify(f.default));
  return `    {${JSON.stringify(f.name)}, FieldType::${FIELD_TYPES[f.type]}, ${range}, ${JSON.stringify(f.below ?? '')}, ` +
    `${fallback}, ${JSON.stringify(f.default_from ?? '')}, ${values}},`;
}

/** The config's fields as a table, each enum's values as an array before it. */
function configTable(spec) {
  const fields = configFields(spec);
  const values = fields.filter((f) => f.type === 'enum').map((f) =>
    `inline constexpr std::string_view k${conditionName(f.name).slice(1)}Values[] = {${f.values.map((v) => JSON.stringify(v)).join(', ')}};`);
  return `${values.join('\n')}\n\n/// The config's fields, in the spec's order (a default or a bound names only a field before it).\n` +
    `inline constexpr ConfigField kConfigFields[] = {\n${fields.map(fieldRow).join('\n')}\n};`;
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

/** The config's part of the header: the field type, the field struct and the table of fields. */
function configSection(spec) {
  return `/// A config field's JSON type: an integer (a JSON integer, no fraction), a finite number, true or
/// false, a string, or one of an enum's strings.
enum class FieldType : uint8_t { kInt, kNumber, kBool, kString, kEnum };

/// The upper end of a range that has none but the field it stays below.
inline constexpr double kUnbounded = std::numeric_limits<double>::infinity();

/// One config field. An int or number lies in [min, max] and, where \`below\` names a field, under
/// that field's value. An absent field takes \`default_json\` (JSON text) or the value of the field
/// \`default_from\` names, and is then checked as given; with neither, it is required.
struct ConfigField {
  std::string_view name;
  FieldType type;
  double min, max;
  std::string_view below;
  std::string_view default_json;
  std::string_view default_from;
  const std::string_view* values;  // an enum's values
  size_t value_count;
};

${configTable(spec)}`;
}

/** cpp/model/tensor_spec.generated.h's text for a checked spec (spec.js readSpec). */
export function generatedHeader(spec) {
  const rank = Math.max(...spec.groups.flatMap((g) => g.tensors.map((t) => t.shape.length)));
  const tables = spec.groups.map((group, g) => {
    const rows = group.tensors.map((t) => tensorRow(t, rank, spec.dimensions));
    return `inline constexpr TensorRule kGroup${g}[] = {  // ${group.scope}${group.prefix ? ` ${group.prefix}` : ''}\n${rows.join('\n')}\n};`;
  });
  const groups = spec.groups.map((group, g) => `    {Scope::${SCOPES[group.scope]}, ${JSON.stringify(group.prefix ?? '')}, ` +
    `${group.all_or_none === true}, kGroup${g}, std::size(kGroup${g})},`);
  const dimensions = Object.entries(DIMENSIONS).map(([key, name]) => `${name} /* ${key} */`).join(', ');
  return `// Made by tools/model-spec/index.js from cpp/model/tensor_spec.json: the config's fields, which
// cpp/model/config.cc checks a config by; the spec's groups and tensors as constant tables, which
// cpp/model/tensor_spec.cc expands for a config; and the tensors' names as constants, which the
// loader (weights.cc, shortlist.cc, lexicon.cc) reads them by.
// Do not edit: \`node tools/model-spec/index.js --write\` makes it anew; tests/js/model-spec-generated.test.js
// fails when it differs from what the spec makes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <limits>
#include <string_view>

#include "model/tensor_spec.h"

namespace crossattn::tensor_spec {

${configSection(spec)}

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
