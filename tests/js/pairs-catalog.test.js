// tools/pairs-catalog.js reads clones of Helsinki-NLP/OPUS-MT-train and mozilla/firefox-translations-models
// and writes models/pairs.json. Here it runs on two small repositories laid out like the real ones (README
// benchmark tables, LFS pointer files, evaluation/ scores), and the committed models/pairs.json is checked
// for the fields the page reads.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { formatCatalog, preferredRow } from '../../tools/pairs-catalog.js';
import { ROOT } from './paths.js';

const SCRIPT = join(ROOT, 'tools/pairs-catalog.js');
const MEDIA = 'https://media.githubusercontent.com/media/mozilla/firefox-translations-models';
const sha = (text) => createHash('sha256').update(text).digest('hex');

function writeTree(root, files) {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

/** A git repository holding `files`, committed; returns its folder and commit. */
function repository(files) {
  const root = mkdtempSync(join(tmpdir(), 'pairs-catalog-'));
  writeTree(root, files);
  const git = (...args) => execFileSync('git', ['-C', root, '-c', 'user.name=test', '-c', 'user.email=test@example.org',
    '-c', 'commit.gpgsign=false', ...args], { encoding: 'utf8' }).trim();
  git('init', '-q');
  git('add', '-A');
  git('commit', '-qm', 'fixture');
  return { root, commit: git('rev-parse', 'HEAD') };
}

// An OPUS-MT README section as in OPUS-MT-train/models/<pair>/README.md (2020 releases).
const section = (pair, release, preprocessing, rows) => `# ${release}

* dataset: opus
* model: transformer-align
* pre-processing: ${preprocessing}
* download: [${release}](https://object.pouta.csc.fi/OPUS-MT-models/${pair}/${release})
* test set translations: [x.test.txt](https://object.pouta.csc.fi/OPUS-MT-models/${pair}/x.test.txt)
* test set scores: [x.eval.txt](https://object.pouta.csc.fi/OPUS-MT-models/${pair}/x.eval.txt)

## Benchmarks

| testset               | BLEU  | chr-F |
|-----------------------|-------|-------|
${rows.map(([testset, bleu, chrf]) => `| ${testset} \t| ${bleu} \t| ${chrf} |`).join('\n')}
`;
const SPM = 'normalization + SentencePiece';

const OPUS_FILES = {
  'models/LICENSE': 'Attribution 4.0 International\n\n=======================================================================\n',
  'models/README.md': '\n# OPUS-MT - models\n',
  'models/en-de/README.md': [
    section('en-de', 'opus-2019-12-04.zip', SPM, [['newstest2019-ende.en.de', '39.2', '0.638'], ['Tatoeba.en.de', '44.2', '0.637']]),
    section('en-de', 'opus-2020-02-26.zip', SPM, [['newstest2018-ende.en.de', '45.2', '0.690'],
      ['newstest2019-ende.en.de', '40.9', '0.654'], ['Tatoeba.en.de', '47.3', '0.664']]),
  ].join('\n'),
  // A newer layout: a table with more columns, and only an in-domain test set.
  'models/bcl-en/README.md': `# opus+nt+bt-2021-04-12.zip

* target language(s): en
* model: transformer-align
* pre-processing: normalization + SentencePiece (spm32k,spm32k)
* download: [opus+nt+bt-2021-04-12.zip](https://object.pouta.csc.fi/OPUS-MT-models/bcl-en/opus+nt+bt-2021-04-12.zip)

## Benchmarks

| testset | BLEU  | chr-F | #sent | #words | BP |
|---------|-------|-------|-------|--------|----|
| wikimedia.bcl-en 	| 31.5 	| 0.523 	| 1000 	| 31520 	| 0.836 |
`,
  'models/fr-en/README.md': section('fr-en', 'opus-2020-02-26.zip', SPM, [['Tatoeba.fr.en', '57.5', '0.720']]),
  'models/am-en/README.md': section('am-en', 'opus-2019-12-04.zip', 'normalization + tokenization + BPE', [['Tatoeba.am.en', '23.5', '0.492']]),
  'models/en-ga+cy+br+gd+kw+gv/README.md': section('en-ga+cy+br+gd+kw+gv', 'opus-2020-04-11.zip', SPM, [['Tatoeba.en.ga', '20.0', '0.450']]),
  'models/ga+cy+br+gd+kw+gv-en/README.md': section('ga+cy+br+gd+kw+gv-en', 'opus+techiaith+bt-2020-05-08.zip', SPM,
    [['Tatoeba.ga.en', '25.3', '0.400'], ['Tatoeba.cy.en', '30.1', '0.470']]),
};

const pointer = (name, size) => `version https://git-lfs.github.com/spec/v1\noid sha256:${sha(name)}\nsize ${size}\n`;
/** A Firefox model folder: metadata.json and LFS pointers { name: size }. */
function firefoxModel(path, sourceLanguage, targetLanguage, files) {
  const architecture = path.split('/')[1];
  return {
    [`${path}/metadata.json`]: `${JSON.stringify({ architecture, byteSize: 1, sourceLanguage, targetLanguage }, null, 2)}\n`,
    ...Object.fromEntries(Object.entries(files).map(([name, size]) => [`${path}/${name}`, pointer(`${path}/${name}`, size)])),
  };
}

const FIREFOX_FILES = {
  LICENSE: 'Mozilla Public License Version 2.0\n==================================\n',
  'models/by-hash.json': '{}\n',
  ...firefoxModel('models/base-memory/enfr', 'en', 'fr',
    { 'lex.50.50.enfr.s2t.bin.gz': 2297334, 'model.enfr.intgemm.alphas.bin.gz': 23045432, 'vocab.enfr.spm.gz': 409706 }),
  ...firefoxModel('models/tiny/enfr', 'en', 'fr',
    { 'lex.50.50.enfr.s2t.bin.gz': 2297334, 'model.enfr.intgemm.alphas.bin.gz': 12293754, 'vocab.enfr.spm.gz': 409706 }),
  ...firefoxModel('models/base/enzh', 'en', 'zh-Hans', { 'lex.50.50.enzh.s2t.bin.gz': 3537095,
    'model.enzh.intgemm.alphas.bin.gz': 30500315, 'srcvocab.enzh.spm.gz': 407784, 'trgvocab.enzh.spm.gz': 600000 }),
  ...firefoxModel('models/base-memory/enzh', 'en', 'zh', { 'model.enzh.intgemm.alphas.bin.gz': 20000000 }),
  ...firefoxModel('models/tiny/enes', 'en', 'es', { 'model.enes.intgemm.alphas.bin.gz': 17000000, 'qualityModel.enes.bin.gz': 100 }),
  ...firefoxModel('models/tiny/sqen', 'sq', 'en', { 'model.sqen.intgemm.alphas.bin.gz': 16000000 }),
  'evaluation/en-fr/flores-test.bergamot-base-memory.fr.bleu': '49.6\n',
  'evaluation/en-fr/flores-dev.bergamot-base-memory.fr.bleu': '47.0\n',
  'evaluation/en-fr/flores-test.bergamot-tiny.fr.bleu': '48.5\n',
  'evaluation/en-fr/flores-test.google.fr.bleu': '55.0\n',
  'evaluation/en-zh/flores-test.bergamot-base.zh.bleu': '39.0\n',
  'evaluation/en-zh/flores-test.bergamot-base-memory.zh.bleu': '35.0\n',
  'evaluation/en-es/wmt12.bergamot-tiny.es.bleu': '30.1\n',
  'evaluation/en-es/wmt13.bergamot-tiny.es.bleu': '31.2\n',
  'evaluation/en-es/flores-test.google.es.bleu': '28.0\n',
};

describe('on two small repositories in the real layouts', () => {
  let opus, firefox, catalog, run;
  const find = (kind, sourceLang, targetLang) => catalog.pairs.find((p) => p.kind === kind
    && p.sourceLang === sourceLang && p.targetLang === targetLang);

  beforeAll(() => {
    opus = repository(OPUS_FILES);
    firefox = repository(FIREFOX_FILES);
    const out = join(mkdtempSync(join(tmpdir(), 'pairs-catalog-out-')), 'pairs.json');
    run = spawnSync(process.execPath, [SCRIPT, '--opus-mt-train', opus.root, '--firefox-models', firefox.root,
      '--out', out, '--date', '2026-01-02'], { encoding: 'utf8' });
    catalog = run.status === 0 ? JSON.parse(readFileSync(out, 'utf8')) : undefined;
  });

  test('the script runs and records the date and both sources with their commits', () => {
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/8 pairs \(4 opus-mt, 0 opus-mt-tc, 4 firefox\)/);
    expect(catalog.generated).toBe('2026-01-02');
    expect(catalog.generator).toBe('tools/pairs-catalog.js');
    expect(catalog.sources).toEqual([
      { name: 'Helsinki-NLP/OPUS-MT-train', url: 'https://github.com/Helsinki-NLP/OPUS-MT-train', commit: opus.commit },
      { name: 'mozilla/firefox-translations-models', url: 'https://github.com/mozilla/firefox-translations-models',
        commit: firefox.commit },
    ]);
    expect(catalog.pairs.map((p) => `${p.kind} ${p.sourceLang}-${p.targetLang}`)).toEqual([
      'opus-mt CELTIC-en', 'opus-mt bcl-en', 'opus-mt en-de', 'firefox en-es', 'firefox en-fr', 'firefox en-zh-Hans',
      'opus-mt fr-en', 'firefox sq-en',
    ]);
  });

  test('OPUS-MT: the Hub id, the last release of the README, its newest newstest BLEU, no size', () => {
    const readme = `https://github.com/Helsinki-NLP/OPUS-MT-train/blob/${opus.commit}/models/en-de/README.md`;
    expect(find('opus-mt', 'en', 'de')).toEqual({
      sourceLang: 'en', targetLang: 'de', kind: 'opus-mt', id: 'Helsinki-NLP/opus-mt-en-de', release: 'opus-2020-02-26.zip',
      license: 'CC-BY-4.0', attribution: expect.stringMatching(/^OPUS-MT model .*CC BY 4\.0\.$/),
      score: { metric: 'BLEU', value: 40.9, testset: 'newstest2019-ende.en.de', source: readme },
    });
    expect(find('opus-mt', 'fr', 'en').score).toMatchObject({ value: 57.5, testset: 'Tatoeba.fr.en' });
    expect(find('opus-mt', 'bcl', 'en').score).toMatchObject({ value: 31.5, testset: 'wikimedia.bcl-en' });
  });

  test('OPUS-MT: BPE models and groups of target languages are left out; a group of sources keeps its Hub name', () => {
    expect(catalog.pairs.some((p) => p.sourceLang === 'am' || p.targetLang.includes('+') || p.targetLang === 'CELTIC')).toBe(false);
    expect(find('opus-mt', 'CELTIC', 'en')).toMatchObject({
      id: 'Helsinki-NLP/opus-mt-CELTIC-en', sourceGroup: ['ga', 'cy', 'br', 'gd', 'kw', 'gv'],
      score: { value: 25.3, testset: 'Tatoeba.ga.en',
        source: `https://github.com/Helsinki-NLP/OPUS-MT-train/blob/${opus.commit}/models/ga%2Bcy%2Bbr%2Bgd%2Bkw%2Bgv-en/README.md` },
    });
  });

  test('Firefox: base-memory over tiny, with the LFS sizes, sha256s and media URLs, and its own FLORES devtest BLEU', () => {
    const path = `${firefox.commit}/models/base-memory/enfr`;
    const file = (name, size) => ({ name, size, sha256: sha(`models/base-memory/enfr/${name}`), url: `${MEDIA}/${path}/${name}` });
    expect(find('firefox', 'en', 'fr')).toEqual({
      sourceLang: 'en', targetLang: 'fr', kind: 'firefox',
      url: `https://github.com/mozilla/firefox-translations-models/tree/${path}`, variant: 'base-memory',
      files: [file('lex.50.50.enfr.s2t.bin.gz', 2297334), file('model.enfr.intgemm.alphas.bin.gz', 23045432),
        file('vocab.enfr.spm.gz', 409706)],
      size: 2297334 + 23045432 + 409706, license: 'MPL-2.0', attribution: expect.stringMatching(/^Firefox Translations .*MPL-2\.0\.$/),
      score: { metric: 'BLEU', value: 49.6, testset: 'flores101-devtest', source:
        `https://github.com/mozilla/firefox-translations-models/blob/${firefox.commit}/evaluation/en-fr/flores-test.bergamot-base-memory.fr.bleu` },
    });
  });

  test('Firefox: base over base-memory, its language codes; a WMT score without FLORES; none without evaluation', () => {
    const zh = find('firefox', 'en', 'zh-Hans');
    expect(zh).toMatchObject({ variant: 'base', size: 3537095 + 30500315 + 407784 + 600000, score: { value: 39.0 } });
    expect(zh.files.map((f) => f.name)).toEqual(['lex.50.50.enzh.s2t.bin.gz', 'model.enzh.intgemm.alphas.bin.gz',
      'srcvocab.enzh.spm.gz', 'trgvocab.enzh.spm.gz']);
    expect(find('firefox', 'en', 'es')).toMatchObject({ size: 17000100, score: { value: 31.2, testset: 'wmt13' } });
    expect(find('firefox', 'sq', 'en')).toMatchObject({ variant: 'tiny', size: 16000000 });
    expect(find('firefox', 'sq', 'en').score).toBeUndefined();
  });
});

