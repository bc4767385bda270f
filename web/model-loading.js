// What the page says about the model it loads and the model it uses: the progress line (the
// model's name, the bytes so far and the total), which keeps its place when hidden so that nothing
// below it moves (style.css), and the footer, filled from the loaded model's file (Translator.info)
// and hidden while a model loads, so that it never shows a placeholder. The first model's request,
// last byte and readiness are marked (page-marks.js).
import { markOnce } from './page-marks.js';

const $ = (id) => document.getElementById(id);
/** `bytes` in megabytes for people, e.g. "15.1 MB" (a no-break space: the number and unit stay on one line). */
export const megabytes = (bytes) => `${(bytes / 1e6).toFixed(1)}\u00a0MB`;

let expectedBytes = 0;  // the total to show when the server gives none

/** Shows the progress line for the model `name` of `totalBytes` (0 when unknown: the download's own total is shown). */
export function showLoading(name, totalBytes = 0) {
  markOnce('model-request');
  expectedBytes = totalBytes;
  $('model-name').textContent = name;
  $('progress').value = 0;
  $('progress-text').textContent = totalBytes ? `0 of ${megabytes(totalBytes)}` : '';
  $('load').hidden = false;
}

/** A WorkerPool.load onProgress callback: `loaded` bytes of `total` (0 when the server gives none). */
export function showProgress(loaded, total) {
  const size = total || expectedBytes;
  if (size && loaded >= size) markOnce('model-downloaded');
  $('progress').value = size ? loaded / size : 0;
  $('progress-text').textContent = size ? `${megabytes(loaded)} of ${megabytes(size)}` : megabytes(loaded);
}

/** Hides the progress line: the model is loaded (or failed to). */
export function hideLoading() {
  markOnce('model-ready');
  $('load').hidden = true;
}

// What a file's converted_from says (bindings/src/convert/model-file.ts, Provenance), in words.
const CONVERTED_FROM = {
  'huggingface-marian': 'a Hugging Face MarianMT model', 'transformers.js': 'a transformers.js model', marian: 'a Marian model',
};

/**
 * The footer for the loaded model: its name (a link to `entry.card`, when it has one), where it
 * came from and its licence, read from the file's metadata (`info`, Translator.info), else from the
 * catalog's `entry` ("licence unknown" or "source unknown" where neither says), and how it was converted.
 */
export function showCredit(entry, info) {
  $('model-card').textContent = info.name;
  if (entry.card) $('model-card').href = entry.card;
  else $('model-card').removeAttribute('href');
  const source = info.source ?? entry.source, license = info.license || entry.license;
  const origin = source && source !== info.name ? source : null;  // a source that only repeats the name says nothing
  $('model-provenance').textContent = origin || license
    ? ` — ${origin ?? 'source unknown'}, ${license || 'licence unknown'}` : ' — its file does not say where it came from or under which licence';
  const from = CONVERTED_FROM[info.convertedFrom] ?? info.convertedFrom;
  const converted = info.convertedFrom ? `Converted from ${from}${info.converter ? ` by ${info.converter}` : ''}.` : '';
  $('model-attribution').textContent = [info.attribution, converted].filter(Boolean).join(' ');
  $('model-credit').hidden = false;
  $('model-attribution').hidden = !$('model-attribution').textContent;
}

/** Hides the footer's model lines while no model is in use (one is loading, or none loaded). */
export function hideCredit() {
  $('model-credit').hidden = true;
  $('model-attribution').hidden = true;
}
