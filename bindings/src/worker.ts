/**
 * Hosts a Translator inside a worker, so translation never blocks a page (or Node's main thread).
 *
 * In the worker:   import { serveTranslator } from 'crossattn/worker'; serveTranslator();
 * On the page:     const t = await WorkerTranslator.load(new Worker(url, { type: 'module' }), modelUrl);
 * In Node:         const t = await WorkerTranslator.load(new Worker(url), modelPath);  // node:worker_threads
 *
 * For long documents, WorkerPool spreads the sentences over several such workers. A worker is a
 * DOM Worker or a node:worker_threads Worker (or a MessagePort of either): worker-endpoint.ts
 * speaks to both. This module is the package's `crossattn/worker` entry; the work is done by
 * worker-server.ts (the worker's side), worker-client.ts (WorkerTranslator), worker-pool.ts
 * (WorkerPool) and worker-protocol.ts (the messages below, and their checks).
 *
 * Protocol: the page posts {id, type: 'load', model, wasm?}, {id, type: 'translate', text, options},
 * {id, type: 'translateBatch', texts, options}, {id, type: 'align', source, target, options},
 * {id, type: 'symmetrize', forward, backward, alignment} or {id, type: 'cancel'} (for an earlier request's id); options are TranslateOptions without
 * functions and signals, plus stream (send token events) and cancellable (yield between steps so
 * that a cancel can arrive). The worker answers {id, type: 'progress', loaded, total},
 * {id, type: 'token', event}, {id, type: 'result', value} or {id, type: 'error', error: {name, message}};
 * the page rethrows an error as the class it was raised as in the worker (errors.ts).
 * A cancelled request rejects at once on the page with CancelledError; the worker stops at its next
 * decoder step and is free for the next request.
 */
export { serveTranslator } from './worker-server.js';
export { WorkerTranslator, type WorkerLoadOptions } from './worker-client.js';
export { WorkerPool } from './worker-pool.js';
export type { WorkerLike } from './worker-endpoint.js';
