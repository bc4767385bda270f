/**
 * Which of the engine's three WebAssembly builds runs, and how to tell them apart:
 * - crossattn.wasm, SIMD128 on one thread: every engine with WebAssembly SIMD;
 * - crossattn-relaxed.wasm, relaxed SIMD on one thread: its int8 products on
 *   i32x4.relaxed_dot_i8x16_i7x16_add_s and its fp32 products on f32x4.relaxed_madd (WebAssembly
 *   relaxed SIMD proposal; Chrome 114+, Firefox 145+, Node 21+). Its int8 outputs equal
 *   crossattn.wasm's bit for bit; fp32 outputs differ by the rounding of fused multiply-adds;
 * - crossattn-mt.wasm, SIMD128 on several threads, in a cross-origin isolated page or worker.
 * 'auto' takes the relaxed build where this JavaScript engine validates a module that uses the
 * dot product, as onnxruntime-web chooses its builds (and wasm-feature-detect probes), else SIMD128.
 */
import { LoadError, InvalidInputError } from './errors.js';

/** The instruction set a translator's engine runs on (Translator.simd): relaxed SIMD or SIMD128. */
export type SimdBuild = 'relaxed' | 'simd128';

/** The instruction set to load a translator's engine with: 'auto' (default: relaxed where the JavaScript engine has it), or a SimdBuild. */
export type SimdOption = 'auto' | SimdBuild;

/** The build a compiled engine is. */
export type EngineBuild = 'simd128' | 'relaxed' | 'threads';

export const SIMD128_WASM = new URL('./crossattn.wasm', import.meta.url);
export const RELAXED_WASM = new URL('./crossattn-relaxed.wasm', import.meta.url);
export const THREADED_WASM = new URL('./crossattn-mt.wasm', import.meta.url);

/**
 * A module of one function, () -> v128, that computes i32x4.relaxed_dot_i8x16_i7x16_add_s
 * (opcode 0xfd 0x113) of three i8x16.splat values: valid only where relaxed SIMD is.
 */
const RELAXED_PROBE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,  // magic, version 1
  0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b,        // type section: () -> v128
  0x03, 0x02, 0x01, 0x00,                          // function section: one function of type 0
  0x0a, 0x13, 0x01, 0x11, 0x00,                    // code section: one body of 17 bytes, no locals
  0x41, 0x01, 0xfd, 0x0f, 0x41, 0x01, 0xfd, 0x0f, 0x41, 0x01, 0xfd, 0x0f,  // 3 x (i32.const 1, i8x16.splat)
  0xfd, 0x93, 0x02, 0x0b,                          // i32x4.relaxed_dot_i8x16_i7x16_add_s, end
]);

let relaxedSupported: boolean | undefined;

/** Whether this JavaScript engine runs WebAssembly relaxed SIMD (the probe validates; checked once). */
export function relaxedSimdSupported(): boolean {
  relaxedSupported ??= WebAssembly.validate(RELAXED_PROBE);
  return relaxedSupported;
}

/** `simd` checked. @throws InvalidInputError for another value than 'auto', 'relaxed' and 'simd128'. */
export function simdWanted(simd: SimdOption | undefined): SimdOption {
  if (simd === undefined || simd === 'auto' || simd === 'relaxed' || simd === 'simd128') return simd ?? 'auto';
  throw new InvalidInputError(`simd must be 'auto', 'relaxed' or 'simd128', not ${JSON.stringify(simd)}`);
}

/**
 * The single-thread build's .wasm for `simd`: the relaxed build for 'relaxed', and for 'auto' where
 * relaxedSimdSupported(); else the SIMD128 build.
 * @throws LoadError for 'relaxed' where this engine lacks relaxed SIMD.
 */
export function singleThreadWasm(simd: SimdOption): URL {
  if (simd === 'relaxed' && !relaxedSimdSupported()) {
    throw new LoadError('this JavaScript engine has no WebAssembly relaxed SIMD (Chrome 114+, Firefox 145+ and ' +
      "Node 21+ have it): load with simd: 'simd128' or 'auto'");
  }
  return simd === 'simd128' || !relaxedSimdSupported() ? SIMD128_WASM : RELAXED_WASM;
}

/**
 * Which build `module` is: the pthreads build imports its memory (shared) instead of making it; the
 * relaxed build names relaxed-simd in the target_features section LLVM writes (Binaryen, which
 * optimizes the other two, drops that section).
 */
export function engineBuild(module: WebAssembly.Module): EngineBuild {
  if (WebAssembly.Module.imports(module).some((i) => i.kind === 'memory')) return 'threads';
  const features = WebAssembly.Module.customSections(module, 'target_features');
  const relaxed = features.some((bytes) => new TextDecoder('latin1').decode(bytes).includes('relaxed-simd'));
  return relaxed ? 'relaxed' : 'simd128';
}
