// The npm packages as a user gets them: `npm pack` the core package and the catalog's en→de model
// package, install both in an empty project with the README's command (`npm install --install-links
// --ignore-scripts CLONE CLONE/models/general-en-de`), translate there from Node and from the CLI, download
// the de→en model with `crossattn download` from a catalog a local HTTP server serves, and convert a
// model of each format another engine uses with its CLI. Also the rules the packages keep: the core at
// most 2 MB and free of models, a model trained on research-only data never publishable and marked
// research-only in the catalog, and the README naming only packages this repository makes. Models by
// their Hub id, from a local stand-in for the Hub (HF_ENDPOINT), kept in $XDG_CACHE_HOME/crossattn.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startHub } from './fixtures/hub-server.js';
import { FIXTURES, HF, XENOVA, ensureFixtures } from './opus-mt-fixtures.js';
import { ROOT } from './paths.js';

const rootPackage = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8'));
const modelPackages = rootPackage.workspaces.map((dir) => ({
  dir, json: JSON.parse(readFileSync(`${ROOT}${dir}/package.json`, 'utf8')),
}));
const MAX_CORE_BYTES = 2_000_000;

let work, core, model;

/** `npm pack` of the package in `args` (none: the core) into `work`; npm's JSON report of it. */
function pack(...args) {
  const out = execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work, ...args],
                           { cwd: ROOT, encoding: 'utf8' });
  return JSON.parse(out)[0];
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'crossattn-pack-'));
  core = pack();
  model = pack('-w', 'models/general-en-de');
  const project = join(work, 'project');
  execFileSync('mkdir', ['-p', project]);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'user-project', private: true, type: 'module' }));
  const install = (...args) => execFileSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', ...args],
                                            { cwd: project, encoding: 'utf8' });
  install('--install-links', '--ignore-scripts', ROOT, `${ROOT}models/general-en-de`);  // the README's command
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

test('the core package: the three engines, their types, the CLI and the catalog, no model, at most 2 MB', () => {
  const files = core.files.map((f) => f.path);
  expect(core.size).toBeLessThanOrEqual(MAX_CORE_BYTES);
  expect(files).toEqual(expect.arrayContaining(['LICENSE', 'README.md', 'package.json', 'dist/crossattn.wasm',
    'dist/crossattn.mjs', 'dist/crossattn-mt.wasm', 'dist/crossattn-mt.mjs', 'dist/crossattn-mt.worker.js',
    'dist/crossattn-relaxed.wasm', 'dist/crossattn-relaxed.mjs', 'dist/crossattn-relaxed.d.mts', 'dist/index.js', 'dist/index.d.ts', 'dist/worker.js', 'dist/cli.js', 'models/catalog.json']));
  expect(files.filter((f) => f.endsWith('.crossattn'))).toEqual([]);
});

test('a model trained on research-only data is private; every model package holds its file and card', () => {
  for (const { dir, json } of modelPackages) {
    const meta = json.crossattn;
    if (meta.research_only_data.length > 0) expect(json.private, `${dir} must not be publishable`).toBe(true);
    expect(json.files).toEqual(expect.arrayContaining([meta.model, 'README.md']));
    const card = readFileSync(`${ROOT}${dir}/README.md`, 'utf8');
    for (const name of meta.research_only_data) expect(card).toContain(name);
  }
  const catalog = JSON.parse(readFileSync(`${ROOT}models/catalog.json`, 'utf8'));
  for (const d of catalog.directions) {
    const meta = modelPackages.find((p) => p.json.name === d.package).json.crossattn;
    expect(d.research_only === true, `${d.package}: the catalog's research_only`).toBe(meta.research_only_data.length > 0);
  }
  expect(model.files.map((f) => f.path).sort()).toEqual(['README.md', 'general-en-de.int8.crossattn', 'package.json']);
});

test('the catalog and the README name only model packages of this repository', () => {
  const names = new Set(modelPackages.map((p) => p.json.name));
  const catalog = JSON.parse(readFileSync(`${ROOT}models/catalog.json`, 'utf8'));
  for (const d of catalog.directions) expect(names).toContain(d.package);
  const readme = readFileSync(`${ROOT}README.md`, 'utf8');
  const named = [...readme.matchAll(/\bcrossattn-[a-z0-9]+(?:-[a-z0-9]+)+\b/g)].map((m) => m[0])
    .filter((n) => !n.startsWith('crossattn-cli'));  // the native tool, not a package
  expect(named.length).toBeGreaterThan(0);
  for (const n of named) expect(names).toContain(n);
});

test('installed: translates in Node with the import the README shows', () => {
  const script = `import { Translator } from 'crossattn';
    const t = await Translator.load(new URL(import.meta.resolve('crossattn-general-en-de')));
    const r = await t.translate('Where is the station?');
    console.log(JSON.stringify({ text: r.text, name: t.config.name }));`;
  const out = execFileSync('node', ['--input-type=module', '-e', script], { cwd: join(work, 'project'), encoding: 'utf8' });
  const { text } = JSON.parse(out);
  expect(text).toMatch(/\b(Bahnhof|wo)\b/i);
});

