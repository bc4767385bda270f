/**
 * A model's folder on disk (Node), as the converters read it (model-files.ts), with one rule for
 * every file, as the engine's read_model_file has (cpp/model/model_file.h): the file is opened
 * without blocking (a FIFO or a device never stalls the converter) and its descriptor checked with
 * fstat; only a regular file within its cap is read, and only inside the model's folder (a symlink
 * or a path that leads out of it is refused). Anything else is a ConvertError naming the file.
 */
import { closeSync, constants, existsSync, fstatSync, lstatSync, openSync, readdirSync, readSync, realpathSync } from 'node:fs';
import { basename, isAbsolute, join, relative, resolve } from 'node:path';
import { ConvertError } from './convert-error.js';
import { fileCap, type ModelFiles } from './model-files.js';

// The bytes of the regular file at `path`, opened without blocking and checked on its descriptor.
function readRegular(path: string, shown: string): Uint8Array {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new ConvertError(shown, 'file', code === 'ENOENT' ? 'missing: the folder needs it' : `cannot be read (${code ?? String(e)})`);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new ConvertError(shown, 'file', `is ${stat.isDirectory() ? 'a folder' : 'not a regular file (a FIFO, socket or device)'}, where a file belongs`);
    const cap = fileCap(path);
    if (stat.size > cap) throw new ConvertError(shown, 'file', `is ${stat.size} bytes, over the ${cap} bytes a file of its kind may have`);
    const bytes = new Uint8Array(stat.size);
    for (let at = 0; at < bytes.length;) {
      const n = readSync(fd, bytes, at, bytes.length - at, null);
      if (n === 0) throw new ConvertError(shown, 'file', `ended at ${at} of the ${bytes.length} bytes it had when opened`);
      at += n;
    }
    return bytes;
  } finally {
    closeSync(fd);
  }
}

/**
 * The folder at `folder` (a path as the user gave it, which errors repeat). A path inside it may
 * be absolute, as a Marian decoder.yml may give its vocabularies, but must lead to a file inside
 * the folder, symlinks resolved (or, for a Hugging Face cache snapshot, inside its repository's
 * cache folder).
 */
export function folderFiles(folder: string): ModelFiles {
  const display = (path: string) => (isAbsolute(path) ? path : join(folder, path));
  // Files may lead out of a Hugging Face cache's snapshot into its repository's blobs
  // (models--Helsinki-NLP--opus-mt-en-fr/snapshots/REV/model.safetensors -> ../../blobs/SHA).
  const real = realpathSync(folder);
  const cache = /^(.*[\\/]models--[^\\/]+)[\\/]snapshots[\\/][^\\/]+$/.exec(real)?.[1];
  const inside = (path: string) => {
    const target = realpathSync(display(path));
    return [real, cache].some((root) => {
      if (root === undefined) return false;
      const rel = relative(root, target);
      return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
    });
  };
  return {
    root: folder,
    name: basename(resolve(folder)),
    display,
    has: (path) => existsSync(display(path)) || isDanglingLink(display(path)),
    bytes(path) {
      if (existsSync(display(path)) && !inside(path)) {
        throw new ConvertError(display(path), 'file', `leads outside the model folder ${folder}: refused (copy the file into the folder to use it)`);
      }
      return readRegular(display(path), display(path));
    },
    names: () => readdirSync(folder).sort(),
  };
}

// A symlink whose target does not exist: present, but unreadable (bytes() says so).
function isDanglingLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}
