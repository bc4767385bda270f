/**
 * A walk over a pickle's opcodes, without running any (Python's pickletools.genops, iteratively),
 * before pickleparser builds anything: only the opcodes torch.save writes for a state dict are let
 * through, lengths must lie inside the data, integers fit in 64 bits, and the count of opcodes is
 * bounded. pickleparser itself would take minutes on a LONG4 of a megabyte (building a BigInt byte
 * by byte) and gigabytes on millions of empty dicts.
 */
import { ConvertError } from './convert-error.js';

/** How an opcode's argument is laid out: a fixed width, a length prefix of n bytes, or lines. */
type Argument = { fixed: number } | { lengthBytes: 1 | 4 | 8 } | { lines: 1 | 2 };

/** The opcodes a state dict of torch.save (protocol 2 to 5) uses, and their arguments. */
const ALLOWED = new Map<number, [string, Argument]>([
  [0x28, ['MARK', { fixed: 0 }]], [0x2e, ['STOP', { fixed: 0 }]], [0x30, ['POP', { fixed: 0 }]], [0x31, ['POP_MARK', { fixed: 0 }]],
  [0x32, ['DUP', { fixed: 0 }]], [0x4a, ['BININT', { fixed: 4 }]], [0x4b, ['BININT1', { fixed: 1 }]], [0x4d, ['BININT2', { fixed: 2 }]],
  [0x8a, ['LONG1', { lengthBytes: 1 }]], [0x4e, ['NONE', { fixed: 0 }]], [0x51, ['BINPERSID', { fixed: 0 }]], [0x52, ['REDUCE', { fixed: 0 }]],
  [0x55, ['SHORT_BINSTRING', { lengthBytes: 1 }]], [0x54, ['BINSTRING', { lengthBytes: 4 }]], [0x58, ['BINUNICODE', { lengthBytes: 4 }]],
  [0x8c, ['SHORT_BINUNICODE', { lengthBytes: 1 }]], [0x8d, ['BINUNICODE8', { lengthBytes: 8 }]], [0x43, ['SHORT_BINBYTES', { lengthBytes: 1 }]],
  [0x42, ['BINBYTES', { lengthBytes: 4 }]], [0x61, ['APPEND', { fixed: 0 }]], [0x65, ['APPENDS', { fixed: 0 }]], [0x62, ['BUILD', { fixed: 0 }]],
  [0x63, ['GLOBAL', { lines: 2 }]], [0x93, ['STACK_GLOBAL', { fixed: 0 }]], [0x7d, ['EMPTY_DICT', { fixed: 0 }]], [0x64, ['DICT', { fixed: 0 }]],
  [0x5d, ['EMPTY_LIST', { fixed: 0 }]], [0x6c, ['LIST', { fixed: 0 }]], [0x29, ['EMPTY_TUPLE', { fixed: 0 }]], [0x74, ['TUPLE', { fixed: 0 }]],
  [0x85, ['TUPLE1', { fixed: 0 }]], [0x86, ['TUPLE2', { fixed: 0 }]], [0x87, ['TUPLE3', { fixed: 0 }]], [0x73, ['SETITEM', { fixed: 0 }]],
  [0x75, ['SETITEMS', { fixed: 0 }]], [0x68, ['BINGET', { fixed: 1 }]], [0x6a, ['LONG_BINGET', { fixed: 4 }]], [0x71, ['BINPUT', { fixed: 1 }]],
  [0x72, ['LONG_BINPUT', { fixed: 4 }]], [0x94, ['MEMOIZE', { fixed: 0 }]], [0x47, ['BINFLOAT', { fixed: 8 }]], [0x80, ['PROTO', { fixed: 1 }]],
  [0x95, ['FRAME', { fixed: 8 }]], [0x88, ['NEWTRUE', { fixed: 0 }]], [0x89, ['NEWFALSE', { fixed: 0 }]],
]);

/** The most opcodes a state dict's pickle may have: torch.save writes about 30 a tensor, so this is tens of thousands of tensors. */
export const MAX_PICKLE_OPCODES = 1_000_000;
/** The widest integer a LONG1 may carry, in bytes (a 64-bit size or offset). */
const MAX_LONG_BYTES = 8;

/** Whether the little-endian two's-complement integer in `bytes` is within ±(2^53 − 1), as sizes and offsets are. */
function safeLong(bytes: Uint8Array): boolean {
  let value = 0n;
  bytes.forEach((b, i) => { value |= BigInt(b) << BigInt(8 * i); });
  if (bytes.length > 0 && bytes[bytes.length - 1] & 0x80) value -= 1n << BigInt(8 * bytes.length);
  return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= -BigInt(Number.MAX_SAFE_INTEGER);
}

/**
 * Walks the opcodes of `pickle` (the bytes of data.pkl) to its STOP. Every 64-bit value pickleparser
 * would read (BINUNICODE8's and FRAME's lengths, a LONG1) is then within 2^53, which it would warn
 * of on the user's console.
 * @throws ConvertError (field 'data.pkl') naming the opcode and its offset for an opcode a state dict
 *   does not use (INST, OBJ, NEWOBJ, EXT, LONG4, ...), an argument or frame that runs past the data,
 *   a LONG1 wider than 8 bytes or past 2^53, more than MAX_PICKLE_OPCODES opcodes, or no STOP.
 */
export function checkPickleOpcodes(pickle: Uint8Array, file: string): void {
  const view = new DataView(pickle.buffer, pickle.byteOffset, pickle.byteLength);
  const fail = (at: number, why: string): never => { throw new ConvertError(file, 'data.pkl', `${why} at byte ${at}: refused before anything was read`); };
  let at = 0;
  for (let count = 0; at < pickle.length; count++) {
    if (count >= MAX_PICKLE_OPCODES) fail(at, `more than ${MAX_PICKLE_OPCODES} opcodes, which no state dict has`);
    const code = pickle[at];
    const known = ALLOWED.get(code);
    if (known === undefined) fail(at, `opcode 0x${code.toString(16).padStart(2, '0')}, which a state dict of tensors does not use`);
    const [name, argument] = known!;
    at += 1;
    if (name === 'STOP') return;
    if (name === 'FRAME') {  // the size of the opcodes that follow, which must be there
      if (at + 8 > pickle.length || view.getBigUint64(at, true) > BigInt(pickle.length - at - 8)) fail(at - 1, 'a FRAME larger than the data after it');
      at += 8;
    } else if ('fixed' in argument) {
      at += argument.fixed;
    } else if ('lengthBytes' in argument) {
      if (at + argument.lengthBytes > pickle.length) fail(at, `${name}'s length runs past the data`);
      const length = argument.lengthBytes === 1 ? pickle[at] : argument.lengthBytes === 4 ? view.getUint32(at, true) : Number(view.getBigUint64(at, true));
      if (name === 'LONG1' && (length > MAX_LONG_BYTES || !safeLong(pickle.subarray(at + 1, at + 1 + length)))) {
        fail(at - 1, `a LONG1 of ${length} bytes past 2^53, which no size or offset is`);
      }
      at += argument.lengthBytes + length;
    } else {
      for (let line = 0; line < argument.lines; line++) {
        const end = pickle.indexOf(0x0a, at);
        if (end < 0) fail(at, `${name} without the end of its line`);
        at = end + 1;
      }
    }
    if (at > pickle.length) fail(at, `${name}'s argument runs past the data`);
  }
  fail(at, 'the pickle ends without its STOP opcode');
}
