// Types of the relaxed SIMD engine (dist/crossattn-relaxed.mjs): the same module as dist/crossattn.mjs,
// built with -mrelaxed-simd (bindings/wasm.cmake). Internal, as crossattn.d.mts.
export * from './crossattn.mjs';
export { default } from './crossattn.mjs';
