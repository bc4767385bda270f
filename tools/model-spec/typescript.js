// The converters' tables of the model file, made from its spec (cpp/model/tensor_spec.json):
// bindings/src/convert/model-spec.generated.ts holds the config's type (ModelConfigJson) and fields,
// the conditions and dimensions, and the tensor groups, which bindings/src/convert/tensor-spec.ts
// checks a converted model by. tools/model-spec/index.js writes it with the other generated files.
import { configFields, formatRows, literal } from './spec.js';

const TS_TYPES = { int: 'number', number: 'number', bool: 'boolean', string: 'string' };

/** A field's TypeScript type: an enum's values as a union of string literals. */
const fieldType = (f) => (f.type === 'enum' ? f.values.map((v) => JSON.stringify(v)).join(' | ') : TS_TYPES[f.type]);

/** A config field's declaration in ModelConfigJson: optional where the spec gives a default. */
function fieldDeclaration(f, about) {
  const optional = f.default !== undefined || f.default_from !== undefined;
  const fallback = f.default !== undefined ? `; default ${JSON.stringify(f.default)}` : f.default_from ? `; default: ${f.default_from}` : '';
  return `  /** ${about.replace(/\*\//g, '* /')}${fallback} */\n  ${f.name}${optional ? '?' : ''}: ${fieldType(f)};`;
}

/** The key of a tensor name: "encoder.embed_tokens.weight" is encoderEmbedTokensWeight. */
export const nameKey = (name) => name.split(/[._]/).map((w, i) => (i === 0 ? w : w[0].toUpperCase() + w.slice(1))).join('');

/** MODEL_TENSORS's object literal, one name a line. */
function modelTensors(spec) {
  const names = spec.groups.filter((g) => g.scope === 'model' || g.scope === 'optional').flatMap((g) => g.tensors.map((t) => t.name));
  return `{\n${names.map((n) => `  ${nameKey(n)}: ${JSON.stringify(n)},`).join('\n')}\n}`;
}

/** LAYER_TENSORS's object literal: the names of the encoder's and decoder's layer tensors, without their layer prefix. */
function layerTensors(spec) {
  const layers = spec.groups.filter((g) => g.scope === 'encoder_layer' || g.scope === 'decoder_layer');
  const names = [...new Set(layers.flatMap((g) => g.tensors.map((t) => t.name)))];
  return `{\n${names.map((n) => `  ${nameKey(n)}: ${JSON.stringify(n)},`).join('\n')}\n}`;
}

/** bindings/src/convert/model-spec.generated.ts's text for a checked spec (spec.js readSpec). */
export function generatedTypeScript(spec) {
  const declarations = spec.config.flatMap((row) => row.fields.map((f) => fieldDeclaration(f, row.about)));
  const data = (value) => literal(value);
  const groups = spec.groups.map(({ about, ...group }) => ({ ...group, tensors: group.tensors.map(({ about: _, ...t }) => t) }));
  return `// Made by tools/model-spec/index.js from cpp/model/tensor_spec.json: the config's type and fields,
// and the tensor groups, which tensor-spec.ts checks a converted model by.
// Do not edit: \`node tools/model-spec/index.js --write\` makes it anew; tests/js/model-spec-generated.test.js
// fails when it differs from what the spec makes.

/** The "config" metadata of a model file (docs/model-format.md, "config"); absent optional fields take their defaults. */
export interface ModelConfigJson {
${declarations.join('\n')}
}

/** One config field (docs/model-format.md, "config"). */
export interface ConfigField {
  name: keyof ModelConfigJson;
  type: 'int' | 'number' | 'bool' | 'string' | 'enum';
  /** An int's or number's range, inclusive. */
  min?: number;
  max?: number;
  /** An int must be less than this field's value. */
  below?: keyof ModelConfigJson;
  /** What an absent field is: a value, or another field's value. Neither: the field is required. */
  default?: number | boolean | string;
  default_from?: keyof ModelConfigJson;
  /** An enum's values. */
  values?: readonly string[];
}

/** The config's fields, in the spec's order (a default or a bound names only a field before it). */
export const CONFIG_FIELDS: readonly ConfigField[] = ${data(configFields(spec))};

/** The config a tensor is called for by: the field and the value it must have. */
export const CONDITIONS: Readonly<Record<string, { field: keyof ModelConfigJson; is: boolean | string }>> = ${data(spec.conditions)};

/** The config field a shape rule's letter reads; none: any length. */
export const DIMENSIONS: Readonly<Record<string, { field?: keyof ModelConfigJson }>> = ${data(Object.fromEntries(
    Object.entries(spec.dimensions).map(([key, d]) => [key, d.field === undefined ? {} : { field: d.field }])))};

/** How a tensor is stored: a float (or int8) matrix, a float vector, I32 ids, or F32 values. */
export type TensorKind = ${spec.groups.flatMap((g) => g.tensors.map((t) => t.kind)).filter((k, i, all) => all.indexOf(k) === i).map((k) => JSON.stringify(k)).join(' | ')};

/** One group of tensors: once in the model, once per encoder or decoder layer, or optional and all or none. */
export interface TensorGroup {
  scope: 'model' | 'encoder_layer' | 'decoder_layer' | 'optional';
  prefix?: string;
  all_or_none?: boolean;
  tensors: readonly { name: string; shape: readonly string[]; kind: TensorKind; init?: 'ones' | 'zeros'; when?: string }[];
}

/** The spec's tensor groups, in its order. */
export const TENSOR_GROUPS: readonly TensorGroup[] = ${data(groups)};

/** The names of the tensors a model has once (the spec's model and optional groups), by their camelCase keys. */
export const MODEL_TENSORS = ${modelTensors(spec)} as const;

/** The names of the tensors in each encoder or decoder layer, without the layer's prefix (tensor-spec.ts layerTensor adds it). */
export const LAYER_TENSORS = ${layerTensors(spec)} as const;

/**
 * One row of a format: our name and theirs, with how theirs is stored (role), the config it holds
 * under (when), and the axes of our tensor that are the residual stream's dimensions (residual).
 */
export interface FormatRow { ours: string; theirs: string; role?: string; when?: string; residual?: readonly number[] }

/**
 * Each foreign format's names for ours (format-rows.ts reads them): a row maps a whole name, or
 * every name under a prefix ending in "." (or empty); "{i}" is a layer index, "{i+1}" the same
 * counted from 1; a row with a condition holds only under it; the first row that matches wins.
 */
export const FORMAT_ROWS: Readonly<Record<string, readonly FormatRow[]>> = ${data(formatRows(spec))};
`;
}
