#!/usr/bin/env node
/**
 * The comparison that chose crossattn's language detector (bindings/src/detect-language.ts): top-1
 * accuracy of each candidate npm library, over its whole language set, on FLORES dev and on the
 * Tatoeba test split (all, and under 20 characters) in English and German. The candidates are not
 * dependencies; install them first, without saving:
 *   npm install --no-save franc-min@6.2.0 tinyld@1.3.4 cld3-asm@4.0.0 languagedetect@2.0.0 lande@1.0.10
 *   node tools/detector-comparison.js [--data DIR] [--tatoeba DIR]
 * (build/data/tatoeba is models/prepare_tatoeba.py's split). Prints a Markdown table.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { parseArgs } from 'node:util';

const here = (p) => new URL(p, import.meta.url).pathname;
const lines = (path) => (path.endsWith('.gz') ? gunzipSync(readFileSync(path)) : readFileSync(path)).toString('utf8').split('\n').filter((l) => l.trim() !== '');
const ISO3 = { eng: 'en', deu: 'de' };
const norm = (code) => ISO3[code] ?? code ?? 'und';

/** Each candidate: a function that loads it and returns text => ISO 639-1 code of its top guess. */
const CANDIDATES = {
  'eld 2.1.0 (extrasmall)': async () => { const { eld } = await import('eld/extrasmall'); return (t) => eld.detect(t).language; },
  'franc-min 6.2.0': async () => { const { franc } = await import('franc-min'); return (t) => norm(franc(t, { minLength: 1 })); },
  'tinyld 1.3.4': async () => { const { detect } = await import('tinyld'); return (t) => detect(t); },
  'tinyld 1.3.4 (light)': async () => { const { detect } = await import('tinyld/light'); return (t) => detect(t); },
  'cld3-asm 4.0.0': async () => {
    const id = (await (await import('cld3-asm')).loadModule()).create(0, 1000);
    return (t) => id.findLanguage(t).language;
  },
  'languagedetect 2.0.0': async () => {
    const { default: LanguageDetect } = await import('languagedetect');
    const ld = new LanguageDetect();
    ld.setLanguageType('iso2');
    return (t) => ld.detect(t, 1)[0]?.[0];
  },
  'lande 1.0.10': async () => { const { default: lande } = await import('lande'); return (t) => norm(lande(t)[0]?.[0]); },
};

const accuracy = (detect, sentences, lang) => sentences.filter((s) => detect(s) === lang).length / sentences.length;
const percent = (x) => (100 * x).toFixed(1);

async function main() {
  const { values } = parseArgs({ options: {
    data: { type: 'string', default: process.env.CROSSATTN_DATA ?? here('../../shared/data') },
    tatoeba: { type: 'string', default: here('../build/data/tatoeba') },
  } });
  const sets = ['en', 'de'].map((lang) => {
    const tatoeba = lines(`${values.tatoeba}/test.${lang}.gz`);
    return { lang, flores: lines(`${values.data}/flores-dev/dev.${lang}`), tatoeba, short: tatoeba.filter((s) => [...s].length < 20) };
  });
  console.log('| library | FLORES dev en / de | Tatoeba test en / de | under 20 characters en / de |');
  console.log('| --- | ---: | ---: | ---: |');
  for (const [name, load] of Object.entries(CANDIDATES)) {
    let detect;
    try {
      detect = await load();
    } catch (e) {
      console.log(`| ${name} | not installed (${e.code ?? e.message}) | | |`);
      continue;
    }
    const cell = (key) => sets.map((s) => percent(accuracy(detect, s[key], s.lang))).join(' / ');
    console.log(`| ${name} | ${cell('flores')} | ${cell('tatoeba')} | ${cell('short')} |`);
  }
}

await main();
