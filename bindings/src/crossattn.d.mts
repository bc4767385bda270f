// Types of the Emscripten module (dist/crossattn.mjs) as bindings/embind.cc defines it. Internal:
// the public types live in translator-types.ts, so that dist/*.d.ts never import this file.
import type { EngineAlignment } from './alignment.js';
import type { OptionFault } from './errors.js';
import type { EngineTranslation } from './result.generated.js';
import type { TokenEvent } from './search.js';
import type { ModelConfig } from './model-info.js';

export type { EngineTranslation };

/** One field of a result table of cpp/translation.h (bindings/result_value.h, result_fields). */
export interface ResultField {
  name: string;
  jsName: string;
  type: 'string' | 'string[]' | 'int[]' | 'float[]' | 'float' | 'int' | 'hypotheses' | 'alignment';
  shape: string;
  presence: 'always' | 'on request' | 'shape';
  /** In C++ names (tools/internals/result-types.js words it in JavaScript's). */
  doc: string;
  fromHypothesis: boolean;
}
export interface ResultFields {
  hypothesis: ResultField[];
  translation: ResultField[];
}

export interface EngineError {
  name: string;
  message: string;
  /** An error about an option: its fields, options by JavaScript name (bindings/options_json.h, fault_json). */
  fault?: OptionFault;
}
/** The engine's options as JSON text (search.ts, engineOptionsJson; cpp/options.h). */
export type EngineOptions = string;
type Result<T> = T | { error: EngineError };
export interface WasmJob {
  step(): Result<{ events: TokenEvent[]; done: boolean }>;
  finish(): Result<{ results: EngineTranslation[] }>;
  delete(): void;
}
export interface WasmTranslator {
  translateBatch(texts: string[], options: EngineOptions): Result<{ results: EngineTranslation[] }>;
  align(source: string, target: string, options: EngineOptions): Result<EngineTranslation>;
  start(texts: string[], options: EngineOptions): Result<{ job: WasmJob }>;
  /** `alignment`: the JSON text of {method?, threshold?}. */
  symmetrize(forward: EngineAlignment, backward: EngineAlignment, alignment: string): Result<EngineAlignment>;
  config(): ModelConfig;
  /** Source tokens the encoder would take for `text`: its pieces plus eos (0 for blank text). */
  sourceLength(text: string): Result<{ length: number }>;
  delete(): void;
}
/** Room in the wasm heap for a model file, written through view() (a new view after any heap growth). */
export interface WasmFileBuffer {
  view(): Uint8Array;
  delete(): void;
}
export interface EngineModule {
  /** The whole WebAssembly memory as bytes (a new view after each growth). */
  HEAPU8: Uint8Array;
  allocateFileBuffer(size: number): Result<{ buffer: WasmFileBuffer }>;
  /** A translator from the first `size` bytes of `buffer` (which it keeps; the handle may be deleted). */
  loadTranslator(buffer: WasmFileBuffer, size: number): Result<{ translator: WasmTranslator }>;
  /** The option table (cpp/options.h) as JSON text: OptionSpec[]. */
  optionSpecs(): string;
  /** check_options (cpp/options.h) of the options' JSON text: without a model, or against maxPositions > 0. */
  checkOptions(options: EngineOptions, maxPositions: number): Result<object>;
  /** The field tables of cpp/translation.h (bindings/result_value.h, result_fields), for tools/internals/result-types.js. */
  resultFields(): ResultFields;
  /** Asks for `n` threads for the products (1 in crossattn.wasm); returns the count in use. */
  setThreadCount(n: number): number;
  /** Runs the model-load path on a synthetic tokenizer (bindings/warm_up.h): how many pieces it loaded. */
  warmUp(pieces: number): Result<{ pieces: number }>;
}
/** Emscripten's hook: instantiate the module with `imports`, then call done(instance, module). */
export default function createCrossattnModule(options: {
  instantiateWasm(imports: WebAssembly.Imports, done: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void): object;
}): Promise<EngineModule>;
