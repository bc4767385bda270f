// The model file's spec (cpp/model/tensor_spec.json) as the generators read it: parsed, and every
// word checked against the words the generated code understands, so that a spec the engine, the
// converters or the Python writer would misread is refused here by name, not at load.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const SPEC = fileURLToPath(new URL('../../cpp/model/tensor_spec.json', import.meta.url));

/** The words of the spec and what each generated checker does with them. */
export const SCOPES = ['model', 'encoder_layer', 'decoder_layer', 'optional'];
export const KINDS = ['matrix', 'vector', 'ids', 'f32'];
/** A vector's neutral initial value, where the spec gives one (a layer norm's scale, a bias). */
export const INITS = ['ones', 'zeros'];
export const FIELD_TYPES = ['int', 'number', 'bool', 'string', 'enum'];

/** A shape rule ("D", "Vs+1") as [dimension key, extra], or an Error naming `where`. */
export function dimensionRule(rule, dimensions, where) {
  const match = /^([A-Za-z]+)(?:\+(\d+))?$/.exec(rule);
  if (!match || !(match[1] in dimensions)) throw new Error(`${where}: unknown dimension rule ${JSON.stringify(rule)}`);
  return [match[1], Number(match[2] ?? 0)];
}

/** The config's fields, flattened from its rows, in spec order. */
export function configFields(spec) {
  return spec.config.flatMap((row) => row.fields);
}

// A field may refer only to fields before it (a default or a bound is known when it is checked).
function checkField(f, earlier) {
  const where = `tensor_spec.json config field ${JSON.stringify(f.name)}`;
  if (!FIELD_TYPES.includes(f.type)) throw new Error(`${where}: unknown type ${JSON.stringify(f.type)}`);
  if (f.type === 'enum' && !(Array.isArray(f.values) && f.values.length > 0)) throw new Error(`${where}: an enum needs its values`);
  for (const key of ['below', 'default_from']) {
    if (f[key] !== undefined && !earlier.has(f[key])) throw new Error(`${where}: ${key} names ${JSON.stringify(f[key])}, not a field before it`);
  }
  if (f.default !== undefined && f.default_from !== undefined) throw new Error(`${where}: both default and default_from`);
}

function checkTensors(spec, conditions) {
  for (const [g, group] of spec.groups.entries()) {
    if (!SCOPES.includes(group.scope)) throw new Error(`tensor_spec.json group ${g}: unknown scope ${JSON.stringify(group.scope)}`);
    for (const t of group.tensors) {
      const where = `tensor_spec.json ${t.name}`;
      if (!KINDS.includes(t.kind)) throw new Error(`${where}: unknown kind ${JSON.stringify(t.kind)}`);
      if (t.when !== undefined && !conditions.has(t.when)) throw new Error(`${where}: unknown condition ${JSON.stringify(t.when)}`);
      if (t.init !== undefined && !(INITS.includes(t.init) && t.kind === 'vector')) throw new Error(`${where}: init ${JSON.stringify(t.init)} is not ones or zeros of a vector`);
      for (const d of t.shape) dimensionRule(d, spec.dimensions, where);
    }
  }
}

/** Each format's rows, without the words about it. */
export const formatRows = (spec) => Object.fromEntries(Object.entries(spec.formats ?? {}).map(([name, f]) => [name, f.rows]));

/** Every tensor of the spec by its name as a pattern (its layer groups' "{i}" kept). */
function tensorPatterns(spec) {
  return new Map(spec.groups.flatMap((g) => g.tensors.map((t) => [(g.prefix ?? '') + t.name, t])));
}

/** Checks a row's residual axes: distinct axes of the one tensor it names. @throws Error on others. */
function checkResidual(row, tensor, where) {
  if (row.residual === undefined) return;
  const rank = tensor?.shape.length ?? 0;
  const ok = Array.isArray(row.residual) && row.residual.every((a, k) => Number.isInteger(a) && a >= 0 && a < rank && row.residual.indexOf(a) === k);
  if (!ok) throw new Error(`${where}: residual ${JSON.stringify(row.residual)} is not a list of distinct axes of one tensor`);
}

