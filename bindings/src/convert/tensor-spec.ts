/**
 * The model file's spec (cpp/model/tensor_spec.json, as tables in model-spec.generated.ts): whether a
 * config is valid (`checkConfig`), which tensors it calls for (`expectedTensors`), and whether a
 * converter's output holds exactly those (`checkTensors`), checked before anything is written, so
 * that a converted file never fails the engine's own checks (cpp/model/config.cc, tensor_spec.cc).
 */
import { CONDITIONS, CONFIG_FIELDS, DIMENSIONS, TENSOR_GROUPS } from './model-spec.generated.js';
import type { ConfigField, ModelConfigJson, TensorKind } from './model-spec.generated.js';
import type { Tensor } from './model-types.js';

/** One tensor a config calls for: shape entries are sizes, or -1 for "any length". */
export interface ExpectedTensor { name: string; shape: number[]; kind: TensorKind; optionalGroup?: number }

type Resolved = Record<string, unknown>;

/** Why `value` is not a valid `f` under the fields before it (`config`), or undefined. */
function fieldProblem(f: ConfigField, value: unknown, config: Resolved): string | undefined {
  switch (f.type) {
    case 'int':
    case 'number': {
      const max = Math.min(f.max ?? Infinity, f.below === undefined ? Infinity : (config[f.below] as number) - 1);
      const ok = typeof value === 'number' && (f.type === 'number' || Number.isInteger(value)) && value >= f.min! && value <= max;
      return ok ? undefined : `must be ${f.type === 'int' ? 'an integer' : 'a number'} in ${f.min}..${max}${f.below ? ` (below ${f.below})` : ''}`;
    }
    case 'bool': return typeof value === 'boolean' ? undefined : 'must be true or false';
    case 'string': return typeof value === 'string' ? undefined : 'must be a string';
    case 'enum': return f.values!.includes(value as string) ? undefined : `must be one of ${f.values!.map((v) => JSON.stringify(v)).join(', ')}`;
  }
}

/**
 * The config with every field of the spec present: absent ones take their defaults (a value, or
 * an earlier field's value), and every field is checked as given.
 * @returns [config, undefined], or [undefined, [field, message]] for the first field at fault.
 */
function resolve(config: ModelConfigJson): [Resolved, undefined] | [undefined, [string, string]] {
  const given = config as unknown as Resolved;
  const out: Resolved = { ...given };
  for (const f of CONFIG_FIELDS) {
    const defaulted = given[f.name] === undefined;
    if (defaulted) {
      if (f.default === undefined && f.default_from === undefined) return [undefined, [f.name, 'missing: the spec requires it']];
      out[f.name] = f.default ?? out[f.default_from!];
    }
    const problem = fieldProblem(f, out[f.name], out);
    if (problem) return [undefined, [f.name, `${problem}, not ${JSON.stringify(out[f.name])}${defaulted ? ' (its default)' : ''}`]];
  }
  return [out, undefined];
}

/**
 * The range [min, max] the spec allows config field `name` (docs/model-format.md, "config"), for a
 * converter to refuse an input that could only fail later.
 * @throws Error when the spec gives the field no such range.
 */
export function fieldRange(name: keyof ModelConfigJson): [number, number] {
  const f = CONFIG_FIELDS.find((field) => field.name === name);
  if (f?.min === undefined || f.max === undefined) throw new Error(`tensor_spec.json: config field '${name}' has no range`);
  return [f.min, f.max];
}

/**
 * Checks a config's fields against the spec: each present or defaulted, of its type, in its range
 * (docs/model-format.md, "config"). Returns the first problem as [field, message], or undefined.
 */
export function checkConfig(config: ModelConfigJson): [string, string] | undefined {
  return resolve(config)[1];
}

/**
 * `config` with every field of the spec present, absent ones at their defaults.
 * @throws Error naming the first invalid field (checkConfig's problem).
 */
export function withDefaults(config: ModelConfigJson): Record<string, unknown> {
  const [out, problem] = resolve(config);
  if (!out) throw new Error(`config field '${problem[0]}' ${problem[1]}`);
  return out;
}

/** Whether `name` is a tensor of an encoder or decoder layer in the spec (`encoder.layers.0.fc1.weight`), whatever the config. */
export function isLayerTensor(name: string): boolean {
  return TENSOR_GROUPS.some((g) => {
    if (g.scope !== 'encoder_layer' && g.scope !== 'decoder_layer') return false;
    const [before, after] = g.prefix!.split('{i}');
    const match = new RegExp(`^${before.replace(/\./g, '\\.')}\\d+${after.replace(/\./g, '\\.')}(.+)$`).exec(name);
    return match !== null && g.tensors.some((t) => t.name === match[1]);
  });
}

/**
 * The full name of layer tensor `name` (a LAYER_TENSORS name) in `side`'s layer `layer`, by the
 * spec's layer prefix (`decoder`, 0, `cross_attn.q_proj.weight` -> `decoder.layers.0.cross_attn.q_proj.weight`).
 */
