// The page's way to models it does not ship: a model on the Hugging Face Hub by its id
// (Helsinki-NLP/opus-mt-en-fr, Xenova/opus-mt-en-fr), typed in or chosen from models/pairs.json's
// OPUS-MT pairs, or a Firefox Translations model that list names by its files. A worker
// (dist/convert-worker.js) downloads the files, converts them (to int8 where they are float) and hands
// back the .crossattn bytes (int8 unless "keep float32" is ticked), which the page then opens as it opens a file (`open(bytes, from)`: checked
// by loading it, listed, kept for offline use). The status line shows each file's name and bytes.
// The Hub is huggingface.co, or the page URL's `hub` parameter (a mirror, or a test's local hub).
import { convertFileSetInWorker, convertInWorker } from '../dist/index.js';
import { megabytes } from './model-loading.js';

const $ = (id) => document.getElementById(id);
const WORKER_URL = new URL('../dist/convert-worker.js', import.meta.url);

/** The Hub the page downloads from: the page URL's `hub` parameter, else the Hugging Face Hub. */
export function hubEndpoint() {
  return new URLSearchParams(location.search).get('hub') ?? 'https://huggingface.co';
}

/** What the status line says of a download: the model, the file, its bytes so far and its total. */
function progressText(label, file, loaded, total) {
  return `Downloading ${label}: ${file}, ${total ? `${megabytes(loaded)} of ${megabytes(total)}` : megabytes(loaded)}`;
}

/**
 * The page's downloads: `fromHub(id)` and `fromFiles(pair)` (a Firefox record of models/pairs.json)
 * convert in a worker and call `open(bytes, from)`; a failure is said with `showOpenError`, and the
 * model in use stays. One download at a time, which Cancel stops (its worker ended); the id form is
 * wired here. A stalled download fails by itself after 30 s without data (fetch-file.ts).
 */
export function wireHubControls(open, showOpenError) {
  let busy = false;
  async function run(label, from, convert) {
    if (busy) return;
    busy = $('hub-open').disabled = true;
    showOpenError(null);
    $('hub-progress').hidden = false;
    const worker = new Worker(WORKER_URL, { type: 'module' });
    // Cancel ends the worker, its downloads with it; the pending conversion is left unanswered.
    const cancelled = new Promise((_, reject) => {
      $('hub-cancel').onclick = () => reject(new DOMException(`downloading ${label} was cancelled`, 'AbortError'));
    });
    $('hub-cancel').hidden = false;
    const progress = {
      onProgress(loaded, total, file) {
        $('hub-progress').value = total ? loaded / total : 0;
        $('open-status').textContent = progressText(label, file, loaded, total);
      },
      onConverting() {
        $('hub-progress').removeAttribute('value');  // indeterminate while it converts
        $('open-status').textContent = `Converting ${label}, in a worker…`;
      },
    };
    try {
      const bytes = await Promise.race([convert(worker, progress), cancelled]);
      $('hub-cancel').hidden = true;
      $('open-status').textContent = '';
      await open(bytes, from);
    } catch (e) {
      $('open-status').textContent = '';
      showOpenError(e.name === 'AbortError' ? `Downloading ${label} was cancelled; the model in use stays.`
        : `Cannot download ${label}: ${e.message}. The model in use stays.`);
    } finally {
      worker.terminate();
      $('hub-cancel').hidden = true;
      $('hub-progress').hidden = true;
      $('hub-progress').value = 0;
      busy = $('hub-open').disabled = false;
    }
  }
  const fromHub = (id) => {
    const endpoint = hubEndpoint();
    const float32 = $('hub-float32').checked;
    return run(id, `${endpoint}/${id}`, async (worker, progress) => (await convertInWorker(worker, id, { endpoint, float32, ...progress })).bytes);
  };
  const fromFiles = (pair) => run(`${pair.sourceLang}→${pair.targetLang} (Firefox Translations)`, pair.url,
    (worker, progress) => convertFileSetInWorker(worker, {
      name: `${pair.sourceLang}${pair.targetLang}`, source: pair.url, license: pair.license, attribution: pair.attribution, files: pair.files,
    }, progress));
  $('hub-form').addEventListener('submit', (event) => {
    event.preventDefault();
    fromHub($('hub-id').value.trim());
  });
  return { fromHub, fromFiles };
}
