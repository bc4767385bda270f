/**
 * Reads Marian's binary model format (`model.bin`, as `marian-conv` writes it and Bergamot loads it
 * from memory), following browsermt/marian-dev e88c1aa src/common/binary.cpp:30-91 (loadItems):
 *
 *   uint64 version (1, src/common/binary.h:10), uint64 N
 *   N headers { uint64 nameLength; uint64 type; uint64 shapeLength; uint64 dataLength; }
 *   N names (NUL-terminated, nameLength bytes each)
 *   N shapes (shapeLength int32 each)
 *   uint64 offset, then offset bytes of padding (the data starts on a 256-byte boundary)
 *   N blobs of dataLength bytes each
 *
 * Item types are src/common/types.h:226-272's `Type` values.
 */
import { ConvertError } from './convert-error.js';

/** Marian's element types (src/common/types.h:249-268) that a model file may hold. */
export const MarianType = {
  int8: 0x0101,
  float16: 0x0402,
  float32: 0x0404,
  intgemm8: 0x4101,
  intgemm16: 0x4102,
} as const;

/** One item: a parameter (or `special:model.yml`), with Marian's shape and the blob as stored. */
export interface MarianItem {
  name: string;
  /** Marian's Type value (MarianType). */
  type: number;
  /** As Marian declares it: a weight W is [in, out], a bias [1, out]. */
  shape: number[];
  /** The blob, including marian-conv's padding (and an intgemm matrix's trailing float). */
  bytes: Uint8Array;
}

const BINARY_FILE_VERSION = 1;
const HEADER_BYTES = 32;

/**
 * The items of a Marian binary model.
 * @throws ConvertError naming `file` and the field when the version is not 1 or the file ends
 *   before a header, name, shape or blob it declares (a truncated download).
 */
export function readMarianBinary(bytes: Uint8Array, file: string): MarianItem[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  const need = (n: number, what: string) => {
    if (at + n > bytes.length) throw new ConvertError(file, what, `truncated: the file ends at byte ${bytes.length}, ${what} needs ${at + n}`);
  };
  const u64 = (what: string) => {
    need(8, what);
    const value = view.getBigUint64(at, true);
    at += 8;
    if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new ConvertError(file, what, `value ${value} is out of range`);
    return Number(value);
  };
  const version = u64('version');
  if (version !== BINARY_FILE_VERSION) throw new ConvertError(file, 'version', `is ${version}, Marian's binary format is version 1`);
  const count = u64('item count');
  need(count * HEADER_BYTES, 'item headers');
  const headers = Array.from({ length: count }, (_, i) => ({
    nameLength: u64(`header ${i}`), type: u64(`header ${i}`), shapeLength: u64(`header ${i}`), dataLength: u64(`header ${i}`),
  }));
  const names = headers.map((h, i) => {
    need(h.nameLength, `name of item ${i}`);
    const raw = bytes.subarray(at, at + h.nameLength);
    at += h.nameLength;
    const end = raw.indexOf(0);
    return new TextDecoder().decode(end === -1 ? raw : raw.subarray(0, end));
  });
  const shapes = headers.map((h, i) => {
    need(4 * h.shapeLength, `shape of ${names[i]}`);
    const shape = Array.from({ length: h.shapeLength }, (_, k) => view.getInt32(at + 4 * k, true));
    at += 4 * h.shapeLength;
    return shape;
  });
  const padding = u64('data offset');
  need(padding, 'data offset');
  at += padding;
  return headers.map((h, i) => {
    need(h.dataLength, names[i]);
    const blob = bytes.subarray(at, at + h.dataLength);
    at += h.dataLength;
    return { name: names[i], type: h.type, shape: shapes[i], bytes: blob };
  });
}
