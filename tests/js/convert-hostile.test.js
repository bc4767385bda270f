// Hostile converter input that a probe of 259 cases found breaking the converter's promise
// (2026-11-29; issue 60): each class here hung, grew past a gigabyte, or threw an untyped error, and
// is now a one-line ConvertError within a second. Pickles, zip directories, safetensors headers,
// vocabularies, npy dtypes, decoder.yml paths, and a FIFO or device as the input or the output.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ConvertError } from '../../dist/convert/convert-error.js';
import { convertFile } from '../../dist/convert/index.js';
import { readNpz } from '../../dist/convert/npz.js';
import { readPytorch } from '../../dist/convert/pytorch.js';
import { MAX_HEADER_BYTES, readSafetensors } from '../../dist/convert/safetensors.js';
import { MAX_PIECE_LENGTH, readSentencePieceVocab } from '../../dist/convert/sentencepiece-pieces.js';
import { writeUnigramModel } from '../../dist/convert/sentencepiece-model.js';
import { statePickle } from './torch-save.js';
import { ROOT } from './paths.js';

let work;
beforeAll(() => { work = mkdtempSync(join(tmpdir(), 'crossattn-hostile-')); });
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** `attempt()` throws a one-line ConvertError matching `pattern` within 1 s, the peak memory growing under 128 MiB. */
function refusedAtOnce(attempt, pattern) {
  const [started, peak] = [performance.now(), process.resourceUsage().maxRSS];
  let error;
  try { attempt(); } catch (e) { error = e; }
  expect(error, String(error?.stack ?? error)).toBeInstanceOf(ConvertError);
  expect(error.message).toMatch(pattern);
  expect(error.message).not.toMatch(/\n/);
  expect(performance.now() - started).toBeLessThan(1000);
  expect((process.resourceUsage().maxRSS - peak) / 1024).toBeLessThan(128);
}

/** A string of code points below 256 as the bytes of a pickle. */
const latin1 = (text) => Uint8Array.from(text, (c) => c.charCodeAt(0));
const torchZip = (pickle, storages = {}) => zipSync({ 'archive/data.pkl': pickle, 'archive/version': latin1('3\n'), ...storages }, { level: 0 });
const readPickle = (pickle, storages) => () => readPytorch(torchZip(pickle, storages), 'pytorch_model.bin');
const u32 = (n) => String.fromCharCode(n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, n >>> 24);

