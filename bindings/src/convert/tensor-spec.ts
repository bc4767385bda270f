/**
 * The model file's tensor spec (cpp/model/tensor_spec.json, copied beside this module by the
 * build): which tensors a config calls for, with their shapes and kinds. `expectedTensors` expands
 * it for one config; `checkTensors` validates a converter's output against it before anything is
 * written, so a converted file never fails the engine's own checks.
 */
import type { ModelConfigJson, Tensor } from './model-types.js';

type Kind = 'matrix' | 'vector' | 'ids' | 'f32';

interface SpecTensor { name: string; shape: string[]; kind: Kind; when?: string; about?: string }
interface SpecGroup {
  scope: 'model' | 'encoder_layer' | 'decoder_layer' | 'optional';
  prefix?: string;
  all_or_none?: boolean;
  about?: string;
  tensors: SpecTensor[];
}
/** The parsed tensor_spec.json. */
export interface TensorSpec { groups: SpecGroup[]; conditions: Record<string, string>; kinds: Record<string, string>; dimensions: Record<string, string> }

/** One tensor a config calls for: shape entries are sizes, or -1 for "any length". */
export interface ExpectedTensor { name: string; shape: number[]; kind: Kind; optionalGroup?: number }

let cached: TensorSpec | undefined;

const SPEC_URL = new URL('../tensor_spec.json', import.meta.url);
const isNode = typeof process !== 'undefined' && typeof process.versions?.node === 'string';
/** The spec, where a bundle carries it (tools/build-convert-worker.js writes it into the conversion worker). */
declare const __CROSSATTN_TENSOR_SPEC__: TensorSpec | undefined;

/**
 * Reads tensor_spec.json beside the compiled package once (a file in Node, a fetch in a browser;
 * a bundle may carry it instead); tensorSpec() needs it read first.
 * @throws Error when it cannot be read: the package is incomplete.
 */
export async function loadTensorSpec(): Promise<TensorSpec> {
  if (cached) return cached;
  if (typeof __CROSSATTN_TENSOR_SPEC__ !== 'undefined') return (cached = __CROSSATTN_TENSOR_SPEC__);
  let text: string;
  if (isNode && SPEC_URL.protocol === 'file:') {
    text = (await import('node:fs')).readFileSync(SPEC_URL, 'utf8');
  } else {
    const response = await fetch(SPEC_URL);
    if (!response.ok) throw new Error(`cannot read ${SPEC_URL.href}: HTTP ${response.status}`);
    text = await response.text();
  }
  cached = JSON.parse(text) as TensorSpec;
  return cached;
}

/** The spec loadTensorSpec() read. @throws Error when it has not been read. */
export function tensorSpec(): TensorSpec {
  if (!cached) throw new Error('tensor_spec.json is not read yet: await loadTensorSpec() first');
  return cached;
}

function holds(condition: string | undefined, c: ModelConfigJson): boolean {
  switch (condition) {
    case undefined: return true;
    case 'shared_vocab': return c.shared_vocab;
    case '!shared_vocab': return !c.shared_vocab;
    case '!tied_embeddings': return !c.tied_embeddings;
    case 'final_logits_bias': return c.final_logits_bias;
    case 'pre_norm': return c.layer_norm === 'pre';
    case 'self_attention': return (c.decoder_autoregression ?? 'self-attention') === 'self-attention';
    case 'ssru': return c.decoder_autoregression === 'ssru';
    default: throw new Error(`tensor_spec.json: unknown condition '${condition}'`);
  }
}

function dimension(rule: string, c: ModelConfigJson): number {
  const sizes: Record<string, number> = {
    D: c.d_model, F: c.d_ff, V: c.vocab_size, Vs: c.source_vocab_size ?? c.vocab_size, n: -1,
  };
  const [base, plus] = rule.split('+');
  const size = sizes[base];
  if (size === undefined) throw new Error(`tensor_spec.json: unknown dimension '${rule}'`);
  return plus === undefined ? size : size + Number(plus);
}

/** Every tensor `config` calls for, in spec order (optional groups marked by their index). */
export function expectedTensors(config: ModelConfigJson, spec = tensorSpec()): ExpectedTensor[] {
  const out: ExpectedTensor[] = [];
  spec.groups.forEach((group, g) => {
    const layers = group.scope === 'encoder_layer' ? config.encoder_layers
      : group.scope === 'decoder_layer' ? config.decoder_layers : 1;
    for (let i = 0; i < layers; ++i) {
      const prefix = (group.prefix ?? '').replace('{i}', String(i));
      for (const t of group.tensors) {
        if (!holds(t.when, config)) continue;
        out.push({
          name: prefix + t.name, shape: t.shape.map((d) => dimension(d, config)), kind: t.kind,
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
