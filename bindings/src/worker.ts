/**
 * Hosts a Translator inside a worker, so translation never blocks a page (or Node's main thread).
 *
 * In the worker:   import { serveTranslator } from 'crossattn/worker'; serveTranslator();
 * On the page:     const t = await WorkerTranslator.load(new Worker(url, { type: 'module' }), modelUrl);
 * In Node:         const t = await WorkerTranslator.load(new Worker(url), modelPath);  // node:worker_threads
 *
 * For long documents, WorkerPool spreads the sentences over several such workers. A worker is a
 * DOM Worker or a node:worker_threads Worker (or a MessagePort of either): worker-endpoint.ts
 * speaks to both.
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
import type { AlignmentOptions, WordAlignment } from './alignment.js';
import { CrossattnError, DisposedError, InvalidInputError, WorkerError, errorFromEngine } from './errors.js';
import { endpointOf, ownPort, type Endpoint, type WorkerLike } from './worker-endpoint.js';
import { cancelledError, checkStreamOptions, engineOptionsJson, type StreamOptions, type TokenEvent } from './search.js';
import { targetPrefixes } from './target-prefix.js';
import { checkTexts } from './batch-input.js';
import { prepareEngine, type ThreadsOption, type WasmSource } from './engine.js';
import type { ModelInfo } from './model-info.js';
import { readBytes, type ByteSource, type ProgressCallback } from './sources.js';
import { Translator, type LoadOptions, type ModelConfig, type TranslateOptions, type Translation } from './translator.js';

/** Options of WorkerTranslator.load and WorkerPool.load: those of Translator.load (LoadOptions). */
export type WorkerLoadOptions = Pick<LoadOptions, 'wasm' | 'threads' | 'onProgress'>;

/** TranslateOptions as they cross to the worker: no functions or signals, flags for them instead. */
type WireOptions = Omit<TranslateOptions, keyof StreamOptions> & { stream?: boolean; cancellable?: boolean };

type Request =
  | { id: number; type: 'load'; model: ByteSource; wasm?: WasmSource; threads?: ThreadsOption }
  | { id: number; type: 'translate'; text: string; options?: WireOptions }
  | { id: number; type: 'translateBatch'; texts: string[]; options?: WireOptions }
  | { id: number; type: 'align'; source: string; target: string; options?: WireOptions }
  | { id: number; type: 'symmetrize'; forward: WordAlignment; backward: WordAlignment; alignment?: AlignmentOptions }
  | { id: number; type: 'cancel' };

/** A request before the client numbers it (Omit distributed over the union). */
type Unnumbered<T> = T extends unknown ? Omit<T, 'id'> : never;

type Reply =
  | { id: number; type: 'progress'; loaded: number; total: number }
  | { id: number; type: 'token'; event: TokenEvent }
  | { id: number; type: 'result'; value: unknown }
  | { id: number; type: 'error'; error: { name: string; message: string } };

export type { WorkerLike } from './worker-endpoint.js';

/**
 * Checks `options` as Translator does before it runs anything (search.ts: engineOptionsJson, then
 * checkStreamOptions), so that nothing reaches the worker, or comes back to a callback, unchecked.
 * The engine's ranges are checked in the worker, whose typed error comes back as it was raised.
 * @throws InvalidInputError for options that are not an object, hold what JSON cannot write, or
 *   an onToken that is not a function or a signal that is not an AbortSignal.
 */
function checkOptions(options: TranslateOptions): void {
  engineOptionsJson(options);
  checkStreamOptions(options);
}

/** @throws InvalidInputError for an onProgress (of WorkerLoadOptions) that is not a function. */
function checkProgress(onProgress: unknown): void {
  if (onProgress !== undefined && typeof onProgress !== 'function') throw new InvalidInputError('onProgress must be a function');
}

/** `options` as they cross to the worker, checked first (checkOptions). */
function toWire(options: TranslateOptions): WireOptions {
  checkOptions(options);
  const { onToken, signal, ...rest } = options;
  return { ...rest, stream: onToken !== undefined, cancellable: signal !== undefined };
}

