/**
 * crossattn download [NAME | --from L --to L] --catalog URL [-o FILE] [--accept-license]
 *
 * For a user who has the core package alone: fetches a model that a catalog served at URL lists (a
 * models/catalog.json, such as the one a site made by `npm run build:site` serves), checks its size and
 * SHA-256 against the catalog's "size" and "sha256", and writes it where `crossattn translate --from L
 * --to L` finds it: the path the installed package's own models/catalog.json gives that direction
 * (beside that catalog), or, for a direction it does not list, the catalog's file name under the same
 * folder; -o FILE writes it elsewhere. The file is written whole or not at all (a temporary file,
 * renamed once its hash is right). Without NAME or --from/--to it lists the catalog's models.
 *
 * A model trained on research-only data ("research_only": true in the catalog) is never published as
 * an npm package; it is downloaded only with --accept-license, after its licence has been named.
 *
 * Errors are one line on stderr: a bad command line exits 2, a catalog or download that fails or
 * does not match exits 1, and nothing is left at the destination.
 */
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseStrictly } from './cli-args.js';
import { parseCatalog, type CatalogEntry } from './model-catalog.js';
import { MAX_FILE_BYTES } from './sources.js';

export const DOWNLOAD_USAGE = `usage: crossattn download [NAME | --from L --to L] --catalog URL [-o FILE] [--accept-license]

Downloads a model that the catalog at URL lists, checks its size and SHA-256, and writes it where
crossattn translate --from L --to L finds it (or to FILE). Without NAME or --from/--to, lists the models.
  --catalog URL       a served models/catalog.json, e.g. https://example.org/crossattn/models/catalog.json
  NAME                a model's name as the list shows it (e.g. general-de-en), or its package name
  --from L --to L     the catalog's model for that direction instead of NAME
  -o, --output FILE   the file to write instead
  --accept-license    needed for a model trained on data licensed for research use only`;

const OPTIONS = {
  catalog: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' }, output: { type: 'string', short: 'o' },
  'accept-license': { type: 'boolean' }, help: { type: 'boolean', short: 'h' },
} as const;

/** The installed package's models/ folder, where its catalog.json lies. */
const MODELS_DIR = fileURLToPath(new URL('../models/', import.meta.url));

function fail(message: string, code: number): never {
  process.stderr.write(`crossattn download: ${message}\n`);
  process.exit(code);
}

const errorText = (e: unknown) => (e instanceof Error ? (e.cause instanceof Error ? e.cause.message : e.message) : String(e));

/** A catalog entry's name: its package name without "crossattn-", else its file name without ".crossattn". */
export function modelName(entry: CatalogEntry): string {
  if (entry.package !== undefined) return entry.package.replace(/^crossattn-/, '');
  return decodeURIComponent(entry.model.split('/').at(-1)!).split(/[\\/]/).at(-1)!.replace(/\.crossattn$/, '');
}

/** The entries of the catalog served at `url`; exits 1 naming the URL if it cannot be fetched or read. */
async function servedCatalog(url: string): Promise<CatalogEntry[]> {
  let text: string;
  try {
    const response = await fetch(url);
    if (!response.ok) fail(`cannot fetch ${url}: HTTP ${response.status}`, 1);
    text = await response.text();
  } catch (e) {
    return fail(`cannot fetch ${url}: ${errorText(e)}`, 1);
  }
  try {
    return parseCatalog(text, url);
  } catch (e) {
    return fail(`${url}: ${errorText(e)}`, 1);
  }
}

/** The line that lists one entry: name, direction, size, licence. */
function listing(entry: CatalogEntry): string {
  const size = entry.size === undefined ? 'size unknown' : `${(entry.size / 1e6).toFixed(1)} MB`;
  const licence = `${entry.license ?? 'licence not given'}${entry.researchOnly ? ', research only' : ''}`;
  return `${modelName(entry)}  ${entry.sourceLang}→${entry.targetLang}  ${size}  ${licence}`;
}

/**
 * Where the model goes: -o FILE; else the path the installed catalog gives its direction; else the
 * served catalog's file name (its path below the catalog's folder, or its last segment) in MODELS_DIR.
 */
