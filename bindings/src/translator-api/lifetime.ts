/**
 * DestroyableModel's part of the Translator and Language Detector APIs
 * (https://webmachinelearning.github.io/translation-api/, "destroy"): once an object is destroyed,
 * by destroy() or by the abort of the signal it was created with, every call in flight and every
 * later call rejects with the reason (an AbortError DOMException from destroy(), the signal's reason
 * from its abort); a call's own signal rejects that call with its reason.
 */
import type { Progress } from './create-monitor.js';
import { abortError, abortReason } from './dom-errors.js';

export class Lifetime {
  private readonly ended = new AbortController();

  /** @param createSignal the signal passed to create(): its abort destroys the object. */
  constructor(createSignal?: AbortSignal) {
    createSignal?.addEventListener('abort', () => this.destroy(abortReason(createSignal)), { once: true });
  }

  /** Ends the object with `reason` (the first reason stays). */
  destroy(reason: unknown = abortError('the object was destroyed')): void {
    if (!this.ended.signal.aborted) this.ended.abort(reason);
  }

  /** The reason calls now reject with, once destroyed. */
  get destroyedBy(): { reason: unknown } | undefined {
    return this.ended.signal.aborted ? { reason: this.ended.signal.reason } : undefined;
  }

  /**
   * Runs `work` with a signal that aborts when the call's `signal` or the object's life ends; the
   * call rejects at once with that reason, whatever `work` does with its signal.
   */
  run<T>(signal: AbortSignal | undefined, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const both = signal ? AbortSignal.any([this.ended.signal, signal]) : this.ended.signal;
    if (both.aborted) return Promise.reject(both.reason);
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => reject(both.reason);
      both.addEventListener('abort', onAbort, { once: true });
      work(both).then(resolve, reject).finally(() => both.removeEventListener('abort', onAbort));
    });
  }
}

/**
 * The end of a create() call: progress 0, `load` (given a signal that aborts when the create
 * signal does), progress 1, then a macrotask's wait, so that what a listener of the last progress
 * event does first (abort, say) happens before create() settles.
 * @throws the create signal's reason when it aborts, or what `load` throws.
 */
export function finishCreate<T>(life: Lifetime, progress: Progress, load: (signal: AbortSignal) => Promise<T>): Promise<T> {
  return life.run(undefined, async (ended) => {
    progress.report(0);
    const made = await load(ended);
    progress.report(1);
    await new Promise((resolve) => setTimeout(resolve, 0));
    if (ended.aborted) throw ended.reason;
    return made;
  });
}