/** The typed error a worker reported as {name, message}: the same class as it raised there. */
function errorFromWorker(error: { name: string; message: string }): CrossattnError {
  if (error.name === 'DisposedError') return new DisposedError(error.message);
  if (error.name === 'WorkerError') return new WorkerError(error.message);
  return errorFromEngine(error);
}

/**
 * Answers requests on `port` with one Translator. Without a port: the worker's own (`self` in a
 * Web Worker, `parentPort` in a Node worker thread). Resolves once it listens.
 * @throws TypeError (as a rejection) without a port on Node's main thread.
 */
export function serveTranslator(port?: WorkerLike): Promise<void> {
  const target = port ?? ownPort();
  if (target instanceof Promise) return target.then((found) => serve(endpointOf(found)));
  serve(endpointOf(target));
  return Promise.resolve();
}

function serve(port: Endpoint): void {
  const reply = (message: Reply, transfer?: ArrayBuffer[]) => port.post(message, transfer);
  let translator: Translator | null = null;
  const running = new Map<number, AbortController>();  // cancellable requests in flight
  port.onMessage(async (data) => {
    if (typeof data !== 'object' || data === null) return;  // not a request: nothing to answer
    const request = data as Request;
    if (request.type === 'cancel') {
      running.get(request.id)?.abort();
      return;
    }
    try {
      if (request.type === 'load') {
        translator?.dispose();
        translator = await Translator.load(request.model, {
          wasm: request.wasm,
          threads: request.threads,
          onProgress: (loaded, total) => reply({ id: request.id, type: 'progress', loaded, total }),
        });
        reply({ id: request.id, type: 'result', value: { config: translator.config, info: translator.info, threads: translator.threads } });
      } else if (request.type === 'symmetrize') {
        if (translator === null) throw new DisposedError('no model is loaded in this worker');
        reply({ id: request.id, type: 'result', value: translator.symmetrize(request.forward, request.backward, request.alignment) });
      } else {
        if (translator === null) throw new DisposedError('no model is loaded in this worker');
        const { stream, cancellable, ...rest } = request.options ?? {};
        const controller = cancellable ? new AbortController() : undefined;
        if (controller) running.set(request.id, controller);
        const options: TranslateOptions = {
          ...rest,
          onToken: stream ? (e: TokenEvent) => reply({ id: request.id, type: 'token', event: e }) : undefined,
          signal: controller?.signal,
        };
        try {
          const value = request.type === 'translateBatch' ? await translator.translateBatch(request.texts, options)
            : [request.type === 'translate' ? await translator.translate(request.text, options)
                                            : await translator.align(request.source, request.target, options)];
          // Each result's attention rows are views of one buffer: move it instead of copying.
          const buffers = value.flatMap((r) => ('sentences' in r ? r.sentences : [r]))
            .flatMap((r) => r.crossAttention?.[0]?.[0]?.[0]?.buffer ?? []) as ArrayBuffer[];
          reply({ id: request.id, type: 'result', value: request.type === 'translateBatch' ? value : value[0] }, buffers);
        } finally {
          running.delete(request.id);
        }
      }
    } catch (e) {
      const error = e instanceof Error ? { name: e.name, message: e.message } : { name: 'Error', message: String(e) };
      reply({ id: request.id, type: 'error', error });
    }
  });
}

interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  onProgress?: ProgressCallback;
  onToken?: (event: TokenEvent) => void;
  settle(): void;  // detaches the abort listener
}

/** The page's side: a Translator-like object whose work runs in a worker that calls serveTranslator. */
export class WorkerTranslator {
  private nextId = 1;
  private pending = new Map<number, Pending>();

  private failure: Error | null = null;  // set once the worker has died or was disposed: every later call rejects with it
  private threadCount = 1;
  private readonly worker: Endpoint;
  /** The model's name, direction and provenance (Translator.info), once loaded. */
  readonly info = {} as ModelInfo;

