/**
 * Hosts a Translator inside a Web Worker, so translation never blocks a page.
 *
 * In the worker:   import { serveTranslator } from 'crossattn/worker'; serveTranslator();
 * On the page:     const t = await WorkerTranslator.load(new Worker(url, { type: 'module' }), modelUrl);
 *
 * For long documents, WorkerPool spreads the sentences over several such workers.
 *
 * Protocol: the page posts {id, type: 'load', model, wasm?}, {id, type: 'translate', text, options},
 * {id, type: 'translateBatch', texts, options}, {id, type: 'align', source, target, options},
 * {id, type: 'symmetrize', forward, backward, alignment} or {id, type: 'cancel'} (for an earlier request's id); options are TranslateOptions without
 * functions and signals, plus stream (send token events) and cancellable (yield between steps so
 * that a cancel can arrive). The worker answers {id, type: 'progress', loaded, total},
 * {id, type: 'token', event}, {id, type: 'result', value} or {id, type: 'error', error: {name, message}}.
 * A cancelled request rejects at once on the page with CancelledError; the worker stops at its next
 * decoder step and is free for the next request.
 */
import type { AlignmentOptions, WordAlignment } from './alignment.js';
import { CrossattnError, DisposedError, WorkerError, errorFromEngine } from './errors.js';
import { cancelledError, type StreamOptions, type TokenEvent } from './search.js';
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

interface Port {
  postMessage(message: Reply | Request, transfer?: Transferable[]): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
}

function toWire(options: TranslateOptions): WireOptions {
  const { onToken, signal, ...rest } = options;
  return { ...rest, stream: onToken !== undefined, cancellable: signal !== undefined };
}

