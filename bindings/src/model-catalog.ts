/**
 * The model catalog: which model translates which direction by default. The package ships one,
 * models/catalog.json, read by the npm CLI (`crossattn translate --from L --to L`) and the demo page
 * (its direction choice), so both pick the same file; this is the one reader of it. Works anywhere: parse the JSON you read or fetched, then look a direction up.
 */

/** One direction of a catalog. */
export interface CatalogEntry {
  /** BCP-47 code of the source language, as in the model's config, e.g. 'en', 'pt-BR', 'zh-Hant'. */
  sourceLang: string;
  /** BCP-47 code of the target language, e.g. 'de'. */
  targetLang: string;
  /** The model file: the catalog's file name resolved against the catalog's own location. */
  model: string;
  /** Its model card, resolved the same way, when the catalog names one. */
  card?: string;
  /**
   * The npm package that holds the model (a workspace of this repository, e.g.
   * 'crossattn-tatoeba-en-de'), where an installed crossattn looks for it: the core package ships
   * no model.
   */
  package?: string;
  /**
   * Where the model came from and its licence, in words, for models whose file carries no
   * provenance metadata (Translator.info.source and .license take precedence).
   */
  source?: string;
  license?: string;
  /** The model file's size in bytes and its SHA-256 (64 lowercase hex digits), which `crossattn download` checks. */
  size?: number;
  sha256?: string;
  /**
   * True when the model was trained on data licensed for research only: it is never published as an
   * npm package, and `crossattn download` fetches it only with --accept-license.
   */
  researchOnly?: boolean;
}

function resolve(name: string, base: string): string {
  return /^[a-z][a-z0-9+.-]*:/i.test(base) ? new URL(name, base).href : `${base.replace(/\/?$/, '/')}${name}`;
}

function field(d: Record<string, unknown>, key: string): string {
  if (typeof d[key] !== 'string') throw new Error(`invalid model catalog: a direction has no string "${key}"`);
  return d[key] as string;
}

/** The optional checks of an entry: "size" (bytes, a positive integer), "sha256" (hex) and "research_only" (a boolean). */
function checks(d: Record<string, unknown>): Pick<CatalogEntry, 'size' | 'sha256' | 'researchOnly'> {
  const bad = (key: string, what: string): never => {
    throw new Error(`invalid model catalog: "${key}" of ${String(d.source_lang)}→${String(d.target_lang)} must be ${what}`);
  };
  if (d.size !== undefined && !(Number.isSafeInteger(d.size) && (d.size as number) > 0)) bad('size', 'a positive integer');
  if (d.sha256 !== undefined && !(typeof d.sha256 === 'string' && /^[0-9a-f]{64}$/i.test(d.sha256))) bad('sha256', '64 hex digits');
  if (d.research_only !== undefined && typeof d.research_only !== 'boolean') bad('research_only', 'true or false');
  return {
    ...(d.size !== undefined ? { size: d.size as number } : {}),
    ...(d.sha256 !== undefined ? { sha256: (d.sha256 as string).toLowerCase() } : {}),
    ...(d.research_only !== undefined ? { researchOnly: d.research_only as boolean } : {}),
  };
}

/**
 * The directions of a catalog (the text of a catalog.json), in its order. `base` is where the
 * catalog lies: a folder path (Node) or a URL (browser), against which file names are resolved.
 * Language codes are taken as they are (any BCP-47 tag, compared as strings by modelFor).
 * @throws Error if the text is not JSON or not a catalog ({"directions": [{source_lang,
 *   target_lang, model, card?, package?, source?, license?, sha256?, size?, research_only?}, ...]}).
 */
export function parseCatalog(text: string, base: string): CatalogEntry[] {
  const directions = (JSON.parse(text) as { directions?: unknown }).directions;
  if (!Array.isArray(directions)) throw new Error('invalid model catalog: no "directions" array');
  return directions.map((d: Record<string, unknown>) => ({
    sourceLang: field(d, 'source_lang'),
    targetLang: field(d, 'target_lang'),
    model: resolve(field(d, 'model'), base),
    ...(typeof d.card === 'string' ? { card: resolve(d.card, base) } : {}),
    ...(typeof d.package === 'string' ? { package: d.package } : {}),
    ...(typeof d.source === 'string' ? { source: d.source } : {}),
    ...(typeof d.license === 'string' ? { license: d.license } : {}),
    ...checks(d),
  }));
}

/**
 * The entry of `catalog` that translates `from` into `to`.
 * @throws Error naming the directions that are available when none matches.
 */
export function modelFor(catalog: CatalogEntry[], from: string, to: string): CatalogEntry {
  const entry = catalog.find((e) => e.sourceLang === from && e.targetLang === to);
  if (entry) return entry;
  const available = catalog.map((e) => `${e.sourceLang}→${e.targetLang}`).join(', ') || 'none';
  throw new Error(`no model translates ${from} to ${to} (available: ${available})`);
}
