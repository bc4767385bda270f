/**
 * Translator.load's reading of a model name: in Node, a string that is a Hub id (`owner/name`,
 * `owner/name@revision`, hub-id.ts) and not an existing path is fetched, converted and kept by
 * hub-model.ts, and the kept file is loaded. Everything else is a ByteSource as before.
 */
import { DownloadError } from '../errors.js';
import type { ByteSource } from '../sources.js';
import type { HubOptions } from './convert-by-name.js';
import type { ModelRunner } from '../convert/engine-check.js';
import { parseHubId } from './hub-id.js';

const isNode = typeof process !== 'undefined' && typeof process.versions?.node === 'string';

/** The package's version, recorded in converted files (read once, in Node only). */
async function packageVersion(): Promise<string> {
  const { readFileSync } = await import('node:fs');
  return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}

/**
 * `model`, or for a Hub id in Node the path of its converted file (downloaded and converted on first use).
 * @param runner loads and runs a freshly converted model before it is kept (fetchHubModel).
 * @throws DownloadError or ConvertError as fetchHubModel (a repository that does not exist: a
 *   'not-found' DownloadError that also says no such path exists).
 */
export async function hubSource(model: ByteSource, options: HubOptions, runner: ModelRunner): Promise<ByteSource> {
  if (typeof model !== 'string' || !isNode) return model;
  const ref = parseHubId(model);
  if (ref === null) return model;
  const { existsSync } = await import('node:fs');
  if (existsSync(model)) return model;
  const { fetchHubModel } = await import('./hub-model.js');
  try {
    return await fetchHubModel(ref, options, await packageVersion(), runner);
  } catch (e) {
    if (!(e instanceof DownloadError) || e.reason !== 'not-found' || e.file !== 'config.json') throw e;
    throw new DownloadError(`${e.message}; nor is there a file or folder '${model}' here`, e.reason, e.url, e.file, e.status);
  }
}
