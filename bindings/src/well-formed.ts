/**
 * Text that is not text: the checks that turn ill-formed input into one clear InvalidInputError
 * naming where it is, before the engine sees it. The engine itself refuses bytes that are not
 * UTF-8 (cpp/tokenizer/tokenizer.cc, is_valid_utf8: "the text is not valid UTF-8"); these checks
 * say where, and give the JavaScript string its equivalent.
 *
 * - Bytes (the CLI's stdin, files, arguments): not valid UTF-8 by the WHATWG decoder in fatal
 *   mode (overlong forms, surrogates and values past U+10FFFF are refused, as is_valid_utf8
 *   does), or holding a NUL byte, which no text file holds (binary input; git and grep draw the
 *   line at NUL in the same way).
 * - Strings (the API): a lone UTF-16 surrogate, which has no UTF-8 form, so it is the string side
 *   of invalid UTF-8. NUL and the other control characters are well-formed text and stay so for
 *   the API: the engine reads them as spaces (docs/api.md, "Errors").
 *
 * Plain functions without Node or DOM imports: the Translator (browser and Node) and the CLI share them.
 */
import { InvalidInputError } from './errors.js';

const fatal = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The byte offset of the first byte of `bytes` that does not begin or continue a valid UTF-8 sequence. */
function firstInvalidByte(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length;) {
    const c = bytes[i];
    const len = c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
    if (len === 0 || i + len > bytes.length) return i;
    try {
      fatal.decode(bytes.subarray(i, i + len));
    } catch {
      return i;
    }
    i += len;
  }
  return -1;
}

/**
 * `bytes` as a string, if they are text: valid UTF-8 without a NUL byte.
 * @param where what the bytes are, for the message: "line 3 of stdin", "the TEXT argument".
 * @throws InvalidInputError "WHERE is not valid UTF-8 (byte 0xFF at byte 7)" or "WHERE holds a NUL
 *   byte (at byte 7): binary input, not text"; byte offsets count from 0 within `bytes`, or within
 *   the line ("on line 3, at byte 7 of it") when `bytes` hold several lines.
 */
export function decodeText(bytes: Uint8Array, where: string): string {
  const nul = bytes.indexOf(0);  // first: binary input says so, whatever else is wrong with it
  if (nul >= 0) throw new InvalidInputError(`${where} holds a NUL byte (${position(bytes, nul)}): binary input, not text`);
  try {
    return fatal.decode(bytes);
  } catch {
    const at = firstInvalidByte(bytes);
    const hex = bytes[at].toString(16).toUpperCase().padStart(2, '0');
    throw new InvalidInputError(`${where} is not valid UTF-8 (byte 0x${hex} ${position(bytes, at)})`);
  }
}

/** "at byte 7", or "on line 3, at byte 7 of it" when `bytes` hold several lines (bytes and lines count from 0 and 1). */
function position(bytes: Uint8Array, at: number): string {
  const lineStart = bytes.lastIndexOf(0x0a, at - 1) + 1;
  if (lineStart === 0 && bytes.indexOf(0x0a) < 0) return `at byte ${at}`;
  const line = bytes.subarray(0, lineStart).filter((b) => b === 0x0a).length + 1;
  return `on line ${line}, at byte ${at - lineStart} of it`;
}

/**
 * Throws unless `text` is well-formed UTF-16 (String.prototype.isWellFormed).
 * @param where what the text is, for the message: "the text", "text 3", "the source".
 * @throws InvalidInputError "WHERE has a lone UTF-16 surrogate (U+D800) at index 5, which has no
 *   UTF-8 form", the index counting UTF-16 code units.
 */
export function checkWellFormed(text: string, where: string): void {
  if (text.isWellFormed()) return;
  const at = /\p{Surrogate}/u.exec(text)!.index;
  const unit = text.charCodeAt(at).toString(16).toUpperCase();
  throw new InvalidInputError(`${where} has a lone UTF-16 surrogate (U+${unit}) at index ${at}, which has no UTF-8 form`);
}
