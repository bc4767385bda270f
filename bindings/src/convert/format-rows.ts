/**
 * Tensor names between a foreign format and ours, by the format's rows in the model file's spec
 * (cpp/model/tensor_spec.json "formats", as FORMAT_ROWS in model-spec.generated.ts): a row maps a
 * whole name, or every name under a prefix ending in "." (or empty), "{i}" standing for a layer
 * index; the first row that matches wins. The Python side reads the same rows
 * (models/tensor_spec.py their_name).
 */
import { FORMAT_ROWS } from './model-spec.generated.js';

/** A format the spec has rows for. */
export type FormatName = keyof typeof FORMAT_ROWS;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `name` renamed by the first row whose `from` side matches it, or undefined when none does. */
function rename(format: FormatName, name: string, from: 'ours' | 'theirs', to: 'ours' | 'theirs'): string | undefined {
  const rows = FORMAT_ROWS[format];
  if (!rows) throw new Error(`tensor_spec.json has no rows for the format '${format}'`);
  for (const row of rows) {
    const prefix = row[from] === '' || row[from].endsWith('.');
    const pattern = new RegExp(`^${escape(row[from]).replace('\\{i\\}', '(\\d+)')}${prefix ? '(.*)' : ''}$`);
    const match = pattern.exec(name);
    if (!match) continue;
    const layer = row[from].includes('{i}') ? match[1] : undefined;
    const rest = prefix ? match[match.length - 1] : '';
    return row[to].replace('{i}', layer ?? '') + rest;
  }
  return undefined;
}

/** Our name for `format`'s tensor `theirs` (`model.decoder.layers.0.encoder_attn.k_proj.weight` -> `decoder.layers.0.cross_attn.k_proj.weight`), or undefined. */
export function ourName(format: FormatName, theirs: string): string | undefined {
  return rename(format, theirs, 'theirs', 'ours');
}

/**
 * `format`'s name for our tensor `ours`.
 * @throws Error when no row maps it: the format's rows do not cover the spec.
 */
export function theirName(format: FormatName, ours: string): string {
  const name = rename(format, ours, 'ours', 'theirs');
  if (name === undefined) throw new Error(`tensor_spec.json: the format '${format}' has no row for '${ours}'`);
  return name;
}
