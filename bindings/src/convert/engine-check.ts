/**
 * A converted file is a file the engine runs: the engine loads it and translates a word before the
 * file is written or kept, so what the engine would refuse (heads narrower than it computes, a
 * tokenizer it cannot load) is a ConvertError at conversion, not a file that fails later.
 *
 * The translator is handed in (callers pass the Translator class): this check lies below it, and
 * Translator.load runs it on a Hub model before that model is kept (hub/hub-model.ts).
 */
import { ConvertError } from './convert-error.js';

/** What the check needs of a translator: to load a model file and translate a word with it (Translator does). */
export interface ModelRunner {
  load(model: Uint8Array | string): Promise<{
    translate(text: string, options: { maxLength: number; copyThrough: boolean }): Promise<unknown>;
    dispose(): void;
  }>;
}

/**
 * Why the engine refuses the .crossattn file `model` (its bytes, or in Node its path): `runner`
 * loads it and translates "a" (2 tokens at most). Undefined when it runs.
 */
export async function engineRefusal(model: Uint8Array | string, runner: ModelRunner): Promise<string | undefined> {
  let translator: Awaited<ReturnType<ModelRunner['load']>> | undefined;
  try {
    translator = await runner.load(model);
    await translator.translate('a', { maxLength: 2, copyThrough: false });
    return undefined;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  } finally {
    translator?.dispose();
  }
}

/**
 * As engineRefusal, as an error.
 * @param file names the converted model in the error (the output path, or the repository's URL).
 * @throws ConvertError (field 'engine') with the engine's reason when it refuses to load or run it.
 */
export async function checkEngineRuns(model: Uint8Array | string, file: string, runner: ModelRunner): Promise<void> {
  const refusal = await engineRefusal(model, runner);
  if (refusal !== undefined) throw new ConvertError(file, 'engine', `the engine refuses the converted model: ${refusal}`);
}
