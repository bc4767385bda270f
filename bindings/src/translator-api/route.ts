/**
 * How a Translator API direction is translated: by one model, or through English by two (de→fr as
 * de→en then en→fr, as Firefox Translations pivots) when no model joins the two languages.
 */
import { primaryLanguage } from '../language-tag.js';
import { translatePivot, type PivotTranslation } from '../pivot.js';
import type { Translator as CoreTranslator, TranslateOptions, Translation } from '../translator.js';
import type { ModelProvider, ProviderAvailability } from './model-provider.js';

/** The pivot language. */
export const PIVOT = 'en';

/** A direction's legs ([from, to] pairs: one, or two through PIVOT) and their availability together. */
export interface Route { legs: [string, string][]; availability: ProviderAvailability }

const RANK: Record<ProviderAvailability, number> = { unavailable: 0, downloadable: 1, available: 2 };

/** The route of `from`→`to`: the direct model when there is one, else through PIVOT when both legs have one. */
export async function findRoute(provider: ModelProvider, from: string, to: string): Promise<Route> {
  const direct = await provider.availability(from, to);
  if (direct !== 'unavailable' || primaryLanguage(from) === PIVOT || primaryLanguage(to) === PIVOT || primaryLanguage(from) === primaryLanguage(to)) {
    return { legs: [[from, to]], availability: direct };
  }
  const legs: [string, string][] = [[from, PIVOT], [PIVOT, to]];
  const both = await Promise.all(legs.map(([a, b]) => provider.availability(a, b)));
  return { legs, availability: both.reduce((worst, a) => (RANK[a] < RANK[worst] ? a : worst)) };
}

/** The texts translated by the models of a route, leg after leg (each a batch). */
export async function translateTexts(models: CoreTranslator[], texts: string[], signal: AbortSignal): Promise<string[]> {
  let out = texts;
  for (const model of models) out = (await model.translateBatch(out, { signal })).map((r) => r.text);
  return out;
}

/** One text translated whole by a route, with crossattn's detail: a Translation, or a PivotTranslation with both legs. */
export function translateDetailed(models: CoreTranslator[], text: string, options: TranslateOptions): Promise<Translation | PivotTranslation> {
  return models.length === 1 ? models[0].translate(text, { ...options, html: false }) : translatePivot(models[0], models[1], text, options);
}
