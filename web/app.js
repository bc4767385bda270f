// The demo page: loads the model of the chosen direction (models/catalog.json) into a small pool of
// Web Workers, translates as the user types (a paragraph is split into sentences, spread over the
// workers and decoded in batches), and shows the cross-attention of the chosen sentence: the heatmap,
// the word alignment, every layer and head, and the explain view. Latency first: the translation
// streams in token by token, and each keystroke cancels the translation in flight, so the workers
// only ever work on the latest text. The direction and the decoding choice are remembered.
import { joinParagraphs, modelFor, parseCatalog, splitParagraphs, threadsAvailable } from '../dist/index.js';
import { WorkerPool } from '../dist/worker.js';
import { drawAlignment } from './alignment-view.js';
import { renderTranslation } from './confidence-view.js';
import { renderExplain } from './explain.js';
import { drawHeadGrid } from './head-grid.js';
import { drawHeatmap, selectWeights } from './heatmap.js';

// The catalog names the int8 model of each direction: the same BLEU as fp32, half the download,
// 1.64-2.4x as fast by host and run (int8_tokens_vs_fp32 in docs/performance.md: 2.2-2.4 on an AMD
// EPYC, 1.64-1.95 on an Intel Xeon).
const CATALOG_URL = new URL('../models/catalog.json', import.meta.url);
// The text the page starts with, in each source language.
const EXAMPLES = {
  en: "I didn't sleep well last night, so I am very tired today.",
  de: 'Ich habe letzte Nacht schlecht geschlafen, deshalb bin ich heute sehr müde.',
};
// The measured deep-encoder / balanced comparison the explain view shows (tools/architecture-compare.js).
const ARCHITECTURE_URL = new URL('../models/architecture.json', import.meta.url);
// Where the page is cross-origin isolated (web/serve.js sends COOP/COEP), one worker whose engine
// runs its products on every core (the pthreads build); otherwise one single-thread worker per spare
// core, at most 4, each with its own copy of the model.
const THREADS = threadsAvailable();
const POOL_SIZE = THREADS > 1 ? 1 : Math.min(4, Math.max(1, (navigator.hardwareConcurrency ?? 2) - 1));
const LANGUAGES = { en: 'English', de: 'German', fr: 'French' };
const DIRECTION_KEY = 'crossattn.direction';
const $ = (id) => document.getElementById(id);
const languageName = (code) => LANGUAGES[code] ?? code;
const directionOf = (entry) => `${entry.sourceLang}-${entry.targetLang}`;

let catalog = [];     // the directions of models/catalog.json
let architecture = null;  // models/architecture.json, once loaded
const pools = new Map(); // direction -> Promise<WorkerPool>, loaded on first use and kept
let translator = null; // the pool of the current direction
let sentences = [];  // the latest translation: one result per source sentence, with its source text
let current = null;  // the sentence whose attention is shown
let inFlight = null; // AbortController of the translation in flight
const N_BEST = 3;    // hypotheses listed with beam search

function showError(message) {
  $('error').hidden = !message;
  $('error').textContent = message ?? '';
}

function fillSelect(select, options) {
  select.replaceChildren(...options.map(([value, label]) => new Option(label, value)));
}

const PANELS = ['attention', 'alignment-panel', 'heads-panel', 'explain-panel'];

function render() {
  const empty = !current?.crossAttention || current.targetTokens.length === 0;
  for (const id of PANELS) $(id).hidden = empty;
  if (empty) return;
  renderHeatmap();
  showAlignment();
  const { uniform, sharpest } = drawHeadGrid($('head-grid'), current.crossAttention, (layer, head) => {
    $('layer').value = String(layer);
    $('head').value = String(head);
    renderHeatmap();
    $('attention').scrollIntoView({ behavior: 'smooth' });
  });
  $('entropy-scale').textContent = `0 if a head attends to one source token, ${uniform.toFixed(2)} if it spreads evenly ` +
    `over all ${current.sourceTokens.length}; the sharpest here is ${sharpest.toFixed(2)} (bold)`;
  renderExplain($('explain'), current, current.config, architecture);
}

