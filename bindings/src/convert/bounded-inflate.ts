/**
 * Decompression with a cap on what comes out: a .gz or a zip member that would inflate past it is a
 * ConvertError as soon as it is known, never a process that grows to gigabytes (a compression bomb:
 * a few MB that inflate to many GB). The cap is the smaller of a fixed maximum and a ratio to the
 * compressed size: real model files compress little (float weights: a ratio under 2; npz and
 * torch.save zips store their members uncompressed), a bomb by a thousand or more.
 *
 * Zip members are inflated by fflate into a buffer of the size their central directory declares,
 * so their sizes are checked before any inflating; a member that lies about its size is cut there.
 * Gzip is inflated as a stream (fflate's Gunzip), fed in slices, and stopped when it passes the cap.
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

const mib = (n: number) => `${(n / 2 ** 20).toFixed(1)} MiB`;

/**
 * The inflated bytes of a gzip file.
 * @param file, field name the file and what it is in errors.
 * @throws ConvertError past inflateCap(bytes.length), or for data that is not gzip or is truncated.
 */
export function gunzipBounded(bytes: Uint8Array, file: string, field = 'gzip'): Uint8Array {
  const cap = inflateCap(bytes.length);
  const chunks: Uint8Array[] = [];
  let total = 0;
  const stream = new Gunzip((chunk) => {
    total += chunk.length;
    if (total > cap) throw new ConvertError(file, field, `inflates past ${mib(cap)} (from ${mib(bytes.length)}): refused as a compression bomb`);
    chunks.push(chunk);
  });
  try {
    // In slices: fflate inflates all of a pushed slice before it calls back, at most 1,032 times its size.
    for (let at = 0; at < bytes.length; at += GZIP_SLICE) stream.push(bytes.subarray(at, at + GZIP_SLICE), at + GZIP_SLICE >= bytes.length);
    if (bytes.length === 0) stream.push(bytes, true);
    // A stream cut short ends quietly: its trailer's ISIZE (RFC 1952: the size mod 2^32) must agree.
    const isize = bytes.length >= 18 ? new DataView(bytes.buffer, bytes.byteOffset + bytes.length - 4, 4).getUint32(0, true) : -1;
    if (isize !== total % 2 ** 32) throw new Error(`${total} bytes inflated, the trailer says ${isize < 0 ? 'nothing' : isize}`);
  } catch (e) {
    if (e instanceof ConvertError) throw e;
    throw new ConvertError(file, field, `cannot be decompressed (${e instanceof Error ? e.message : String(e)}); is it truncated?`);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) out.set(c, at), at += c.length;
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