  private constructor(worker: WorkerLike, readonly config: ModelConfig) {
    this.worker = endpointOf(worker);
    this.worker.onMessage((data) => {
      if (typeof data === 'object' && data !== null) this.receive(data as Reply);  // else not ours
    });
    // A worker whose script fails to load, that throws outside a request, or that exits answers
    // nothing: fail what is waiting, and what comes later, instead of leaving it hanging.
    this.worker.onFailure((reason) => {
      if (this.failure !== null) return;  // disposed, or already failed
      this.failure = new WorkerError(`the worker stopped: ${reason}`);
      this.failAll(this.failure);
    });
  }

  /**
   * Loads `model` (a URL, bytes, or in Node a path) in `worker` (a DOM Worker or a
   * node:worker_threads Worker whose script calls serveTranslator), with the LoadOptions wasm,
   * threads and onProgress. Rejects with the typed error of Translator.load, InvalidInputError for
   * an onProgress that is not a function, or WorkerError when the worker stops; on any failure the
   * worker is terminated (no thread is left keeping Node running).
   */
  static async load(worker: WorkerLike, model: ByteSource, options: WorkerLoadOptions = {}) {
    const client = WorkerTranslator.watch(worker);
    try {
      return await client.loadModel(model, options);
    } catch (e) {
      client.dispose();
      throw e;
    }
  }

  /** @internal A client listening to `worker` from now on, before anything is loaded (WorkerPool.load). */
  static watch(worker: WorkerLike): WorkerTranslator {
    return new WorkerTranslator(worker, {} as ModelConfig);
  }

  /**
   * @internal Loads `model` in the watched worker; resolves to this client. `transfer`: move the
   * bytes of `model` (a Uint8Array this side owns) to the worker instead of copying them.
   */
  async loadModel(model: ByteSource, options: WorkerLoadOptions, transfer = false): Promise<WorkerTranslator> {
    this.checkLive();
    checkProgress(options.onProgress);
    const moved = transfer && model instanceof Uint8Array ? [model.buffer as ArrayBuffer] : [];
    const { config, info, threads } = (await this.call({ type: 'load', model, wasm: options.wasm, threads: options.threads },
      { onProgress: options.onProgress }, moved)) as { config: ModelConfig; info: ModelInfo; threads: number };
    Object.assign(this.config, config);
    Object.assign(this.info, info);
    this.threadCount = threads;
    return this;
  }

  /** Threads the worker's translator runs its products on (Translator.threads). */
  get threads(): number {
    return this.threadCount;
  }

  /**
   * Same contract as Translator.translate. onToken events arrive as messages; aborting
   * options.signal rejects at once with CancelledError and stops the worker at its next step.
   * @throws (as a rejection) DisposedError after dispose(); InvalidInputError for options Translator
   *   refuses, checked here before anything is posted (onToken not a function, options not an
   *   object, ...) or a text that cannot be posted; WorkerError when the worker stops; the typed
   *   error the worker's Translator raised. What onToken throws rejects the call with it.
   */
  async translate(text: string, options: TranslateOptions = {}): Promise<Translation> {
    this.checkLive();
    return this.call({ type: 'translate', text, options: toWire(options) }, options) as Promise<Translation>;
  }

  /** Same contract as Translator.translateBatch, streaming, cancellation and errors as translate(). */
  async translateBatch(texts: readonly string[], options: TranslateOptions = {}): Promise<Translation[]> {
    this.checkLive();
    checkTexts(texts);  // before the copy below turns holes into undefined
    return this.call({ type: 'translateBatch', texts: [...texts], options: toWire(options) }, options) as Promise<Translation[]>;
  }

  /** Same contract as Translator.align, errors as translate(). */
  async align(source: string, target: string, options: TranslateOptions = {}): Promise<Translation> {
    this.checkLive();
    return this.call({ type: 'align', source, target, options: toWire(options) }, options) as Promise<Translation>;
  }