// A format's row maps a whole name, or every name under a prefix ending in "." (or empty): each of
// ours must be a tensor of the spec, or the start of one, a row's condition one of the spec's, and
// its residual axes (where it has them) axes of the tensor it names.
function checkFormats(spec) {
  const patterns = tensorPatterns(spec);
  for (const [format, { rows }] of Object.entries(spec.formats ?? {})) {
    for (const row of rows) {
      if (row.when !== undefined && !(row.when in spec.conditions)) {
        throw new Error(`tensor_spec.json format ${JSON.stringify(format)}: ${JSON.stringify(row.ours)} has the unknown condition ${JSON.stringify(row.when)}`);
      }
      const prefix = row.ours === '' || row.ours.endsWith('.');
      const known = [...patterns.keys()].some((p) => (prefix ? p.startsWith(row.ours) : p === row.ours));
      if (!known) throw new Error(`tensor_spec.json format ${JSON.stringify(format)}: ${JSON.stringify(row.ours)} names no tensor of the spec`);
      checkResidual(row, patterns.get(row.ours), `tensor_spec.json format ${JSON.stringify(format)}: ${JSON.stringify(row.ours)}`);
      if (prefix !== (row.theirs === '' || row.theirs.endsWith('.'))) {
        throw new Error(`tensor_spec.json format ${JSON.stringify(format)}: ${JSON.stringify(row.ours)} and ${JSON.stringify(row.theirs)} are not both prefixes or both names`);
      }
    }
  }
}

/**
 * Checks a parsed spec's words: config field types and references, the fields that conditions and
 * dimensions read, every tensor's scope, kind, condition and shape rules, and each format's rows.
 * @returns the spec, unchanged. @throws Error naming the first word no generated checker knows.
 */
export function checkSpec(spec) {
  const fields = new Map();
  for (const f of configFields(spec)) {
    checkField(f, fields);
    fields.set(f.name, f);
  }
  for (const [key, c] of Object.entries(spec.conditions)) {
    const field = fields.get(c.field);
    if (!field) throw new Error(`tensor_spec.json condition ${JSON.stringify(key)}: no config field ${JSON.stringify(c.field)}`);
    const fits = field.type === 'bool' ? typeof c.is === 'boolean' : field.type === 'enum' && field.values.includes(c.is);
    if (!fits) throw new Error(`tensor_spec.json condition ${JSON.stringify(key)}: ${JSON.stringify(c.is)} is not a value of ${c.field}`);
  }
  for (const [key, d] of Object.entries(spec.dimensions)) {
    if (d.field !== undefined && fields.get(d.field)?.type !== 'int') {
      throw new Error(`tensor_spec.json dimension ${JSON.stringify(key)}: ${JSON.stringify(d.field)} is not an int field`);
    }
  }
  checkTensors(spec, new Set(Object.keys(spec.conditions)));
  checkFormats(spec);
  return spec;
}

/** The spec as tensor_spec.json holds it, checked. */
export function readSpec() {
  return checkSpec(JSON.parse(readFileSync(SPEC, 'utf8')));
}

const isFlat = (v) => v === null || typeof v !== 'object' || (Array.isArray(v) && v.every((x) => x === null || typeof x !== 'object'));

/**
 * `value` as source text, an object of flat values on one line, anything deeper one entry per line:
 * JSON for TypeScript, or Python's literals with `python` (True, False, None).
 */
export function literal(value, { python = false, indent = '' } = {}) {
  const scalar = (v) => {
    if (python && (v === true || v === false || v === null)) return v === null ? 'None' : v ? 'True' : 'False';
    return Array.isArray(v) ? `[${v.map(scalar).join(', ')}]` : JSON.stringify(v);
  };
  if (isFlat(value)) return scalar(value);
  const entries = Array.isArray(value) ? value.map((v) => [undefined, v]) : Object.entries(value);
  if (!Array.isArray(value) && entries.every(([, v]) => isFlat(v))) {
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}: ${scalar(v)}`).join(', ')}}`;
  }
  const inner = `${indent}  `;
  const lines = entries.map(([k, v]) => `${inner}${k === undefined ? '' : `${JSON.stringify(k)}: `}${literal(v, { python, indent: inner })}`);
  return Array.isArray(value) ? `[\n${lines.join(',\n')},\n${indent}]` : `{\n${lines.join(',\n')},\n${indent}}`;
}