/** Answers requests on `port` (the worker's global scope by default) with one Translator. */
export function serveTranslator(port: Port = self as unknown as Port): void {
  let translator: Translator | null = null;
  const running = new Map<number, AbortController>();  // cancellable requests in flight
  port.addEventListener('message', async (event: MessageEvent<Request>) => {
    const request = event.data;
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
          onProgress: (loaded, total) => port.postMessage({ id: request.id, type: 'progress', loaded, total }),
        });
        port.postMessage({ id: request.id, type: 'result', value: { config: translator.config, info: translator.info, threads: translator.threads } });
      } else if (request.type === 'symmetrize') {
        if (translator === null) throw new DisposedError('no model is loaded in this worker');
        port.postMessage({ id: request.id, type: 'result', value: translator.symmetrize(request.forward, request.backward, request.alignment) });
      } else {
        if (translator === null) throw new DisposedError('no model is loaded in this worker');
        const { stream, cancellable, ...rest } = request.options ?? {};
        const controller = cancellable ? new AbortController() : undefined;
        if (controller) running.set(request.id, controller);
        const options: TranslateOptions = {
          ...rest,
          onToken: stream ? (e: TokenEvent) => port.postMessage({ id: request.id, type: 'token', event: e }) : undefined,
          signal: controller?.signal,
        };
        try {
          const value = request.type === 'translateBatch' ? await translator.translateBatch(request.texts, options)
            : [request.type === 'translate' ? await translator.translate(request.text, options)
                                            : await translator.align(request.source, request.target, options)];
          // Each result's attention rows are views of one buffer: move it instead of copying.
          const buffers = value.flatMap((r) => ('sentences' in r ? r.sentences : [r]))
            .flatMap((r) => r.crossAttention?.[0]?.[0]?.[0]?.buffer ?? []) as ArrayBuffer[];
          port.postMessage({ id: request.id, type: 'result', value: request.type === 'translateBatch' ? value : value[0] }, buffers);
        } finally {
          running.delete(request.id);
        }
      }
    } catch (e) {
      const error = e instanceof Error ? { name: e.name, message: e.message } : { name: 'Error', message: String(e) };
      port.postMessage({ id: request.id, type: 'error', error });
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

  private failure: Error | null = null;  // set once the worker has died: every later call rejects with it
  private threadCount = 1;
  /** The model's name, direction and provenance (Translator.info), once loaded. */
  readonly info = {} as ModelInfo;

  private constructor(private readonly worker: Worker, readonly config: ModelConfig) {
    worker.addEventListener('message', (event: MessageEvent<Reply>) => this.receive(event.data));
    // A worker whose script fails to load, or that throws outside a request, answers nothing: fail
    // what is waiting, and what comes later, instead of leaving it hanging.
    worker.addEventListener('error', (event: Event) => {
      const message = (event as ErrorEvent).message || 'its script failed to load';
      this.failure = new WorkerError(`the worker stopped: ${message}`);
      this.failAll(this.failure);
    });
  }

  /**
   * Loads `model` (a URL or bytes) in `worker`, with the LoadOptions wasm, threads and onProgress.
   * Rejects with the typed error of Translator.load.
   */
  static async load(worker: Worker, model: ByteSource, options: WorkerLoadOptions = {}) {
    return WorkerTranslator.watch(worker).loadModel(model, options);
  }

  /** @internal A client listening to `worker` from now on, before anything is loaded (WorkerPool.load). */
  static watch(worker: Worker): WorkerTranslator {
    return new WorkerTranslator(worker, {} as ModelConfig);
  }

  /** @internal Loads `model` in the watched worker; resolves to this client. */
  async loadModel(model: ByteSource, options: WorkerLoadOptions): Promise<WorkerTranslator> {
    const { config, info, threads } = (await this.call({ type: 'load', model, wasm: options.wasm, threads: options.threads },
      { onProgress: options.onProgress })) as { config: ModelConfig; info: ModelInfo; threads: number };
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
   */
  translate(text: string, options: TranslateOptions = {}): Promise<Translation> {
    return this.call({ type: 'translate', text, options: toWire(options) }, options) as Promise<Translation>;
  }

  /** Same contract as Translator.translateBatch, streaming and cancellation as translate(). */
  translateBatch(texts: readonly string[], options: TranslateOptions = {}): Promise<Translation[]> {
    return this.call({ type: 'translateBatch', texts: [...texts], options: toWire(options) }, options) as Promise<Translation[]>;
  }

  /** Same contract as Translator.align. */
  align(source: string, target: string, options: TranslateOptions = {}): Promise<Translation> {
    return this.call({ type: 'align', source, target, options: toWire(options) }, options) as Promise<Translation>;
  }

  /** Same contract as Translator.symmetrize (for a backward alignment from another worker's model). */
  symmetrize(forward: WordAlignment, backward: WordAlignment, alignment: AlignmentOptions = {}): Promise<WordAlignment> {
    return this.call({ type: 'symmetrize', forward, backward, alignment }) as Promise<WordAlignment>;
  }

  /** Ends the worker and with it the wasm memory. */
  dispose(): void {
    this.worker.terminate();
    this.failAll(new DisposedError('the worker was disposed'));
  }

  private failAll(error: Error): void {
    for (const { reject, settle } of this.pending.values()) {
      settle();
      reject(error);
    }
    this.pending.clear();
  }

  private call(request: Unnumbered<Request>, hooks: StreamOptions & { onProgress?: ProgressCallback } = {}): Promise<unknown> {
    const id = this.nextId++;
    const { signal, onToken, onProgress } = hooks;
    return new Promise((resolve, reject) => {
      if (this.failure) {
        reject(this.failure);
        return;
      }
      if (signal?.aborted) {
        reject(cancelledError());
        return;
      }
      const cancel = () => {
        if (!this.pending.delete(id)) return;
        this.worker.postMessage({ id, type: 'cancel' });
        reject(cancelledError());
      };
      signal?.addEventListener('abort', cancel, { once: true });
      const settle = () => signal?.removeEventListener('abort', cancel);
      this.pending.set(id, { resolve, reject, onProgress, onToken, settle });
      this.worker.postMessage({ ...request, id } as Request);
    });
  }

  private receive(reply: Reply): void {
    const entry = this.pending.get(reply.id);
    if (!entry) return;
    if (reply.type === 'progress') {
      entry.onProgress?.(reply.loaded, reply.total);
      return;
    }
    if (reply.type === 'token') {
      entry.onToken?.(reply.event);
      return;
    }
    this.pending.delete(reply.id);
    entry.settle();
    if (reply.type === 'result') entry.resolve(reply.value);
    else entry.reject(errorFromEngine(reply.error) as CrossattnError);
  }
}

/**
 * Several workers, each with its own copy of the model, sharing the sentences of long documents:
 * translateBatch() cuts the texts into one contiguous chunk per worker, each worker decodes its
 * chunk as one batch, and the results come back in order. Memory grows with the pool size (one
 * model and one wasm heap per worker).
 *
 * @example
 *   const workers = Array.from({ length: 3 }, () => new Worker(url, { type: 'module' }));
 *   const pool = await WorkerPool.load(workers, modelUrl);
 *   const results = await pool.translateBatch(splitSentences(paragraph, pool.config.sourceLang));
 */
export class WorkerPool {
  private constructor(private readonly translators: WorkerTranslator[]) {}

  /**
   * Loads `model` in every worker (in parallel). The model is downloaded once, here (onProgress
   * reports its bytes), and each worker gets a copy of the bytes; the engine is compiled once, here
   * (prepareEngine), and each worker gets the compiled module. Each worker's translator runs
   * options.threads threads (default 1: the pool's parallelism is its workers; in a cross-origin
   * isolated page, one worker of threadsAvailable() threads is the other way to use the cores).
   */
  static async load(workers: Worker[], model: ByteSource, options: WorkerLoadOptions = {}) {
    if (workers.length === 0) throw new RangeError('a WorkerPool needs at least one worker');
    const clients = workers.map((worker) => WorkerTranslator.watch(worker));  // hear a worker that fails meanwhile
    const threads = options.threads ?? 1;
    const [modelBytes, wasm] = await Promise.all([readBytes(model, options.onProgress), prepareEngine(options.wasm, threads)]);
    const translators = await Promise.all(clients.map((client) => client.loadModel(modelBytes, { wasm, threads })));
    return new WorkerPool(translators);
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
   */
  async translateBatch(texts: readonly string[], options: TranslateOptions = {}): Promise<Translation[]> {
    const chunk = Math.max(1, Math.ceil(texts.length / this.translators.length));
    const { onToken } = options;
    const parts = await Promise.all(this.translators.map((t, i) =>
      i * chunk < texts.length ? t.translateBatch(texts.slice(i * chunk, (i + 1) * chunk), {
        ...options,
        onToken: onToken && ((e: TokenEvent) => onToken({ ...e, index: e.index + i * chunk })),
      }) : []));
    return parts.flat();
  }

  /** Same contract as Translator.align, on the pool's first worker. */
  align(source: string, target: string, options: TranslateOptions = {}): Promise<Translation> {
    return this.translators[0].align(source, target, options);
  }

  /** Same contract as Translator.symmetrize, on the pool's first worker. */
  symmetrize(forward: WordAlignment, backward: WordAlignment, alignment: AlignmentOptions = {}): Promise<WordAlignment> {
    return this.translators[0].symmetrize(forward, backward, alignment);
  }

  /** Ends every worker. */
  dispose(): void {
    for (const t of this.translators) t.dispose();
  }
}
