/**
 * Typed errors of crossattn. Every failure that input can cause is one of these; after any of them
 * the Translator stays usable (except DisposedError, which says it was disposed).
 */
export class CrossattnError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}
/** A model or wasm file could not be read or fetched: missing, unreachable, not a file, or too large. */
export class LoadError extends CrossattnError {}
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

const BY_NAME: Record<string, new (message: string) => CrossattnError> = {
  LoadError,
  ModelFormatError,
  InvalidInputError,
  InputTooLongError,
  TokenizerError,
  OutOfMemoryError,
  CancelledError,
};

/** The typed error for an {name, message} pair coming from the engine or a worker. */
export function errorFromEngine(error: { name: string; message: string }): CrossattnError {
  const Type = BY_NAME[error.name] ?? CrossattnError;
  return new Type(error.message);  // the engine names options as JavaScript does (with_js_names)
}