test('a benchmark row is chosen FLORES first, then the newest newstest, then Tatoeba, then the first row', () => {
  const rows = (...names) => names.map((testset, i) => ({ testset, bleu: i, chrf: 0 }));
  expect(preferredRow(rows('Tatoeba.en.de', 'newstest2019-ende.en.de', 'flores101-devtest')).testset).toBe('flores101-devtest');
  expect(preferredRow(rows('newsdev2019.en.de', 'newstest2014.en.de', 'newstestB2017-enfi.en.fi', 'newstest2012.en.de'))
    .testset).toBe('newstestB2017-enfi.en.fi');
  expect(preferredRow(rows('JW300.en.de', 'Tatoeba.en.de')).testset).toBe('Tatoeba.en.de');
  expect(preferredRow(rows('JW300.en.de', 'bible-uedin.en.de')).testset).toBe('JW300.en.de');
  expect(preferredRow([])).toBeUndefined();
});

describe('the committed models/pairs.json', () => {
  const text = readFileSync(join(ROOT, 'models/pairs.json'), 'utf8');
  const catalog = JSON.parse(text);
  const positiveInteger = (n) => Number.isSafeInteger(n) && n > 0;

  test('is written by the script: its header, its sources at full commits, one entry a line', () => {
    expect(catalog.generated).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(catalog.generator).toBe('tools/pairs-catalog.js');
    expect(catalog.sources.length).toBeGreaterThan(0);
    for (const source of catalog.sources) {
      expect(source).toEqual({ name: expect.any(String), url: `https://github.com/${source.name}`,
        commit: expect.stringMatching(/^[0-9a-f]{40}$/) });
    }
    expect(formatCatalog(catalog)).toBe(text);
  });

  test('each entry has the fields of its kind, with the right types', () => {
    for (const pair of catalog.pairs) {
      const where = JSON.stringify(pair).slice(0, 160);
      expect(['opus-mt', 'opus-mt-tc', 'firefox'], where).toContain(pair.kind);
      // Well-formed BCP 47, kept as the models name them (Intl would make "bcl" "bik" and "tl" "fil").
      expect(() => Intl.getCanonicalLocales(pair.targetLang), where).not.toThrow();
      if (!pair.sourceGroup) expect(() => Intl.getCanonicalLocales(pair.sourceLang), where).not.toThrow();
      else expect(pair.sourceGroup.every((code) => typeof code === 'string' && code), where).toBe(true);
      expect(typeof pair.license === 'string' && typeof pair.attribution === 'string', where).toBe(true);
      if (pair.size !== undefined) expect(positiveInteger(pair.size), where).toBe(true);
      if (pair.kind === 'firefox') checkFirefox(pair, where);
      else expect(pair.id, where).toMatch(/^Helsinki-NLP\/opus-mt-\S+$/);
      if (pair.score) {
        expect(pair.score, where).toEqual({ metric: expect.stringMatching(/^(BLEU|chrF|COMET)$/), value: expect.any(Number),
          testset: expect.any(String), source: expect.stringMatching(/^https:\/\/github\.com\/\S+\/blob\/[0-9a-f]{40}\/\S+$/) });
      }
    }
  });

  function checkFirefox(pair, where) {
    const commit = catalog.sources.find((s) => s.name === 'mozilla/firefox-translations-models').commit;
    expect(pair.url, where).toMatch(new RegExp(`^https://github\\.com/mozilla/firefox-translations-models/tree/${commit}/models/`));
    expect(pair.files.length, where).toBeGreaterThan(0);
    for (const file of pair.files) {
      expect(positiveInteger(file.size), where).toBe(true);
      expect(file.sha256, where).toMatch(/^[0-9a-f]{64}$/);
      expect(file.url, where).toBe(`${MEDIA}/${commit}/${pair.url.split(`/tree/${commit}/`)[1]}/${file.name}`);
    }
    expect(pair.size, where).toBe(pair.files.reduce((sum, file) => sum + file.size, 0));
  }

  test('has one entry per kind and pair, and the licences the sources give', () => {
    const keys = catalog.pairs.map((p) => `${p.kind} ${p.sourceLang} ${p.targetLang}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const pair of catalog.pairs) expect(pair.license).toBe(pair.kind === 'firefox' ? 'MPL-2.0' : 'CC-BY-4.0');
  });
});
