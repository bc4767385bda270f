/**
 * Reads NumPy's .npz archives (a zip of .npy files, as Marian's `model.npz` and `numpy.savez` write
 * them) with fflate, and parses each .npy (format versions 1 to 3,
 * https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html): the magic `\x93NUMPY`,
 * a version, the header length (2 bytes in version 1, 4 after), the header (a Python dict literal
 * with `descr`, `fortran_order` and `shape`), then the raw data.
 */
import { unzipBounded } from './bounded-inflate.js';
import { ConvertError } from './convert-error.js';

/** One array of an .npz: its NumPy dtype string (e.g. `<f4`, `|i1`), shape and raw bytes (a copy, 8-byte aligned). */
export interface NpyArray {
  descr: string;
  shape: number[];
  bytes: Uint8Array;
}

const MAGIC = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]; // \x93NUMPY
const ITEM_SIZE: Record<string, number> = { '<f4': 4, '<f2': 2, '|i1': 1, '<i1': 1, '|u1': 1, '<i4': 4, '<i8': 8, '<f8': 8 };

/**
 * Parses one .npy file.
 * @param file the archive, for errors; `name` the member.
 * @throws ConvertError for a bad magic, an unreadable header, a Fortran-ordered or big-endian array,
 *   or data shorter than the shape says.
 */
export function parseNpy(bytes: Uint8Array, file: string, name: string): NpyArray {
  if (bytes.length < 10 || MAGIC.some((b, i) => bytes[i] !== b)) throw new ConvertError(file, name, 'not a .npy array (bad magic)');
  const major = bytes[6];
  if (major < 1 || major > 3) throw new ConvertError(file, name, `.npy format version ${major} is not 1, 2 or 3`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const lengthBytes = major === 1 ? 2 : 4;
  const headerLength = major === 1 ? view.getUint16(8, true) : view.getUint32(8, true);
  const dataStart = 8 + lengthBytes + headerLength;
  if (dataStart > bytes.length) throw new ConvertError(file, name, 'truncated .npy header');
  const header = new TextDecoder().decode(bytes.subarray(8 + lengthBytes, dataStart));
  const descr = /'descr':\s*'([^']+)'/.exec(header)?.[1];
  const fortran = /'fortran_order':\s*(True|False)/.exec(header)?.[1];
  const shapeText = /'shape':\s*\(([^)]*)\)/.exec(header)?.[1];
  if (descr === undefined || fortran === undefined || shapeText === undefined) {
    throw new ConvertError(file, name, `unreadable .npy header ${JSON.stringify(header.trim())}`);
  }
  if (fortran === 'True') throw new ConvertError(file, name, 'Fortran-ordered arrays are not supported');
  const itemSize = Object.hasOwn(ITEM_SIZE, descr) ? ITEM_SIZE[descr] : undefined;
  if (itemSize === undefined) throw new ConvertError(file, name, `dtype ${descr} is not supported (float32, float16 or int8)`);
  const shape = shapeText.split(',').map((s) => s.trim()).filter((s) => s !== '').map(Number);
  if (!shape.every((n) => Number.isSafeInteger(n) && n >= 0)) throw new ConvertError(file, name, `shape (${shapeText}) is not a tuple of sizes`);
  const size = shape.reduce((a, b) => a * b, 1) * itemSize;
  if (dataStart + size > bytes.length) {
    throw new ConvertError(file, name, `truncated: shape [${shape}] needs ${size} bytes of data, the file has ${bytes.length - dataStart}`);
  }
  return { descr, shape, bytes: bytes.slice(dataStart, dataStart + size) };
}

/**
 * Every array of an .npz archive by name (the member name without `.npy`).
 * @throws ConvertError when the archive is not a readable zip (truncated or damaged) or a member is not a .npy.
 */
export function readNpz(bytes: Uint8Array, file: string): Map<string, NpyArray> {
  const members = unzipBounded(bytes, file, 'zip', 'not a readable .npz archive; is it truncated?');
  const arrays = new Map<string, NpyArray>();
  for (const [member, data] of Object.entries(members)) {
    const name = member.replace(/\.npy$/, '');
    arrays.set(name, parseNpy(data, file, name));
  }
  return arrays;
}
