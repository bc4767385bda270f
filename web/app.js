// The demo page: loads the shipped model into a Web Worker, translates as the user types, and shows
// the cross-attention of the current translation.
import { WorkerTranslator } from '../dist/worker.js';
import { drawHeatmap, selectWeights } from './heatmap.js';

const MODEL_URL = new URL('../models/multi30k-en-de.crossattn', import.meta.url);
const LANGUAGES = { en: 'English', de: 'German', fr: 'French' };
const $ = (id) => document.getElementById(id);

let translator = null;
let current = null;  // the latest translation
let requested = 0;   // number of the latest request, so that stale answers are dropped

function showError(message) {
  $('error').hidden = !message;
  $('error').textContent = message ?? '';
}

function fillSelect(select, options) {
  select.replaceChildren(...options.map(([value, label]) => new Option(label, value)));
}

function render() {
  if (!current?.crossAttention || current.targetTokens.length === 0) {
    $('attention').hidden = true;
    return;
  }
  $('attention').hidden = false;
  const layer = Number($('layer').value);
  const head = $('head').value === 'avg' ? 'avg' : Number($('head').value);
  const weights = selectWeights(current.crossAttention, layer, head);
  drawHeatmap($('heatmap'), weights, current.sourceTokens, current.targetTokens, $('tooltip'));
  Object.assign($('heatmap').dataset, {
    source: current.source, sourceTokens: current.sourceTokens.length, targetTokens: current.targetTokens.length,
  });
}

async function translate() {
  const text = $('source').value;
  const id = ++requested;
  try {
    const result = await translator.translate(text, { attention: true });
    if (id !== requested) return;  // a newer request superseded this one
    current = { ...result, source: text };
    showError(null);
    $('target').textContent = result.text;
    $('meta').textContent = result.targetTokens.length
      ? `${result.sourceTokens.length} source tokens → ${result.targetTokens.length} target tokens in ${result.ms.toFixed(0)} ms`
      : '';
    render();
  } catch (e) {
    if (id === requested) showError(`${e.name}: ${e.message}`);
  }
}

async function main() {
  const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
  try {
    translator = await WorkerTranslator.load(worker, MODEL_URL.href, {
      onProgress(loaded, total) {
        $('progress').value = total ? loaded / total : 0;
        $('progress-text').textContent = `${(loaded / 1e6).toFixed(1)} MB`;
      },
    });
  } catch (e) {
    showError(`Cannot load the model: ${e.message}`);
    return;
  }
  const c = translator.config;
  $('model-name').textContent = c.name;
  $('load').hidden = true;
  $('source-lang').textContent = LANGUAGES[c.sourceLang] ?? c.sourceLang;
  $('target-lang').textContent = LANGUAGES[c.targetLang] ?? c.targetLang;
  fillSelect($('layer'), Array.from({ length: c.decoderLayers }, (_, l) => [l, `${l + 1} of ${c.decoderLayers}`]));
  $('layer').value = String(c.decoderLayers - 1);
  fillSelect($('head'), [['avg', 'average of heads'], ...Array.from({ length: c.nHeads }, (_, h) => [h, `${h + 1}`])]);
  $('layer').addEventListener('change', render);
  $('head').addEventListener('change', render);
  let timer = 0;
  $('source').addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(translate, 150);
  });
  $('source').disabled = false;
  document.body.dataset.ready = 'true';
  await translate();
}

main();
