#!/usr/bin/env node
/**
 * How well detectLanguage (bindings/src/detect-language.ts: eld's extrasmall database) finds the
 * language of the sentences of the catalog's languages, English and German: top-1 accuracy and mean
 * confidence per language on FLORES dev and on the Tatoeba test split, all and under 20 characters,
 * over eld's whole set of 60 languages (nothing restricted to en and de).
 *   node tools/internals/detect-language-eval.js [--data DIR] [--tatoeba DIR] [--json FILE]
 *   node tools/internals/detect-language-eval.js --fit     fits SCORE_TEMPERATURE on the Tatoeba dev split
 * The Tatoeba splits are models/prepare_tatoeba.py's (build/data/tatoeba, made by the CI run or by
 * `python3 models/prepare_tatoeba.py --data DIR --out build/data/tatoeba`).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { parseArgs } from 'node:util';
import { detectLanguage, loadDetector, scoresToConfidences } from '../../dist/detect-language.js';

const here = (p) => new URL(p, import.meta.url).pathname;
const LANGS = ['en', 'de'];
const SHORT = 20;

const lines = (path) => (path.endsWith('.gz') ? gunzipSync(readFileSync(path)) : readFileSync(path)).toString('utf8').split('\n').filter((l) => l.trim() !== '');

/** Accuracy and mean confidence of the right language over `sentences` of language `lang`. */
async function score(sentences, lang) {
  let right = 0, confidence = 0;
  for (const s of sentences) {
    const guesses = await detectLanguage(s);
    if (guesses[0]?.language === lang) right++;
    confidence += guesses.find((g) => g.language === lang)?.confidence ?? 0;
  }
  return { sentences: sentences.length, accuracy: right / sentences.length, meanConfidence: confidence / sentences.length };
}

/** The mean negative log-likelihood of the right language on `sets` ([lang, sentences]) at each temperature. */
async function fit(sets) {
  const { eld } = await import('eld/extrasmall');
  const scored = sets.flatMap(([lang, sentences]) => sentences.map((s) => [lang, eld.detect(s).getScores()]));
  for (const t of [0.005, 0.01, 0.015, 0.02, 0.025, 0.03, 0.04, 0.05, 0.08]) {
    const nll = scored.reduce((sum, [lang, scores]) => {
      const p = Object.keys(scores).length ? scoresToConfidences(scores, t).find((g) => g.language === lang)?.confidence ?? 0 : 0;
      return sum - Math.log(Math.max(p, 1e-6));
    }, 0) / scored.length;
    console.log(JSON.stringify({ temperature: t, meanNll: Number(nll.toFixed(4)) }));
  }
}

async function main() {
  const { values } = parseArgs({
    options: {
      data: { type: 'string', default: process.env.CROSSATTN_DATA ?? here('../../../shared/data') },
      tatoeba: { type: 'string', default: here('../../build/data/tatoeba') },
      json: { type: 'string' },
      fit: { type: 'boolean', default: false },
    },
  });
  await loadDetector();
  if (values.fit) return fit(LANGS.map((l) => [l, lines(`${values.tatoeba}/dev.${l}.gz`)]));
  const report = { detector: 'eld 2.1.0, extrasmall database (60 languages)', measured: new Date().toISOString().slice(0, 10), languages: {} };
  for (const lang of LANGS) {
    const tatoeba = lines(`${values.tatoeba}/test.${lang}.gz`);
    report.languages[lang] = {
      flores_dev: await score(lines(`${values.data}/flores-dev/dev.${lang}`), lang),
      tatoeba_test: await score(tatoeba, lang),
      tatoeba_test_short: await score(tatoeba.filter((s) => [...s].length < SHORT), lang),
    };
  }
  console.log(JSON.stringify(report, null, 2));
  if (values.json) writeFileSync(values.json, `${JSON.stringify(report, null, 2)}\n`);
}

await main();