test('installed: the Translator API from crossattn/translator-api, with the installed en→de model, and its polyfill', () => {
  const script = `import { Translator, LanguageDetector, polyfill } from 'crossattn/translator-api';
    const [{ detectedLanguage }] = await (await LanguageDetector.create()).detect('Where is the station?');
    const availability = await Translator.availability({ sourceLanguage: 'en', targetLanguage: 'de' });
    const missing = await Translator.availability({ sourceLanguage: 'de', targetLanguage: 'en' });
    const text = await (await Translator.create({ sourceLanguage: 'en', targetLanguage: 'de' })).translate('Where is the station?');
    console.log(JSON.stringify({ detectedLanguage, availability, missing, text, defined: polyfill(), same: globalThis.Translator === Translator }));`;
  const out = JSON.parse(execFileSync('node', ['--input-type=module', '-e', script], { cwd: join(work, 'project'), encoding: 'utf8' }));
  expect(out).toMatchObject({ detectedLanguage: 'en', availability: 'available', missing: 'unavailable', same: true,
    defined: { Translator: true, LanguageDetector: true } });
  expect(out.text).toMatch(/\b(Bahnhof|wo)\b/i);
});

test('installed: the CLI finds the installed model, and names the package of a missing one', () => {
  const bin = join(work, 'project', 'node_modules', '.bin', 'crossattn');
  const ok = spawnSync(bin, ['translate', '--from', 'en', '--to', 'de', 'Where is the station?'], { encoding: 'utf8' });
  expect(ok.status, ok.stderr).toBe(0);
  expect(ok.stdout).toMatch(/\b(Bahnhof|wo)\b/i);
  const missing = spawnSync(bin, ['translate', '--from', 'de', '--to', 'en', 'Wo ist der Bahnhof?'], { encoding: 'utf8' });
  expect(missing.status).toBe(1);
  expect(missing.stderr.trim()).toBe('crossattn: no de→en model is installed: install the package crossattn-general-de-en ' +
    '(README: "Installing a model"), download it with crossattn download --from de --to en --catalog URL, or pass --model FILE');
  expect(readFileSync(`${ROOT}README.md`, 'utf8')).toContain('## Installing a model');
  expect(existsSync(join(work, 'project', 'node_modules', 'crossattn-general-en-de', 'general-en-de.int8.crossattn'))).toBe(true);
});

/** The exit status and output of `COMMAND ARGS` in the project, run without blocking this process's servers. */
async function run(command, args, env = {}) {
  const child = spawn(command, args, { cwd: join(work, 'project'), env: { ...process.env, ...env } });
  let stdout = '', stderr = '';
  child.stdout.on('data', (d) => { stdout += d; });
  child.stderr.on('data', (d) => { stderr += d; });
  const [status] = await once(child, 'close');
  return { status, stdout, stderr };
}

/** `npx crossattn ARGS` in the project. */
const npx = (...args) => run('npx', ['crossattn', ...args]);

