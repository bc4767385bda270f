/**
 * What a model's own metadata says of its licence: the `license:` of a Hugging Face model card's
 * YAML front matter (README.md, the block between its first two `---` lines; Hugging Face Hub
 * docs, "Model Cards"). The converters record a licence only from this or from the caller
 * (ConvertOptions.license, `--license`): never from a folder's or a file's name, which anyone may give.
 */
import type { ModelFiles } from './model-files.js';

// The Hub's licence tags as SPDX identifiers (the Hub writes them in lower case).
const SPDX: Record<string, string> = {
  'cc-by-4.0': 'CC-BY-4.0', 'cc-by-sa-4.0': 'CC-BY-SA-4.0', 'cc-by-nc-4.0': 'CC-BY-NC-4.0', 'apache-2.0': 'Apache-2.0',
  mit: 'MIT', 'mpl-2.0': 'MPL-2.0', 'bsd-3-clause': 'BSD-3-Clause', 'gpl-3.0': 'GPL-3.0', 'cc0-1.0': 'CC0-1.0',
};

/** The licence the folder's model card (README.md) states in its front matter, else undefined. */
export function cardLicense(files: ModelFiles): string | undefined {
  if (!files.has('README.md')) return undefined;
  const text = new TextDecoder().decode(files.bytes('README.md').subarray(0, 1 << 16));
  const front = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text)?.[1];
  const tag = front && /^license:\s*["']?([\w.+-]+)["']?\s*$/m.exec(front)?.[1];
  return tag ? (SPDX[tag.toLowerCase()] ?? tag) : undefined;
}
