/**
 * Decompression with a cap on what comes out: a .gz or a zip member that would inflate past it is a
 * ConvertError as soon as it is known, never a process that grows to gigabytes (a compression bomb:
 * a few MB that inflate to many GB). The cap is the smaller of a fixed maximum and a ratio to the
 * compressed size: real model files compress little (float weights: a ratio under 2; npz and
 * torch.save zips store their members uncompressed), a bomb by a thousand or more.
 *
 * Zip members are inflated by fflate into a buffer of the size their central directory declares,
 * so their sizes are checked before any inflating; a member that lies about its size is cut there.
 * The directory itself must fit in the file and hold the members it declares.
 * Gzip is inflated as a stream (fflate's Gunzip), fed in slices, into a buffer of the size its
 * trailer declares, and stopped when it passes it.
 */
import { Gunzip, unzipSync } from 'fflate';
import { ConvertError } from './convert-error.js';

/** The most bytes one file may inflate to, whatever its compressed size (docs/convert.md). */
export const MAX_INFLATED_BYTES = 768 * 2 ** 20;
/** The most inflated bytes per compressed byte (with 1 MiB allowed for small files). */
export const MAX_INFLATE_RATIO = 32;

/** The cap on what `compressed` bytes may inflate to. */
export function inflateCap(compressed: number): number {
  return Math.min(MAX_INFLATED_BYTES, MAX_INFLATE_RATIO * compressed + 2 ** 20);
}

// Compressed bytes fed to the gzip stream at a time (deflate's ratio is at most 1,032: 16 MiB out).
const GZIP_SLICE = 16 * 1024;

// A gzip member's header and trailer (RFC 1952): 10 bytes before the data, 8 after.
const GZIP_FRAME = 18;

const mib = (n: number) => `${(n / 2 ** 20).toFixed(1)} MiB`;

/**
 * The inflated bytes of a gzip file, inflated into a buffer of the size its trailer declares (ISIZE,
 * RFC 1952), so that memory never holds more than that and one slice's output.
 * @param file, field name the file and what it is in errors.
 * @throws ConvertError when the declared size passes inflateCap(bytes.length), when the data inflates
 *   to other than the declared size (past it: stopped there), or for data that is not gzip or is truncated.
 */
export function gunzipBounded(bytes: Uint8Array, file: string, field = 'gzip'): Uint8Array {
  const cap = inflateCap(bytes.length);
  if (bytes.length < GZIP_FRAME) throw new ConvertError(file, field, `cannot be decompressed (${bytes.length} bytes, shorter than a gzip header and trailer); is it truncated?`);
  const declared = new DataView(bytes.buffer, bytes.byteOffset + bytes.length - 4, 4).getUint32(0, true);
  if (declared > cap) throw new ConvertError(file, field, `says it inflates to ${mib(declared)} (from ${mib(bytes.length)}), past ${mib(cap)}: refused as a compression bomb`);
  const out = new Uint8Array(declared);
  let total = 0;
  const stream = new Gunzip((chunk) => {
    if (total + chunk.length > declared) {
      throw new ConvertError(file, field, `inflates past the ${declared} bytes its trailer declares: damaged, or a compression bomb`);
    }
    out.set(chunk, total);
    total += chunk.length;
  });
  try {
    // In slices: fflate inflates all of a pushed slice before it calls back, at most 1,032 times its size.
    for (let at = 0; at < bytes.length; at += GZIP_SLICE) stream.push(bytes.subarray(at, at + GZIP_SLICE), at + GZIP_SLICE >= bytes.length);
    // A stream cut short ends quietly: what it inflated must be what the trailer declares.
    if (total !== declared) throw new Error(`${total} bytes inflated, the trailer says ${declared}`);
  } catch (e) {
    if (e instanceof ConvertError) throw e;
    throw new ConvertError(file, field, `cannot be decompressed (${e instanceof Error ? e.message : String(e)}); is it truncated?`);
  }
  return out;
}

// Zip's end of central directory (APPNOTE.TXT 4.3.16): its signature, its smallest size, and where
// the zip64 locator and record (4.3.15, 4.3.14) say the directory is when its fields are full.
const EOCD = 0x06054b50, EOCD_BYTES = 22, ZIP64_LOCATOR = 0x07064b50, ZIP64_EOCD = 0x06064b50;
const CENTRAL_HEADER_BYTES = 46;

/**
 * The central directory a zip's end record declares: its member count, size and offset (from the
 * zip64 record where the end record's fields are full), or a reason it cannot be read.
 */
function zipDirectory(bytes: Uint8Array): { entries: number; size: number; offset: number } | string {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let eocd = -1;
  for (let at = bytes.length - EOCD_BYTES; at >= Math.max(0, bytes.length - EOCD_BYTES - 0xffff); at--) {
    if (view.getUint32(at, true) === EOCD) { eocd = at; break; }
  }
  if (eocd < 0) return 'no end of central directory';
  const entries = view.getUint16(eocd + 10, true), size = view.getUint32(eocd + 12, true), offset = view.getUint32(eocd + 16, true);
  if (entries !== 0xffff && size !== 0xffffffff && offset !== 0xffffffff) return { entries, size, offset };
  const locator = eocd - 20;
  if (locator < 0 || view.getUint32(locator, true) !== ZIP64_LOCATOR) return 'full end-of-directory fields without a zip64 locator';
  const record = Number(view.getBigUint64(locator + 8, true));
  if (record + 56 > bytes.length || view.getUint32(record, true) !== ZIP64_EOCD) return 'a zip64 locator that points at no zip64 record';
  return { entries: Number(view.getBigUint64(record + 32, true)), size: Number(view.getBigUint64(record + 40, true)), offset: Number(view.getBigUint64(record + 48, true)) };
}

/**
 * The members of a zip archive, by name.
 * @param describe says what a file that is not a readable zip is ("not a readable .npz archive").
 * @throws ConvertError when the members' declared sizes pass inflateCap(bytes.length), or the archive is unreadable.
 */
export function unzipBounded(bytes: Uint8Array, file: string, field: string, describe: string): Record<string, Uint8Array> {
  const cap = inflateCap(bytes.length);
  // A directory that lies about its members (2^40 of them) would have fflate read headers for ever.
  const directory = zipDirectory(bytes);
  if (typeof directory === 'string') throw new ConvertError(file, field, `${describe} (${directory})`);
  const { entries, size, offset } = directory;
  if (offset + size > bytes.length || entries * CENTRAL_HEADER_BYTES > size) {
    throw new ConvertError(file, field, `${describe} (its directory declares ${entries} members in ${size} bytes at byte ${offset}, which the file cannot hold)`);
  }
  let total = 0;
  try {
    return unzipSync(bytes, {
      filter(member) {
        total += member.originalSize;
        if (total > cap) throw new ConvertError(file, field, `its members inflate past ${mib(cap)} (from ${mib(bytes.length)}): refused as a compression bomb`);
        return true;
      },
    });
  } catch (e) {
    if (e instanceof ConvertError) throw e;
    throw new ConvertError(file, field, `${describe} (${e instanceof Error ? e.message : String(e)})`);
  }
}