test('installed: crossattn download fetches the served catalog\'s de→en model where translate finds it', async () => {
  // The repository's models/ folder served as a site serves it (npm run build:site): its catalog's hashes are the files'.
  const escape = Buffer.from('not a model, only bytes a catalog lists');
  const hash = (await import('node:crypto')).createHash('sha256').update(escape).digest('hex');
  const server = createServer((req, res) => {
    if (req.url === '/other/catalog.json') {  // a direction the package's catalog lacks, its file name climbing out
      return res.end(JSON.stringify({ directions: [{ source_lang: 'fr', target_lang: 'en', model: 'x%2F..%2F..%2F..%2Fescape.crossattn',
        sha256: hash, size: escape.length }] }));
    }
    if (req.url === '/other/x%2F..%2F..%2F..%2Fescape.crossattn') return res.end(escape);
    const path = `${ROOT}${decodeURIComponent(req.url).replace(/^\/+/, '')}`;
    if (!req.url.startsWith('/models/') || req.url.includes('..') || !existsSync(path)) return res.writeHead(404).end();
    res.writeHead(200, { 'content-length': readFileSync(path).length }).end(readFileSync(path));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const base = `http://127.0.0.1:${server.address().port}`;
  try {
    const refused = await npx('download', '--from', 'de', '--to', 'en', '--catalog', `${base}/models/catalog.json`);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/^crossattn download: general-de-en was trained on data licensed for research use only .*--accept-license/);
    const got = await npx('download', 'general-de-en', '--catalog', `${base}/models/catalog.json`, '--accept-license');
    expect(got.status, got.stderr).toBe(0);
    const file = join(work, 'project', 'node_modules', 'crossattn', 'models', 'general-de-en', 'general-de-en.int8.crossattn');
    const megabytes = (statSync(`${ROOT}models/general-de-en/general-de-en.int8.crossattn`).size / 1e6).toFixed(1);  // the file the catalog describes
    expect(got.stdout).toBe(`wrote ${file} (general-de-en, de→en, ${megabytes} MB, research use (its data's licences: see the card), research only; SHA-256 checked)\n`);
    expect(readFileSync(file).equals(readFileSync(`${ROOT}models/general-de-en/general-de-en.int8.crossattn`))).toBe(true);
    const translated = await npx('translate', '--from', 'de', '--to', 'en', 'Wo ist der Bahnhof?');
    expect(translated.status, translated.stderr).toBe(0);
    expect(translated.stdout).toMatch(/\bstation\b/i);
    const other = await npx('download', '--from', 'fr', '--to', 'en', '--catalog', `${base}/other/catalog.json`);
    expect(other.status, other.stderr).toBe(0);
    expect(other.stdout).toContain(join(work, 'project', 'node_modules', 'crossattn', 'models', 'escape.crossattn'));
  } finally {
    server.close();
  }
});

test('installed: npx crossattn convert reads all three formats, and the files translate', () => {
  ensureFixtures();  // tools/opus-mt-fixtures.py: a Hugging Face folder and a transformers.js folder of one model
  const marian = execFileSync('bash', [`${ROOT}tests/js/fixtures/marian-models.sh`], { encoding: 'utf8' }).trim();
  const project = join(work, 'project');
  const inputs = { huggingface: HF, 'transformers-js': XENOVA, marian: `${ROOT}${marian}/fp32/model.bin`, ssru: `${ROOT}${marian}/ssru/model.npz` };
  for (const [format, input] of Object.entries(inputs)) {
    const output = join(work, `${format}.crossattn`);
    const convert = spawnSync('npx', ['crossattn', 'convert', input, '-o', output, '--from', 'en', '--to', 'de'],
                              { cwd: project, encoding: 'utf8' });
    expect(convert.status, `${format}: ${convert.stderr}`).toBe(0);
    expect(convert.stdout, format).toMatch(/en→de/);
    const translate = spawnSync('npx', ['crossattn', 'translate', '--model', output, '--json', 'Where is the station?'],
                                { cwd: project, encoding: 'utf8' });
    expect(translate.status, `${format}: ${translate.stderr}`).toBe(0);
    const result = JSON.parse(translate.stdout);
    expect(result.text.length, format).toBeGreaterThan(0);
    expect(result.model.convertedFrom, format).toBe(format === 'ssru' ? 'marian' : format === 'huggingface' ? 'huggingface-marian' : format.replace('-js', '.js'));
  }
  const bad = spawnSync('npx', ['crossattn', 'convert', join(work, 'nothing-here'), '-o', join(work, 'x.crossattn')], { cwd: project, encoding: 'utf8' });
  expect(bad.status).toBe(1);
  expect(bad.stderr.trim().split('\n')).toHaveLength(1);
});

test('installed: a model by its Hub id, from HF_ENDPOINT, in all three layouts, by Translator.load and the CLI; kept for offline use', async () => {
  ensureFixtures();
  const hub = await startHub({ 'Helsinki-NLP/opus-mt-en-de': HF, 'old-org/opus-mt-en-de': `${FIXTURES}/hf-pytorch/opus-mt-en-de`, 'Xenova/opus-mt-en-de': XENOVA });
  const cache = join(work, 'xdg-cache');
  const env = { HF_ENDPOINT: hub.url, XDG_CACHE_HOME: cache };
  const load = (id) => run('node', ['--input-type=module', '-e', `import { Translator } from 'crossattn';
    const t = await Translator.load(${JSON.stringify(id)});
    const r = await t.translate('Where is the station?', { beamSize: 1 });
    console.log(JSON.stringify({ text: r.text, source: t.info.source, from: t.info.convertedFrom }));`], env);
  const translated = {};
  try {
    for (const id of ['Helsinki-NLP/opus-mt-en-de', 'old-org/opus-mt-en-de', 'Xenova/opus-mt-en-de']) {
      const api = await load(id);
      expect(api.status, `${id}: ${api.stderr}`).toBe(0);
      const r = JSON.parse(api.stdout);
      expect(r.source).toBe(`${hub.url}/${id}`);
      expect(r.from).toBe(id.startsWith('Xenova') ? 'transformers.js' : 'huggingface-marian');
      translated[id] = r.text;
      const cli = await run('npx', ['crossattn', 'translate', '--model', id, '--beam-size', '1', 'Where is the station?'], env);
      expect(cli.status, `${id}: ${cli.stderr}`).toBe(0);
      expect(cli.stdout.trim()).toBe(r.text);
    }
    expect(new Set(Object.values(translated)).size).toBe(1);  // the same weights in three layouts
    expect(translated['Helsinki-NLP/opus-mt-en-de']).toMatch(/Bahnhof/);
  } finally {
    await hub.close();
  }
  // The hub is gone: each model comes from the cache, with no request.
  for (const id of Object.keys(translated)) {
    const offline = await run('npx', ['crossattn', 'translate', '--model', id, '--beam-size', '1', 'Where is the station?'], env);
    expect(offline.status, `${id}: ${offline.stderr}`).toBe(0);
    expect(offline.stdout.trim()).toBe(translated[id]);
    expect(existsSync(join(cache, 'crossattn', 'hub', new URL(hub.url).host.replace(/[^A-Za-z0-9.-]/g, '_'), id, 'main', 'model.crossattn'))).toBe(true);
  }
}, 300_000);
