/**
 * Tensor names between a foreign format and ours, by the format's rows in the model file's spec
 * (cpp/model/tensor_spec.json "formats", as FORMAT_ROWS in model-spec.generated.ts): a row maps a
 * whole name, or every name under a prefix ending in "." (or empty); "{i}" stands for a layer
 * index and "{i+1}" for the same counted from 1 (Marian's); a row with a condition ("when") holds
 * only for a config it is true of; the first row that matches wins. The Python side reads the same
 * rows (models/tensor_spec.py their_name).
 */
import { CONDITIONS, FORMAT_ROWS } from './model-spec.generated.js';
import type { FormatRow, ModelConfigJson } from './model-spec.generated.js';
import { withDefaults } from './tensor-spec.js';

/** A format the spec has rows for. */
export type FormatName = keyof typeof FORMAT_ROWS;

const LAYER = /\{i(\+1)?\}/;
const escape = (s: string) => s.replace(/[.*+?^$()|[\]\\]/g, '\\$&');

/** Whether `row` holds for `config` (defaults filled in): it has no condition, or the config has the value it names. */
function holds(row: FormatRow, config: Record<string, unknown> | undefined): boolean {
  if (row.when === undefined) return true;
  const c = CONDITIONS[row.when];
  return config !== undefined && config[c.field] === c.is;
}

/**
 * `name` read by `pattern` (one side of a row): the layer index it holds (-1 for none) and the rest
 * after a prefix; undefined when it does not match, or names a layer below 0 (Marian's `l0`).
 */
function read(pattern: string, name: string): { layer: number; rest: string } | undefined {
  const prefix = pattern === '' || pattern.endsWith('.');
  const token = LAYER.exec(pattern);
  const source = escape(pattern).replace(/\{i(\\\+1)?\}/, '(\\d+)');
  const match = new RegExp(`^${source}${prefix ? '(.*)' : ''}$`).exec(name);
  if (!match) return undefined;
  const layer = token ? Number(match[1]) - (token[1] ? 1 : 0) : -1;
  if (token && layer < 0) return undefined;
  return { layer, rest: prefix ? match[match.length - 1] : '' };
}

/** `pattern` (the other side of a row) written for `layer` and `rest`. */
function write(pattern: string, layer: number, rest: string): string {
  return pattern.replace(LAYER, (_, plus) => String(layer + (plus ? 1 : 0))) + rest;
}

function rowsOf(format: FormatName): readonly FormatRow[] {
  const rows = FORMAT_ROWS[format];
  if (!rows) throw new Error(`tensor_spec.json has no rows for the format '${format}'`);
  return rows;
}

/** The first row of `format` whose `from` side reads `name` under `config`, with the name on its `to` side. */
function rename(format: FormatName, name: string, from: 'ours' | 'theirs', config?: ModelConfigJson): [string, FormatRow] | undefined {
  const to = from === 'ours' ? 'theirs' : 'ours';
  const resolved = config && withDefaults(config);
  for (const row of rowsOf(format)) {
    if (!holds(row, resolved)) continue;
    const parts = read(row[from], name);
    if (parts) return [write(row[to], parts.layer, parts.rest), row];
  }
  return undefined;
}

/**
 * Our name for `format`'s tensor `theirs` (`model.decoder.layers.0.encoder_attn.k_proj.weight` ->
 * `decoder.layers.0.cross_attn.k_proj.weight`), or undefined. Rows with a condition take part only
 * with a `config`.
 */
export function ourName(format: FormatName, theirs: string, config?: ModelConfigJson): string | undefined {
  return rename(format, theirs, 'theirs', config)?.[0];
}

/**
 * `format`'s name for our tensor `ours`, and the row that gives it (its `role` says how the format
 * stores the tensor). Rows with a condition take part only with a `config`.
 * @throws Error when no row maps it: the format's rows do not cover the spec.
 */
export function theirRow(format: FormatName, ours: string, config?: ModelConfigJson): [string, FormatRow] {
  const found = rename(format, ours, 'ours', config);
  if (!found) throw new Error(`tensor_spec.json: the format '${format}' has no row for '${ours}'`);
  return found;
}

/** `format`'s name for our tensor `ours` (theirRow's name). @throws Error as theirRow. */
export function theirName(format: FormatName, ours: string, config?: ModelConfigJson): string {
  return theirRow(format, ours, config)[0];
}
