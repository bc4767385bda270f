// The demo page: loads the model of the chosen direction (models/catalog.json, or a model file the
// user opened: any .crossattn, e.g. one `crossattn convert` made) into a small pool of Web Workers,
// translates as the user types (a paragraph is split into sentences, spread over the workers and
// decoded in batches), and shows the cross-attention of the chosen sentence: the heatmap, the word
// alignment, every layer and head, and the explain view. Latency first: the translation streams in
// token by token, and each keystroke cancels the translation in flight, so the workers only ever
// work on the latest text. The model, the decoding choice and the opened models are remembered.
// A model that does not load (offline and never downloaded, say: offline.js) puts the page back to
// the model and text of before the choice, says why, and offers Retry.
import { SENTENCE_BEAM_SIZE, joinParagraphs, parseCatalog, splitParagraphs, threadsAvailable } from '../dist/index.js';
import { WorkerPool } from '../dist/worker.js';
import { drawAlignment } from './alignment-view.js';
import { warmDetection, wireDetection } from './detect-controls.js';
import { PivotPool, pivotEntries } from './pivot-pool.js';
import { renderCarryNotes, renderTranslation } from './confidence-view.js';
import { renderExplain } from './explain.js';
import { drawHeadGrid } from './head-grid.js';
import { drawHeatmap, selectWeights } from './heatmap.js';
import { renderOpenedList, wireOpenControls } from './open-controls.js';
import { wireHubControls } from './hub-controls.js';
import { loadPairs, pairGroups, pairOf as downloadOf } from './pairs.js';
import { hideCredit, hideLoading, megabytes, showCredit, showLoading, showProgress } from './model-loading.js';
import { markOnce } from './page-marks.js';
import { loadWorkers, startEngine, startWorkers, takeWorkers } from './page-start.js';
import { loadSpeedFigures, showSpeed } from './performance-view.js';
import { goOfflineCapable, offlineReason, refreshWhenKept, renderOffline, wireKeepOffline } from './offline.js';
import { keepOpened, listOpened, modelId, readOpened, removeOpened } from './opened-models.js';

// The catalog names the int8 model of each direction: the same BLEU as fp32, half the download,
// and faster (the footer's speed line, from the last `npm run bench`: performance-view.js).
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
// The chosen model: the catalog's by its direction ("en-de"), an opened one by its id.
const DIRECTION_KEY = 'crossattn.direction';
const $ = (id) => document.getElementById(id);
const LANGUAGE_NAMES = new Intl.DisplayNames(['en'], { type: 'language' });
/** The English name of a BCP-47 language code ("pt-BR" -> "Brazilian Portuguese"); the code itself when unknown. */
function languageName(code) {
  try {
    return LANGUAGE_NAMES.of(code) ?? code;
  } catch {
    return code;  // not a well-formed tag
  }
}
const pairOf = (entry) => `${entry.sourceLang}-${entry.targetLang}`;
const pairName = (from, to) => `${languageName(from)} → ${languageName(to)}`;

// Every model the page can use: the catalog's directions ({id: "en-de", sourceLang, targetLang, model: URL,
// card, source, license}) and the models opened here ({id, sourceLang, targetLang, opened: {info, size, from}}).
let models = [];
let downloads = [];  // models/pairs.json's pairs, offered for download in the direction choice (pairs.js)
let hub = null;      // the page's downloads (hub-controls.js)
let architecture = null;  // models/architecture.json, once loaded
const pools = new Map(); // model id -> Promise<WorkerPool>, loaded on first use and kept
let active = null;     // the entry of `models` chosen now
let translator = null; // its pool, once loaded
let sentences = [];  // the latest translation: one result per source sentence, with its source text
let current = null;  // the sentence whose attention is shown
let inFlight = null; // AbortController of the translation in flight
const N_BEST = 3;    // hypotheses listed with beam search

