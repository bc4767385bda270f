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
import { MAX_TEXT_FILE_BYTES } from '../../dist/convert/model-files.js';
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

test('safetensors byte ranges that overlap, leave a gap or leave trailing bytes are refused, as the safetensors library refuses them', async () => {
  const { readSafetensors } = await import('../../dist/convert/safetensors.js');
  const file = (entries, dataBytes) => {
    const header = Buffer.from(JSON.stringify(entries));
    const head = Buffer.alloc(8);
    head.writeBigUInt64LE(BigInt(header.length));
    return new Uint8Array(Buffer.concat([head, header, Buffer.alloc(dataBytes)]));
  };
  const f32 = (begin) => ({ dtype: 'F32', shape: [2], data_offsets: [begin, begin + 8] });
  expect(readSafetensors(file({ a: f32(0), b: f32(8) }, 16), 'ok.safetensors').tensors.size).toBe(2);
  expect(() => readSafetensors(file({ a: f32(0), b: f32(4) }, 16), 'x.safetensors')).toThrow(/x\.safetensors: b: data_offsets \[4, 12\) overlap another tensor's bytes/);
  expect(() => readSafetensors(file({ a: f32(0), b: f32(12) }, 20), 'x.safetensors')).toThrow(/x\.safetensors: b: data_offsets \[12, 20\) leave bytes 8 to 12 to no tensor/);
  expect(() => readSafetensors(file({ a: f32(0) }, 16), 'x.safetensors')).toThrow(/x\.safetensors: header: the tensors end at byte 8 of the data, which has 16/);
});
