// The footer's line on the chosen model's measured speed, read from dist/performance-summary.json:
// the build derives it from docs/performance.json, the file `npm run bench` writes
// (tools/performance-summary.js), so the page never quotes a figure by hand. A model the bench did
// not measure (an opened one, say), or a page without the file, shows no line.
const SUMMARY_URL = new URL('../dist/performance-summary.json', import.meta.url);
// Model paths in the summary are relative to the repository root, the folder above web/.
const ROOT_URL = new URL('../', import.meta.url);

let summary = null;  // dist/performance-summary.json, once loaded

/** Loads the summary; without it (not built, offline and never fetched) no speed line is shown. */
export async function loadSpeedFigures() {
  summary = await fetch(SUMMARY_URL).then((r) => (r.ok ? r.json() : null)).catch(() => null);
}

/**
 * The sentence on the speed of the model at `modelUrl` (a catalog entry's resolved model URL) in
 * `figures` (the summary: tools/performance-summary.js says its fields), with the run's date; null
 * when the run did not measure that model. `rootUrl`: what the summary's model paths are relative to.
 */
export function speedText(figures, modelUrl, rootUrl = ROOT_URL) {
  const m = figures?.models.find((x) => new URL(x.model, rootUrl).href === modelUrl);
  if (!m) return null;
  return `Speed of this model as the page runs it (int8 weights with its shortlist, one thread), measured by ` +
    `${figures.command} on ${figures.date} (${figures.host}): ${Math.round(m.tokensPerS)} target tokens/s, ` +
    `${m.vsOnnxruntimeWeb}x onnxruntime-web fp32 and ${m.vsOnnxruntimeWebQ8}x onnxruntime-web q8 on the same ` +
    `weights; its int8 weights run ${m.int8VsFp32}x as fast as fp32. Every figure: docs/performance.md.`;
}

/** Shows the speed line for `entry` (an entry of the page's models) in #speed, or hides it. */
export function showSpeed(entry) {
  const line = document.getElementById('speed');
  const text = entry.opened ? null : speedText(summary, entry.model);
  line.textContent = text ?? '';
  line.hidden = text === null;
}