function showAlignment() {
  drawAlignment($('alignment'), current, $('tooltip'));
  const [from, to] = current.direction.split('-');
  $('alignment').dataset.directions = current.bothDirections ? '2' : '1';
  $('alignment-directions').textContent = current.bothDirections
    ? `, averaged with the ${languageName(to)}→${languageName(from)} model's alignment of the same pair (both ` +
      'directions symmetrized: 26.8% alignment error on the RWTH gold, against 32.9% for one)'
    : `; once the ${languageName(to)}→${languageName(from)} model is loaded too (the swap button), both models' ` +
      'alignments are averaged';
}

// With the model of the opposite direction loaded (after a swap), each sentence of `list` gets the
// symmetrized word alignment of both models (Translator.symmetrize; docs/alignment.md measures it
// against one direction). The other model is never loaded for this alone. A failure keeps the one
// direction's alignment, which the page already shows.
async function alignBothWays(list) {
  const [from, to] = list[0]?.direction.split('-') ?? [];
  const reverse = pools.get(`${to}-${from}`), pool = translator;
  if (!reverse || !pool) return;
  try {
    const back = await reverse;
    for (const r of list) {
      if (!r.alignment || r.targetTokens.length === 0) continue;
      const backward = await back.align(r.text, r.source, { attention: false, alignment: true });
      if (sentences !== list) return;  // a newer translation replaced these
      r.alignment = await pool.symmetrize(r.alignment, backward.alignment);
      r.bothDirections = true;
      if (r === current) showAlignment();
    }
  } catch {
    // the one direction's alignment stays
  }
}

function renderHeatmap() {
  const layer = Number($('layer').value);
  const head = $('head').value === 'avg' ? 'avg' : Number($('head').value);
  const weights = selectWeights(current.crossAttention, layer, head);
  drawHeatmap($('heatmap'), weights, current.sourceTokens, current.targetTokens, $('tooltip'));
  Object.assign($('heatmap').dataset, {
    source: current.source, direction: current.direction,
    sourceTokens: current.sourceTokens.length, targetTokens: current.targetTokens.length,
  });
}

function selectSentence() {
  current = sentences[Number($('sentence').value)] ?? null;
  showHypotheses();
  render();
}

function showHypotheses() {
  const list = $('hypotheses');
  const others = current?.hypotheses?.slice(1) ?? [];
  list.hidden = others.length === 0;
  list.replaceChildren(...others.map((h) => {
    const item = document.createElement('li');
    item.textContent = `${h.text} `;
    const score = document.createElement('span');
    score.className = 'score';
    score.textContent = `score ${h.score.toFixed(2)}`;
    item.append(score);
    return item;
  }));
}

async function translate() {
  inFlight?.abort();
  if (!translator) return;  // a model is loading; it translates the text once it is ready
  const { config } = translator, direction = document.body.dataset.direction;
  const controller = new AbortController();
  inFlight = controller;
  const paragraphs = splitParagraphs($('source').value, config.sourceLang);
  const parts = paragraphs.flat();
  const beamSize = Number($('beam-size').value);
  const partial = parts.map(() => '');  // settled text of each sentence while streaming
  $('target').classList.add('streaming');
  $('confidence-warning').hidden = true;  // it spoke of the previous text
  try {
    const start = performance.now();
    const results = await translator.translateBatch(parts, {
      attention: true, alignment: true, residual: true, beamSize, nBest: Math.min(N_BEST, beamSize),
      signal: controller.signal,
      onToken(event) {
        partial[event.index] = event.text;
        $('target').textContent = joinParagraphs(paragraphs, partial).trim();
      },
    });
    const ms = performance.now() - start;
    sentences = results.map((r, i) => ({ ...r, source: parts[i], direction, config }));
    showError(null);
    const doubtful = renderTranslation($('target'), paragraphs, results);
    const tokens = results.reduce((n, r) => n + r.targetTokens.length, 0);
    const workers = Math.min(parts.length, translator.size);
    $('meta').textContent = tokens
      ? `${parts.length} sentence${parts.length > 1 ? 's' : ''}, ${tokens} target tokens in ${ms.toFixed(0)} ms` +
        (workers > 1 ? ` on ${workers} workers` : '') + (translator.threads > 1 ? ` on ${translator.threads} threads` : '') +
        (beamSize > 1 ? `, beam ${beamSize}` : '')
      : '';
    $('confidence-warning').hidden = doubtful === 0;
    $('confidence-warning').textContent = doubtful === 0 ? '' : parts.length === 1
      ? 'The model is unsure of this translation: it may be wrong.'
      : `The model is unsure of ${doubtful} of ${parts.length} sentences (marked): they may be wrong.`;
    fillSelect($('sentence'), parts.map((p, i) => [i, `${i + 1}: ${p.length > 40 ? p.slice(0, 40) + '…' : p}`]));
    $('sentence-control').hidden = parts.length < 2;
    selectSentence();
    alignBothWays(sentences);
  } catch (e) {
    if (e.name === 'CancelledError') {
      document.body.dataset.cancelled = String(Number(document.body.dataset.cancelled ?? 0) + 1);
      return;  // a newer request took over
    }
    if (controller !== inFlight) return;
    // Say what went wrong, and show nothing of an earlier text's translation beside it.
    showError(errorMessage(e));
    sentences = [];
    current = null;
    $('target').textContent = '';
    $('meta').textContent = '';
    $('confidence-warning').hidden = true;
    $('sentence-control').hidden = true;
    showHypotheses();
    render();
  } finally {
    if (controller === inFlight) {
      inFlight = null;
      $('target').classList.remove('streaming');
    }
  }
}

