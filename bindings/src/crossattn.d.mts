// Types of the Emscripten module (dist/crossattn.mjs) as bindings/embind.cc defines it. Internal:
// the public types live in translator-types.ts, so that dist/*.d.ts never import this file.
import type { EngineAlignment } from './alignment.js';
import type { OptionFault } from './errors.js';
import type { TokenEvent } from './search.js';
import type { Hypothesis, ModelConfig, Translation } from './translator-types.js';

export interface EngineError {
  name: string;
  message: string;
  /** An error about an option: its fields, options by JavaScript name (bindings/options_json.h, fault_json). */
  fault?: OptionFault;
}
/** What the engine returns: the public Translation with the attention flat, [layers * heads * T * S]. */
export type EngineTranslation = Omit<Translation, 'crossAttention' | 'alignment' | 'residual' | 'ms' | 'hypotheses' |
  'tokenLogProbs' | 'wordConfidence'> & {
  tokenLogProbs: Float32Array | null;   // [T], null when T = 0
  wordConfidence: Float32Array | null;  // [W], null when W = 0
  hypotheses: (Omit<Hypothesis, 'tokenLogProbs'> & { tokenLogProbs: Float32Array | null })[];
  layers: number;
  heads: number;
  crossAttention: Float32Array | null;
  residual: Float32Array | null;  // [layers * T * 3]
  alignment: EngineAlignment | null;
};
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
  /** Asks for `n` threads for the products (1 in crossattn.wasm); returns the count in use. */
  setThreadCount(n: number): number;
  /** Runs the model-load path on a synthetic tokenizer (bindings/warm_up.h): how many pieces it loaded. */
  warmUp(pieces: number): Result<{ pieces: number }>;
}
/** Emscripten's hook: instantiate the module with `imports`, then call done(instance, module). */
export default function createCrossattnModule(options: {
  instantiateWasm(imports: WebAssembly.Imports, done: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void): object;
}): Promise<EngineModule>;
