// Compression is bounded (bindings/src/convert/bounded-inflate.ts): a .gz, an .npz or a torch.save
// zip that would inflate far past its size is a ConvertError naming the file, raised before the
// process grows by the inflated size; real model files, which compress little, pass.
import { gzipSync } from 'node:zlib';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { expect, test } from 'vitest';
import { ConvertError } from '../../dist/convert/convert-error.js';
import { MAX_INFLATE_RATIO, gunzipBounded, inflateCap, unzipBounded } from '../../dist/convert/bounded-inflate.js';
import { readNpz } from '../../dist/convert/npz.js';
import { ROOT } from './paths.js';

const ZEROS = new Uint8Array(256 * 2 ** 20);  // 256 MiB of zeros: about 256 KB as gzip, a ratio of 1,000

test('a gzip bomb is refused as one, within the cap, and an honest gzip inflates', () => {
  const bomb = gzipSync(ZEROS, { level: 9 });
  expect(ZEROS.length / bomb.length).toBeGreaterThan(MAX_INFLATE_RATIO);
  // Memory grows by the cap and a slice's output, not by the 256 MiB the bomb holds (before the cap, 805 MB).
  const before = process.memoryUsage().arrayBuffers;
  expect(() => gunzipBounded(bomb, 'model.bin.gz')).toThrow(ConvertError);
  expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(inflateCap(bomb.length) + 64 * 2 ** 20);
  expect(() => gunzipBounded(bomb, 'model.bin.gz')).toThrow(/^model\.bin\.gz: gzip: inflates past .* refused as a compression bomb$/);
  const text = new TextEncoder().encode('a model.yml\n'.repeat(1000));
  expect(gunzipBounded(gzipSync(text), 'model.yml.gz')).toEqual(text);
  expect(() => gunzipBounded(new Uint8Array([0x1f, 0x8b, 8, 0, 1, 2]), 'cut.gz')).toThrow(/^cut\.gz: gzip: cannot be decompressed/);
});

test('a zip whose members declare more than the cap is refused before inflating; the .npz reader and the torch reader use it', () => {
  const bomb = zipSync({ 'w.npy': ZEROS }, { level: 9 });
  expect(() => unzipBounded(bomb, 'x.zip', 'zip', 'not a zip')).toThrow(/^x\.zip: zip: its members inflate past .* refused as a compression bomb$/);
  expect(() => readNpz(bomb, 'model.npz')).toThrow(/^model\.npz: zip: its members inflate past/);
  expect(Object.keys(unzipBounded(zipSync({ a: new Uint8Array(1000).fill(7) }), 'ok.zip', 'zip', 'not a zip'))).toEqual(['a']);
});

test('crossattn convert of a Marian folder whose model.bin.gz is a bomb: a typed error naming the file, exit 1', () => {
  const dir = mkdtempSync(join(tmpdir(), 'crossattn-bomb-'));
  try {
    writeFileSync(join(dir, 'model.ende.bin.gz'), gzipSync(ZEROS, { level: 9 }));
    writeFileSync(join(dir, 'vocab.ende.spm'), 'x');
    const r = spawnSync('node', [`${ROOT}dist/cli.js`, 'convert', dir, '-o', join(dir, 'out.crossattn')], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/model\.ende\.bin\.gz: gzip: inflates past .* compression bomb/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
