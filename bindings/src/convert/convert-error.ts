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
    super(`${file}: ${field}: ${message}`);
    this.file = file;
    this.field = field;
  }
}
