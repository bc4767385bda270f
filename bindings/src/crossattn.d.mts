// Types of the Emscripten module (dist/crossattn.mjs) as bindings/embind.cc defines it. Internal:
// the public types live in translator.ts, so that dist/*.d.ts never import this file.
import type { ModelConfig, Translation } from './translator.js';

export interface EngineError {
  name: string;
  message: string;
}
/** What the engine returns: the public Translation with the attention flat, [layers * heads * T * S]. */
export type EngineTranslation = Omit<Translation, 'crossAttention' | 'ms'> & {
  layers: number;
  heads: number;
  crossAttention: Float32Array | null;
};
export interface WasmTranslator {
  translate(text: string, maxLength: number, attention: boolean): EngineTranslation | { error: EngineError };
  translateBatch(texts: string[], maxLength: number, attention: boolean):
    { results: EngineTranslation[] } | { error: EngineError };
  config(): ModelConfig;
  delete(): void;
}
export interface EngineModule {
  loadTranslator(bytes: Uint8Array): { translator: WasmTranslator } | { error: EngineError };
}
export default function createCrossattnModule(options: { wasmBinary: ArrayBuffer | Uint8Array }): Promise<EngineModule>;
