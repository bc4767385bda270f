// Types of the Emscripten module (dist/crossattn.mjs) as bindings/embind.cc defines it. Internal:
// the public types live in translator.ts, so that dist/*.d.ts never import this file.
import type { ModelConfig } from './translator.js';

export interface EngineError {
  name: string;
  message: string;
}
export interface EngineTranslation {
  text: string;
  sourceTokens: string[];
  targetTokens: string[];
  sourceIds: number[];
  targetIds: number[];
  logProb: number;
  layers: number;
  heads: number;
  crossAttention: Float32Array | null;
}
export interface WasmTranslator {
  translate(text: string, maxLength: number, attention: boolean): EngineTranslation | { error: EngineError };
  config(): ModelConfig;
  delete(): void;
}
export interface EngineModule {
  loadTranslator(bytes: Uint8Array): { translator: WasmTranslator } | { error: EngineError };
}
export default function createCrossattnModule(options: { wasmBinary: ArrayBuffer | Uint8Array }): Promise<EngineModule>;
