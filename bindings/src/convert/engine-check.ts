/**
 * A converted file is a file the engine runs: the engine loads it and translates a word before the
 * file is written or kept, so what the engine would refuse (heads narrower than it computes, a
 * tokenizer it cannot load) is a ConvertError at conversion, not a file that fails later.
 */
import { ConvertError } from './convert-error.js';
import { Translator } from '../translator.js';

/**
 * Loads the .crossattn `bytes` with the engine and translates "a" (2 tokens at most).
 * @param file names the converted model in the error (the output path, or the repository's URL).
 * @throws ConvertError (field 'engine') with the engine's reason when it refuses to load or run it.
 */
export async function checkEngineRuns(bytes: Uint8Array, file: string): Promise<void> {
  let translator: Translator | undefined;
  try {
    translator = await Translator.load(bytes);
    await translator.translate('a', { maxLength: 2, copyThrough: false });
  } catch (e) {
    throw new ConvertError(file, 'engine', `the engine refuses the converted model: ${e instanceof Error ? e.message : String(e)}`);
  } finally {
    translator?.dispose();
  }
}
