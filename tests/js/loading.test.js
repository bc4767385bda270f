// Loading goes wrong in typed, bounded ways: a missing file, a device that never ends, a folder, an
// unreachable URL, something that is not a source at all; the CLI says so in one line, at once.
// And it goes right whichever way the bytes arrive: into the engine's memory directly or copied,
// over HTTP with or without a true length, with the engine compiled once (prepareEngine).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { InvalidInputError, LoadError, ModelFormatError, Translator, prepareEngine } from '../../dist/index.js';
import { INT8_MODEL, ROOT } from './paths.js';

test('every way a model cannot be read is a LoadError or an InvalidInputError naming the source', async () => {
  const cases = [
    ['/nonexistent/model.crossattn', LoadError, /\/nonexistent\/model\.crossattn does not exist/],
    ['/dev/zero', LoadError, /\/dev\/zero is not a regular file/],  // would be read forever
    [ROOT, LoadError, /is not a regular file/],
    ['http://127.0.0.1:1/model.crossattn', LoadError, /cannot fetch http:\/\/127\.0\.0\.1:1\/model\.crossattn/],
    ['http://[::1', InvalidInputError, /not a valid URL/],
    [42, InvalidInputError, /bytes .* a URL or a path/],
    [null, InvalidInputError, /bytes .* a URL or a path/],
  ];
  for (const [source, Type, message] of cases) {
    const error = await Translator.load(source).then(() => null, (e) => e);
    expect(error, String(source)).toBeInstanceOf(Type);
    expect(error.message, String(source)).toMatch(message);
  }
});

test('the CLI: --model /dev/zero is one clear line and exit 1, not a hang', () => {
  const r = spawnSync('node', [`${ROOT}dist/cli.js`, 'translate', '--model', '/dev/zero', 'A dog.'], { encoding: 'utf8', timeout: 20_000 });
  expect(r.status).toBe(1);
  expect(r.stderr).toBe("crossattn: cannot load model '/dev/zero': /dev/zero is not a regular file\n");
});

// Issue 46, item 1: a FIFO opened for reading waits for a writer forever, and each such open held
// one of libuv's four file-I/O threads, so four loads stopped all asynchronous file I/O. Each of
// these ends in a LoadError within 5 s (the bar of the issue; a hang is what the limit catches).
test('a FIFO, a folder, /dev/zero and a sparse file of 1 GiB + 1 byte: a LoadError at once, in the library and the CLI', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'crossattn-load-'));
  try {
    const fifo = join(dir, 'model.fifo'), sparse = join(dir, 'sparse.crossattn');
    execFileSync('mkfifo', [fifo]);
    execFileSync('truncate', ['-s', String(2 ** 30 + 1), sparse]);  // no block written
    const hang = (what) => new Promise((ok) => setTimeout(() => ok(new Error(`${what}: no answer in 5 s`)), 5000).unref());
    const cases = [[fifo, 'is not a regular file'], [dir, 'is not a regular file'], ['/dev/zero', 'is not a regular file'],
      [sparse, 'is 1073741825 bytes; files above 1073741824 bytes (1 GiB) are refused']];
    for (const [path, why] of cases) {
      const error = await Promise.race([Translator.load(path).then(() => null, (e) => e), hang(path)]);
      expect(error, path).toBeInstanceOf(LoadError);
      expect(error.message).toBe(`${path} ${why}`);
      // The npm CLI: one line, exit 1. (The generous limit is for node's start-up on a busy machine.)
      const r = spawnSync('node', [`${ROOT}dist/cli.js`, 'translate', '--model', path, 'A dog.'], { encoding: 'utf8', timeout: 20_000 });
      expect(r.status, path).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(`crossattn: cannot load model '${path}': ${path} ${why}\n`);
    }
    // Eight loads of the FIFO at once leave the file-I/O threads free: a file is still read.
    const loads = await Promise.all(Array.from({ length: 8 }, () => Translator.load(fifo).then(() => null, (e) => e)));
    expect(loads.every((e) => e instanceof LoadError)).toBe(true);
    const read = await Promise.race([readFile(INT8_MODEL), hang('readFile')]);
    expect(read).toBeInstanceOf(Buffer);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a model file with one damaged weight byte is a ModelFormatError (its checksum), in the library and the CLI', async () => {
  const bytes = readFileSync(INT8_MODEL);
  bytes[Math.floor(bytes.length * 0.6)] ^= 0x10;
  const error = await Translator.load(bytes).then(() => null, (e) => e);
  expect(error).toBeInstanceOf(ModelFormatError);
  expect(error.message).toMatch(/the file is damaged/);
  const path = join(tmpdir(), 'crossattn-damaged.crossattn');
  writeFileSync(path, bytes);
  const r = spawnSync('node', [`${ROOT}dist/cli.js`, 'translate', '--model', path, 'A dog.'], { encoding: 'utf8', timeout: 20_000 });
  expect(r.status).toBe(1);
  expect(r.stdout).toBe('');
  expect(r.stderr).toMatch(/the file is damaged/);
});

