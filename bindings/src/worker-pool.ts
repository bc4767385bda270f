/**
 * WorkerPool: several workers that call serveTranslator (worker-server.ts), each with its own copy of
 * the model, driven through one WorkerTranslator each (worker-client.ts).
 */
import type { AlignmentOptions, WordAlignment } from './alignment.js';
import { DisposedError } from './errors.js';
import type { WorkerLike } from './worker-endpoint.js';
import { WorkerTranslator, type WorkerLoadOptions } from './worker-client.js';
import { checkOptions, checkProgress } from './worker-protocol.js';
import type { TokenEvent } from './search.js';
import { targetPrefixes } from './target-prefix.js';
import { checkTexts } from './batch-input.js';
import { prepareEngine } from './engine.js';
import type { ModelInfo } from './model-info.js';
import { readBytes, type ByteSource } from './sources.js';
import type { ModelConfig, TranslateOptions, Translation } from './translator.js';
import type { SimdBuild } from './engine-build.js';

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
      const [modelBytes, wasm] = await Promise.all([readBytes(model, options.onProgress),
                                                    prepareEngine(options.wasm, threads, options.simd)]);
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
  /** The instructions each worker's translator runs on (Translator.simd). */
  get simd(): SimdBuild { return this.translators[0].simd; }

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
