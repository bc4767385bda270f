// The section of performance.md on an OPUS-MT-size model in the browser, crossattn against
// transformers.js, from the `opus_mt` section of performance.json that bench/opus-mt-size.js writes
// (bench/run.js keeps it, bench/report.js prints it).

import { replaceSection } from './markdown-section.js';

export const OPUS_MT_HEADING = '## An OPUS-MT-size model in the browser, against transformers.js';

const mib = (bytes) => Math.round(bytes / 2 ** 20);

/** The ratio of crossattn's int8 default to transformers.js q8, and whether it meets issue bars: tokens/s at least 3x, at no more peak memory. */
export function opusMtBars(opusMt) {
  const ours = opusMt.engines['crossattn-int8-relaxed'], theirs = opusMt.engines['transformers.js-q8'];
  const speed = ours.tokens_per_s / theirs.tokens_per_s;
  return { tokens_vs_q8: Number(speed.toFixed(2)), memory_vs_q8: Number((ours.peak_bytes_above / theirs.peak_bytes_above).toFixed(2)),
           met: speed >= 3 && ours.peak_bytes_above <= theirs.peak_bytes_above };
}

/** performance.md's section for `opusMt` (performance.json's opus_mt section). */
export function opusMtMarkdown(opusMt) {
  const m = opusMt.model, q8 = opusMt.engines['transformers.js-q8'];
  const bars = opusMtBars(opusMt);
  const rows = Object.entries(opusMt.engines).map(([name, e]) => `| ${name} | ${e.build} | ${Math.round(e.load_ms)} | ${Math.round(e.first_ms)} | ` +
    `${e.tokens_per_s.toFixed(1)} | ${(e.tokens_per_s / q8.tokens_per_s).toFixed(2)}x | ${mib(e.peak_bytes_above)} |`);
  return [
    OPUS_MT_HEADING, '',
    `Measured by \`${opusMt.command}\` (bench/opus-mt-size.js) on ${opusMt.date.slice(0, 10)}: ${opusMt.machine}, ${opusMt.browser}, ` +
    `the files served on the same machine (no network time). The model has ${m.id}'s shapes (d_model ${m.d_model}, ${m.layers} layers, ` +
    `${m.vocab.toLocaleString('en')} pieces) with ${m.weights} weights, the same weights in each engine: crossattn's files converted from the ` +
    'Hugging Face folder (int8 as a model opened by its Hub id is), transformers.js\'s the Xenova layout (encoder, and a merged decoder that caches the cross-attention keys and values, in fp32 and q8).',
    `Each engine in a fresh browser, one thread (the page is not cross-origin isolated): load by URL, the engine's wasm compiled inside the clock; then ${opusMt.sentences} FLORES dev English sentences ` +
    `translated greedily one at a time, each to exactly ${opusMt.tokens} target tokens (the model never writes eos). Medians of ${opusMt.runs} runs, the engines in alternating order. ` +
    'Peak memory: the browser\'s processes (proportional set sizes summed every 100 ms) above their level before the load.', '',
    '| engine | build | load ms | first sentence ms | tokens/s | vs transformers.js q8 | peak MiB above |', '| --- | --- | ---: | ---: | ---: | ---: | ---: |',
    ...rows, '',
    `crossattn's default (int8, relaxed SIMD) is ${bars.tokens_vs_q8}x transformers.js q8 in tokens/s at ${bars.memory_vs_q8}x its peak memory. ` +
    `Same translations: ${Object.entries(opusMt.same_texts).map(([pair, n]) => `${pair} ${n} of ${opusMt.sentences}`).join('; ')}.`, '',
  ].join('\n');
}

/** `markdown` (performance.md) with its OPUS-MT section replaced by `section`, or added before "## Where the time goes". */
export const replaceOpusMtSection = (markdown, section) => replaceSection(markdown, OPUS_MT_HEADING, section);
