/**
 * A model named by its Hugging Face Hub id, `owner/name` or `owner/name@revision`
 * (`Helsinki-NLP/opus-mt-en-fr`, `Xenova/opus-mt-en-fr@main`), and the Hub's URL layout for its
 * files: `{endpoint}/{id}/resolve/{revision}/{file}` (huggingface_hub's `hf_hub_url`).
 */

/** A repository on a Hub, at one revision. */
export interface HubModelRef {
  /** `owner/name`. */
  id: string;
  /** A branch, tag or commit (default 'main'). */
  revision: string;
}

/** The Hub's own endpoint, used when neither the option nor HF_ENDPOINT names another. */
export const DEFAULT_ENDPOINT = 'https://huggingface.co';

// The Hub's rule for repository names (huggingface_hub validate_repo_id): letters, digits, '-', '_'
// and '.', no '--' or '..', not starting or ending with '-' or '.'; at most 96 characters each.
const PART = '[A-Za-z0-9](?:[A-Za-z0-9_.-]{0,94}[A-Za-z0-9_])?';
const HUB_ID = new RegExp(`^(${PART})/(${PART})(?:@([A-Za-z0-9_./-]{1,200}))?$`);

/**
 * The Hub id in `name`, or null when it is not one. A `.crossattn` file name, a path with more or
 * fewer than one slash, a URL or a name with '--' or '..' is not an id.
 */
export function parseHubId(name: string): HubModelRef | null {
  const m = HUB_ID.exec(name);
  if (m === null || /--|\.\./.test(`${m[1]}/${m[2]}`) || /\.crossattn$/i.test(m[2])) return null;
  const revision = m[3] ?? 'main';
  if (revision.split('/').some((part) => part === '' || part === '.' || part === '..')) return null;
  return { id: `${m[1]}/${m[2]}`, revision };
}

/** The endpoint: `option`, else HF_ENDPOINT (as Hugging Face's own clients read it), else the Hub; no trailing slash. */
export function hubEndpoint(option?: string): string {
  const env = typeof process !== 'undefined' ? process.env?.HF_ENDPOINT : undefined;
  return (option ?? (env || DEFAULT_ENDPOINT)).replace(/\/+$/, '');
}

/** The URL of `file` of `ref` at `endpoint`. */
export function resolveUrl(endpoint: string, ref: HubModelRef, file: string): string {
  const path = file.split('/').map(encodeURIComponent).join('/');
  return `${endpoint}/${ref.id}/resolve/${encodeURIComponent(ref.revision)}/${path}`;
}
