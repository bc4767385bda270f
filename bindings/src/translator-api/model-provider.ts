/**
 * Where the Translator API's translators get their models. The default provider reads a crossattn
 * model catalog (models/catalog.json: the model file of each direction):
 * - in Node, the package's own catalog; a direction whose file is at hand (in a clone, or its model
 *   package installed) is 'available', any other is 'unavailable';
 * - in a browser, a catalog at a URL (configureTranslatorApi({ catalog })); a listed model is
 *   'downloadable' until it has been downloaded once, then 'available': it is kept in Cache Storage
 *   ('crossattn-models'), so later pages load it offline.
 * A provider of one's own (configureTranslatorApi({ provider })) can answer any way it likes.
 */
import { primaryLanguage } from '../language-tag.js';
import { fetchFile } from '../hub/fetch-file.js';
import { modelFor, parseCatalog, type CatalogEntry } from '../model-catalog.js';
import { MAX_FILE_BYTES } from '../sources.js';
import { Translator as CoreTranslator } from '../translator.js';

/** What a provider answers for a direction ('downloading' is the API's own, while a create() downloads). */
export type ProviderAvailability = 'unavailable' | 'downloadable' | 'available';

/** The source of models for the Translator API. */
export interface ModelProvider {
  /** Whether a model translates `sourceLanguage` to `targetLanguage` (canonical BCP 47 tags), and whether it is at hand. */
  availability(sourceLanguage: string, targetLanguage: string): Promise<ProviderAvailability>;
  /**
   * The loaded model for the direction; `onProgress` takes the fraction done (0..1) while it
   * downloads. `signal` aborts when the create() call does.
   */
  load(sourceLanguage: string, targetLanguage: string, onProgress: (fraction: number) => void, signal: AbortSignal): Promise<CoreTranslator>;
}

const isNode = typeof process !== 'undefined' && typeof process.versions?.node === 'string';
/** The Cache Storage cache browsers keep downloaded models in. */
export const MODEL_CACHE = 'crossattn-models';


/**
 * The entry of `catalog` for the direction: the one of exactly these tags, else one whose languages
 * match theirs without region or script ('en-US' to 'de' takes an en→de model), else undefined.
 */
function entryFor(catalog: CatalogEntry[], from: string, to: string): CatalogEntry | undefined {
  try {
    return modelFor(catalog, from, to);
  } catch {
    return catalog.find((e) => primaryLanguage(e.sourceLang) === primaryLanguage(from) && primaryLanguage(e.targetLang) === primaryLanguage(to));
  }
}

/** The file of a catalog entry in Node, when it is at hand: the path itself, or inside its installed package. */
async function nodeModelPath(entry: CatalogEntry): Promise<string | undefined> {
  const { existsSync } = await import('node:fs');
  if (existsSync(entry.model)) return entry.model;
  if (entry.package === undefined) return undefined;
  const { createRequire } = await import('node:module');
  try {
    return createRequire(import.meta.url).resolve(`${entry.package}/${entry.model.split('/').pop()}`);
  } catch {
    return undefined;
  }
}

/** The catalog at `location`: a path (Node) or a URL, its file names resolved against it. */
async function readCatalog(location: string | URL): Promise<CatalogEntry[]> {
  const href = String(location);
  if (isNode && !/^https?:/.test(href)) {
    const { readFileSync } = await import('node:fs');
    const { fileURLToPath } = await import('node:url');
    const path = href.startsWith('file:') ? fileURLToPath(href) : href;
    return parseCatalog(readFileSync(path, 'utf8'), path.replace(/[^/]*$/, ''));
  }
  const response = await fetch(href);
  if (!response.ok) throw new Error(`the model catalog ${href} answered HTTP ${response.status}`);
  return parseCatalog(await response.text(), new URL('.', response.url || href).href);
}

/**
 * The provider of the models a catalog lists.
 * @param catalog the catalog's path (Node) or URL; default the package's models/catalog.json.
 */
export function catalogProvider(catalog: string | URL = new URL('../../models/catalog.json', import.meta.url)): ModelProvider {
  let entries: Promise<CatalogEntry[]> | undefined;
  const read = () => (entries ??= readCatalog(catalog));
  return {
    async availability(from, to) {
      const entry = entryFor(await read(), from, to);
      if (entry === undefined) return 'unavailable';
      if (isNode) return (await nodeModelPath(entry)) === undefined ? 'unavailable' : 'available';
      const cache = typeof caches === 'undefined' ? undefined : await caches.open(MODEL_CACHE);
      return (await cache?.match(entry.model)) ? 'available' : 'downloadable';
    },
    async load(from, to, onProgress) {
      const entry = entryFor(await read(), from, to);
      if (entry === undefined) throw new Error(`the catalog lists no ${from}→${to} model`);
      if (isNode) return CoreTranslator.load((await nodeModelPath(entry)) ?? entry.model);
      return CoreTranslator.load(await browserModel(entry, onProgress));
    },
  };
}

/** The bytes of a listed model in a browser: from Cache Storage, else downloaded (with progress) and kept there. */
async function browserModel(entry: CatalogEntry, onProgress: (fraction: number) => void): Promise<Uint8Array> {
  const cache = typeof caches === 'undefined' ? undefined : await caches.open(MODEL_CACHE);
  const kept = await cache?.match(entry.model);
  if (kept) return new Uint8Array(await kept.arrayBuffer());
  const { bytes } = await fetchFile(entry.model, {
    file: entry.model.split('/').pop()!, maxBytes: MAX_FILE_BYTES,
    onProgress: (loaded, total) => onProgress(total > 0 ? loaded / total : 0),
  });
  await cache?.put(entry.model, new Response(bytes as Uint8Array<ArrayBuffer>));
  return bytes;
}
