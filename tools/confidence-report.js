// The tables of tools/confidence-auc.js: AUC per error type and indicator, combined indicators,
// calibrated thresholds and their carry-over to the page's scale. Records are
// { fit, type, [index | bad], outside, ...indicators } from tools/confidence-features.js; `fit`
// marks the first half of the set, on which weights and thresholds are chosen; tables report the second.
import { FEATURES } from './confidence-features.js';
import { precisionRecall, rocAuc, youdenThreshold } from './confidence-roc.js';

const WEIGHTS = Array.from({ length: 61 }, (_, i) => (i - 30) / 10);  // -3 .. 3
// Probability thresholds of 2 significant digits, 1e-6 to 0.99.
const CANDIDATES = Array.from({ length: 6 }, (_, e) => Array.from({ length: 90 }, (_, m) => Number(((10 + m) * 10 ** (e - 7)).toPrecision(2)))).flat();
const SWEEP = { sentence: [0.4, 0.3, 0.2], word: [0.2, 0.05, 0.01, 0.001] };  // the page's old thresholds and others
const fixed = (x, digits = 3) => (Number.isFinite(x) ? x.toFixed(digits) : '–');
const percent = (x) => `${fixed(100 * x, 1)}%`;
const label = (level) => (level === 'word' ? (r) => r.bad : (r) => r.type !== 'clean');
const share = (list, test) => list.filter(test).length / list.length;

/** Mean and standard deviation of `key` over `records`. */
function moments(records, key) {
  const m = records.reduce((a, r) => a + r[key], 0) / records.length;
  return { m, s: Math.sqrt(records.reduce((a, r) => a + (r[key] - m) ** 2, 0) / records.length) || 1 };
}

/**
 * For each cross-attention indicator f of `level`: the weight w in [-3, 3] (step 0.1) for which
 * z(surprise) + w z(f), both standardized on the first half, has the highest AUC on the first half;
 * and the sign that orients f alone (+1 when its own first-half AUC is at least 0.5).
 */
export function fitWeight(records, level) {
  const fit = records.filter((r) => r.fit), labels = fit.map(label(level));
  const zs = moments(fit, 'surprise');
  return Object.fromEntries(FEATURES[level].attention.map((f) => {
    const zf = moments(fit, f);
    const score = (r, w) => (r.surprise - zs.m) / zs.s + (w * (r[f] - zf.m)) / zf.s;
    let best = { w: 0, auc: -1 };
    for (const w of WEIGHTS) {
      const auc = rocAuc(fit.map((r) => score(r, w)), labels);
      if (auc > best.auc + 1e-9) best = { w, auc };
    }
    const sign = rocAuc(fit.map((r) => r[f]), labels) >= 0.5 ? 1 : -1;
    return [f, { w: best.w, sign, score }];
  }));
}

/** The report-half groups of `level`: one per error type and 'all', each a list of records. */
function groups(records, level, types) {
  const report = records.filter((r) => !r.fit);
  const of = (type) => {
    if (level === 'word') return report.filter((r) => r.type === type);
    const indices = new Set(report.filter((r) => r.type === type).map((r) => r.index));
    return report.filter((r) => r.type === type || (r.type === 'clean' && indices.has(r.index)));
  };
  return [...types.map((t) => [t, of(t)]), ['all', report]];
}