// A sentence a person can act on, for each typed error the page can meet.
function errorMessage(e) {
  if (e.name === 'InputTooLongError') return `A sentence is too long for this model: ${e.message}`;
  if (e.name === 'WorkerError') return `The translation worker failed: ${e.message}. Reload the page to try again.`;
  return `${e.name}: ${e.message}`;
}

function loadPool(entry) {
  const direction = directionOf(entry);
  if (!pools.has(direction)) {
    const workers = Array.from({ length: POOL_SIZE }, () => new Worker(new URL('./worker.js', import.meta.url), { type: 'module' }));
    $('load').hidden = false;
    const pool = WorkerPool.load(workers, entry.model, {
      threads: THREADS,
      onProgress(loaded, total) {
        $('progress').value = total ? loaded / total : 0;
        $('progress-text').textContent = `${(loaded / 1e6).toFixed(1)} MB`;
      },
    });
    pool.catch(() => pools.delete(direction));  // a later choice of this direction tries again
    pools.set(direction, pool);
  }
  return pools.get(direction);
}

// Switches to a direction of the catalog: loads (or reuses) its worker pool, sets up the controls
// that depend on the model, and translates the current text.
async function useDirection(direction) {
  inFlight?.abort();
  translator = null;
  const entry = catalog.find((e) => directionOf(e) === direction) ?? catalog[0];
  $('direction').value = directionOf(entry);
  localStorage.setItem(DIRECTION_KEY, directionOf(entry));
  $('source-lang').textContent = languageName(entry.sourceLang);
  $('target-lang').textContent = languageName(entry.targetLang);
  $('swap').disabled = !catalog.some((e) => e.sourceLang === entry.targetLang && e.targetLang === entry.sourceLang);
  $('model-name').textContent = entry.model.split('/').pop();
  let pool;
  try {
    pool = await loadPool(entry);
  } catch (e) {
    showError(`Cannot load the model: ${e.message}`);
    return;
  } finally {
    if ($('direction').value === directionOf(entry)) $('load').hidden = true;
  }
  if ($('direction').value !== directionOf(entry)) return;  // the user chose another direction meanwhile
  translator = pool;
  const c = translator.config;
  $('model-card').textContent = c.name;
  $('model-card').href = entry.card ?? entry.model;
  fillSelect($('layer'), Array.from({ length: c.decoderLayers }, (_, l) => [l, `${l + 1} of ${c.decoderLayers}`]));
  $('layer').value = String(c.decoderLayers - 1);
  fillSelect($('head'), [['avg', 'average of heads'], ...Array.from({ length: c.nHeads }, (_, h) => [h, `${h + 1}`])]);
  $('alignment-method').textContent = c.alignmentHead
    ? `Lines join the words that translate each other, read from head ${c.alignmentHead.head + 1} of decoder layer ` +
      `${c.alignmentHead.layer + 1}, the head this model was trained to align with (guided alignment)`
    : 'Lines join the words that translate each other, read from the cross-attention of the last two decoder layers ' +
      '(averaged over heads)';
  document.body.dataset.direction = directionOf(entry);
  await translate();
}

