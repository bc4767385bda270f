import { CrossattnError } from '../errors.js';

/**
 * A model could not be converted: a missing file, an architecture or option crossattn does not
 * compute, or sizes that disagree. The message is one line, `FILE: FIELD: what is wrong`, and no
 * output file has been written.
 */
export class ConvertError extends CrossattnError {
  /** The input file (or folder) at fault, as the user named it. */
  readonly file: string;
  /** The field, tensor or key within it. */
  readonly field: string;

  constructor(file: string, field: string, message: string) {
    super(oneLine(`${file}: ${shorten(field)}: ${message}`));
    this.file = file;
    this.field = field;
  }
}

/** A name read from a damaged file (a zip member, a tensor name) cut to 200 characters for the message. */
const shorten = (field: string) => (field.length > 200 ? `${field.slice(0, 200)}...` : field);

/** Control characters (a newline in a damaged file's tensor name) written as \xNN, so the message stays one line. */
const oneLine = (text: string) => text.replace(/[\x00-\x1f\x7f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);

/** A value read from an input file, for a message: its JSON (cut to 100 characters), whatever its type. */
export function shown(value: unknown): string {
  try {
    const json = JSON.stringify(value);
    return json === undefined ? typeof value : json.length > 100 ? `${json.slice(0, 100)}...` : json;
  } catch {
    return typeof value;
  }
}

/** Whether `value` is a JSON object (not null, not an array). */
export const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
