// The section of performance.md on the demo page's first translation, from the `page` section of
// performance.json that bench/page-first-translation.js writes (bench/run.js keeps it and
// bench/report.js prints it), beside the load times the model sections measure for every engine.

export const PAGE_HEADING = "## The page's first translation";

const ROWS = [
  ['first_translation_ms', 'navigation to the first translated sentence'],
  ['first_token_ms', 'navigation to the first translated token'],
  ['scripts_ms', 'the page and its module scripts run (DOMContentLoaded)'],
  ['service_worker_ms', 'the service worker in control'],
  ['catalog_end_ms', 'the catalog read'],
  ['wasm_fetch_ms', "the engine's wasm fetched"],
  ['wasm_ready_ms', 'the engine compiled and warmed up (since the navigation)'],
  ['model_request_ms', 'the model asked for (since the navigation)'],
  ['model_download_ms', 'the model downloaded (request to last byte)'],
  ['model_prepare_ms', 'after the last byte: the engine instantiated and the file parsed in the worker'],
  ['translate_ms', 'the model ready to the first translation shown'],
];

const cell = (v) => (v === null || v === undefined ? '' : String(v));

// The engines whose load times the page section repeats: the shipped default and its peers.
const PEERS = ['crossattn-wasm-int8-shortlist', 'onnxruntime-web', 'onnxruntime-web-q8', 'bergamot-wasm-int8'];

/** Load ms of the PEERS in `section` (a model section of performance.json), as "name N ms". */
function peerLoads(section) {
  const engines = section?.engines ?? {};
  return PEERS.filter((name) => engines[name]?.load_ms !== undefined).map((name) => `${name} ${Math.round(engines[name].load_ms)} ms`);
}

/** performance.md's section for `page` (performance.json's page section); `report` gives the peers' load times. */
export function pageMarkdown(page, report = {}) {
  const before = page.baseline;
  const variants = page.builds
    ? page.builds.map((b) => [`${b.wasm ?? b.label}${b.isolated ? ' (isolated)' : ''}`, page[b.label]])
    : [...(before ? [['before', before]] : []), [before ? 'now' : '', page.page]];
  const head = variants.flatMap(([name]) => [`${name} cold ms`.trim(), `${name} warm ms`.trim()]);
  const loads = peerLoads(report.models?.find((m) => page.model?.includes(m.name)) ?? report.models?.[0]);
  return [
    PAGE_HEADING, '',
    `Measured by \`${page.command}\` (bench/page-first-translation.js) on ${page.date.slice(0, 10)}: ${page.machine}, ${page.browser}, the page served by web/serve.js on the same machine (no network time).`,
    `The page's example sentence translated by the catalog's default model, models/${page.model}, with ${page.builds ? "each engine build" : page.engine}` +
      `${page.beam_size ? `, decoded as the page decodes by default (${page.beam_size > 1 ? `beam search, ${page.beam_size} hypotheses` : 'greedy'})` : ''}; medians of ${page.runs} runs` +
      `${page.load_average ? ` on a machine shared with other work (load average ${page.load_average.join(' and ')} at the start and the end: a phase varies by a third from run to run, so compare within this table)` : ''}.`,
    'Cold: a fresh browser profile (no HTTP cache, no service worker). Warm: the reload once the service worker keeps the model (the page, scripts and wasm revalidated with the server, the model from Cache Storage).',
    'Phases from the page\'s own marks (web/page-marks.js) and Resource Timing, each in ms since the navigation started unless it says otherwise.',
    ...(page.builds ? ['Each engine build, in the same runs, alternating: the page cross-origin isolated as web/serve.js serves it (the pthreads build), and ' +
      'not isolated, as a static host without COOP and COEP serves it (one thread), with its `simd` parameter at `relaxed` and at `simd128` (web/page-start.js).'] : []),
    ...(before ? [`Before: ${page.baseline_note ?? 'the page before this change'}, in the same runs, alternating` +
      (page.faster_than_baseline ? `; the page was first in ${page.faster_than_baseline.cold} of ${page.runs} cold and ${page.faster_than_baseline.warm} of ${page.runs} warm runs.` : '.')] : []),
    'What the page does to get there (web/page-start.js): it starts compiling the engine when its script starts, streamed as the wasm arrives (WebAssembly.compileStreaming; web/serve.js sends application/wasm, and the service worker passes answers on as they arrive while it stores them); its workers start once the service worker controls the page; the optional files (the explain view\'s comparison, the speed line) are fetched beside the catalog, not before the model; one worker downloads the model itself, straight into the engine\'s memory, while its engine starts; and web/serve.js revalidates unchanged files by ETag, so a warm load\'s wasm and scripts are 304s.', '',
    `| phase | ${head.join(' | ')} |`, `| --- | ${head.map(() => '---:').join(' | ')} |`,
    ...ROWS.map(([key, label]) => `| ${label} | ${variants.flatMap(([, v]) => [cell(v.cold[key]), cell(v.warm[key])]).join(' | ')} |`), '',
    ...(loads.length ? [`The peers' load times in the tables below (Node, the model file on disk, wasm compiled before the clock) are not the same measurement: ${loads.join(', ')}. Their first translation in a page would add the page, the wasm fetch and compile, the download and the first translation, as above.`, ''] : []),
  ].join('\n');
}

/** `markdown` (performance.md) with its page section replaced by `section`, or put before the first model's section. */
export function replacePageSection(markdown, section) {
  const start = markdown.indexOf(PAGE_HEADING);
  if (start >= 0) {
    const next = markdown.indexOf('\n## ', start + PAGE_HEADING.length);
    return markdown.slice(0, start) + section + (next >= 0 ? `\n${markdown.slice(next + 1)}` : '');
  }
  const first = markdown.indexOf('\n## ');
  return first >= 0 ? `${markdown.slice(0, first + 1)}${section}\n${markdown.slice(first + 1)}` : `${markdown}\n${section}`;
}
