// The page's own performance marks (User Timing, W3C): one per phase of the first translation after
// a navigation, named crossattn:NAME, each set once per page load, so that a later model or text adds
// nothing. bench/page-first-translation.js reads them (startTime: ms since the navigation started).
//   engine-compiled      the engine's wasm fetched, compiled (and warmed up: prepareEngine)
//   model-request        the default model's download asked for
//   model-downloaded     its last byte arrived
//   model-ready          its workers loaded it (engine instantiated, file parsed), or failed to
//   first-token          the first translated token shown
//   first-translation    the first text's translation shown (every sentence of it)

/** Sets the mark crossattn:`name` unless this page load has it already. */
export function markOnce(name) {
  const full = `crossattn:${name}`;
  if (performance.getEntriesByName(full, 'mark').length === 0) performance.mark(full);
}
