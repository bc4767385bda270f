/**
 * One view of the two message APIs a worker is reached by, so that serveTranslator and
 * WorkerTranslator run the same code in browsers, Web Workers and Node:
 * - the DOM's (a Worker, a MessagePort, a worker's global scope `self`): addEventListener('message',
 *   event => event.data), an 'error' event when the script fails (HTML Living Standard, "Workers");
 * - Node's worker_threads (a Worker, a MessagePort, `parentPort`): EventEmitter on('message', data),
 *   'error' when the worker throws outside a request, 'exit' when it stops, and on a port 'close'
 *   when either end closed (Node 20 docs, worker_threads, "Event: 'message'", "Event: 'error'",
 *   "Event: 'exit'", "Event: 'close'").
 * Both post with postMessage(value, transferList) and copy by the structured clone algorithm, which
 * carries Uint8Array, ArrayBuffer (moved when listed in transferList) and WebAssembly.Module alike.
 */

/** What a DOM 'message' event (MessageEvent: data) or 'error' event (ErrorEvent: message) carries. */
interface DomEvent {
  data?: unknown;
  message?: string;
}

/** A DOM Worker, MessagePort or worker global scope (typed without the DOM library, for Node users). */
export interface DomWorkerLike {
  postMessage(message: unknown, transfer: ArrayBuffer[]): void;
  addEventListener(type: 'message' | 'error', listener: (event: DomEvent) => void): void;
  terminate?(): void;
  close?(): void;
}

/** A Node worker_threads Worker, MessagePort or parentPort (only the members used here). */
export interface NodeWorkerLike {
  postMessage(message: unknown, transferList?: readonly ArrayBuffer[]): void;
  on(event: 'message', listener: (value: unknown) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'exit', listener: (exitCode: number) => void): unknown;
  on(event: 'close', listener: () => void): unknown;
  terminate?(): unknown;
  close?(): void;
}

/** Where requests or replies go: a worker (or port) of either API. */
export type WorkerLike = DomWorkerLike | NodeWorkerLike;

/** A worker or port seen the same way whichever API it has. */
export interface Endpoint {
  /** Posts `message`, moving the listed buffers instead of copying them. */
  post(message: unknown, transfer?: ArrayBuffer[]): void;
  /** Calls `listener` with the data of each message that arrives. */
  onMessage(listener: (data: unknown) => void): void;
  /** Calls `listener` once the other side can answer no more: its script failed, it threw outside a request, or it exited. */
  onFailure(listener: (reason: string) => void): void;
  /** Ends the worker (terminate) or closes the port. */
  close(): void;
}

const isNodeStyle = (target: WorkerLike): target is NodeWorkerLike =>
  typeof (target as NodeWorkerLike).on === 'function';

/** `target` as an Endpoint. @throws TypeError when it has neither on() nor addEventListener(). */
export function endpointOf(target: WorkerLike): Endpoint {
  const close = () => {
    if (typeof target.terminate === 'function') {
      // Node's terminate() returns a promise of the exit code; the DOM's returns nothing.
      Promise.resolve(target.terminate()).catch(() => {});
    } else {
      target.close?.();
    }
  };
  if (isNodeStyle(target)) {
    return {
      post: (message, transfer = []) => target.postMessage(message, transfer),
      onMessage: (listener) => target.on('message', listener),
      onFailure(listener) {
        target.on('error', (error) => listener(error instanceof Error ? error.message : String(error)));
        target.on('exit', (code) => listener(`it exited with code ${code}`));
        target.on('close', () => listener('its port was closed'));  // a MessagePort whose other end closed
        // A Worker that stopped before this listener came (terminated, exited) emits nothing more;
        // its threadId is -1 then (Node 20 docs, worker_threads, "worker.threadId").
        if ((target as { threadId?: number }).threadId === -1) queueMicrotask(() => listener('it had already stopped'));
      },
      close,
    };
  }
  if (typeof (target as DomWorkerLike).addEventListener !== 'function') {
    throw new TypeError('a worker must be a Worker or MessagePort (DOM or node:worker_threads)');
  }
  return {
    post: (message, transfer = []) => target.postMessage(message, transfer),
    onMessage: (listener) => target.addEventListener('message', (event) => listener(event.data)),
    onFailure: (listener) => target.addEventListener('error', (event) => listener(event.message || 'its script failed to load')),
    close,
  };
}

/**
 * The port a worker's own code answers on when none is given: `self` in a Web Worker, at once (so
 * that no message can come before a listener), else a promise of `parentPort` in a Node worker
 * thread (Node keeps its messages until a listener is attached).
 * @throws TypeError (as a rejection) on Node's main thread, which has no parent to answer.
 */
export function ownPort(): WorkerLike | Promise<WorkerLike> {
  const isNode = typeof process !== 'undefined' && typeof process.versions?.node === 'string';
  if (!isNode && typeof self !== 'undefined') return self as unknown as DomWorkerLike;
  return import('node:worker_threads').then(({ parentPort }) => {
    if (parentPort === null) throw new TypeError('serveTranslator() without a port runs in a worker thread; on the main thread pass it a MessagePort');
    return parentPort as unknown as NodeWorkerLike;
  });
}
