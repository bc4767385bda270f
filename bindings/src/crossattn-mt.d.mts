// Types of the pthreads engine (dist/crossattn-mt.mjs): the same module as dist/crossattn.mjs,
// built with -pthread (bindings/wasm.cmake). Internal, as crossattn.d.mts.
export * from './crossattn.mjs';
export { default } from './crossattn.mjs';