  /** Same contract as Translator.symmetrize (for a backward alignment from another worker's model), errors as translate(). */
  async symmetrize(forward: WordAlignment, backward: WordAlignment, alignment: AlignmentOptions = {}): Promise<WordAlignment> {
    this.checkLive();
    return this.call({ type: 'symmetrize', forward, backward, alignment }) as Promise<WordAlignment>;
  }

  /** @throws DisposedError after dispose(), WorkerError once the worker has stopped. */
  private checkLive(): void {
    if (this.failure) throw this.failure;
  }

  /** Ends the worker (terminate) and with it the wasm memory; pending and later calls reject with DisposedError. */
  dispose(): void {
    if (this.failure instanceof DisposedError) return;
    this.failure = new DisposedError('the worker was disposed');
    this.worker.close();
    this.failAll(this.failure);
  }

  private failAll(error: Error): void {
    for (const { reject, settle } of this.pending.values()) {
      settle();
      reject(error);
    }
    this.pending.clear();
  }

  // Posts `request`; the caller checked checkLive() first (a DisposedError comes before any other).
  private call(request: Unnumbered<Request>, hooks: StreamOptions & { onProgress?: ProgressCallback } = {},
               transfer: ArrayBuffer[] = []): Promise<unknown> {
    const id = this.nextId++;
    const { signal, onToken, onProgress } = hooks;
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(cancelledError());
        return;
      }
      const cancel = () => {
        if (!this.pending.delete(id)) return;
        this.worker.post({ id, type: 'cancel' } satisfies Request);
        reject(cancelledError());
      };
      signal?.addEventListener('abort', cancel, { once: true });
      const settle = () => signal?.removeEventListener('abort', cancel);
      this.pending.set(id, { resolve, reject, onProgress, onToken, settle });
      try {
        this.worker.post({ ...request, id } as Request, transfer);
      } catch (e) {
        // The structured clone refused a value (a function, a symbol): the caller's input, typed.
        this.pending.delete(id);
        settle();
        reject(new InvalidInputError(`the request cannot be sent to the worker: ${e instanceof Error ? e.message : String(e)}`));
      }
    });
  }

  /** Ends the call `id` with `error` (what its callback threw) and tells the worker to stop it. */
  private abandon(id: number, entry: Pending, error: unknown): void {
    this.pending.delete(id);
    entry.settle();
    this.worker.post({ id, type: 'cancel' } satisfies Request);
    entry.reject(error as Error);  // as thrown, as Translator passes it on
  }

  private receive(reply: Reply): void {
    const entry = this.pending.get(reply.id);
    if (!entry) return;
    // A callback that throws rejects its call, as in Translator, instead of throwing in this listener.
    if (reply.type === 'progress') {
      try { entry.onProgress?.(reply.loaded, reply.total); } catch (e) { this.abandon(reply.id, entry, e); }
      return;
    }
    if (reply.type === 'token') {
      try { entry.onToken?.(reply.event); } catch (e) { this.abandon(reply.id, entry, e); }
      return;
    }
    this.pending.delete(reply.id);
    entry.settle();
    if (reply.type === 'result') entry.resolve(reply.value);
    else entry.reject(errorFromWorker(reply.error));
  }
}

/**
 * Several workers, each with its own copy of the model, sharing the sentences of long documents:
 * translateBatch() cuts the texts into one contiguous chunk per worker, each worker decodes its
 * chunk as one batch, and the results come back in order. Memory grows with the pool size (one
 * model and one wasm heap per worker).
 *
 * @example
 *   const workers = Array.from({ length: 3 }, () => new Worker(url, { type: 'module' }));  // Node: new Worker(url) of node:worker_threads
 *   const pool = await WorkerPool.load(workers, modelUrl);
 *   const results = await pool.translateBatch(splitSentences(paragraph, pool.config.sourceLang));
 */
export class WorkerPool {
  private disposed = false;

  private constructor(private readonly translators: WorkerTranslator[]) {}

