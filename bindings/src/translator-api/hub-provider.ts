/**
 * Models by name for the Translator API in Node: a direction's OPUS-MT repository on the Hugging Face
 * Hub (Helsinki-NLP/opus-mt-SRC-TGT, or any naming given), downloaded, converted and kept as
 * `Translator.load('owner/name')` of the main package does (docs/convert.md, "Models by name"), and
 * firstOf() to put it after the catalog:
 *
 *   configureTranslatorApi({ provider: firstOf(catalogProvider(), hubProvider()) });
 */
import type { HubOptions } from '../hub/convert-by-name.js';
import { hubEndpoint, parseHubId, resolveUrl, type HubModelRef } from '../hub/hub-id.js';
import { Translator as CoreTranslator } from '../translator.js';
import type { ModelProvider, ProviderAvailability } from './model-provider.js';

/** The files whose download is the progress of a model by name: its weights. */
const WEIGHTS = /\.safetensors$|pytorch_model\.bin$|\.onnx$/;

/** Whether the model of `ref` is kept in the cache (Node's file system, imported only when asked, so that browsers can load this module). */
async function kept(cacheDir: string | undefined, endpoint: string, ref: HubModelRef): Promise<boolean> {
  const [{ existsSync }, { cacheRoot, MODEL_FILE, modelFolder }] = await Promise.all([import('node:fs'), import('../hub/hub-cache.js')]);
  return existsSync(`${modelFolder(cacheRoot(cacheDir), endpoint, ref)}/${MODEL_FILE}`);
}

/** What hubProvider() takes: HubOptions, and the repository of each direction. */
export interface HubProviderOptions extends Omit<HubOptions, 'onProgress' | 'onConverting'> {
  /** The Hub id of a direction's model (default `Helsinki-NLP/opus-mt-${from}-${to}`), or undefined for none. */
  id?: (from: string, to: string) => string | undefined;
}

/**
 * The provider of models by name, in Node: 'available' when the direction's model is kept in the
 * cache, 'downloadable' when the Hub has its repository (a HEAD request for its config.json,
 * answered once a process), else 'unavailable'.
 */
export function hubProvider(options: HubProviderOptions = {}): ModelProvider {
  const idOf = options.id ?? ((from: string, to: string) => `Helsinki-NLP/opus-mt-${from}-${to}`);
  const endpoint = hubEndpoint(options.endpoint);
  const listed = new Map<string, Promise<boolean>>();
  const refOf = (from: string, to: string) => {
    const id = idOf(from, to);
    return id === undefined ? null : parseHubId(id);
  };
  return {
    async availability(from, to): Promise<ProviderAvailability> {
      const ref = refOf(from, to);
      if (ref === null) return 'unavailable';
      if (await kept(options.cacheDir, endpoint, ref)) return 'available';
      const url = resolveUrl(endpoint, ref, 'config.json');
      if (!listed.has(url)) listed.set(url, fetch(url, { method: 'HEAD' }).then((r) => r.ok, () => false));
      return (await listed.get(url)) ? 'downloadable' : 'unavailable';
    },
    load(from, to, onProgress) {
      const ref = refOf(from, to);
      if (ref === null) throw new Error(`no Hub repository is named for ${from}→${to}`);
      return CoreTranslator.load(`${ref.id}@${ref.revision}`, {
        hub: { ...options, endpoint, onProgress: (loaded, total, file) => { if (total > 0 && WEIGHTS.test(file ?? '')) onProgress(loaded / total); } },
      });
    },
  };
}

/** A provider that asks `providers` in turn: a direction is the first's that does not answer 'unavailable'. */
export function firstOf(...providers: ModelProvider[]): ModelProvider {
  const answering = async (from: string, to: string) => {
    for (const p of providers) {
      const answer = await p.availability(from, to);
      if (answer !== 'unavailable') return { provider: p, answer };
    }
    return undefined;
  };
  return {
    availability: async (from, to) => (await answering(from, to))?.answer ?? 'unavailable',
    async load(from, to, onProgress, signal) {
      const found = await answering(from, to);
      if (found === undefined) throw new Error(`no provider has a ${from}→${to} model`);
      return found.provider.load(from, to, onProgress, signal);
    },
  };
}
