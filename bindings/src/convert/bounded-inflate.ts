/**
 * Decompression with a cap on what comes out: a .gz or a zip member that would inflate past it is a
 * ConvertError as soon as it is known, never a process that grows to gigabytes (a compression bomb:
 * a few MB that inflate to many GB). The cap is the smaller of a fixed maximum and a ratio to the
 * compressed size: real model files compress little (float weights: a ratio under 2; npz and
 * torch.save zips store their members uncompressed), a bomb by a thousand or more.
 *
 * Zip members are inflated by fflate into a buffer of the size their central directory declares,
 * so their sizes are checked before any inflating; a member that lies about its size is cut there.
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

/**
 * The members of a zip archive, by name.
 * @param describe says what a file that is not a readable zip is ("not a readable .npz archive").
 * @throws ConvertError when the members' declared sizes pass inflateCap(bytes.length), or the archive is unreadable.
 */
export function unzipBounded(bytes: Uint8Array, file: string, field: string, describe: string): Record<string, Uint8Array> {
  const cap = inflateCap(bytes.length);
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
