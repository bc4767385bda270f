// The page's way to a model by its Hugging Face Hub id (Helsinki-NLP/opus-mt-en-fr, Xenova/opus-mt-en-fr):
// a worker (dist/convert-worker.js) downloads the repository's files, converts them to int8 and hands
// back the .crossattn bytes, which the page then opens as it opens a file (`open(bytes, from)`: checked
// by loading it, listed, kept for offline use). The download's progress shows each file's name and bytes.
// The endpoint is the Hub's, or the page URL's `hub` parameter (a mirror, or a test's local hub).
import { convertInWorker } from '../dist/index.js';
import { megabytes } from './model-loading.js';

const $ = (id) => document.getElementById(id);
const WORKER_URL = new URL('../dist/convert-worker.js', import.meta.url);

/** The Hub the page downloads from: the page URL's `hub` parameter, else the Hugging Face Hub. */
export function hubEndpoint() {
  return new URLSearchParams(location.search).get('hub') ?? 'https://huggingface.co';
}

/** What the status line says of a download: the file, its bytes so far and its total. */
function progressText(id, file, loaded, total) {
  return `Downloading ${id}: ${file}, ${total ? `${megabytes(loaded)} of ${megabytes(total)}` : megabytes(loaded)}`;
}

/** Wires the id form: a submitted id is downloaded and converted in a worker, then `open(bytes, from)`. */
export function wireHubControls(open, showOpenError) {
  const form = $('hub-form');
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const id = $('hub-id').value.trim(), endpoint = hubEndpoint();
    $('hub-open').disabled = true;
    showOpenError(null);
    $('hub-progress').hidden = false;
    const worker = new Worker(WORKER_URL, { type: 'module' });
    try {
      const { bytes } = await convertInWorker(worker, id, {
        endpoint,
        onProgress(loaded, total, file) {
          $('hub-progress').value = total ? loaded / total : 0;
          $('open-status').textContent = progressText(id, file, loaded, total);
        },
        onConverting() {
          $('hub-progress').removeAttribute('value');  // indeterminate while it converts
          $('open-status').textContent = `Converting ${id} to int8, in a worker…`;
        },
      });
      $('open-status').textContent = '';
      await open(bytes, `${endpoint}/${id}`);
    } catch (e) {
      $('open-status').textContent = '';
      showOpenError(`Cannot download ${id}: ${e.message}. The model in use stays.`);
    } finally {
      worker.terminate();
      $('hub-progress').hidden = true;
      $('hub-progress').value = 0;
      $('hub-open').disabled = false;
    }
  });
}