let retry = null;  // what the Retry button beside an error does, when it has one
function showError(message, onRetry = null) {
  $('error').hidden = !message;
  $('error').textContent = message ?? '';
  retry = message ? onRetry : null;
  $('retry').hidden = !retry;
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
  const { sourceLang: from, targetLang: to } = current.config;
  $('alignment').dataset.directions = current.bothDirections ? '2' : '1';
  $('alignment-directions').textContent = current.bothDirections
    ? `, averaged with the ${languageName(to)}→${languageName(from)} model's alignment of the same pair`
    : `; once a ${languageName(to)}→${languageName(from)} model is loaded too (the swap button), both models' ` +
      'alignments are averaged';
}

// With the model of the opposite direction loaded (after a swap), each sentence of `list` gets the
// symmetrized word alignment of both models (Translator.symmetrize; docs/alignment.md measures it
// against one direction). The other model is never loaded for this alone. A failure keeps the one
// direction's alignment, which the page already shows.
async function alignBothWays(list) {
  const config = list[0]?.config;
  const reverseModel = config && models.find((m) => m.sourceLang === config.targetLang &&
    m.targetLang === config.sourceLang && pools.has(m.id));
  const reverse = reverseModel && pools.get(reverseModel.id), pool = translator;
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
    source: current.source, direction: current.direction, model: current.model,
    sourceTokens: current.sourceTokens.length, targetTokens: current.targetTokens.length,
  });
  showScrollCue();
}

// Says so above the heatmap when it is wider than its box (a phone's screen), where it scrolls sideways.
function showScrollCue() {
  const box = $('heatmap');
  $('heatmap-scroll-cue').hidden = box.scrollWidth <= box.clientWidth + 1;
}

// The layer and head choices for a model of `config` (the last layer, heads averaged).
function fillLayerAndHead(config) {
  fillSelect($('layer'), Array.from({ length: config.decoderLayers }, (_, l) => [l, `${l + 1} of ${config.decoderLayers}`]));
  $('layer').value = String(config.decoderLayers - 1);
  fillSelect($('head'), [['avg', 'average of heads'], ...Array.from({ length: config.nHeads }, (_, h) => [h, `${h + 1}`])]);
}

