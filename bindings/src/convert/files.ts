/** Reading a converter's input files: a missing or unreadable file is a ConvertError naming it. */
import { existsSync, readFileSync } from 'node:fs';
import { ConvertError } from './convert-error.js';
import type { Tensor } from './model-file.js';

/** The JSON file at `path`; `field` names it in errors (e.g. "config"). */
export function readJson<T>(path: string, field: string): T {
  if (!existsSync(path)) throw new ConvertError(path, field, 'missing: the folder needs it');
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch (e) {
    throw new ConvertError(path, field, `not JSON (${e instanceof Error ? e.message : String(e)})`);
  }
}

/** The bytes of the file at `path`. */
export function readBytes(path: string): Uint8Array {
  if (!existsSync(path)) throw new ConvertError(path, 'file', 'missing: the folder needs it');
  return new Uint8Array(readFileSync(path));
}

/** Whether two tensors hold the same dtype and bytes (a tied output layer, the same weights twice). */
export function sameTensor(a: Tensor, b: Tensor): boolean {
  if (a.dtype !== b.dtype || a.data.byteLength !== b.data.byteLength) return false;
  return Buffer.compare(new Uint8Array(a.data.buffer, a.data.byteOffset, a.data.byteLength),
    new Uint8Array(b.data.buffer, b.data.byteOffset, b.data.byteLength)) === 0;
}
