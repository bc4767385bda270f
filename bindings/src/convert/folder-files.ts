/** A model's folder on disk (Node), as the converters read it (model-files.ts). */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, isAbsolute, join, resolve } from 'node:path';
import { ConvertError } from './convert-error.js';
import type { ModelFiles } from './model-files.js';

/**
 * The folder at `folder` (a path as the user gave it, which errors repeat). A path inside it may
 * also be absolute, as a Marian decoder.yml may give its vocabularies.
 */
export function folderFiles(folder: string): ModelFiles {
  const display = (path: string) => (isAbsolute(path) ? path : join(folder, path));
  return {
    root: folder,
    name: basename(resolve(folder)),
    display,
    has: (path) => existsSync(display(path)) && statSync(display(path)).isFile(),
    bytes(path) {
      try {
        return new Uint8Array(readFileSync(display(path)));
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        throw new ConvertError(display(path), 'file', code === 'ENOENT' ? 'missing: the folder needs it' : `cannot be read (${code ?? String(e)})`);
      }
    },
    names: () => readdirSync(folder).sort(),
  };
}
