/**
 * A model by its Hub id in Node, kept: converted once (convert-by-name.ts) and written to the cache
 * (hub-cache.ts), so that a second load makes no request and works offline.
 */
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { LoadError } from '../errors.js';
import { convertByName, type HubOptions } from './convert-by-name.js';
import { cacheRoot, MODEL_FILE, modelFolder, SOURCE_FILE } from './hub-cache.js';
import { hubEndpoint, resolveUrl, type HubModelRef } from './hub-id.js';
import { checkEngineRuns, type ModelRunner } from '../convert/engine-check.js';

export type { HubOptions, HubSource } from './convert-by-name.js';

/**
 * The path of the converted model for `ref`: the kept one when there is one (no request is made),
 * else the repository's model fetched, converted and kept. The model's folder appears whole (model
 * and source.json) or not at all.
 * @param version the package's version, recorded in the file as its converter's.
 * @param runner loads and runs the converted model before it is kept (Translator; convert/engine-check.ts).
 * @throws DownloadError or ConvertError as convertByName, or a ConvertError ('engine') when the engine
 *   refuses the converted model (nothing is kept then); LoadError when the cache cannot be written.
 */
export async function fetchHubModel(ref: HubModelRef, options: HubOptions, version: string, runner: ModelRunner): Promise<string> {
  const endpoint = hubEndpoint(options.endpoint);
  const folder = modelFolder(cacheRoot(options.cacheDir), endpoint, ref);
  if (existsSync(join(folder, MODEL_FILE))) return join(folder, MODEL_FILE);
  const { bytes, source } = await convertByName(ref, { ...options, endpoint }, version);
  await checkEngineRuns(bytes, resolveUrl(endpoint, ref, '').replace(/\/$/, ''), runner);
  const staged = `${folder}.partial-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  try {
    mkdirSync(staged, { recursive: true });
    writeFileSync(join(staged, MODEL_FILE), bytes);
    writeFileSync(join(staged, SOURCE_FILE), `${JSON.stringify(source, null, 2)}\n`);
    try {
      renameSync(staged, folder);
    } catch (e) {
      if (!existsSync(join(folder, MODEL_FILE))) throw e;  // another process kept the same model first
    }
    return join(folder, MODEL_FILE);
  } catch (e) {
    throw new LoadError(`cannot keep ${ref.id} in ${dirname(folder)}: ${e instanceof Error ? e.message : String(e)}`);
  } finally {
    rmSync(staged, { recursive: true, force: true });
  }
}