function destination(entry: CatalogEntry, catalogUrl: string, output: string | undefined): string {
  if (output !== undefined) return resolve(output);
  const installed = parseCatalog(readFileSync(join(MODELS_DIR, 'catalog.json'), 'utf8'), MODELS_DIR)
    .find((e) => e.sourceLang === entry.sourceLang && e.targetLang === entry.targetLang);
  if (installed !== undefined) return installed.model;
  const folder = new URL('.', catalogUrl).href;
  const name = entry.model.startsWith(folder) ? entry.model.slice(folder.length) : entry.model.split('/').at(-1)!;
  const path = resolve(MODELS_DIR, decodeURIComponent(name.replace(/[?#].*$/, '')));
  return relative(MODELS_DIR, path).startsWith('..') ? join(MODELS_DIR, modelName(entry) + '.crossattn') : path;
}

/** The SHA-256 (hex) of a file. */
async function fileHash(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * Downloads `entry.model` to `path` through a temporary file beside it, checking its length against
 * entry.size as it arrives and its SHA-256 against entry.sha256 at the end.
 * @throws Error naming the URL when the download fails or does not match; the temporary file is removed.
 */
async function download(entry: CatalogEntry, path: string): Promise<void> {
  const response = await fetch(entry.model).catch((e) => { throw new Error(`cannot fetch ${entry.model}: ${errorText(e)}`); });
  if (!response.ok || !response.body) throw new Error(`cannot fetch ${entry.model}: HTTP ${response.status}`);
  const limit = entry.size ?? MAX_FILE_BYTES, hash = createHash('sha256'), progress = process.stderr.isTTY;
  mkdirSync(dirname(path), { recursive: true });
  const part = `${path}.part-${process.pid}`, file = await open(part, 'w');
  let loaded = 0;
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      loaded += chunk.length;
      if (loaded > limit) throw new Error(`${entry.model} is larger than ${entry.size === undefined ? 'the 1 GiB crossattn reads' : `the catalog's ${limit} bytes`}`);
      hash.update(chunk);
      await file.write(chunk);
      if (progress) process.stderr.write(`\r${modelName(entry)}: ${(loaded / 1e6).toFixed(1)}${entry.size ? ` of ${(entry.size / 1e6).toFixed(1)}` : ''} MB`);
    }
    if (progress) process.stderr.write('\r\x1b[K');
    if (entry.size !== undefined && loaded !== entry.size) throw new Error(`${entry.model} has ${loaded} bytes, the catalog says ${entry.size}`);
    const sha256 = hash.digest('hex');
    if (sha256 !== entry.sha256) throw new Error(`${entry.model} has SHA-256 ${sha256}, the catalog says ${entry.sha256}`);
    await file.close();
    renameSync(part, path);
  } catch (e) {
    await file.close().catch(() => {});
    rmSync(part, { force: true });
    throw e;
  }
}

/** The entry the command line names (NAME or --from/--to); exits 1 naming the catalog's models when none matches. */
function chosen(entries: CatalogEntry[], name: string | undefined, from: string | undefined, to: string | undefined): CatalogEntry {
  const entry = name !== undefined ? entries.find((e) => modelName(e) === name || e.package === name)
    : entries.find((e) => e.sourceLang === from && e.targetLang === to);
  const wanted = name ?? `a ${from}→${to} model`;
  return entry ?? fail(`the catalog lists no ${wanted} (it lists: ${entries.map(modelName).join(', ') || 'none'})`, 1);
}

/** Runs `crossattn download` with the arguments after "download". */
export async function runDownload(args: string[]): Promise<void> {
  function usageError(message: string): never {
    return fail(`${message}; see crossattn download --help`, 2);
  }
  const { values: v, positionals } = parseStrictly(args, OPTIONS, usageError);
  if (v.help) return void process.stdout.write(`${DOWNLOAD_USAGE}\n`);
  if (v.catalog === undefined) usageError('give the catalog to read with --catalog URL');
  if (!/^https?:\/\//i.test(v.catalog)) usageError(`--catalog must be an http or https URL, not '${v.catalog}'`);
  if (positionals.length > 1) usageError(`one NAME, not ${positionals.length}`);
  if ((v.from === undefined) !== (v.to === undefined)) usageError('--from and --to go together');
  if (positionals.length === 1 && v.from !== undefined) usageError('give NAME or --from/--to, not both');
  const entries = await servedCatalog(v.catalog);
  if (positionals.length === 0 && v.from === undefined) {
    return void process.stdout.write(entries.map(listing).join('\n') + (entries.length ? '\n' : ''));
  }
  const entry = chosen(entries, positionals[0], v.from, v.to);
  if (entry.sha256 === undefined) fail(`the catalog gives no "sha256" for ${modelName(entry)}, so its download cannot be checked`, 1);
  if (entry.researchOnly && !v['accept-license']) {
    fail(`${modelName(entry)} was trained on data licensed for research use only (${entry.license ?? 'no licence given'}` +
      `${entry.card ? `; card: ${entry.card}` : ''}): run again with --accept-license to download it for research use`, 1);
  }
  const path = destination(entry, v.catalog, v.output);
  const done = (what: string) => process.stdout.write(`${what} ${path} (${listing(entry).replace(/ {2}/g, ', ')}; SHA-256 checked)\n`);
  if (existsSync(path) && (await fileHash(path)) === entry.sha256) return void done('already there:');
  try {
    await download(entry, path);
  } catch (e) {
    const unwritable = ['EACCES', 'EPERM', 'EROFS'].includes((e as { code?: string }).code ?? '');
    fail(`${errorText(e)}${unwritable ? '; write it elsewhere with -o FILE and translate with --model FILE' : ''}`, 1);
  }
  done('wrote');
}
