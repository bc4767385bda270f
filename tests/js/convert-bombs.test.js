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

/** `gz` with its trailer's ISIZE (RFC 1952: the inflated size mod 2^32) set to `size`: a trailer that lies. */
function withIsize(gz, size) {
  const out = new Uint8Array(gz);
  new DataView(out.buffer).setUint32(out.length - 4, size, true);
  return out;
}

test('a gzip bomb is refused as one, by the size its trailer declares or, when that lies, where it passes it; an honest gzip inflates', () => {
  const bomb = gzipSync(ZEROS, { level: 9 });
  expect(ZEROS.length / bomb.length).toBeGreaterThan(MAX_INFLATE_RATIO);
  expect(() => gunzipBounded(bomb, 'model.bin.gz')).toThrow(/^model\.bin\.gz: gzip: says it inflates to 256\.0 MiB \(from 0\.2 MiB\), past [\d.]+ MiB: refused as a compression bomb$/);
  // A trailer that declares 1 MiB: memory grows by that and a slice's output, not by the 256 MiB the bomb holds (805 MB before any cap).
  const before = process.memoryUsage().arrayBuffers;
  expect(() => gunzipBounded(withIsize(bomb, 2 ** 20), 'model.bin.gz')).toThrow(/^model\.bin\.gz: gzip: inflates past the 1048576 bytes its trailer declares: damaged, or a compression bomb$/);
  expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(inflateCap(bomb.length) + 64 * 2 ** 20);
  const text = new TextEncoder().encode('a model.yml\n'.repeat(1000));
  expect(gunzipBounded(gzipSync(text), 'model.yml.gz')).toEqual(text);
  expect(() => gunzipBounded(withIsize(gzipSync(text), text.length + 1), 'model.yml.gz')).toThrow(/^model\.yml\.gz: gzip: cannot be decompressed \(12000 bytes inflated, the trailer says 12001\)/);
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
    expect(r.stderr).toMatch(/model\.ende\.bin\.gz: gzip: says it inflates to 256\.0 MiB .* compression bomb/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