// docs/model-format.md, "Checksum": the checksum guards against accidental damage, and is optional;
// a damaged byte in its key's name leaves a file without one, which loads unchecked.
test('a file whose checksum key is renamed loads unchecked: a damaged weight then goes unseen', async () => {
  const bytes = readFileSync(INT8_MODEL);
  bytes[bytes.indexOf('"checksum"') + 8] = 'M'.charCodeAt(0);  // "checksuM"
  bytes[Math.floor(bytes.length * 0.6)] ^= 0x10;               // the weight byte the test above damages
  const t = await Translator.load(bytes);
  expect((await t.translate('A dog.', { attention: false })).text.length).toBeGreaterThan(0);
  t.dispose();
});

test('a model downloads into the engine alike with its length announced, with a compressed length, and with none', async () => {
  const { createServer } = await import('node:http');
  const { gzipSync } = await import('node:zlib');
  const bytes = readFileSync(INT8_MODEL), gzipped = gzipSync(bytes);
  // /exact: Content-Length of the file; /gzip: a compressed transfer, whose Content-Length (the
  // compressed size) is smaller than the bytes fetch yields; /chunked: no length at all.
  const server = createServer((request, response) => {
    if (request.url === '/gzip') {
      response.writeHead(200, { 'content-encoding': 'gzip', 'content-length': gzipped.length }).end(gzipped);
    } else if (request.url === '/chunked') {
      response.writeHead(200);
      for (let i = 0; i < bytes.length; i += 100_000) response.write(bytes.subarray(i, i + 100_000));
      response.end();
    } else {
      response.writeHead(200, { 'content-length': bytes.length }).end(bytes);
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const base = `http://127.0.0.1:${server.address().port}`;
    const expected = await (await Translator.load(bytes)).translate('A dog runs through the grass.', { attention: false });
    for (const path of ['/exact', '/gzip', '/chunked']) {
      let last = 0;
      const t = await Translator.load(`${base}${path}`, { onProgress: (loaded) => { last = loaded; } });
      expect(last, path).toBe(bytes.length);
      const r = await t.translate('A dog runs through the grass.', { attention: false });
      expect([r.text, r.score], path).toEqual([expected.text, expected.score]);
      t.dispose();
    }
  } finally {
    server.close();
  }
});

test('the engine keeps its own copy of the model: the caller may reuse its bytes at once', async () => {
  const bytes = new Uint8Array(readFileSync(INT8_MODEL));
  const t = await Translator.load(bytes);
  const before = await t.translate('Two men are playing soccer.', { attention: false });
  bytes.fill(0);
  const after = await t.translate('Two men are playing soccer.', { attention: false });
  expect(after.text).toBe(before.text);
  expect(after.score).toBe(before.score);
});

test('prepareEngine compiles a source once, its module loads models, and a bad wasm is a LoadError that is not kept', async () => {
  const wasm = `${ROOT}dist/crossattn.wasm`;
  const module = await prepareEngine(wasm);
  expect(module).toBeInstanceOf(WebAssembly.Module);
  expect(await prepareEngine(wasm)).toBe(module);
  const t = await Translator.load(INT8_MODEL, { wasm: module });
  expect((await t.translate('A dog.', { attention: false })).text.length).toBeGreaterThan(0);
  const bad = join(tmpdir(), 'crossattn-not-wasm.wasm');
  writeFileSync(bad, 'not wasm');
  const error = await prepareEngine(bad).then(() => null, (e) => e);
  expect(error).toBeInstanceOf(LoadError);
  expect(error.message).toMatch(/cannot compile the engine/);
  writeFileSync(bad, readFileSync(wasm));
  expect(await prepareEngine(bad)).toBeInstanceOf(WebAssembly.Module);  // the failure was not remembered
});

// prepareEngine's warm-up (bindings/warm_up.cc) builds a tokenizer from a synthetic SentencePiece
// model in a scratch instance; SentencePiece must accept that model at every size asked for, or the
// warm-up would fail every prepareEngine (<unk>, <s>, </s>, then the letter pieces: at least the 2 x 26
// single letters, with and without the word boundary, at most all 2 x 18,278 of up to three letters).
test('the warm-up loads its synthetic tokenizer: as many pieces as asked, from the single letters to every piece it has', async () => {
  const { default: createCrossattnModule } = await import('../../dist/crossattn.mjs');
  const module = await prepareEngine(`${ROOT}dist/crossattn.wasm`);
  const engine = await createCrossattnModule({
    instantiateWasm(imports, done) {
      WebAssembly.instantiate(module, imports).then((instance) => done(instance, module));
      return {};
    },
  });
  expect(engine.warmUp(4000)).toEqual({ pieces: 4000 });
  expect(engine.warmUp(0)).toEqual({ pieces: 3 + 2 * 26 });
  expect(engine.warmUp(1e6)).toEqual({ pieces: 3 + 2 * (26 + 26 ** 2 + 26 ** 3) });
});
