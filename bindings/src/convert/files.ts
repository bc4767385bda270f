/** Comparing the bytes a converter read: one SentencePiece model for both sides, a tied output layer. */
import type { Tensor } from './model-types.js';

/** Whether two byte arrays are equal. */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Whether two tensors hold the same dtype and bytes (a tied output layer, the same weights twice). */
export function sameTensor(a: Tensor, b: Tensor): boolean {
  const bytes = (t: Tensor) => new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength);
  return a.dtype === b.dtype && a.data.byteLength === b.data.byteLength && sameBytes(bytes(a), bytes(b));
}
