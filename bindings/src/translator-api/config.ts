/**
 * The Translator API's settings: where its models come from and its input quota. One set per
 * JavaScript realm (page, worker or Node process), as the platform's API has.
 */
import { catalogProvider, type ModelProvider } from './model-provider.js';

/** What configureTranslatorApi() accepts. */
export interface TranslatorApiOptions {
  /** A model catalog's path (Node) or URL, for the default provider (default: the package's models/catalog.json). */
  catalog?: string | URL;
  /** A provider of one's own, in place of the catalog's. */
  provider?: ModelProvider;
  /**
   * The input quota of every translator and detector, in characters (Unicode code points) of one
   * call's input (default 100,000: about 15,000 words, minutes of translation on a laptop).
   */
  inputQuota?: number;
}

/** The default input quota, in characters of one call's input. */
export const DEFAULT_INPUT_QUOTA = 100_000;

export const settings: { provider: ModelProvider; inputQuota: number } = { provider: catalogProvider(), inputQuota: DEFAULT_INPUT_QUOTA };

/**
 * Sets where the Translator API's models come from and its quota; translators created before keep
 * their models.
 * @throws RangeError for an inputQuota that is not a positive number.
 */
export function configureTranslatorApi(options: TranslatorApiOptions): void {
  if (options.inputQuota !== undefined && !(options.inputQuota > 0)) throw new RangeError(`inputQuota must be a positive number, not ${String(options.inputQuota)}`);
  if (options.provider) settings.provider = options.provider;
  else if (options.catalog !== undefined) settings.provider = catalogProvider(options.catalog);
  if (options.inputQuota !== undefined) settings.inputQuota = options.inputQuota;
}

/** What a call's input uses of the quota: its characters (Unicode code points). */
export const inputUsage = (input: string): number => [...input].length;
