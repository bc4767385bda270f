/**
 * Where models fetched by name are kept in Node: `$XDG_CACHE_HOME/crossattn` (or
 * `~/.cache/crossattn`, the XDG Base Directory default), one folder per endpoint, repository and
 * revision, holding the converted `model.crossattn` and `source.json` (what it was made from). A
 * folder holds both files or is absent: a download is staged beside it and renamed into place whole.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { HubModelRef } from './hub-id.js';

/** The cache's root: `option`, else `$XDG_CACHE_HOME/crossattn`, else `~/.cache/crossattn`. */
export function cacheRoot(option?: string): string {
  if (option !== undefined) return option;
  const xdg = process.env.XDG_CACHE_HOME;
  return join(xdg ? xdg : join(homedir(), '.cache'), 'crossattn');
}

/** A file-name-safe key for an endpoint: its host and path ("huggingface.co", "127.0.0.1_8123"). */
function endpointKey(endpoint: string): string {
  const url = new URL(endpoint);
  return `${url.host}${url.pathname}`.replace(/\/+$/, '').replace(/[^A-Za-z0-9.-]/g, '_');
}

/** The folder that keeps `ref` fetched from `endpoint` under `root`. */
export function modelFolder(root: string, endpoint: string, ref: HubModelRef): string {
  const [owner, name] = ref.id.split('/');
  return join(root, 'hub', endpointKey(endpoint), owner, name, encodeURIComponent(ref.revision));
}

/** The converted model in a model folder. */
export const MODEL_FILE = 'model.crossattn';

/** What the converted model was made from, beside it. */
export const SOURCE_FILE = 'source.json';