/** Rows of AUCs on the report half: each indicator alone, then each combination with surprise. */
function aucTable(records, level, weights, types) {
  const gs = groups(records, level, types), lab = label(level);
  const row = (name, score) => `| ${name} | ${gs.map(([, g]) => fixed(rocAuc(g.map(score), g.map(lab)))).join(' | ')} |`;
  const lines = [`| indicator | ${gs.map(([t]) => t).join(' | ')} |`, `| --- | ${gs.map(() => '---:').join(' | ')} |`,
                 `| BAD / OK ${level}s | ${gs.map(([, g]) => `${g.filter(lab).length} / ${g.filter((r) => !lab(r)).length}`).join(' | ')} |`];
  for (const f of FEATURES[level].probability) lines.push(row(f, (r) => r[f]));
  if (level === 'word') {  // the page's own words are all in the shortlist: how well it does on such words alone
    const inside = gs.map(([, g]) => g.filter((r) => !r.outside));
    lines.push(`| surprise, words inside the shortlist only | ${inside.map((g) => fixed(rocAuc(g.map((r) => r.surprise), g.map(lab)))).join(' | ')} |`);
  }
  for (const [f, { sign }] of Object.entries(weights)) lines.push(row(`${sign < 0 ? '−' : ''}${f}`, (r) => sign * r[f]));
  for (const [f, { w, score }] of Object.entries(weights)) {
    lines.push(row(`surprise ${w < 0 ? '−' : '+'} ${Math.abs(w)} · ${f}`, (r) => score(r, w)));
  }
  return lines.join('\n');
}

/** What the shortlist would exclude: pieces of the clean references, and BAD and OK words. */
function shortlistLine(scored) {
  if (!scored.hasShortlist) return `${scored.name} has no lexical shortlist.`;
  const clean = scored.sentences.filter((r) => r.type === 'clean');
  const pieces = clean.reduce((a, r) => a + r.tokens, 0), outside = clean.reduce((a, r) => a + r.outside, 0);
  return `Pieces outside the lexical shortlist of their source (forced decoding scores them over the whole vocabulary): ` +
    `${percent(outside / pieces)} of the clean references' pieces, in ${percent(share(clean, (r) => r.outside > 0))} of the ` +
    `clean references; words with such a piece: ${percent(share(scored.words.filter((r) => r.bad), (r) => r.outside))} of BAD ` +
    `words, ${percent(share(scored.words.filter((r) => !r.bad), (r) => r.outside))} of OK words (all sentences of the set).`;
}

/** The Markdown of one direction: AUC tables of both levels. */
export function directionReport(scored, types) {
  const { direction: dir, name, n, half } = scored;
  const weights = { sentence: fitWeight(scored.sentences, 'sentence'), word: fitWeight(scored.words, 'word') };
  return [`### ${dir}, ${name}: ${n} sentences, fit on 1–${half}, reported on ${half + 1}–${n}` +
          (scored.mismatched ? ` (${scored.mismatched} pairs skipped: their words differ from the engine's)` : ''), '',
          `${dir}, sentence level: ROC AUC, corrupted against clean (the same sentences)\n`,
          aucTable(scored.sentences, 'sentence', weights.sentence, types), '',
          `${dir}, word level: ROC AUC, the injected word (or the word after a dropped one) against the other words of the corrupted sentences\n`,
          aucTable(scored.words, 'word', weights.word, types), '', shortlistLine(scored), ''].join('\n');
}

/**
 * The page's threshold of `level`: Youden's J on the first half's forced-decoding surprise gives a
 * probability threshold (2 significant digits; flag below it). Then, on the first half of `pairs`
 * ({ fit, shown, forced }: the page's shortlist probability and the forced-decoding one of the same
 * output), the threshold among CANDIDATES on `shown` that agrees most often with that flag; among
 * equals (when no output is that improbable, all low ones agree), the one nearest in log to the
 * forced threshold times the median shown / forced ratio.
 */
export function pageThreshold(records, pairs, level) {
  const fit = records.filter((r) => r.fit);
  const { threshold, j } = youdenThreshold(fit.map((r) => r.surprise), fit.map(label(level)));
  const forced = Number(Math.exp(-threshold).toPrecision(2));
  const agreement = (list, t) => share(list, (p) => (p.shown < t) === (p.forced < forced));
  const fitPairs = pairs.filter((p) => p.fit);
  const ratios = fitPairs.map((p) => Math.log(p.shown / p.forced)).sort((a, b) => a - b);
  const target = Math.log(forced) + ratios[Math.floor(ratios.length / 2)];
  let page = forced, best = { a: -1, d: Infinity };
  for (const t of CANDIDATES) {
    const a = agreement(fitPairs, t), d = Math.abs(Math.log(t) - target);
    if (a > best.a + 1e-12 || (Math.abs(a - best.a) <= 1e-12 && d < best.d)) [page, best] = [t, { a, d }];
  }
  return { j, forced, page, agreement: (list) => agreement(list.filter((p) => !p.fit), page) };
}

