/**
 * The page's side: WorkerTranslator, a Translator-like object whose work runs in a worker that calls
 * serveTranslator (worker-server.ts; protocol: worker.ts, messages: worker-protocol.ts).
 */
import type { AlignmentOptions, WordAlignment } from './alignment.js';
import { DisposedError, InvalidInputError, WorkerError } from './errors.js';
import { endpointOf, type Endpoint, type WorkerLike } from './worker-endpoint.js';
import { checkProgress, errorFromWorker, toWire, type Reply, type Request, type Unnumbered } from './worker-protocol.js';
import { cancelledError, type StreamOptions, type TokenEvent } from './search.js';
import { checkTexts } from './batch-input.js';
import type { ModelInfo } from './model-info.js';
import type { ByteSource, ProgressCallback } from './sources.js';
import type { LoadOptions, ModelConfig, TranslateOptions, Translation } from './translator.js';
import type { SimdBuild } from './engine-build.js';

/** Options of WorkerTranslator.load and WorkerPool.load: those of Translator.load (LoadOptions). */
export type WorkerLoadOptions = Pick<LoadOptions, 'wasm' | 'threads' | 'simd' | 'onProgress'>;

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
  private simdBuild: SimdBuild = 'simd128';
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
   * threads, simd and onProgress. Rejects with the typed error of Translator.load, InvalidInputError for
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
    const request = { type: 'load', model, wasm: options.wasm, threads: options.threads, simd: options.simd } as const;
    const { config, info, threads, simd } = (await this.call(request, { onProgress: options.onProgress }, moved)) as
      { config: ModelConfig; info: ModelInfo; threads: number; simd: SimdBuild };
    Object.assign(this.config, config);
    Object.assign(this.info, info);
    this.threadCount = threads;
    this.simdBuild = simd;
    return this;
  }

  /** Threads the worker's translator runs its products on (Translator.threads). */
  get threads(): number {
    return this.threadCount;
  }

  /** The instructions the worker's translator runs on (Translator.simd). */
  get simd(): SimdBuild {
    return this.simdBuild;
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
