/**
 * The messages between WorkerTranslator (worker-client.ts) and serveTranslator (worker-server.ts),
 * and the checks and conversions both ends share: options as they cross, errors as they come back.
 * The protocol itself is described in worker.ts.
 */
import type { AlignmentOptions, WordAlignment } from './alignment.js';
import { CrossattnError, DisposedError, InvalidInputError, WorkerError, errorFromEngine, type OptionFault } from './errors.js';
import { checkStreamOptions, engineOptionsJson, type StreamOptions, type TokenEvent } from './search.js';
import type { ThreadsOption, WasmSource } from './engine.js';
import type { SimdOption } from './engine-build.js';
import type { ByteSource } from './sources.js';
import type { TranslateOptions } from './translator.js';

/** TranslateOptions as they cross to the worker: no functions or signals, flags for them instead. */
export type WireOptions = Omit<TranslateOptions, keyof StreamOptions> & { stream?: boolean; cancellable?: boolean };

/** A request the page posts to the worker; `id` pairs it with its replies (and names it in a cancel). */
export type Request =
  | { id: number; type: 'load'; model: ByteSource; wasm?: WasmSource; threads?: ThreadsOption; simd?: SimdOption }
  | { id: number; type: 'translate'; text: string; options?: WireOptions }
  | { id: number; type: 'translateBatch'; texts: string[]; options?: WireOptions }
  | { id: number; type: 'align'; source: string; target: string; options?: WireOptions }
  | { id: number; type: 'symmetrize'; forward: WordAlignment; backward: WordAlignment; alignment?: AlignmentOptions }
  | { id: number; type: 'cancel' };

/** A request before the client numbers it (Omit distributed over the union). */
export type Unnumbered<T> = T extends unknown ? Omit<T, 'id'> : never;

/** A reply the worker posts for the request `id`: progress and token events, then one result or error. */
export type Reply =
  | { id: number; type: 'progress'; loaded: number; total: number }
  | { id: number; type: 'token'; event: TokenEvent }
  | { id: number; type: 'result'; value: unknown }
  | { id: number; type: 'error'; error: { name: string; message: string; fault?: OptionFault } };

/**
 * Checks `options` as Translator does before it runs anything (search.ts: engineOptionsJson, then
 * checkStreamOptions), so that nothing reaches the worker, or comes back to a callback, unchecked.
 * The engine's ranges are checked in the worker, whose typed error comes back as it was raised.
 * @throws InvalidInputError for options that are not an object, hold what JSON cannot write, or
 *   an onToken that is not a function or a signal that is not an AbortSignal.
 */
export function checkOptions(options: TranslateOptions): void {
  engineOptionsJson(options);
  checkStreamOptions(options);
}

/** @throws InvalidInputError for an onProgress (of WorkerLoadOptions) that is not a function. */
export function checkProgress(onProgress: unknown): void {
  if (onProgress !== undefined && typeof onProgress !== 'function') throw new InvalidInputError('onProgress must be a function');
}

/** `options` as they cross to the worker, checked first (checkOptions). */
export function toWire(options: TranslateOptions): WireOptions {
  checkOptions(options);
  const { onToken, signal, ...rest } = options;
  return { ...rest, stream: onToken !== undefined, cancellable: signal !== undefined };
}

/** The typed error a worker reported as {name, message, fault}: the same class (and fault) as it raised there. */
export function errorFromWorker(error: { name: string; message: string; fault?: OptionFault }): CrossattnError {
  if (error.name === 'DisposedError') return new DisposedError(error.message);
  if (error.name === 'WorkerError') return new WorkerError(error.message);
  return errorFromEngine(error);
}
