/**
 * Decoding options shared by Translator, WorkerTranslator and WorkerPool: beam search, n-best,
 * length limits, streaming and cancellation (bindings/embind.cc and cpp/translator.h hold the
 * defaults and the range checks).
 */
import { CancelledError, InvalidInputError } from './errors.js';

/** Beam search and length options; every field is optional and defaults as documented. */
export interface SearchOptions {
  /** Hypotheses kept per sentence, 1 .. 64. Default 1: greedy decoding, the fastest. */
  beamSize?: number;
  /** Hypotheses returned in Translation.hypotheses, best first, 1 .. beamSize. Default 1. */
  nBest?: number;
  /**
   * GNMT length penalty alpha (Wu et al. 2016): hypotheses are ranked by
   * logProb / ((5 + T) / 6) ** alpha for T target tokens. 0 ranks by log-probability. Default 1.
   */
  lengthPenalty?: number;
  /** Stop once beamSize hypotheses have finished (default true); false searches until none can win. */
  earlyStopping?: boolean;
  /**
   * Most target tokens per sentence, eos included: floor(maxLengthRatio * S + maxLengthOffset) for
   * S source tokens, at most maxLength (0, the default, means the model's maxPositions).
   */
  maxLength?: number;
  /** Default 2. */
  maxLengthRatio?: number;
  /** Default 10. */
  maxLengthOffset?: number;
  /**
   * Repetition guard: no span of up to 16 target tokens may occur more than repeatLimit times in a
   * row, which stops degenerate loops ("antantant…") on out-of-domain input. Default 3; 0 turns it off.
   */
  repeatLimit?: number;
}

/** Target tokens of one sentence that became final during a decoding step. */
export interface TokenEvent {
  /** The sentence's index in the batch (0 for translate()). */
  index: number;
  /** Pieces settled since this sentence's previous event, "</s>" included at the end. */
  tokens: string[];
  /** The translation of this sentence settled so far (replace, do not append). */
  text: string;
}

/** Streaming and cancellation. */
export interface StreamOptions {
  /**
   * Called between decoder steps with the tokens that became final: with greedy decoding every
   * token as it is produced, with beam search the prefix that all hypotheses still able to win
   * agree on (so text never has to be taken back).
   */
  onToken?: (event: TokenEvent) => void;
  /**
   * Cancels the translation when aborted: the call rejects with CancelledError. With a signal the
   * translator yields to the event loop between decoder steps, so that the abort can arrive.
   */
  signal?: AbortSignal;
}

/** The engine's search fields of `options`, type-checked; undefined ones keep the engine's defaults. */
export function checkSearchOptions(options: SearchOptions & StreamOptions) {
  for (const key of ['beamSize', 'nBest', 'maxLength', 'maxLengthOffset', 'repeatLimit'] as const) {
    const v = options[key];
    if (v !== undefined && !Number.isInteger(v)) throw new InvalidInputError(`${key} must be an integer`);
  }
  for (const key of ['lengthPenalty', 'maxLengthRatio'] as const) {
    const v = options[key];
    if (v !== undefined && (typeof v !== 'number' || !Number.isFinite(v))) {
      throw new InvalidInputError(`${key} must be a finite number`);
    }
  }
  if (options.earlyStopping !== undefined && typeof options.earlyStopping !== 'boolean') {
    throw new InvalidInputError('earlyStopping must be a boolean');
  }
  if (options.onToken !== undefined && typeof options.onToken !== 'function') {
    throw new InvalidInputError('onToken must be a function');
  }
  if (options.signal !== undefined && typeof options.signal?.aborted !== 'boolean') {
    throw new InvalidInputError('signal must be an AbortSignal');
  }
  const { beamSize, nBest, lengthPenalty, earlyStopping, maxLengthRatio, maxLengthOffset, repeatLimit } = options;
  return {
    maxLength: options.maxLength ?? 0, beamSize, nBest, lengthPenalty, earlyStopping, maxLengthRatio, maxLengthOffset,
    repeatLimit,
  };
}

/** The error of a cancelled translation. */
export function cancelledError(): CancelledError {
  return new CancelledError('the translation was cancelled');
}

/** Throws CancelledError if `signal` was aborted. */
export function throwIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw cancelledError();
}

// Outside Node: one MessageChannel for every yield, its messages answered in order.
let channel: MessagePort | null = null;
const waiting: (() => void)[] = [];

/**
 * Resolves after the event loop has run the tasks queued before it (messages included), without
 * the 4 ms clamp of nested setTimeout: setImmediate in Node, a MessageChannel message elsewhere.
 */
export function yieldToEventLoop(): Promise<void> {
  if (typeof setImmediate === 'function') return new Promise((resolve) => setImmediate(resolve));
  if (channel === null) {
    const { port1, port2 } = new MessageChannel();
    port1.onmessage = () => waiting.shift()?.();
    channel = port2;
  }
  const port = channel;
  return new Promise((resolve) => {
    waiting.push(resolve);
    port.postMessage(null);
  });
}
