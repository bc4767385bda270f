/**
 * Decoding options shared by Translator, WorkerTranslator and WorkerPool: beam search, n-best,
 * sampling, length limits, streaming and cancellation. The engine owns every option's default,
 * range and doc (cpp/options.h: the option table, which `optionSpecs()` returns, docs/api.md lists
 * and options.generated.ts types); this file adds the JavaScript-only options and turns options
 * into the engine's JSON.
 */
import { CancelledError, InvalidInputError } from './errors.js';
import { OPTION_TABLE, type TableSearchOptions } from './options.generated.js';

/**
 * Beam search, sampling and length options; every field is optional. Each field but targetPrefix
 * is a row of the engine's table, its type and doc generated from it (TableSearchOptions).
 */
export interface SearchOptions extends TableSearchOptions {
  /**
   * Forced start of the translation (prefix decoding, as CTranslate2's `target_prefix`): translate()
   * takes a string, translateBatch() an array with one string per text ('' for none). The
   * translation begins with the prefix's target pieces, scored by the model whatever their rank
   * (in tokenLogProbs), and the search goes on from there; for interactive translation, the words a
   * user has accepted. A prefix counts toward maxLength, which grows to hold it. A text translated
   * in parts gets it on its first part. target-prefix.ts.
   */
  targetPrefix?: string | readonly string[];
}

/**
 * The beam size the demo page and both command-line tools decode with when none is given: they
 * translate what a person typed, a sentence at a time, where beam search pays (docs/api.md,
 * "Decoding defaults"). The engine's option table holds it (cpp/options.h, kSentenceBeamSize); the
 * API's own default stays greedy (beamSize 1), for batches and throughput.
 */
export const SENTENCE_BEAM_SIZE: number = OPTION_TABLE.find((o) => o.name === 'beam_size')!.sentenceDefault!;

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

/** Checks the options only JavaScript has (onToken, signal); the engine checks the rest. */
export function checkStreamOptions(options: StreamOptions): void {
  if (options.onToken !== undefined && typeof options.onToken !== 'function') {
    throw new InvalidInputError('onToken must be a function');
  }
  if (options.signal !== undefined && typeof options.signal?.aborted !== 'boolean') {
    throw new InvalidInputError('signal must be an AbortSignal');
  }
}

/**
 * The JSON text of the engine's options (cpp/options.h, options_from_json): every field but the
 * JavaScript-only ones, `alignment: true` as `{}` (the defaults) and `false` as none. The engine
 * checks types and ranges; values JSON cannot hold (NaN, Infinity) arrive as null and are refused there.
 * @throws InvalidInputError for options that are not an object or hold what JSON cannot write (a BigInt).
 */
export function engineOptionsJson(options: object & { alignment?: unknown }): string {
  if (typeof options !== 'object' || options === null) throw new InvalidInputError('options must be an object');
  const { onToken: _onToken, signal: _signal, html: _html, alignment, ...engine } = options as Record<string, unknown>;
  const json: Record<string, unknown> = { ...engine, alignment: alignment === true ? {} : alignment === false ? null : alignment };
  if (typeof json.targetPrefix === 'string') json.targetPrefix = [json.targetPrefix];  // translate()'s one text
  try {
    return JSON.stringify(json);
  } catch {
    throw new InvalidInputError('options must hold plain values: numbers, booleans, strings and arrays');
  }
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
