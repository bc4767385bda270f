// What the page starts first, so that its first translation waits for the model's download and
// little else: the engine's compile (streamed from the network while it downloads, then warmed up:
// prepareEngine), begun before the service worker takes over and the catalog is read; and the
// translation workers, begun before the catalog is read, so that their scripts load meanwhile; and
// one worker's model read by the worker itself, beside its engine's start (loadWorkers).
// prepareEngine gives WorkerPool.load and loadWorkers this compile, not a second one.
import { prepareEngine } from '../dist/index.js';
import { WorkerPool, WorkerTranslator } from '../dist/worker.js';
import { markOnce } from './page-marks.js';

const WORKER_URL = new URL('./worker.js', import.meta.url);
// The engine build the page's `simd` parameter asks for ('relaxed' or 'simd128', as LoadOptions.simd;
// any other value or none: 'auto', relaxed SIMD where the browser has it). A page that asks for
// 'relaxed' in a browser without it shows the load's error.
const SIMD = ['relaxed', 'simd128'].find((s) => s === new URLSearchParams(location.search).get('simd')) ?? 'auto';
let spare = [];  // workers started early, not yet used

/**
 * Starts compiling the engine the page will use with `threads` (crossattn-mt.wasm where the page is
 * cross-origin isolated, else crossattn-relaxed.wasm or crossattn.wasm; the page's `simd` parameter
 * may choose); resolves to the compiled module. Marks crossattn:engine-compiled once it is ready
 * (page-marks.js).
 */
export function startEngine(threads) {
  const compiled = prepareEngine(undefined, threads, SIMD);
  compiled.then(() => markOnce('engine-compiled'), () => {});  // a failure is the model load's to report
  return compiled;
}

const failed = new WeakSet();  // spare workers whose script failed before anyone listened

/** Starts `count` translation workers (web/worker.js) for the first takeWorkers(count). */
export function startWorkers(count) {
  spare = Array.from({ length: count }, () => {
    const worker = new Worker(WORKER_URL, { type: 'module' });
    worker.addEventListener('error', () => failed.add(worker), { once: true });
    return worker;
  });
}

/**
 * `count` translation workers: the ones startWorkers started (for as many), the first time, else
 * new ones. A spare worker whose script already failed to load said so to no one (its 'error' event
 * is gone): new ones are started instead, whose failure the caller, listening from now on, hears.
 * Call it in the same task as the one that listens (WorkerPool.load does, before any await).
 */
export function takeWorkers(count) {
  const workers = spare;
  spare = [];
  if (workers.length === count && !workers.some((w) => failed.has(w))) return workers;
  for (const worker of workers) worker.terminate();
  return Array.from({ length: count }, () => new Worker(WORKER_URL, { type: 'module' }));
}

/**
 * `workers` loaded with `model` (WorkerPool.load's arguments), as a WorkerPool or, for one worker
 * and a model URL, an object with the same members the page uses. That one worker downloads the
 * model itself, straight into its engine's memory, while it instantiates the engine (Translator.load,
 * bindings/src/engine.ts loadModel): the page neither reads the file nor copies it to the worker,
 * and the engine's start (the pthreads build starts its threads) overlaps the download. Errors as
 * WorkerPool.load. Call it in the task that took the workers (it listens to them before any await).
 */
export async function loadWorkers(workers, model, options) {
  options = { ...options, simd: SIMD };
  if (workers.length !== 1 || !(typeof model === 'string' || model instanceof URL)) return WorkerPool.load(workers, model, options);
  const client = WorkerTranslator.watch(workers[0]);  // hears a worker that fails meanwhile
  try {
    const wasm = await prepareEngine(options.wasm, options.threads, SIMD);
    await client.loadModel(model, { ...options, wasm });
  } catch (e) {
    client.dispose();
    throw e;
  }
  return {
    get config() { return client.config; }, get info() { return client.info; }, get threads() { return client.threads; },
    size: 1,
    translateBatch: (texts, o) => client.translateBatch(texts, o),
    align: (source, target, o) => client.align(source, target, o),
    symmetrize: (forward, backward, o) => client.symmetrize(forward, backward, o),
    dispose: () => client.dispose(),
  };
}
