// The footer's line on the chosen model's measured speed, read from dist/performance-summary.json:
// the build derives it from docs/performance.json, the file `npm run bench` writes
// (tools/performance-summary.js), so the page never quotes a figure by hand. The line quotes the
// engine build the page runs (relaxed SIMD where the browser has it, else SIMD128; the pthreads
// build where the page is cross-origin isolated, which the bench measures on one thread only). A
// model the bench did not measure (an opened one, say), or a page without the file, shows no line.
import { engineBuild } from '../dist/index.js';

const SUMMARY_URL = new URL('../dist/performance-summary.json', import.meta.url);
// Model paths in the summary are relative to the repository root, the folder above web/.
const ROOT_URL = new URL('../', import.meta.url);

let summary = null;  // dist/performance-summary.json, once loaded
let build = 'simd128';  // the page's engine build (engineBuild), once compiled
let shown = null;  // the entry whose line is shown

/**
 * Loads the summary; without it (not built, offline and never fetched) no speed line is shown. The
 * line names the build of `compiled` (startEngine's module) once it is known, without waiting for it.
 */
export async function loadSpeedFigures(compiled) {
  compiled.then((module) => {
    build = engineBuild(module);
    if (shown) showSpeed(shown);
  }, () => {});  // a failed compile is the model load's to report
  summary = await fetch(SUMMARY_URL).then((r) => (r.ok ? r.json() : null)).catch(() => null);
}

/**
 * The sentence on the speed of the model at `modelUrl` (a catalog entry's resolved model URL) in
 * `figures` (the summary: tools/performance-summary.js says its fields) on the engine build `build`
 * ('relaxed', 'simd128' or 'threads', as engineBuild), with the run's date; null when the run did not
 * measure that model. `rootUrl`: what the summary's model paths are relative to.
 */
export function speedText(figures, modelUrl, build, rootUrl = ROOT_URL) {
  const m = figures?.models.find((x) => new URL(x.model, rootUrl).href === modelUrl);
  if (!m) return null;
  const measured = `measured by ${figures.command} on ${figures.date} (${figures.host})`;
  if (build === 'relaxed' && m.relaxedTokensPerS !== undefined) {
    return `Speed of this model as the page runs it here (int8 weights with its shortlist, one thread, the relaxed SIMD ` +
      `build), ${measured}: ${Math.round(m.relaxedTokensPerS)} target tokens/s, ${m.relaxedVsOnnxruntimeWebQ8}x ` +
      `onnxruntime-web q8 on the same weights; in a browser without relaxed SIMD, ${Math.round(m.tokensPerS)} ` +
      `tokens/s. Every figure: docs/performance.md.`;
  }
  const how = build === 'threads'
    ? 'on one thread (int8 weights with its shortlist, the SIMD128 build; this page runs the pthreads build, which the figure leaves out)'
    : 'as the page runs it (int8 weights with its shortlist, one thread)';
  return `Speed of this model ${how}, ${measured}: ${Math.round(m.tokensPerS)} target tokens/s, ` +
    `${m.vsOnnxruntimeWeb}x onnxruntime-web fp32 and ${m.vsOnnxruntimeWebQ8}x onnxruntime-web q8 on the same ` +
    `weights; its int8 weights run ${m.int8VsFp32}x as fast as fp32. Every figure: docs/performance.md.`;
}

/** Shows the speed line for `entry` (an entry of the page's models) in #speed, or hides it. */
export function showSpeed(entry) {
  shown = entry;
  const line = document.getElementById('speed');
  const text = entry.opened ? null : speedText(summary, entry.model, build);
  line.textContent = text ?? '';
  line.hidden = text === null;
}