  /**
   * Loads `model` in every worker (in parallel); `workers` are DOM Workers or node:worker_threads
   * Workers whose script calls serveTranslator. The model is downloaded (or read) once, here
   * (onProgress reports its bytes), and each worker gets a copy of the bytes (the last one gets the
   * bytes themselves when this side read them); the engine is compiled once, here (prepareEngine),
   * and each worker gets the compiled module. Each worker's translator runs options.threads threads
   * (default 1: the pool's parallelism is its workers; in a cross-origin isolated page, one worker
   * of threadsAvailable() threads is the other way to use the cores).
   * @throws RangeError for no workers; InvalidInputError for an onProgress that is not a function;
   *   the typed error of Translator.load; WorkerError when a worker stops. On any failure the
   *   workers are terminated.
   */
  static async load(workers: WorkerLike[], model: ByteSource, options: WorkerLoadOptions = {}) {
    if (workers.length === 0) throw new RangeError('a WorkerPool needs at least one worker');
    const clients = workers.map((worker) => WorkerTranslator.watch(worker));  // hear a worker that fails meanwhile
    const threads = options.threads ?? 1;
    try {
      checkProgress(options.onProgress);
      const [modelBytes, wasm] = await Promise.all([readBytes(model, options.onProgress), prepareEngine(options.wasm, threads)]);
      const owned = modelBytes !== model;  // read here, not the caller's array: the last worker may take it
      const translators = await Promise.all(clients.map((client, i) =>
        client.loadModel(modelBytes, { wasm, threads }, owned && i === clients.length - 1)));
      return new WorkerPool(translators);
    } catch (e) {
      for (const client of clients) client.dispose();  // no thread is left running (Node would not exit)
      throw e;
    }
  }

  get config(): ModelConfig { return this.translators[0].config; }
  /** The model's name, direction and provenance (Translator.info). */
  get info(): ModelInfo { return this.translators[0].info; }
  get size(): number { return this.translators.length; }
  /** Threads each worker's translator runs on. */
  get threads(): number { return this.translators[0].threads; }

  /**
   * Same contract as Translator.translateBatch; each result's `ms` is its worker's batch time.
   * onToken events carry the index of their text in `texts`; options.signal cancels every worker.
   * Errors as WorkerTranslator.translate: DisposedError after dispose(), even for no texts;
   * InvalidInputError for bad texts or options, before any worker is asked.
   */
  async translateBatch(texts: readonly string[], options: TranslateOptions = {}): Promise<Translation[]> {
    this.checkLive();
    checkTexts(texts);
    checkOptions(options);  // before onToken is wrapped below
    const chunk = Math.max(1, Math.ceil(texts.length / this.translators.length));
    const { onToken } = options;
    const prefixes = targetPrefixes(options.targetPrefix, texts.length);  // one per text: sliced with them
    const parts = await Promise.all(this.translators.map((t, i) =>
      i * chunk < texts.length ? t.translateBatch(texts.slice(i * chunk, (i + 1) * chunk), {
        ...options,
        targetPrefix: prefixes?.slice(i * chunk, (i + 1) * chunk),
        onToken: onToken && ((e: TokenEvent) => onToken({ ...e, index: e.index + i * chunk })),
      }) : []));
    return parts.flat();
  }

  /** Same contract as Translator.align, on the pool's first worker; errors as WorkerTranslator.align. */
  async align(source: string, target: string, options: TranslateOptions = {}): Promise<Translation> {
    this.checkLive();
    return this.translators[0].align(source, target, options);
  }

  /** Same contract as Translator.symmetrize, on the pool's first worker; errors as WorkerTranslator.symmetrize. */
  async symmetrize(forward: WordAlignment, backward: WordAlignment, alignment: AlignmentOptions = {}): Promise<WordAlignment> {
    this.checkLive();
    return this.translators[0].symmetrize(forward, backward, alignment);
  }

  /** Ends every worker; calls waiting or made later reject with DisposedError. */
  dispose(): void {
    this.disposed = true;
    for (const t of this.translators) t.dispose();
  }

  private checkLive(): void {
    if (this.disposed) throw new DisposedError('the worker pool was disposed');
  }
}
