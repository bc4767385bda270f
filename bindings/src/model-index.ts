/**
 * The models in a folder, read from their file headers (Node only): which one translates which
 * direction, for `crossattn translate --from L --to L`. Reads each file's safetensors header (its
 * first bytes), not the weights.
 */
import { closeSync, openSync, readSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** A model file and what its metadata says of it (docs/model-format.md). */
export interface ModelEntry {
  path: string;
  name: string;
  sourceLang: string;
  targetLang: string;
  /** True for int8 files (metadata "quantization"). */
  quantized: boolean;
}

function readHeader(path: string): Record<string, unknown> {
  const fd = openSync(path, 'r');
  try {
    const size = Buffer.alloc(8);
    if (readSync(fd, size, 0, 8, 0) !== 8) throw new Error('too short');
    const n = Number(size.readBigUInt64LE(0));
    if (n > 64 << 20) throw new Error('header too large');
    const json = Buffer.alloc(n);
    if (readSync(fd, json, 0, n, 8) !== n) throw new Error('truncated header');
    return JSON.parse(json.toString('utf8'));
  } finally {
    closeSync(fd);
  }
}

/** Every readable .crossattn file in `dir`, sorted by file name; unreadable files are skipped. */
export function listModels(dir: string): ModelEntry[] {
  const entries: ModelEntry[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.crossattn')).sort()) {
    try {
      const meta = readHeader(join(dir, file)).__metadata__ as Record<string, string>;
      const config = JSON.parse(meta.config);
      entries.push({ path: join(dir, file), name: config.name, sourceLang: config.source_lang,
                     targetLang: config.target_lang, quantized: meta.quantization !== undefined });
    } catch {
      // not a model file we can read: the loader would say why; here it is simply not offered
    }
  }
  return entries;
}

/**
 * The model in `dir` that translates `from` into `to`: the unquantized file when there are both.
 * @throws Error naming the directions that are available when none matches.
 */
export function modelFor(dir: string, from: string, to: string): ModelEntry {
  const models = listModels(dir);
  const matching = models.filter((m) => m.sourceLang === from && m.targetLang === to);
  if (matching.length === 0) {
    const available = [...new Set(models.map((m) => `${m.sourceLang}→${m.targetLang}`))].join(', ') || 'none';
    throw new Error(`no model translates ${from} to ${to} in ${dir} (available: ${available})`);
  }
  return matching.find((m) => !m.quantized) ?? matching[0];
}
