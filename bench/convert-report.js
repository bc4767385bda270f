// The section of performance.md on converting a model in the page, from the `convert` section of
// performance.json that bench/page-convert.js writes (bench/run.js keeps it, bench/report.js prints it).

import { replaceSection } from './markdown-section.js';

export const CONVERT_HEADING = '## Converting a model in the page';

const mb = (bytes) => `${Math.round(bytes / 2 ** 20)} MiB`;

/** performance.md's section for `convert` (performance.json's convert section). */
export function convertMarkdown(convert) {
  const m = convert.model;
  return [
    CONVERT_HEADING, '',
    `Measured by \`${convert.command}\` (bench/page-convert.js) on ${convert.date.slice(0, 10)}: ${convert.machine}, ${convert.browser}, ` +
    `the page and a stand-in for the Hub served on the same machine (no network time). The model has ${m.id}'s shapes ` +
    `(d_model ${m.d_model}, ${m.layers} layers, ${m.vocab.toLocaleString('en')} pieces), as a ${(m.bytes / 1e6).toFixed(0)} MB float32 ${m.file}; ` +
    `typed in by its id, downloaded, converted to int8 in the page's worker and opened (medians of ${convert.runs} runs, each in a fresh browser context).`, '',
    '| step | ms |', '| --- | ---: |',
    `| download (the id submitted to the last file's last byte) | ${convert.download_ms} |`,
    `| conversion in the worker (read the archive, convert, quantize to int8, write) | ${convert.convert_ms} |`,
    `| opening: the file loaded into the page's translation workers and kept in Cache Storage | ${convert.open_ms} |`,
    `| the id submitted to the model in use | ${convert.total_ms} |`, '',
    `Peak memory of the browser's processes: ${mb(convert.peak_bytes)} in all, ${mb(convert.peak_bytes_above)} above their level before the download ` +
    "(the page with its default model loaded; proportional set sizes summed every 50 ms, a page shared by several processes counting once).", '',
  ].join('\n');
}

/** `markdown` (performance.md) with its convert section replaced by `section`, or added before "## Where the time goes". */
export const replaceConvertSection = (markdown, section) => replaceSection(markdown, CONVERT_HEADING, section);