/** Precision, recall, false-positive rate and recall per type of flagging a probability below `t`. */
function thresholdCells(records, level, t, types) {
  const lab = label(level), at = -Math.log(t) + 1e-12;  // p < t, i.e. surprise > -log t
  const gs = groups(records, level, types), all = gs.at(-1)[1];
  const { precision, recall } = precisionRecall(all.map((r) => r.surprise), all.map(lab), at);
  const fpr = share(all.filter((r) => !lab(r)), (r) => r.surprise >= at);
  const perType = gs.slice(0, -1).map(([, g]) => fixed(precisionRecall(g.map((r) => r.surprise), g.map(lab), at).recall, 2));
  return [fixed(precision, 2), fixed(recall, 2), fixed(fpr, 2), ...perType];
}

/** The Markdown of the thresholds: fitted on both directions' first halves together, as the page has one of each. */
export function thresholdReport(all, types) {
  const pooled = (level) => all.flatMap((d) => d[`${level}s`]);
  const pairs = (level, list = all) => list.flatMap((d) => d.page[level]);
  const t = { sentence: pageThreshold(pooled('sentence'), pairs('sentence'), 'sentence'),
              word: pageThreshold(pooled('word'), pairs('word'), 'word') };
  const both = all.map((d) => d.direction).join(' and ');
  const out = [`### Thresholds (${both} together: the page has one of each)`, '',
    "Youden's J on the first halves (flag a probability below the threshold); precision, recall and false-positive rate on the second halves\n",
    `| level | threshold | J (first halves) | direction | precision | recall | false-positive rate | ${types.map((x) => `recall, ${x}`).join(' | ')} |`,
    `| --- | ---: | ---: | --- | ---: | ---: | ---: | ${types.map(() => '---:').join(' | ')} |`];
  for (const level of ['sentence', 'word']) {
    for (const d of [...all, null]) {
      const records = d ? d[`${level}s`] : pooled(level);
      out.push(`| ${level} | ${t[level].forced} | ${fixed(t[level].j, 2)} | ${d ? d.direction : 'both'} | ` +
               `${thresholdCells(records, level, t[level].forced, types).join(' | ')} |`);
    }
  }
  out.push('', "Other thresholds (forced-decoding scale), both directions' second halves; the last column: share of the " +
           "models' own greedy translations (second halves, force-decoded) that the threshold flags\n",
           '| level | threshold | precision | recall | false-positive rate | own translations flagged |', '| --- | ---: | ---: | ---: | ---: | ---: |');
  for (const level of ['sentence', 'word']) {
    for (const x of [...SWEEP[level], t[level].forced]) {
      const own = pairs(level).filter((p) => !p.fit);
      out.push(`| ${level} | ${x} | ${thresholdCells(pooled(level), level, x, types).slice(0, 3).join(' | ')} | ${percent(share(own, (p) => p.forced < x))} |`);
    }
  }
  out.push('', "Carried over to the page's scale (its own greedy translation, with the lexical shortlist), on the second halves: " +
           "how often the page threshold on the page's probability agrees with the forced-decoding threshold on the same " +
           "output's forced-decoding probability, and the share each flags\n",
           '| level | forced-decoding threshold | page threshold | direction | agreement | flagged, forced | flagged, page |',
           '| --- | ---: | ---: | --- | ---: | ---: | ---: |');
  for (const level of ['sentence', 'word']) {
    for (const d of [...all, null]) {
      const list = pairs(level, d ? [d] : all), report = list.filter((p) => !p.fit);
      out.push(`| ${level} | ${t[level].forced} | ${t[level].page} | ${d ? d.direction : 'both'} | ${fixed(t[level].agreement(list), 3)} | ` +
               `${percent(share(report, (p) => p.forced < t[level].forced))} | ${percent(share(report, (p) => p.shown < t[level].page))} |`);
    }
  }
  return out.join('\n') + '\n';
}
