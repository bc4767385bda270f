// Types of the Emscripten module (dist/crossattn.mjs) as bindings/embind.cc defines it.
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
export interface EngineConfig {
  name: string;
  sourceLang: string;
  targetLang: string;
  encoderLayers: number;
  decoderLayers: number;
  dModel: number;
  nHeads: number;
  dFf: number;
  vocabSize: number;
  maxPositions: number;
}
export interface WasmTranslator {
  translate(text: string, maxLength: number, attention: boolean): EngineTranslation | { error: EngineError };
  config(): EngineConfig;
  delete(): void;
}
export interface EngineModule {
  loadTranslator(bytes: Uint8Array): { translator: WasmTranslator } | { error: EngineError };
}
export default function createCrossattnModule(options: { wasmBinary: ArrayBuffer | Uint8Array }): Promise<EngineModule>;
