// Translation through English on the page, where no model joins two languages but one model
// translates into English and another out of it (German → English → French): the direction choice
// offers the pair "through English", and a PivotPool stands in for a worker pool, translating each
// sentence by the first model and its English by the second. Each result carries both legs, whose
// attention and alignment the page's views show one at a time (the leg choice).

const PIVOT = 'en';
const primary = (tag) => tag.split('-')[0].toLowerCase();

/**
 * The directions `models` reach only through English: for each pair X → en, en → Y (X ≠ Y, neither
 * English) with no model X → Y, one entry { id: 'pivot:A|B', sourceLang, targetLang, pivot: [A, B] }.
 */
export function pivotEntries(models) {
  const direct = new Set(models.filter((m) => !m.pivot).map((m) => `${primary(m.sourceLang)}>${primary(m.targetLang)}`));
  const into = models.filter((m) => !m.pivot && primary(m.targetLang) === PIVOT && primary(m.sourceLang) !== PIVOT);
  const outOf = models.filter((m) => !m.pivot && primary(m.sourceLang) === PIVOT && primary(m.targetLang) !== PIVOT);
  const entries = [];
  for (const a of into) {
    for (const b of outOf) {
      const pair = `${primary(a.sourceLang)}>${primary(b.targetLang)}`;
      if (primary(a.sourceLang) === primary(b.targetLang) || direct.has(pair) || entries.some((e) => `${primary(e.sourceLang)}>${primary(e.targetLang)}` === pair)) continue;
      entries.push({ id: `pivot:${a.id}|${b.id}`, sourceLang: a.sourceLang, targetLang: b.targetLang, pivot: [a, b] });
    }
  }
  return entries;
}

/** Two worker pools as one: the same translateBatch, config and info as a WorkerPool, in two legs. */
export class PivotPool {
  constructor(first, second) {
    this.legs = [first, second];
  }

  get config() {
    return { ...this.legs[1].config, sourceLang: this.legs[0].config.sourceLang };
  }

  /** Each leg's config, for the views of that leg. */
  get legConfigs() {
    return this.legs.map((l) => l.config);
  }

  get info() {
    const [a, b] = this.legs.map((l) => l.info);
    return { ...b, name: `${a.name} + ${b.name}`, sourceLang: a.sourceLang, attribution: [a.attribution, b.attribution].filter(Boolean).join(' ') };
  }

  get size() {
    return Math.min(...this.legs.map((l) => l.size));
  }

  get threads() {
    return this.legs[1].threads;
  }

  /** The texts by the first model, its English by the second (streaming its tokens): the second leg's results, each with `legs`. */
  async translateBatch(texts, options = {}) {
    const { onToken, ...rest } = options;
    const first = await this.legs[0].translateBatch(texts, { ...rest, nBest: 1 });
    const second = await this.legs[1].translateBatch(first.map((r) => r.text), { ...rest, onToken });
    return second.map((r, i) => ({ ...r, legs: [first[i], r] }));
  }
}