// The sentence chosen, as the views show it: through English, the leg chosen (its own source text and model config).
function selectSentence() {
  const sentence = sentences[Number($('sentence').value)] ?? null;
  const leg = Number($('leg').value);
  current = sentence?.legs && translator?.legConfigs
    ? { ...sentence.legs[leg], source: leg === 0 ? sentence.source : sentence.legs[0].text, direction: sentence.direction, model: sentence.model,
        config: translator.legConfigs[leg] }
    : sentence;
  if (current?.config && ($('layer').options.length !== current.config.decoderLayers || $('head').options.length !== current.config.nHeads + 1)) {
    fillLayerAndHead(current.config);  // the legs' models may differ in layers or heads
  }
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

// Translates the text in the box with the model in use. `notice` ({message, retry}): an error that
// stays shown once the translation is done (a model choice that failed); any other translation
// clears the error.
async function translate(notice = null) {
  inFlight?.abort();
  if (!translator) return;  // a model is loading; it translates the text once it is ready
  const { config } = translator, { direction, model } = document.body.dataset;
  const controller = new AbortController();
  inFlight = controller;
  const paragraphs = splitParagraphs($('source').value, config.sourceLang);
  const parts = paragraphs.flat();
  const beamSize = Number($('beam-size').value);
  const partial = parts.map(() => '');  // settled text of each sentence while streaming
  $('target').classList.add('streaming');
  $('confidence-warning').hidden = $('confidence-legend').hidden = $('carry-notes').hidden = true;  // they spoke of the previous text
  try {
    const start = performance.now();
    const results = await translator.translateBatch(parts, {
      attention: true, alignment: true, residual: true, beamSize, nBest: Math.min(N_BEST, beamSize),
      signal: controller.signal,
      onToken(event) {
        if (controller !== inFlight) return;  // a late event of a cancelled translation
        markOnce('first-token');  // page-marks.js
        partial[event.index] = event.text;
        $('target').textContent = joinParagraphs(paragraphs, partial).trim();
      },
    });
    const ms = performance.now() - start;
    markOnce('first-translation');
    sentences = results.map((r, i) => ({ ...r, source: parts[i], direction, model, config }));
    showError(notice?.message, notice?.retry);
    const doubtful = renderTranslation($('target'), paragraphs, results, $('confidence-legend'));
    renderCarryNotes($('carry-notes'), results);
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
    clearTranslation();
  } finally {
    if (controller === inFlight) {
      inFlight = null;
      $('target').classList.remove('streaming');
    }
  }
}

// Shows nothing of a translation: its text, meta line, warning, hypotheses and attention views.
function clearTranslation() {
  sentences = [];
  current = null;
  $('target').textContent = '';
  $('meta').textContent = '';
  $('confidence-warning').hidden = $('confidence-legend').hidden = $('carry-notes').hidden = true;
  $('sentence-control').hidden = true;
  showHypotheses();
  render();
  $('heatmap').replaceChildren();
  for (const key of Object.keys($('heatmap').dataset)) delete $('heatmap').dataset[key];
}

// A sentence a person can act on, for each typed error the page can meet.
function errorMessage(e) {
  if (e.name === 'InputTooLongError') return `A sentence is too long for this model: ${e.message}`;
  if (e.name === 'WorkerError') return `The translation worker failed: ${e.message}. Reload the page to try again.`;
  return `${e.name}: ${e.message}`;
}

function newWorkers() {
  return takeWorkers(POOL_SIZE);  // page-start.js
}

function loadPool(entry) {
  if (entry.pivot && !pools.has(entry.id)) {
    const pool = Promise.all(entry.pivot.map(loadPool)).then(([first, second]) => new PivotPool(first, second));
    pool.catch(() => pools.delete(entry.id));
    pools.set(entry.id, pool);
  }
  if (!pools.has(entry.id)) {
    showLoading(entry.opened ? entry.opened.info.name : entry.model.split('/').pop().replace(/\.crossattn$/, ''),
                entry.opened?.size ?? entry.size);
    const pool = (async () => {
      const model = entry.opened ? await readOpened(entry.id) : entry.model;  // an opened model: from its cache
      return loadWorkers(newWorkers(), model, { threads: THREADS, onProgress: showProgress });  // page-start.js
    })();
    pool.catch(() => pools.delete(entry.id));  // a later choice of this model tries again
    pools.set(entry.id, pool);
  }
  return pools.get(entry.id);
}

// The direction choice: every model the catalog and the opened models offer, by language pair; an
// opened model's label names it, so that two models of one direction are told apart.
function fillDirections() {
  models = [...models.filter((m) => !m.pivot), ...pivotEntries(models)];  // pivot-pool.js
  const option = (m) => new Option(m.opened ? `${pairName(m.sourceLang, m.targetLang)} (${m.opened.info.name})`
    : m.pivot ? `${pairName(m.sourceLang, m.targetLang)} (through English)` : pairName(m.sourceLang, m.targetLang), m.id);
  const groupOf = (label, list) => {
    const group = document.createElement('optgroup');
    group.label = label;
    group.append(...list.map(option));
    return list.length ? [group] : [];
  };
  const opened = models.filter((m) => m.opened);
  $('direction').replaceChildren(...models.filter((m) => !m.opened && !m.pivot).map(option), ...groupOf('Opened models', opened),
                                 ...groupOf('Through English', models.filter((m) => m.pivot)),
                                 ...pairGroups(downloads, languageName, megabytes));
  if (active) $('direction').value = active.id;
  renderOpenedList(opened.map((m) => ({ id: m.id, label: $('direction').querySelector(`option[value="${m.id}"]`).textContent,
                                        size: m.opened.size, from: m.opened.from })), removeModel);
}

// Shows `entry` as the chosen model: the direction choice (remembered), the languages' names and
// the swap button.
function showDirection(entry) {
  active = entry;
  $('direction').value = entry.id;
  localStorage.setItem(DIRECTION_KEY, entry.id);
  $('source-lang').textContent = languageName(entry.sourceLang);
  $('target-lang').textContent = languageName(entry.targetLang);
  $('source').placeholder = `Type ${languageName(entry.sourceLang)} text to translate into ${languageName(entry.targetLang)}`;
  $('source').lang = entry.sourceLang;
  $('target').lang = entry.targetLang;
  $('swap').disabled = !reverseOf(entry);
  showSpeed(entry);  // performance-view.js
}

// Switches to a model (the catalog's or an opened one): loads (or reuses) its worker pool, sets up
// the controls that depend on the model, and translates the current text. `previous` ({entry,
// text}: the model chosen before and the text then in the box) is where a model that does not load
// goes back to (loadFailed); `notice` ({message, retry}) an error that stays shown (translate's).
async function useModel(id, { previous = null, notice = null } = {}) {
  inFlight?.abort();
  translator = null;
  const entry = models.find((m) => m.id === id) ?? models[0];
  showDirection(entry);
  hideCredit();
  let pool = null, failure = null;
  try {
    pool = await loadPool(entry);
  } catch (e) {
    failure = e;
  }
  if ($('direction').value !== entry.id) return;  // the user chose another model meanwhile
  hideLoading();
  if (failure) return loadFailed(entry, failure, previous);
  translator = pool;
  const c = translator.config;
  $('leg-control').hidden = !pool.legs;
  if (pool.legs) {
    fillSelect($('leg'), pool.legConfigs.map((l, i) => [i, pairName(l.sourceLang, l.targetLang)]));
    $('leg').value = '1';  // the leg that wrote the translation shown
  }
  showCredit(entry, translator.info);
  fillLayerAndHead(c);
  $('alignment-method').textContent = c.alignmentLayer
    ? 'Lines join the words that translate each other, read from the alignment layer this model carries (an ' +
      'attention trained to align, whose query knows the target word)'
    : c.alignmentHead
    ? `Lines join the words that translate each other, read from head ${c.alignmentHead.head + 1} of decoder layer ` +
      `${c.alignmentHead.layer + 1}, the head this model was trained to align with (guided alignment)`
    : 'Lines join the words that translate each other, read from the cross-attention of the last two decoder layers ' +
      '(averaged over heads)';
  document.body.dataset.direction = pairOf(entry);
  document.body.dataset.model = entry.id;
  refreshWhenKept(entry, catalogModels(), entryName);  // the offline line, once the service worker keeps it
  await translate(notice);
}

// A model that did not load: the error in words (offline.js words a model never downloaded for
// offline use), with a Retry button that makes the same choice again. Nothing of the text's stale
// translation stays; the page goes back to the model and the text of before the choice (`previous`),
// translated again, if there was one.
async function loadFailed(entry, error, previous) {
  const message = `Cannot load the model: ${await offlineReason(entry, error, entryName(entry)) ?? error.message}`;
  clearTranslation();
  if (!previous || previous.entry === entry) {
    showError(message, () => useModel(entry.id));
    return;
  }
  const retry = () => changeModel(entry.id);
  showError(message, retry);
  $('source').value = previous.text;
  await useModel(previous.entry.id, { notice: { message, retry } });
}

const catalogModels = () => models.filter((m) => !m.opened && !m.pivot);
const entryName = (entry) => pairName(entry.sourceLang, entry.targetLang);

// A model of the opposite direction: one already loaded, else the catalog's, else an opened one.
function reverseOf(entry) {
  const reverse = models.filter((m) => m.sourceLang === entry.targetLang && m.targetLang === entry.sourceLang);
  return reverse.find((m) => pools.has(m.id)) ?? reverse.find((m) => !m.opened) ?? reverse[0];
}

// The text in the box must always be in the source language of the model that translates it.
// Turning the direction around moves the translation into the box (as common translators do);
// another source language puts its example sentence there (or nothing, with a placeholder that
// names the language); another model of the same direction keeps the text.
function changeModel(nextId) {
  const now = active;
  const previous = now && { entry: now, text: $('source').value };
  const next = models.find((m) => m.id === nextId) ?? models[0];
  if (now && next.sourceLang === now.targetLang && next.targetLang === now.sourceLang) {
    const translation = $('target').textContent.trim();
    $('source').value = translation || (EXAMPLES[next.sourceLang] ?? '');
  } else if (!now || next.sourceLang !== now.sourceLang) {
    $('source').value = EXAMPLES[next.sourceLang] ?? '';
  }
  $('target').textContent = '';
  return useModel(next.id, { previous });
}

// The reverse direction, with the translation as the new text to translate.
function swap() {
  const reverse = reverseOf(models.find((m) => m.id === $('direction').value));
  if (reverse) changeModel(reverse.id);
}

function showOpenError(message) {
  $('open-error').hidden = !message;
  $('open-error').textContent = message ?? '';
}

// Opens a model file of the user's: it is validated by loading it and translating a word (a file the
// engine refuses leaves the current model in place and says why), kept for offline use, listed, and chosen.
async function openModel(bytes, from) {
  const name = from.split('/').pop();
  showOpenError(null);
  $('open-status').textContent = `Opening ${name}…`;
  const workers = newWorkers();
  let pool;
  try {
    pool = await WorkerPool.load(workers, bytes, { threads: THREADS });
    await pool.translateBatch(['a'], { maxLength: 2, copyThrough: false });  // it runs, not only loads
  } catch (e) {
    pool?.dispose();
    for (const w of workers) w.terminate();
    $('open-status').textContent = '';
    showOpenError(`Cannot open ${name}: ${e.message}. The model in use stays.`);
    return;
  }
  const id = await modelId(bytes);
  if (models.some((m) => m.id === id)) {
    pool.dispose();  // the same file was opened before
  } else {
    const opened = { info: { ...pool.info }, size: bytes.length, from };
    try {
      await keepOpened(id, bytes, opened);
    } catch (e) {
      showOpenError(`${name} is open, but the browser would not keep it for offline use: ${e.message}`);
    }
    models.push({ id, sourceLang: pool.info.sourceLang, targetLang: pool.info.targetLang, opened });
    pools.set(id, Promise.resolve(pool));
  }
  $('open-status').textContent = `Opened ${name}.`;
  fillDirections();
  await changeModel(id);
}

// Removes an opened model: its workers end, its cached bytes are deleted, and the page moves to the
// catalog's first model if it was the one in use.
async function removeModel(id) {
  const entry = models.find((m) => m.id === id);
  if (!entry) return;
  models = models.filter((m) => m !== entry);
  pools.get(id)?.then((pool) => pool.dispose(), () => {});
  pools.delete(id);
  fillDirections();
  try {
    await removeOpened(id, entry.opened.from);
  } catch (e) {
    showOpenError(`Removed from the list, but its cached copy could not be deleted: ${e.message}`);
  }
  $('open-status').textContent = `Removed ${entry.opened.info.name}.`;
  if (active === entry) {  // another model of its direction if there is one: the text stays
    await changeModel((models.find((m) => pairOf(m) === pairOf(entry)) ?? models[0]).id);
  }
}

async function main() {
  // The first translation waits for the model and little else (page-start.js): the engine compiles
  // from here on, the workers start once the service worker controls the page (so that it keeps
  // their scripts), and the optional files below are fetched beside the catalog.
  const engineCompiled = startEngine(THREADS);
  await goOfflineCapable(engineCompiled);  // offline.js
  startWorkers(POOL_SIZE);
  const architectureLoaded = fetch(ARCHITECTURE_URL).then((r) => (r.ok ? r.json() : null)).catch(() => null);
  const speedLoaded = loadSpeedFigures(engineCompiled);
  let catalog;
  try {
    const response = await fetch(CATALOG_URL);
    if (!response.ok) throw new Error(`${CATALOG_URL.pathname}: HTTP ${response.status}`);
    catalog = parseCatalog(await response.text(), CATALOG_URL.href);
    if (catalog.length === 0) throw new Error('the catalog lists no model');
  } catch (e) {
    showError(`Cannot read the model catalog: ${e.message}`);
    return;
  }
  const opened = await listOpened().catch(() => []);  // without Cache Storage the page offers the catalog's only
  models = [...catalog.map((e) => ({ id: pairOf(e), ...e })),
            ...opened.map(({ id, ...o }) => ({ id, sourceLang: o.info.sourceLang, targetLang: o.info.targetLang, opened: o }))];
  fillDirections();
  const detection = wireDetection($('source'), $('detected'), {
    models: () => models, active: () => active, languageName,
    useDirection: (id) => useModel(id, { previous: active && { entry: active, text: $('source').value } }),
  });
  $('direction').addEventListener('change', () => {
    const pair = downloadOf(downloads, $('direction').value);
    if (!pair && detection.byHand()) return useModel($('direction').value, { previous: active && { entry: active, text: $('source').value } });
    if (!pair) return changeModel($('direction').value);
    $('direction').value = active.id;  // the model in use stays chosen until the download is open
    return pair.kind === 'firefox' ? hub.fromFiles(pair) : hub.fromHub(pair.id);
  });
  $('swap').addEventListener('click', swap);
  $('retry').addEventListener('click', () => retry?.());
  wireKeepOffline(catalogModels(), entryName);
  renderOffline(catalogModels(), entryName);
  $('layer').addEventListener('change', renderHeatmap);
  window.addEventListener('resize', () => { if (current) showScrollCue(); });
  $('head').addEventListener('change', renderHeatmap);
  $('sentence').addEventListener('change', selectSentence);
  $('leg').addEventListener('change', selectSentence);
  let timer = 0;
  $('source').addEventListener('input', () => {
    inFlight?.abort();  // stop the workers at once; translate the new text once typing pauses
    clearTimeout(timer);
    timer = setTimeout(translate, 100);
  });
  const sentenceBeam = $('beam-size').querySelector('[data-sentence-beam]');  // the engine's default for a typed sentence
  sentenceBeam.value = String(SENTENCE_BEAM_SIZE);
  sentenceBeam.textContent = `beam search, ${SENTENCE_BEAM_SIZE} hypotheses`;
  const saved = localStorage.getItem('crossattn.beamSize');
  if (saved && [...$('beam-size').options].some((o) => o.value === saved)) $('beam-size').value = saved;
  $('beam-size').addEventListener('change', () => {
    localStorage.setItem('crossattn.beamSize', $('beam-size').value);
    translate();
  });
  // Optional: without it the explain view leaves out the measured comparison.
  architecture = await architectureLoaded;
  await speedLoaded;  // optional too: without it the footer has no speed line
  wireOpenControls(openModel, showOpenError);
  hub = wireHubControls(openModel, showOpenError);
  loadPairs().then((pairs) => {  // optional, and not waited for: the page translates meanwhile
    downloads = pairs;
    fillDirections();
  });
  for (const id of ['direction', 'source', 'model-file', 'model-url', 'model-url-open', 'hub-id', 'hub-open']) $(id).disabled = false;
  const start = models.find((m) => m.id === localStorage.getItem(DIRECTION_KEY)) ?? models[0];
  await changeModel(start.id);
  document.body.dataset.ready = 'true';
  warmDetection();  // detect-controls.js: kept by the service worker from here on
}

main();
