/**
 * The CLI's input as bytes, checked before it becomes text (well-formed.ts): Node would decode
 * invalid UTF-8 with U+FFFD replacements and the engine would never see the bad bytes. Each
 * input is an InputText whose `text()` throws InvalidInputError naming the line and where it came
 * from ("line 3 of stdin is not valid UTF-8 (byte 0xFF at byte 7)"); the CLI's per-line error
 * handling then prints that line on stderr, leaves the output line empty, goes on with the next
 * line and exits 1 at the end, as for any input the engine refuses.
 */
import { readFileSync } from 'node:fs';
import { decodeText } from './well-formed.js';

/** One input of the CLI: its bytes, decoded (and checked) when its turn comes. */
export interface InputText {
  /** The text. @throws InvalidInputError if the bytes are not valid UTF-8 or hold a NUL byte. */
  text(): string;
}

const input = (bytes: Uint8Array, where: string): InputText => ({ text: () => decodeText(bytes, where) });

/** A line without its end: "\n" or "\r\n". */
const chomp = (line: Uint8Array) => (line.at(-1) === 0x0d ? line.subarray(0, -1) : line);

/** The lines of `bytes` ("\n" or "\r\n" ends a line; a last line without an end counts), named "line N of NAME". */
export function linesOf(bytes: Uint8Array, name: string): InputText[] {
  const out: InputText[] = [];
  for (let start = 0; start < bytes.length;) {
    const end = bytes.indexOf(0x0a, start);
    const stop = end < 0 ? bytes.length : end;
    out.push(input(chomp(bytes.subarray(start, stop)), `line ${out.length + 1} of ${name}`));
    start = stop + 1;
  }
  return out;
}

/**
 * The lines of a stream as they arrive (a terminal gives one as it is typed), named "line N of NAME".
 * @param chunks e.g. process.stdin, read as Buffers.
 */
export async function* streamLines(chunks: AsyncIterable<Uint8Array>, name: string): AsyncGenerator<InputText> {
  let pending = new Uint8Array(0), n = 0;
  for await (const chunk of chunks) {
    let bytes = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    for (let end = bytes.indexOf(0x0a); end >= 0; end = bytes.indexOf(0x0a)) {
      yield input(chomp(bytes.subarray(0, end)), `line ${++n} of ${name}`);
      bytes = bytes.subarray(end + 1);
    }
    pending = Uint8Array.from(bytes);
  }
  if (pending.length) yield input(chomp(pending), `line ${++n} of ${name}`);
}

/** All of stdin as one input (the HTML fragment of `translate --html`), its last line end dropped. */
export function wholeStdin(): InputText {
  const bytes = readFileSync(0);
  const end = bytes.at(-1) === 0x0a ? (bytes.at(-2) === 0x0d ? 2 : 1) : 0;
  return input(bytes.subarray(0, bytes.length - end), 'stdin');
}

/**
 * The TEXT argument, checked. Node decodes the command line with U+FFFD replacements; where the
 * raw arguments can be read (/proc/self/cmdline, Linux), an argument that decodes to `text` and
 * is not valid UTF-8 makes `text()` throw. Elsewhere a replaced byte cannot be told from a U+FFFD
 * that was typed, and the text is taken as it is.
 */
export function argumentText(text: string): InputText {
  let raw: Buffer[] = [];
  if (text.includes('\uFFFD')) {
    try {
      const cmdline = readFileSync('/proc/self/cmdline');
      raw = linesOfNul(cmdline).filter((arg) => arg.toString('utf8') === text);
    } catch {
      raw = [];
    }
  }
  return { text: () => (raw.forEach((arg) => decodeText(arg, 'the TEXT argument')), text) };
}

/** The NUL-separated strings of /proc/self/cmdline. */
function linesOfNul(bytes: Buffer): Buffer[] {
  const out: Buffer[] = [];
  for (let start = 0; start < bytes.length;) {
    const end = bytes.indexOf(0, start);
    const stop = end < 0 ? bytes.length : end;
    out.push(bytes.subarray(start, stop));
    start = stop + 1;
  }
  return out;
}
