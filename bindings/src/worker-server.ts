/**
 * The worker's side: serveTranslator answers the requests of WorkerTranslator (worker-client.ts)
 * with one Translator (protocol: worker.ts, messages: worker-protocol.ts).
 */
import { CrossattnError, DisposedError } from './errors.js';
import { endpointOf, ownPort, type Endpoint, type WorkerLike } from './worker-endpoint.js';
import type { Reply, Request } from './worker-protocol.js';
import type { TokenEvent } from './search.js';
import { Translator, type TranslateOptions } from './translator.js';

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
          simd: request.simd,
          onProgress: (loaded, total) => reply({ id: request.id, type: 'progress', loaded, total }),
        });
        reply({ id: request.id, type: 'result', value: { config: translator.config, info: translator.info, threads: translator.threads, simd: translator.simd } });
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
      const fault = e instanceof CrossattnError ? e.fault : undefined;  // a structured option fault crosses too
      const error = e instanceof Error ? { name: e.name, message: e.message, ...(fault && { fault }) } : { name: 'Error', message: String(e) };
      reply({ id: request.id, type: 'error', error });
    }
  });
}
