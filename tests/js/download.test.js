// `crossattn download` (bindings/src/download.ts) against a catalog that a local HTTP server serves: it
// lists the models, writes a file whose size and SHA-256 match the catalog, refuses a research-only
// model without --accept-license, and leaves nothing behind when the bytes, the size or the URL are
// wrong. Writing beside an installed package's catalog (where `translate --from --to` finds the
// model) is tested on the packed package in package.test.js.
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ROOT } from './paths.js';

const MODEL = randomBytes(200_000);  // the download checks size and hash only; the file is never loaded
const SHA256 = createHash('sha256').update(MODEL).digest('hex');
const files = new Map();  // URL path → bytes the server answers with
let server, base, work;

/** Serves a catalog at /NAME/catalog.json with these directions (the model file at /m/model.crossattn); its URL. */
function serveCatalog(name, directions) {
  files.set(`/${name}/catalog.json`, Buffer.from(JSON.stringify({ directions })));
  return `${base}/${name}/catalog.json`;
}

const entry = (fields) => ({ source_lang: 'en', target_lang: 'fr', package: 'crossattn-test-en-fr', model: '../m/model.crossattn',
  sha256: SHA256, size: MODEL.length, license: 'CC-BY-4.0', ...fields });

/** Runs the CLI (not blocking this process, which serves the files); its exit status and output. */
async function cli(...args) {
  const child = spawn(process.execPath, [`${ROOT}dist/cli.js`, 'download', ...args], { encoding: 'utf8' });
  let stdout = '', stderr = '';
  child.stdout.on('data', (d) => { stdout += d; });
  child.stderr.on('data', (d) => { stderr += d; });
  const [status] = await once(child, 'close');
  return { status, stdout, stderr };
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'crossattn-download-'));
  files.set('/m/model.crossattn', MODEL);
  server = createServer((req, res) => {
    const body = files.get(req.url);
    res.writeHead(body ? 200 : 404, body ? { 'content-length': body.length } : {});
    res.end(body);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${server.address().port}`;
});

afterAll(() => {
  server.close();
  rmSync(work, { recursive: true, force: true });
});

test('without a name it lists the catalog: name, direction, size and licence', async () => {
  const url = serveCatalog('list', [entry({}), entry({ source_lang: 'de', target_lang: 'en', package: undefined,
    model: 'de-en.crossattn', size: 2_500_000, license: 'research use', research_only: true })]);
  const r = await cli('--catalog', url);
  expect(r.status, r.stderr).toBe(0);
  expect(r.stdout.trim().split('\n')).toEqual(['test-en-fr  en→fr  0.2 MB  CC-BY-4.0', 'de-en  de→en  2.5 MB  research use, research only']);
});

test('a model by name or direction is written to -o with the served bytes, and a second run finds it there', async () => {
  const url = serveCatalog('ok', [entry({})]);
  const out = join(work, 'ok', 'model.crossattn');
  const r = await cli('test-en-fr', '--catalog', url, '-o', out);
  expect(r.status, r.stderr).toBe(0);
  expect(r.stdout).toMatch(/^wrote .*model\.crossattn \(test-en-fr, en→fr, 0\.2 MB, CC-BY-4\.0; SHA-256 checked\)\n$/);
  expect(readFileSync(out).equals(MODEL)).toBe(true);
  const again = await cli('--from', 'en', '--to', 'fr', '--catalog', url, '-o', out);
  expect(again.status, again.stderr).toBe(0);
  expect(again.stdout).toMatch(/^already there: /);
});

test('a research-only model needs --accept-license, and the refusal names its licence', async () => {
  const url = serveCatalog('research', [entry({ license: 'research use (see the card)', research_only: true, card: 'card.md' })]);
  const out = join(work, 'research', 'model.crossattn');
  const refused = await cli('crossattn-test-en-fr', '--catalog', url, '-o', out);
  expect(refused.status).toBe(1);
  expect(refused.stderr.trim().split('\n')).toHaveLength(1);
  expect(refused.stderr).toContain('licensed for research use only (research use (see the card); card: ' + `${base}/research/card.md`);
  expect(refused.stderr).toContain('--accept-license');
  expect(existsSync(out)).toBe(false);
  const accepted = await cli('crossattn-test-en-fr', '--catalog', url, '-o', out, '--accept-license');
  expect(accepted.status, accepted.stderr).toBe(0);
  expect(readFileSync(out).equals(MODEL)).toBe(true);
});

test.each([
  ['another SHA-256', { sha256: 'ab'.repeat(32) }, `has SHA-256 ${SHA256}, the catalog says ${'ab'.repeat(32)}`],
  ['a smaller size', { size: 1000 }, "is larger than the catalog's 1000 bytes"],
  ['a larger size', { size: MODEL.length + 1 }, `has ${MODEL.length} bytes, the catalog says ${MODEL.length + 1}`],
  ['no sha256', { sha256: undefined }, 'the catalog gives no "sha256" for test-en-fr'],
  ['a missing file', { model: '../m/missing.crossattn' }, 'HTTP 404'],
])('a catalog entry with %s: one line, exit 1, nothing written', async (what, fields, message) => {
  const dir = join(work, what.replace(/\W/g, '-'));
  const url = serveCatalog(dir.split('/').at(-1), [entry(fields)]);
  const r = await cli('test-en-fr', '--catalog', url, '-o', join(dir, 'model.crossattn'));
  expect(r.status).toBe(1);
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  expect(r.stderr).toContain(message);
  expect(existsSync(dir) ? readdirSync(dir) : []).toEqual([]);
});

test('a bad command line, an unknown name and a catalog that is not one: one line each', async () => {
  const url = serveCatalog('names', [entry({})]);
  files.set('/bad/catalog.json', Buffer.from('{"models": []}'));
  const cases = [
    [['test-en-fr'], 2, 'give the catalog to read with --catalog URL'],
    [['--catalog', 'models/catalog.json'], 2, "--catalog must be an http or https URL, not 'models/catalog.json'"],
    [['--from', 'en', '--catalog', url], 2, '--from and --to go together'],
    [['--catalog', url, '--bogus'], 2, "unknown option '--bogus'; see crossattn download --help"],
    [['nope', '--catalog', url], 1, 'the catalog lists no nope (it lists: test-en-fr)'],
    [['--catalog', serveCatalog('size', [entry({ size: '1 MB' })])], 1, 'invalid model catalog: "size" of en→fr must be a positive integer'],
    [['--catalog', `${base}/bad/catalog.json`], 1, `${base}/bad/catalog.json: invalid model catalog: no "directions" array`],
    [['--catalog', `${base}/none/catalog.json`], 1, `cannot fetch ${base}/none/catalog.json: HTTP 404`],
  ];
  for (const [args, status, message] of cases) {
    const r = await cli(...args);
    expect(r.status, args.join(' ')).toBe(status);
    expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
    expect(r.stderr, args.join(' ')).toContain(message);
  }
});