export function layerTensor(side: 'encoder' | 'decoder', layer: number, name: string): string {
  const group = TENSOR_GROUPS.find((g) => g.scope === `${side}_layer`)!;
  return group.prefix!.replace('{i}', String(layer)) + name;
}

function dimension(rule: string, c: Resolved): number {
  const [base, plus] = rule.split('+');
  const d = DIMENSIONS[base];
  if (d === undefined) throw new Error(`tensor_spec.json: unknown dimension '${rule}'`);
  return d.field === undefined ? -1 : (c[d.field] as number) + Number(plus ?? 0);
}

/**
 * Every tensor `config` calls for, in spec order (optional groups marked by their index).
 * @throws Error when the config is invalid (checkConfig names the field).
 */
export function expectedTensors(config: ModelConfigJson): ExpectedTensor[] {
  const c = withDefaults(config);
  const holds = (when: string | undefined) => when === undefined || c[CONDITIONS[when].field] === CONDITIONS[when].is;
  const out: ExpectedTensor[] = [];
  TENSOR_GROUPS.forEach((group, g) => {
    const layers = group.scope === 'encoder_layer' ? config.encoder_layers
      : group.scope === 'decoder_layer' ? config.decoder_layers : 1;
    for (let i = 0; i < layers; ++i) {
      const prefix = (group.prefix ?? '').replace('{i}', String(i));
      for (const t of group.tensors) {
        if (!holds(t.when)) continue;
        out.push({
          name: prefix + t.name, shape: t.shape.map((d) => dimension(d, c)), kind: t.kind,
          optionalGroup: group.all_or_none ? g : undefined,
        });
      }
    }
  });
  return out;
}

/** The dtypes a float tensor may have in a model file (the engine reads all three). */
const FLOAT_DTYPES = new Set<string>(['F32', 'F16', 'BF16']);

function shapeMatches(actual: number[], expected: number[]): boolean {
  if (actual.length === 2 && expected.length === 1 && actual[0] === 1) return shapeMatches([actual[1]], expected);
  return actual.length === expected.length && actual.every((d, i) => expected[i] === -1 || d === expected[i]);
}

function checkKind(name: string, t: Tensor, e: ExpectedTensor, tensors: Map<string, Tensor>): string | undefined {
  const show = (s: number[]) => `[${s.map((d) => (d === -1 ? 'n' : d)).join(', ')}]`;
  if (e.kind === 'ids' || e.kind === 'f32') {
    const dtype = e.kind === 'ids' ? 'I32' : 'F32';
    if (t.dtype !== dtype) return `is ${t.dtype}, the spec needs ${dtype}`;
  } else if (t.dtype === 'I8' && e.kind === 'matrix') {
    const scale = tensors.get(`${name}_scale`);
    if (!scale || scale.dtype !== 'F32' || !shapeMatches(scale.shape, [e.shape[0]])) {
      return `is I8 without an F32 '${name}_scale' of shape [${e.shape[0]}]`;
    }
    const [out, inputs] = e.shape;
    if (shapeMatches(t.shape, [Math.ceil(out / 4), Math.ceil(inputs / 4), 16])) return undefined;  // the int8 kernel layout
  } else if (!FLOAT_DTYPES.has(t.dtype)) {
    return `is ${t.dtype}, the spec needs a float dtype`;
  }
  if (!shapeMatches(t.shape, e.shape)) return `has shape ${show(t.shape)}, the config needs ${show(e.shape)}`;
  return undefined;
}

/**
 * Checks `tensors` against what `config` calls for: every required tensor present with its shape
 * and kind, optional groups all or none, and no tensor the spec does not know (the scale of an I8
 * matrix and the tokenizer's U8 tensors `allowed` aside). Returns the first problem as [tensor, message], or
 * undefined when the set is valid.
 */
export function checkTensors(config: ModelConfigJson, tensors: Map<string, Tensor>, allowed: Set<string>): [string, string] | undefined {
  const expected = expectedTensors(config);
  const byName = new Map(expected.map((e) => [e.name, e]));
  const groupsPresent = new Set(expected.filter((e) => e.optionalGroup !== undefined && tensors.has(e.name)).map((e) => e.optionalGroup));
  for (const e of expected) {
    const t = tensors.get(e.name);
    if (!t) {
      if (e.optionalGroup === undefined || groupsPresent.has(e.optionalGroup)) return [e.name, 'missing: the config calls for it'];
      continue;
    }
    const problem = checkKind(e.name, t, e, tensors);
    if (problem) return [e.name, problem];
  }
  for (const name of tensors.keys()) {
    // A scale belongs only beside an I8 matrix, as the engine's loader requires (cpp/model/tensor_spec.cc).
    const base = name.endsWith('_scale') ? name.slice(0, -'_scale'.length) : undefined;
    const isScale = base !== undefined && byName.get(base)?.kind === 'matrix' && tensors.get(base)?.dtype === 'I8';
    if (!byName.has(name) && !isScale && !allowed.has(name)) return [name, 'not a tensor of this config (cpp/model/tensor_spec.json)'];
  }
  return undefined;
}
