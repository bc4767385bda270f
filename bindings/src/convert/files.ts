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

/** Whether two byte arrays are equal (e.g. one SentencePiece model for both sides). */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.compare(a, b) === 0;
}

/** Whether two tensors hold the same dtype and bytes (a tied output layer, the same weights twice). */
export function sameTensor(a: Tensor, b: Tensor): boolean {
  const bytes = (t: Tensor) => new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength);
  return a.dtype === b.dtype && sameBytes(bytes(a), bytes(b));
}
