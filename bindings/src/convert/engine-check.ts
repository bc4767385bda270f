/**
 * A converted file is a file the engine runs: the engine loads it and translates a word before the
 * file is written or kept, so what the engine would refuse (heads narrower than it computes, a
 * tokenizer it cannot load) is a ConvertError at conversion, not a file that fails later.
 */
import { ConvertError } from './convert-error.js';
import { Translator } from '../translator.js';

/**
 * Why the engine refuses the .crossattn file `model` (its bytes, or in Node its path): it loads it
 * and translates "a" (2 tokens at most). Undefined when it runs.
 */
export async function engineRefusal(model: Uint8Array | string): Promise<string | undefined> {
  let translator: Translator | undefined;
  try {
    translator = await Translator.load(model);
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
export async function checkEngineRuns(model: Uint8Array | string, file: string): Promise<void> {
  const refusal = await engineRefusal(model);
  if (refusal !== undefined) throw new ConvertError(file, 'engine', `the engine refuses the converted model: ${refusal}`);
}
