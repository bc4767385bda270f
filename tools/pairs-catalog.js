#!/usr/bin/env node
/**
 * Writes models/pairs.json, a catalog of translation language pairs with a published model, from local
 * clones of two public repositories (nothing is fetched; every value comes from their files):
 *
 *  - Helsinki-NLP/OPUS-MT-train: models/<src>-<tgt>/README.md lists each released OPUS-MT model of a
 *    pair, oldest first, with its pre-processing and a benchmark table (BLEU, chr-F per test set);
 *    models/LICENSE is the models' licence. These are the models on the Hugging Face Hub as
 *    Helsinki-NLP/opus-mt-{src}-{tgt}: transformers' convert_marian_to_pytorch.py made them from this
 *    folder (make_registry, convert_opus_name_to_hf_name), and it is followed here.
 *  - mozilla/firefox-translations-models: models/<architecture>/<srctgt>/ (prod, base, base-memory,
 *    tiny, ...) holds metadata.json (data.json in older commits) with the languages, and the model, lexical
 *    shortlist and vocabulary as Git LFS pointer files ("oid sha256:<hex>", "size <bytes>");
 *    evaluation/<src>-<tgt>/<testset>.bergamot-<architecture>.<tgt>.bleu holds one BLEU score
 *    (evals/eval/evaluate.py: "flores-test" is FLORES-101 devtest, "flores-dev" its dev set);
 *    LICENSE is the repository's licence.
 *
 * Neither repository lists the newer Helsinki-NLP/opus-mt-tc-* models (Helsinki-NLP/Tatoeba-Challenge
 * does), so no "opus-mt-tc" entries are made.
 *
 * Reproduce (the commits of the committed models/pairs.json):
 *   git clone https://github.com/Helsinki-NLP/OPUS-MT-train
 *   git -C OPUS-MT-train checkout d5e932c96d77596378010aa7e7f1caeb8ccaa9f8
 *   GIT_LFS_SKIP_SMUDGE=1 git clone https://github.com/mozilla/firefox-translations-models
 *   git -C firefox-translations-models checkout e7957fc407441a5e3e35bbcbf9d60d9b35764618
 *   node tools/pairs-catalog.js --opus-mt-train OPUS-MT-train \
 *     --firefox-models firefox-translations-models --date 2026-11-28
 * (GIT_LFS_SKIP_SMUDGE keeps the LFS pointer files instead of downloading 2.9 GB of models; without
 * git-lfs installed they stay pointers anyway.)
 *
 *   node tools/pairs-catalog.js [--opus-mt-train DIR] [--firefox-models DIR] [--out FILE] [--date YYYY-MM-DD]
 * Either source may be left out; the catalog then has the other's pairs only.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const GENERATOR = 'tools/pairs-catalog.js';
const OPUS = { name: 'Helsinki-NLP/OPUS-MT-train', url: 'https://github.com/Helsinki-NLP/OPUS-MT-train' };
const FIREFOX = { name: 'mozilla/firefox-translations-models', url: 'https://github.com/mozilla/firefox-translations-models' };
// GitHub serves a Git LFS file's content from this host (github.com/<repo>/raw/<ref>/<path> redirects there;
// raw.githubusercontent.com gives the pointer). The repository's README says only that the files are hosted
// with Git LFS, and that it is no longer maintained: newer models are on Google Cloud Storage.
const LFS_MEDIA = 'https://media.githubusercontent.com/media/mozilla/firefox-translations-models';

// The licence texts the two repositories hold, told apart by their first line, and their SPDX ids.
const LICENSES = [
  [/^Attribution 4\.0 International$/, 'CC-BY-4.0'],
  [/^Mozilla Public License,? Version 2\.0$/, 'MPL-2.0'],
];

// convert_marian_to_pytorch.py's GROUPS: a long list of languages on one side of a model folder's name is
// shortened to a group name in the Hub id, in this order; any other "+" becomes "_".
const HUB_GROUPS = [
  ['cmn+cn+yue+ze_zh+zh_cn+zh_CN+zh_HK+zh_tw+zh_TW+zh_yue+zhs+zht+zh', 'ZH'],
  ['fr+fr_BE+fr_CA+fr_FR+wa+frp+oc+ca+rm+lld+fur+lij+lmo+es+es_AR+es_CL+es_CO+es_CR+es_DO+es_EC+es_ES+es_GT'
    + '+es_HN+es_MX+es_NI+es_PA+es_PE+es_PR+es_SV+es_UY+es_VE+pt+pt_br+pt_BR+pt_PT+gl+lad+an+mwl+it+it_IT+co'
    + '+nap+scn+vec+sc+ro+la', 'ROMANCE'],
  ['de+nl+fy+af+da+fo+is+no+nb+nn+sv', 'NORTH_EU'],
  ['da+fo+is+no+nb+nn+sv', 'SCANDINAVIA'],
  ['se+sma+smj+smn+sms', 'SAMI'],
  ['nb_NO+nb+nn_NO+nn+nog+no_nb+no', 'NORWAY'],
  ['ga+cy+br+gd+kw+gv', 'CELTIC'],
];

// Firefox architectures, best first: when a pair has a model in several, the first one here is kept
// ("prod" in commits before June 2025; then the README's "base: best quality", "base-memory: slightly lower
// quality", "tiny: the fastest and the smallest"). Unknown folders come after these, by name.
const FIREFOX_ARCHITECTURES = ['prod', 'base', 'base-memory', 'tiny'];

/** The commit a clone has checked out. */
function headCommit(dir) {
  return execFileSync('git', ['-C', dir, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
}

/** The SPDX id of a licence file, by its first non-blank line; an unknown licence is an error. */
function spdxOf(file) {
  const first = readFileSync(file, 'utf8').split('\n').map((line) => line.trim()).find(Boolean) ?? '';
  const known = LICENSES.find(([pattern]) => pattern.test(first));
  if (!known) throw new Error(`${file}: unknown licence "${first}"`);
  return known[1];
}

/** Code-point order, the same in every locale. */
const byCodePoints = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

const subfolders = (dir) => readdirSync(dir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort(byCodePoints);

/** The first `bytes` bytes of a file as text: enough for an LFS pointer, without reading a whole model. */
function readHead(file, bytes) {
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    return buffer.toString('utf8', 0, readSync(fd, buffer, 0, bytes, 0));
  } finally {
    closeSync(fd);
  }
}

// ---------------------------------------------------------------------------------------------- OPUS-MT

/** The Hub id's pair part for a model folder name (convert_opus_name_to_hf_name). */
export function hubPairName(folder) {
  let name = folder;
  for (const [members, group] of HUB_GROUPS) name = name.replace(members, group);
  return name.replaceAll('+', '_');
}

/** A README's level-1 sections (one a release, oldest first): { release, preprocessing, rows }. */
export function readmeSections(text) {
  return text.split(/^# /m).slice(1).map((section) => {
    const lines = section.split('\n');
    const field = (key) => lines.find((line) => line.startsWith(`* ${key}:`))?.slice(key.length + 3).trim();
    return { release: lines[0].trim(), preprocessing: field('pre-processing') ?? '', rows: benchmarkRows(lines) };
  });
}

/** The rows of a benchmark table: | testset | BLEU | chr-F | ... */
function benchmarkRows(lines) {
  return lines.flatMap((line) => {
    const cells = line.split('|').slice(1, -1).map((cell) => cell.trim());
    if (cells.length < 3 || !/^\d+(\.\d+)?$/.test(cells[1])) return [];
    return [{ testset: cells[0], bleu: Number(cells[1]), chrf: Number(cells[2]) }];
  });
}

/**
 * The row to report of a benchmark table: a FLORES devtest (else any FLORES) set; else the newest newstest
 * (by its year, the first of a year); else Tatoeba; else the table's first row (an in-domain held-out set
 * such as JW300, named in `testset`). Undefined for an empty table.
 */
export function preferredRow(rows) {
  const flores = rows.find((row) => /^flores.*devtest/i.test(row.testset))
    ?? rows.find((row) => /^flores/i.test(row.testset));
  if (flores) return flores;
  const year = (row) => Number(/^newstestB?(\d{4})/i.exec(row.testset)?.[1] ?? 0);
  const news = rows.filter((row) => year(row) > 0);
  const newest = news.reduce((best, row) => (year(row) > year(best) ? row : best), news[0]);
  if (newest) return newest;
  return rows.find((row) => /^tatoeba/i.test(row.testset)) ?? rows[0];
}

/**
 * The entry of one model folder, or undefined when the Hub has no single-target model for it. A README
 * lists several releases of a pair; the Hub id points to the last one (convert_marian_to_pytorch.py
 * reads each README to its end and keeps the last download), and the converter skipped BPE models.
 */
function opusEntry(root, folder, commit, license) {
  const sides = folder.split('-');
  if (sides.length !== 2 || sides[1].includes('+')) return undefined;  // a group of target languages
  const readme = join(root, 'models', folder, 'README.md');
  if (!existsSync(readme)) return undefined;
  const last = readmeSections(readFileSync(readme, 'utf8')).at(-1);
  if (!last || !last.preprocessing.includes('SentencePiece')) return undefined;
  const pair = hubPairName(folder);
  const entry = {
    sourceLang: pair.slice(0, pair.lastIndexOf('-')), targetLang: sides[1], kind: 'opus-mt',
    id: `Helsinki-NLP/opus-mt-${pair}`, release: last.release, license,
    attribution: 'OPUS-MT model by the Language Technology Research Group at the University of Helsinki '
      + '(https://github.com/Helsinki-NLP/Opus-MT), licensed under CC BY 4.0.',
  };
  if (sides[0].includes('+')) entry.sourceGroup = sides[0].split('+');
  const row = preferredRow(last.rows);
  if (row) {
    const source = `${OPUS.url}/blob/${commit}/models/${encodeURIComponent(folder)}/README.md`;
    entry.score = { metric: 'BLEU', value: row.bleu, testset: row.testset, source };
  }
  return entry;
}

/** The OPUS-MT entries of a clone of Helsinki-NLP/OPUS-MT-train, and its source record. */
export function opusMtPairs(root) {
  const commit = headCommit(root);
  const license = spdxOf(join(root, 'models', 'LICENSE'));
  const pairs = subfolders(join(root, 'models')).map((folder) => opusEntry(root, folder, commit, license))
    .filter(Boolean);
  return { source: { ...OPUS, commit }, pairs };
}

// ---------------------------------------------------------------------------------------------- Firefox

/** { sha256, size } of a Git LFS pointer file, or undefined for any other file. */
export function lfsPointer(text) {
  if (!text.startsWith('version https://git-lfs.github.com/spec/')) return undefined;
  const sha256 = /^oid sha256:([0-9a-f]{64})$/m.exec(text)?.[1];
  const size = /^size (\d+)$/m.exec(text)?.[1];
  return sha256 && size ? { sha256, size: Number(size) } : undefined;
}

/** One model folder models/<architecture>/<pair>/: its languages and LFS files, or undefined. */
function firefoxModel(root, architecture, pair, commit) {
  const folder = join(root, 'models', architecture, pair);
  const meta = ['metadata.json', 'data.json'].map((name) => join(folder, name)).find(existsSync);
  if (!meta) return undefined;
  const { sourceLanguage, targetLanguage } = JSON.parse(readFileSync(meta, 'utf8'));
  const path = `models/${architecture}/${pair}`;
  const names = readdirSync(folder).sort(byCodePoints);
  const files = names.flatMap((name) => {
    const pointer = lfsPointer(readHead(join(folder, name), 300));
    return pointer ? [{ name, size: pointer.size, sha256: pointer.sha256, url: `${LFS_MEDIA}/${commit}/${path}/${name}` }] : [];
  });
  if (files.length === 0 && names.some((name) => name.endsWith('.gz'))) {
    throw new Error(`${folder}: no Git LFS pointer files (clone with GIT_LFS_SKIP_SMUDGE=1)`);
  }
  if (!sourceLanguage || !targetLanguage || files.length === 0) return undefined;
  return { architecture, pair, sourceLanguage, targetLanguage, path, files };
}

const architectureRank = (name) => {
  const rank = FIREFOX_ARCHITECTURES.indexOf(name);
  return rank < 0 ? FIREFOX_ARCHITECTURES.length : rank;
};

/** Each pair folder's best model (by FIREFOX_ARCHITECTURES), keyed by the folder name. */
function bestFirefoxModels(root, commit) {
  const architectures = subfolders(join(root, 'models'))
    .sort((a, b) => architectureRank(a) - architectureRank(b) || byCodePoints(a, b));
  const best = new Map();
  for (const architecture of architectures) {
    for (const pair of subfolders(join(root, 'models', architecture))) {
      if (best.has(pair)) continue;
      const model = firefoxModel(root, architecture, pair, commit);
      if (model) best.set(pair, model);
    }
  }
  return [...best.values()];
}

/**
 * The score of a model from evaluation/: FLORES-101 devtest ("flores-test"), else the newest WMT news test
 * set (wmtNN); the evaluation folders are named by the languages without script (zh-Hans: en-zh).
 */
function firefoxScore(root, model, commit) {
  const [src, tgt] = [model.sourceLanguage, model.targetLanguage].map((code) => code.split('-')[0]);
  const folder = `evaluation/${src}-${tgt}`;
  if (!existsSync(join(root, folder))) return undefined;
  const suffix = `.bergamot-${model.architecture}.${tgt}.bleu`;
  const names = readdirSync(join(root, folder)).filter((name) => name.endsWith(suffix));
  const wmt = names.filter((name) => /^wmt\d+\./.test(name)).sort().at(-1);
  const name = names.find((name) => name === `flores-test${suffix}`) ?? wmt;
  if (!name) return undefined;
  const value = Number(readFileSync(join(root, folder, name), 'utf8').trim());
  if (!Number.isFinite(value)) return undefined;
  const testset = name.startsWith('flores-test') ? 'flores101-devtest' : name.slice(0, name.indexOf('.'));
  return { metric: 'BLEU', value, testset, source: `${FIREFOX.url}/blob/${commit}/${folder}/${name}` };
}

/** The Firefox entries of a clone of mozilla/firefox-translations-models, and its source record. */
export function firefoxPairs(root) {
  const commit = headCommit(root);
  const license = spdxOf(join(root, 'LICENSE'));
  const pairs = bestFirefoxModels(root, commit).map((model) => {
    const entry = {
      sourceLang: model.sourceLanguage, targetLang: model.targetLanguage, kind: 'firefox',
      url: `${FIREFOX.url}/tree/${commit}/${model.path}`, variant: model.architecture,
      files: model.files, size: model.files.reduce((sum, file) => sum + file.size, 0), license,
      attribution: 'Firefox Translations model by Mozilla (https://github.com/mozilla/firefox-translations-models), '
        + `licensed under ${license}.`,
    };
    const score = firefoxScore(root, model, commit);
    return score ? { ...entry, score } : entry;
  });
  return { source: { ...FIREFOX, commit }, pairs };
}

// ---------------------------------------------------------------------------------------------- catalog

const KINDS = ['opus-mt', 'opus-mt-tc', 'firefox'];

/** The catalog object: pairs sorted by source, target and kind; a repeated (kind, source, target) is an error. */
export function buildCatalog({ opusMtTrain, firefoxModels, date }) {
  const parts = [opusMtTrain && opusMtPairs(opusMtTrain), firefoxModels && firefoxPairs(firefoxModels)].filter(Boolean);
  const pairs = parts.flatMap((part) => part.pairs).sort((a, b) => byCodePoints(a.sourceLang, b.sourceLang)
    || byCodePoints(a.targetLang, b.targetLang) || KINDS.indexOf(a.kind) - KINDS.indexOf(b.kind));
  const seen = new Set();
  for (const { kind, sourceLang, targetLang } of pairs) {
    const key = `${kind} ${sourceLang} ${targetLang}`;
    if (seen.has(key)) throw new Error(`two ${kind} entries for ${sourceLang}→${targetLang}`);
    seen.add(key);
  }
  return { generated: date, generator: GENERATOR, sources: parts.map((part) => part.source), pairs };
}

/** JSON with one source and one pair a line: small, and a regeneration's diff shows the pairs that changed. */
export function formatCatalog(catalog) {
  const list = (items) => items.map((item) => `    ${JSON.stringify(item)}`).join(',\n');
  return ['{', `  "generated": ${JSON.stringify(catalog.generated)},`,
    `  "generator": ${JSON.stringify(catalog.generator)},`,
    '  "sources": [', list(catalog.sources), '  ],', '  "pairs": [', list(catalog.pairs), '  ]', '}', ''].join('\n');
}

function main() {
  const { values } = parseArgs({ options: {
    'opus-mt-train': { type: 'string' }, 'firefox-models': { type: 'string' },
    out: { type: 'string', default: fileURLToPath(new URL('../models/pairs.json', import.meta.url)) },
    date: { type: 'string', default: new Date().toISOString().slice(0, 10) },
  } });
  if (!values['opus-mt-train'] && !values['firefox-models']) {
    throw new Error('usage: node tools/pairs-catalog.js --opus-mt-train DIR --firefox-models DIR [--out FILE] [--date YYYY-MM-DD]');
  }
  if (!/^\d{4}-\d{2}-\d{2}$/.test(values.date)) throw new Error(`--date ${values.date}: not YYYY-MM-DD`);
  const catalog = buildCatalog({ opusMtTrain: values['opus-mt-train'] && resolve(values['opus-mt-train']),
    firefoxModels: values['firefox-models'] && resolve(values['firefox-models']), date: values.date });
  mkdirSync(dirname(resolve(values.out)), { recursive: true });
  writeFileSync(values.out, formatCatalog(catalog));
  const counts = KINDS.map((kind) => `${catalog.pairs.filter((pair) => pair.kind === kind).length} ${kind}`);
  console.log(`${values.out}: ${catalog.pairs.length} pairs (${counts.join(', ')})`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) main();