// The text in the box must always be in the source language of the model that translates it.
// Turning the direction around moves the translation into the box (as common translators do);
// any other change puts an example sentence of the new source language there.
function changeDirection(next) {
  const [from, to] = (document.body.dataset.direction ?? next).split('-');
  const [nextFrom] = next.split('-');
  if (next === `${to}-${from}`) {
    const translation = $('target').textContent.trim();
    $('source').value = translation || EXAMPLES[nextFrom] || '';
  } else if (nextFrom !== from) {
    $('source').value = EXAMPLES[nextFrom] ?? '';
  }
  $('target').textContent = '';
  useDirection(next);
}

// The reverse direction, with the translation as the new text to translate.
function swap() {
  const [from, to] = $('direction').value.split('-');
  changeDirection(directionOf(modelFor(catalog, to, from)));
}

// Offline after the first visit (sw.js): once the service worker controls the page, every later
// request (catalog, model, wasm, worker scripts) passes through it and is cached; the ones made
// before are sent to it to cache. Without service workers (or when registration fails) the page
// works as before, online.
async function goOfflineCapable() {
  if (!('serviceWorker' in navigator)) return;
  try {
    await navigator.serviceWorker.register(new URL('./sw.js', import.meta.url));
    if (!navigator.serviceWorker.controller) {  // the first visit: wait (briefly) for it to take over
      await Promise.race([
        new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true })),
        new Promise((resolve) => setTimeout(resolve, 3000)),
      ]);
    }
    if (!navigator.serviceWorker.controller) return;
    const urls = [location.href, ...performance.getEntriesByType('resource').map((e) => e.name)];
    navigator.serviceWorker.controller.postMessage({ type: 'cache', urls });
  } catch (e) {
    console.warn(`no offline cache: ${e.message}`);
  }
}

async function main() {
  await goOfflineCapable();
  try {
    const response = await fetch(CATALOG_URL);
    if (!response.ok) throw new Error(`${CATALOG_URL.pathname}: HTTP ${response.status}`);
    catalog = parseCatalog(await response.text(), CATALOG_URL.href);
    if (catalog.length === 0) throw new Error('the catalog lists no model');
  } catch (e) {
    showError(`Cannot read the model catalog: ${e.message}`);
    return;
  }
  fillSelect($('direction'), catalog.map((e) => [directionOf(e), `${languageName(e.sourceLang)} → ${languageName(e.targetLang)}`]));
  $('direction').addEventListener('change', () => changeDirection($('direction').value));
  $('swap').addEventListener('click', swap);
  $('layer').addEventListener('change', renderHeatmap);
  $('head').addEventListener('change', renderHeatmap);
  $('sentence').addEventListener('change', selectSentence);
  let timer = 0;
  $('source').addEventListener('input', () => {
    inFlight?.abort();  // stop the workers at once; translate the new text once typing pauses
    clearTimeout(timer);
    timer = setTimeout(translate, 100);
  });
  const saved = localStorage.getItem('crossattn.beamSize');
  if (saved && [...$('beam-size').options].some((o) => o.value === saved)) $('beam-size').value = saved;
  $('beam-size').addEventListener('change', () => {
    localStorage.setItem('crossattn.beamSize', $('beam-size').value);
    translate();
  });
  // Optional: without it the explain view leaves out the measured comparison.
  architecture = await fetch(ARCHITECTURE_URL).then((r) => (r.ok ? r.json() : null)).catch(() => null);
  $('direction').disabled = false;
  $('source').disabled = false;
  const start = catalog.find((e) => directionOf(e) === localStorage.getItem(DIRECTION_KEY)) ?? catalog[0];
  $('source').value = EXAMPLES[start.sourceLang] ?? '';
  await useDirection(directionOf(start));
  document.body.dataset.ready = 'true';
}

main();
