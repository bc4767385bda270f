/**
 * Typed errors of crossattn. Every failure that input can cause is one of these; after any of them
 * the Translator stays usable (except DisposedError, which says it was disposed).
 */
export class CrossattnError extends Error {
  /** For an error about an option (an InvalidInputError the engine raised): the option, its value and the limit it broke. */
  readonly fault?: OptionFault;

  constructor(message: string, fault?: OptionFault) {
    super(message);
    this.name = new.target.name;
    if (fault !== undefined) this.fault = fault;
  }
}

/**
 * An option value the engine refused, in parts, so that each front end can word it with its own
 * names (the message says "<option> must be <limit>[ <other>], not <value>[ (<note>)]" with
 * JavaScript's; the CLI says it with its flags).
 */
export interface OptionFault {
  /** The option, by its JavaScript name (optionSpecs()' jsName): 'beamSize', 'threshold'. */
  option: string;
  /** The value refused, as text ('65'; JSON text for a value of the wrong type: '"4"'). */
  value: string;
  /** What the value must be: 'an integer from 1 to 64', 'at most' (then `other`). */
  limit: string;
  /** The option `limit` is relative to: 'beamSize' in "nBest must be at most beamSize". */
  other?: string;
  /** Why, or what else can be changed. */
  note?: string;
}
/** A model or wasm file could not be read or fetched: missing, unreachable, not a file, or too large. */
export class LoadError extends CrossattnError {}
/** Why a download failed (DownloadError.reason). */
export type DownloadFailure = 'not-found' | 'no-model' | 'connection' | 'integrity' | 'http';

/**
 * A model could not be downloaded by name: 'not-found' (the repository, revision or file does not
 * exist), 'no-model' (the repository holds no model crossattn converts), 'connection' (the server
 * could not be reached, or the connection dropped, after retries; offline with nothing kept),
 * 'integrity' (the bytes differ from the size or hash the server announced), 'http' (another
 * status, or a file too large). Nothing is kept in the cache after it.
 */
export class DownloadError extends LoadError {
  constructor(message: string, readonly reason: DownloadFailure, readonly url?: string, readonly file?: string, readonly status?: number) {
    super(message);
  }
}
/** The model file is truncated, corrupt or inconsistent with its config. */
export class ModelFormatError extends CrossattnError {}
/** Text or an option the engine cannot take (not UTF-8, max length out of range, ...). */
export class InvalidInputError extends CrossattnError {}
/** More source tokens than the model's max_positions: split the text into sentences. */
export class InputTooLongError extends CrossattnError {}
/** SentencePiece rejected its model or the text. */
export class TokenizerError extends CrossattnError {}
/** The WebAssembly heap could not grow. */
export class OutOfMemoryError extends CrossattnError {}
/** The translation was cancelled (its AbortSignal was aborted, or a TokenCallback said stop). */
export class CancelledError extends CrossattnError {}
/** The Translator was disposed. */
export class DisposedError extends CrossattnError {}
/** A Web Worker could not start (its script failed to load) or died; its pending requests fail with it. */
export class WorkerError extends CrossattnError {}

const BY_NAME: Record<string, new (message: string, fault?: OptionFault) => CrossattnError> = {
  LoadError,
  ModelFormatError,
  InvalidInputError,
  InputTooLongError,
  TokenizerError,
  OutOfMemoryError,
  CancelledError,
};

/** The typed error for an {name, message} pair coming from the engine or a worker. */
export function errorFromEngine(error: { name: string; message: string; fault?: OptionFault }): CrossattnError {
  const Type = BY_NAME[error.name] ?? CrossattnError;
  return new Type(error.message, error.fault);  // the engine words a fault with JavaScript's names (bindings/embind.cc)
}
