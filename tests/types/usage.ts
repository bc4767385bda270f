// Compiled (not run) by tests/js/types.test.js against dist/*.d.ts: the package's public types as a
// user writes them. A wrong type here fails the test.
import {
  CancelledError, InputTooLongError, Translator, type Hypothesis, type ModelInfo, type TokenEvent, type Translation,
} from '../../dist/index.js';
import { WorkerTranslator, serveTranslator } from '../../dist/worker.js';

async function demo(): Promise<string> {
  const t = await Translator.load('model.crossattn', { onProgress: (loaded: number, total: number) => loaded / total });
  const r: Translation = await t.translate('A dog runs.', { attention: true, maxLength: 40 });
  const weight: number = r.crossAttention![0][0][0][0];
  const layers: number = t.config.decoderLayers;
  const info: ModelInfo = t.info;
  const credit = `${info.name} (${info.sourceLang}→${info.targetLang}): ${info.source ?? '?'}, ${info.license ?? '?'}`;
  t.dispose();
  return `${r.text} ${r.sourceTokens.join(' ')} ${r.targetIds.length} ${weight} ${layers} ${r.logProb} ${r.ms} ${credit}`;
}

async function beamAndStream(t: Translator, signal: AbortSignal): Promise<string[]> {
  const seen: string[] = [];
  const r = await t.translate('A dog runs.', {
    beamSize: 5, nBest: 3, lengthPenalty: 0.6, earlyStopping: false, maxLengthRatio: 1.5, maxLengthOffset: 5, repeatLimit: 2,
    onToken: (e: TokenEvent) => seen.push(`${e.index}:${e.tokens.join('')}:${e.text}`),
    signal,
  });
  const best: Hypothesis = r.hypotheses[0];
  return [...seen, best.text, String(best.score + r.score)];
}

async function inWorker(worker: Worker): Promise<number> {
  const t = await WorkerTranslator.load(worker, new URL('https://example.invalid/model.crossattn'));
  const license: string | undefined = t.info.license;
  return (await t.translate('A dog runs.')).targetTokens.length + (license?.length ?? 0);
}

// @ts-expect-error: translate takes a string
void (async (t: Translator) => t.translate(42))();
// @ts-expect-error: beamSize is a number
void (async (t: Translator) => t.translate('x', { beamSize: '4' }))();
// @ts-expect-error: attention is a boolean
void (async (t: Translator) => t.translate('x', { attention: 'yes' }))();

export { demo, beamAndStream, inWorker, serveTranslator, InputTooLongError, CancelledError };
