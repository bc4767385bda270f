/**
 * Hosts a Translator inside a Web Worker, so translation never blocks a page.
 *
 * In the worker:   import { serveTranslator } from 'crossattn/worker'; serveTranslator();
 * On the page:     const t = await WorkerTranslator.load(new Worker(url, { type: 'module' }), modelUrl);
 *
 * Protocol: the page posts {id, type: 'load', model, wasm?} or {id, type: 'translate', text, options};
 * the worker answers {id, type: 'progress', loaded, total}, {id, type: 'result', value} or
 * {id, type: 'error', error: {name, message}}.
 */
import { CrossattnError, DisposedError, errorFromEngine } from './errors.js';
import type { ByteSource, ProgressCallback } from './sources.js';
import { Translator, type ModelConfig, type TranslateOptions, type Translation } from './translator.js';

type Request =
  | { id: number; type: 'load'; model: ByteSource; wasm?: ByteSource }
  | { id: number; type: 'translate'; text: string; options?: TranslateOptions };

/** A request before the client numbers it (Omit distributed over the union). */
type Unnumbered<T> = T extends unknown ? Omit<T, 'id'> : never;

type Reply =
  | { id: number; type: 'progress'; loaded: number; total: number }
  | { id: number; type: 'result'; value: unknown }
  | { id: number; type: 'error'; error: { name: string; message: string } };

interface Port {
  postMessage(message: Reply | Request, transfer?: Transferable[]): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
}

/** Answers requests on `port` (the worker's global scope by default) with one Translator. */
export function serveTranslator(port: Port = self as unknown as Port): void {
  let translator: Translator | null = null;
  port.addEventListener('message', async (event: MessageEvent<Request>) => {
    const request = event.data;
    try {
      if (request.type === 'load') {
        translator?.dispose();
        translator = await Translator.load(request.model, {
          wasm: request.wasm,
          onProgress: (loaded, total) => port.postMessage({ id: request.id, type: 'progress', loaded, total }),
        });
        port.postMessage({ id: request.id, type: 'result', value: translator.config });
      } else {
        if (translator === null) throw new DisposedError('no model is loaded in this worker');
        const value = await translator.translate(request.text, request.options);
        const buffer = value.crossAttention?.[0]?.[0]?.[0]?.buffer;
        port.postMessage({ id: request.id, type: 'result', value }, buffer ? [buffer as ArrayBuffer] : []);
      }
    } catch (e) {
      const error = e instanceof Error ? { name: e.name, message: e.message } : { name: 'Error', message: String(e) };
      port.postMessage({ id: request.id, type: 'error', error });
    }
  });
}

/** The page's side: a Translator-like object whose work runs in a worker that calls serveTranslator. */
export class WorkerTranslator {
  private nextId = 1;
  private pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void; onProgress?: ProgressCallback }>();

  private constructor(private readonly worker: Worker, readonly config: ModelConfig) {}

  /** Loads `model` (a URL or bytes) in `worker`. Rejects with the typed error of Translator.load. */
  static async load(worker: Worker, model: ByteSource, options: { wasm?: ByteSource; onProgress?: ProgressCallback } = {}) {
    const client = new WorkerTranslator(worker, {} as ModelConfig);
    worker.addEventListener('message', (event: MessageEvent<Reply>) => client.receive(event.data));
    const config = (await client.call({ type: 'load', model, wasm: options.wasm }, options.onProgress)) as ModelConfig;
    Object.assign(client.config, config);
    return client;
  }

  /** Same contract as Translator.translate. */
  translate(text: string, options: TranslateOptions = {}): Promise<Translation> {
    return this.call({ type: 'translate', text, options }) as Promise<Translation>;
  }

  /** Ends the worker and with it the wasm memory. */
  dispose(): void {
    this.worker.terminate();
    for (const { reject } of this.pending.values()) reject(new DisposedError('the worker was disposed'));
    this.pending.clear();
  }

  private call(request: Unnumbered<Request>, onProgress?: ProgressCallback): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, onProgress });
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
    this.pending.delete(reply.id);
    if (reply.type === 'result') entry.resolve(reply.value);
    else entry.reject(errorFromEngine(reply.error) as CrossattnError);
  }
}