test('pickles: opcodes a state dict does not use, huge integers and opcode floods are refused before pickleparser runs', () => {
  const dict = '\x80\x02ccollections\nOrderedDict\n)R';
  // A LONG4 of a megabyte: pickleparser took minutes building it.
  refusedAtOnce(readPickle(latin1(`${dict}X\x01\x00\x00\x00x\x8b${u32(1 << 20)}${'\x01'.repeat(1 << 20)}s.`)), /data\.pkl: opcode 0x8b, which a state dict of tensors does not use at byte \d+/);
  refusedAtOnce(readPickle(latin1(`${dict}X\x01\x00\x00\x00x\x8a\x10${'\x01'.repeat(16)}s.`)), /a LONG1 of 16 bytes/);
  refusedAtOnce(readPickle(latin1(`${dict}X\x01\x00\x00\x00x\x8a\x08${'\x00'.repeat(6)}\x20\x00s.`)), /a LONG1 of 8 bytes past 2\^53/);  // 2^53 itself
  // 8 MB of EMPTY_DICT: 1.8 GB before.
  refusedAtOnce(readPickle(latin1(`\x80\x02${'}'.repeat(8 << 20)}.`)), /more than 1000000 opcodes/);
  for (const [op, name] of [['i', 'INST'], ['o', 'OBJ'], ['\x81', 'NEWOBJ'], ['\x82', 'EXT1'], ['P', 'PERSID']]) {
    refusedAtOnce(readPickle(latin1(`${dict}${op}`)), new RegExp(`opcode 0x${op.charCodeAt(0).toString(16).padStart(2, '0')}, which`));  // ${name}
  }
  refusedAtOnce(readPickle(latin1(`${dict}X${u32(1 << 30)}ab`)), /BINUNICODE's argument runs past the data/);
  // A FRAME of 2^60 bytes: pickleparser printed a warning of its own on a length past 2^53.
  refusedAtOnce(readPickle(latin1(`\x80\x04\x95${'\x00'.repeat(7)}\x10${dict.slice(2)}.`)), /a FRAME larger than the data after it/);
  refusedAtOnce(readPickle(latin1(dict)), /ends without its STOP opcode/);
});

test('pickles: a dict that looks like a tensor, a tensor changed after its checks, and keys that are not names are refused by name', () => {
  const entry = { name: 'w', storage: 'FloatStorage', key: '0', numel: 4, offset: 0, shape: [2, 2], stride: [2, 1] };
  const storages = { 'archive/data/0': new Uint8Array(16) };
  const honest = statePickle([entry]);
  expect(readPytorch(torchZip(honest, storages), 'pytorch_model.bin').get('w').shape).toEqual([2, 2]);
  // { 'w': { 'tensor': True, 'shape': 'abc' } } built with DICT: was a TypeError (t.shape.reduce).
  const fake = latin1('\x80\x02ccollections\nOrderedDict\n)R(X\x01\x00\x00\x00w(X\x06\x00\x00\x00tensor\x88X\x05\x00\x00\x00shapeX\x03\x00\x00\x00abcdu.');
  refusedAtOnce(readPickle(fake), /pytorch_model\.bin: w: is not a tensor/);
  // The honest tensor, then BUILD with {'shape': 'abc'} on it (before SETITEMS): was a TypeError.
  const stop = honest.lastIndexOf(0x75);  // SETITEMS, then STOP
  const build = latin1('}X\x05\x00\x00\x00shapeX\x03\x00\x00\x00abcsb');
  refusedAtOnce(readPickle(new Uint8Array([...honest.subarray(0, stop), ...build, 0x75, 0x2e]), storages), /pytorch_model\.bin: data\.pkl: /);
  // A key that is a dict with a __proto__ entry, and one nested 300,000 lists deep: String() threw.
  refusedAtOnce(readPickle(latin1('\x80\x02ccollections\nOrderedDict\n)R}X\x09\x00\x00\x00__proto__Ns]Ns.')), /is not a tensor/);
  refusedAtOnce(readPickle(latin1(`\x80\x02ccollections\nOrderedDict\n)R${']'.repeat(300_000)}${'a'.repeat(299_999)}Ns.`)), /is not a tensor/);
});

/** A 98-byte zip whose zip64 end record declares 2^32 - 1 members: fflate read headers for ever. */
function zip64CountLie() {
  const b = Buffer.alloc(98);
  b.writeUInt32LE(0x06064b50, 0);  // zip64 end of central directory record
  b.writeBigUInt64LE(44n, 4);
  b.writeBigUInt64LE(0xffffffffn, 24);
  b.writeBigUInt64LE(0xffffffffn, 32);
  b.writeBigUInt64LE(0n, 40);
  b.writeBigUInt64LE(0n, 48);
  b.writeUInt32LE(0x07064b50, 56);  // zip64 locator: the record at 0
  b.writeBigUInt64LE(0n, 64);
  b.writeUInt32LE(1, 72);
  b.writeUInt32LE(0x06054b50, 76);  // end of central directory, its fields full
  b.writeUInt16LE(0xffff, 84);
  b.writeUInt16LE(0xffff, 86);
  b.writeUInt32LE(0xffffffff, 88);
  b.writeUInt32LE(0xffffffff, 92);
  return new Uint8Array(b);
}

test('a zip whose directory declares more members than it can hold is refused before reading it', () => {
  refusedAtOnce(() => readNpz(zip64CountLie(), 'model.npz'), /model\.npz: zip: not a readable \.npz archive.*\(its directory declares 4294967295 members in 0 bytes/);
  refusedAtOnce(() => readPytorch(zip64CountLie(), 'pytorch_model.bin'), /its directory declares 4294967295 members/);
  refusedAtOnce(() => readNpz(new Uint8Array(30), 'model.npz'), /no end of central directory/);
});

test('a safetensors header over 8 MiB is refused before parsing; an entry that is not an object says so', () => {
  const file = (header, n = header.length) => {
    const out = new Uint8Array(8 + header.length);
    new DataView(out.buffer).setBigUint64(0, BigInt(n), true);
    out.set(header, 8);
    return out;
  };
  refusedAtOnce(() => readSafetensors(file(new Uint8Array(MAX_HEADER_BYTES + 1).fill(0x20)), 'model.safetensors'), /header: is 8388609 bytes, over the 8388608/);
  refusedAtOnce(() => readSafetensors(file(new TextEncoder().encode('{"a": 5}')), 'model.safetensors'), /model\.safetensors: a: is 5, not a tensor entry/);
});

test('a vocabulary piece over 1,024 characters is refused (the engine overflowed its stack on one of 20 MB)', () => {
  const spm = (long) => writeUnigramModel(['<unk>', '<s>', '</s>', long].map((piece, i) => ({ piece, score: -i, type: i === 0 ? 2 : i < 3 ? 3 : 1 })),
    { unkId: 0, bosId: 1, eosId: 2, padId: -1, byteFallback: false, precompiledCharsmap: new Uint8Array(0), addDummyPrefix: true, removeExtraWhitespaces: true });
  expect(readSentencePieceVocab(spm('x'.repeat(MAX_PIECE_LENGTH)), 'source.spm').pieces.length).toBe(4);
  refusedAtOnce(() => readSentencePieceVocab(spm('x'.repeat(MAX_PIECE_LENGTH + 1)), 'source.spm'), /source\.spm: pieces\[3\]: a piece of 1025 characters, over the 1024/);
});

test('an npy dtype of __proto__ is an unsupported dtype, not an object', () => {
  const header = "{'descr': '__proto__', 'fortran_order': False, 'shape': (1,), }".padEnd(117) + '\n';
  const npy = new Uint8Array([0x93, 78, 85, 77, 80, 89, 1, 0, header.length, 0, ...latin1(header), 0, 0, 0, 0]);
  refusedAtOnce(() => readNpz(zipSync({ 'w.npy': npy }, { level: 0 }), 'model.npz'), /model\.npz: w: dtype __proto__ is not supported/);
});

test('decoder.yml paths that are not strings, and a FIFO or device as input or output, are ConvertErrors', async () => {
  const folder = join(work, 'marian');
  mkdirSync(folder);
  writeFileSync(join(folder, 'model.npz'), zipSync({}));
  writeFileSync(join(folder, 'decoder.yml'), 'vocabs: [{toString: 1}, null]\n');
  const error = await convertFile(folder, join(work, 'out.crossattn'), 'test').catch((e) => e);
  expect(error).toBeInstanceOf(ConvertError);
  expect(error.message).toMatch(/decoder\.yml: vocabs\[0\]: is \{"toString":1\}, not a file name/);
  const fifo = join(work, 'model.bin');
  execFileSync('mkfifo', [fifo]);
  const cli = (...args) => spawnSync('node', [`${ROOT}dist/cli.js`, 'convert', ...args], { encoding: 'utf8', timeout: 10_000 });
  const input = cli(fifo, '-o', join(work, 'x.crossattn'));
  expect([input.status, input.stderr.trim()]).toEqual([1, `crossattn convert: ${fifo}: input: is not a regular file or a folder (a FIFO, socket or device)`]);
  const output = cli(folder, '-o', fifo);
  expect([output.status, output.stderr.trim()]).toEqual([1, `crossattn convert: ${fifo}: output: is not a regular file (a FIFO, socket or device): name a .crossattn file to write`]);
  expect(cli(folder, '-o', '/dev/null').stderr).toMatch(/\/dev\/null: output: is not a regular file/);
});
