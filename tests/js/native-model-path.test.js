// The native CLI's --model (cpp/cli/main.cc, read_model_file in cpp/model/model_file.h): the file's
// type and size come first, from fstat on the descriptor opened non-blocking, so that a FIFO, a
// folder, /dev/zero and a sparse file of 3 GiB are each one line, "crossattn-cli: LoadError: ...",
// and exit 1, at once and before any read (issue 46: the folder aborted with an uncaught
// std::bad_alloc, exit 134; the 3 GiB file was read in full, 3.1 GB of memory). A text file given as
// the model says it is not a model file, in the words of the npm package (bindings/src/engine.ts).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { MODEL, NATIVE_CLI } from './paths.js';

let dir;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'crossattn-native-path-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// A hang is what the limit catches: each case must end long before it (issue 46's bar: 5 s).
const native = (model) => spawnSync(NATIVE_CLI, ['translate', '--model', model, 'A dog runs.'], { encoding: 'utf8', timeout: 20_000 });

test('a FIFO, a folder, /dev/zero and a 3 GiB sparse file: one LoadError line and exit 1, nothing read', () => {
  const fifo = join(dir, 'model.fifo'), sparse = join(dir, 'sparse.crossattn');
  execFileSync('mkfifo', [fifo]);
  execFileSync('truncate', ['-s', String(3 * 2 ** 30), sparse]);  // no block written
  const cases = [[fifo, 'is not a regular file'], [dir, 'is not a regular file'], ['/dev/zero', 'is not a regular file'],
    [sparse, 'is 3221225472 bytes; files above 1073741824 bytes (1 GiB) are refused'],
    [join(dir, 'missing.crossattn'), 'does not exist']];
  for (const [path, why] of cases) {
    const r = native(path);
    expect(r.error, path).toBeUndefined();  // not killed by the time limit
    expect(r.status, path).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`crossattn-cli: LoadError: ${path} ${why}\n`);
  }
});

test('a text file or an empty file given as the model is not a crossattn model file', () => {
  const notes = join(dir, 'notes.txt'), empty = join(dir, 'empty.crossattn');
  writeFileSync(notes, 'Zwei Hunde spielen im Schnee.\n');
  writeFileSync(empty, '');
  for (const [path, what] of [[notes, 'it starts with "Zwei Hunde spielen im Sc", not with a model header'], [empty, 'it is empty']]) {
    const r = native(path);
    expect(r.status, path).toBe(1);
    expect(r.stderr).toBe(`crossattn-cli: ModelFormatError: ${path} is not a crossattn model file: ${what}\n`);
  }
});

test('the model itself still loads and translates', () => {
  const r = native(MODEL);
  expect(r.status, r.stderr).toBe(0);
  expect(r.stdout.trim().length).toBeGreaterThan(0);
});
