// One rule for every file the converter reads (bindings/src/convert/folder-files.ts): opened without
// blocking and checked on its descriptor, a regular file within its cap, inside the model's folder.
// A FIFO, a folder, a file over its cap or a symlink out of the folder is a ConvertError naming the
// file, at once; a Hugging Face cache snapshot, whose files link to its blobs, converts.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { convertModel } from '../../dist/convert/index.js';
import { ConvertError } from '../../dist/convert/convert-error.js';
import { MAX_TEXT_FILE_BYTES } from '../../dist/convert/folder-files.js';
import { HF, ensureFixtures } from './opus-mt-fixtures.js';

let work;
beforeAll(() => {
  ensureFixtures();
  work = mkdtempSync(join(tmpdir(), 'crossattn-files-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A copy of the HF fixture folder named `name` with `edit(folder)` applied. */
function variant(name, edit) {
  const folder = join(work, name, 'opus-mt-en-de');
  cpSync(HF, folder, { recursive: true });
  edit(folder);
  return folder;
}

async function refused(folder, pattern) {
  const start = performance.now();
  const error = await convertModel(folder).catch((e) => e);
  expect(error).toBeInstanceOf(ConvertError);
  expect(error.message).toMatch(pattern);
  expect(performance.now() - start).toBeLessThan(10_000);
}

test('a FIFO where a file belongs is refused at once, never waited on', async () => {
  const folder = variant('fifo', (f) => {
    rmSync(join(f, 'vocab.json'));
    execFileSync('mkfifo', [join(f, 'vocab.json')]);
  });
  await refused(folder, /vocab\.json: file: is not a regular file \(a FIFO, socket or device\), where a file belongs/);
});

test('a folder where a file belongs, and a file over its cap, are refused by name', async () => {
  await refused(variant('folder', (f) => { rmSync(join(f, 'vocab.json')); mkdirSync(join(f, 'vocab.json')); }),
    /vocab\.json: file: is a folder, where a file belongs/);
  await refused(variant('big', (f) => truncateSync(join(f, 'vocab.json'), MAX_TEXT_FILE_BYTES + 1)),
    new RegExp(`vocab\\.json: file: is ${MAX_TEXT_FILE_BYTES + 1} bytes, over the ${MAX_TEXT_FILE_BYTES} bytes a file of its kind may have`));
});

test('a symlink out of the model folder is refused, and what it points to is never read', async () => {
  const secret = join(work, 'secret.json');
  cpSync(join(HF, 'vocab.json'), secret);  // readable and well formed: only the rule stops it
  await refused(variant('escape', (f) => { rmSync(join(f, 'vocab.json')); symlinkSync(secret, join(f, 'vocab.json')); }),
    /vocab\.json: file: leads outside the model folder .*: refused/);
});

test('a Hugging Face cache snapshot, whose files link to the blobs of its repository, converts', async () => {
  const repo = join(work, 'hub', 'models--Helsinki-NLP--opus-mt-en-de');
  const snapshot = join(repo, 'snapshots', 'abc123');
  mkdirSync(join(repo, 'blobs'), { recursive: true });
  mkdirSync(snapshot, { recursive: true });
  for (const file of readdirSync(HF)) {
    cpSync(join(HF, file), join(repo, 'blobs', `blob-${file}`));
    symlinkSync(join('..', '..', 'blobs', `blob-${file}`), join(snapshot, file));
  }
  const model = await convertModel(snapshot);
  expect(model.provenance.source).toBe('Helsinki-NLP/opus-mt-en-de');
  expect(model.tensors.size).toBeGreaterThan(10);
});
