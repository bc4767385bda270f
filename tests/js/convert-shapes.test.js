// Shapes are checked before any loop or allocation (issue 60, item 3): a header that declares sizes
// the data does not hold is a ConvertError naming the tensor, at once and without the memory the
// declared size would take, in each reader that takes shapes from the file: .npy members of an
// .npz, the pickle of a pytorch_model.bin, Marian's .bin (safetensors and ONNX initializers:
// tests/js/convert-fuzz-hf.test.js and convert-fuzz-onnx.test.js).
import { zipSync } from 'fflate';
import { expect, test } from 'vitest';
import { ConvertError } from '../../dist/convert/convert-error.js';
import { MarianType, readMarianBinary } from '../../dist/convert/marian-binary.js';
import { addParameter } from '../../dist/convert/marian-weights.js';
import { readNpz } from '../../dist/convert/npz.js';
import { readPytorch } from '../../dist/convert/pytorch.js';
import { torchZip } from './torch-save.js';

/** `attempt()` throws a ConvertError matching `pattern` within 200 ms, the process's peak memory growing under 64 MiB. */
function refusedAtOnce(attempt, pattern) {
  const [started, peak] = [performance.now(), process.resourceUsage().maxRSS];
  let error;
  try { attempt(); } catch (e) { error = e; }
  expect(error).toBeInstanceOf(ConvertError);
  expect(error.message).toMatch(pattern);
  expect(performance.now() - started).toBeLessThan(200);
  expect((process.resourceUsage().maxRSS - peak) / 1024).toBeLessThan(64);
}

/** An .npz holding one .npy `name` whose header says `shape` (text) over `data`. */
function npz(name, shape, data = new Uint8Array(16)) {
  let header = `{'descr': '<f4', 'fortran_order': False, 'shape': (${shape}), }`;
  header += `${' '.repeat(63 - ((10 + header.length) % 64))}\n`;
  const npy = new Uint8Array(10 + header.length + data.length);
  npy.set([0x93, 78, 85, 77, 80, 89, 1, 0, header.length & 0xff, header.length >> 8]);
  npy.set(new TextEncoder().encode(header), 10);
  npy.set(data, 10 + header.length);
  return zipSync({ [`${name}.npy`]: npy }, { level: 0 });
}

test('.npy shapes past their data, negative or not integers are refused by name', () => {
  refusedAtOnce(() => readNpz(npz('Wemb', '1099511627776, 1099511627776'), 'model.npz'), /model\.npz: Wemb: truncated: shape \[1099511627776,1099511627776\] needs [\d.e+]+ bytes of data, the file has 16/);
  refusedAtOnce(() => readNpz(npz('Wemb', '-4, 1'), 'model.npz'), /model\.npz: Wemb: shape \(-4, 1\) is not a tuple of sizes/);
  refusedAtOnce(() => readNpz(npz('Wemb', '1e400,'), 'model.npz'), /shape \(1e400,\) is not a tuple of sizes/);
  refusedAtOnce(() => readNpz(npz('Wemb', '9007199254740993,'), 'model.npz'), /is not a tuple of sizes/);
  expect(readNpz(npz('Wemb', '2, 2'), 'model.npz').get('Wemb').shape).toEqual([2, 2]);
});

test('pickle tensors whose shape, offset or storage size the archive does not hold are refused by name', () => {
  const entry = { name: 'w', storage: 'FloatStorage', key: '0', numel: 4, offset: 0, shape: [2, 2], stride: [2, 1] };
  const read = (change, storage = new Uint8Array(16)) => () => readPytorch(torchZip([{ ...entry, ...change }], { 0: storage }), 'pytorch_model.bin');
  refusedAtOnce(read({ shape: [2 ** 31, 2 ** 31], stride: [2 ** 31, 1] }), /pytorch_model\.bin: w: shape \[2147483648,2147483648\] at offset 0 lies outside its storage of 4/);
  refusedAtOnce(read({ numel: 2 ** 40 }), /pytorch_model\.bin: data\/0: holds 16 bytes, the pickle says 1099511627776 elements of 4 bytes/);
  refusedAtOnce(read({ offset: 2 ** 52 }), /w: shape \[2,2\] at offset 4503599627370496 lies outside its storage of 4/);
  refusedAtOnce(read({ shape: [2, -2] }), /_rebuild_tensor_v2 with arguments .* that do not describe a tensor/);
  refusedAtOnce(read({ shape: [1, 1, 1, 1, 1, 1, 1, 1, 1], stride: [1, 1, 1, 1, 1, 1, 1, 1, 1] }), /do not describe a tensor/);
  expect(readPytorch(torchZip([entry], { 0: new Uint8Array(16) }), 'pytorch_model.bin').get('w').shape).toEqual([2, 2]);
});

/** Marian's binary format (src/common/binary.cpp) of `items`, with `count` in place of their number when given. */
function marianBinary(items, count = items.length) {
  const u64 = (...v) => new Uint8Array(new BigUint64Array(v.map(BigInt)).buffer);
  const parts = [u64(1, count), ...items.map((it) => u64(it.name.length + 1, it.type, it.shape.length, it.bytes.length)),
    ...items.map((it) => new TextEncoder().encode(`${it.name}\0`)), ...items.map((it) => new Uint8Array(Int32Array.from(it.shape).buffer)), u64(0),
    ...items.map((it) => it.bytes)];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  parts.reduce((at, p) => (out.set(p, at), at + p.length), 0);
  return out;
}

test('Marian items: a count, shape or data the file does not hold is refused by name', () => {
  const item = { name: 'encoder_l1_ffn_W1', type: MarianType.float32, shape: [4, 8], bytes: new Uint8Array(128) };
  refusedAtOnce(() => readMarianBinary(marianBinary([item], 2 ** 40), 'model.bin'), /model\.bin: item headers: truncated/);
  const huge = readMarianBinary(marianBinary([{ ...item, shape: [2 ** 31 - 1, 2 ** 31 - 1] }]), 'model.bin')[0];
  refusedAtOnce(() => addParameter(new Map(), huge, 'encoder.layers.0.fc1.weight', 'W', [8, 4], 'model.bin'),
    /model\.bin: encoder_l1_ffn_W1: has shape \[2147483647,2147483647\], model\.yml implies \[4,8\]/);
  const short = readMarianBinary(marianBinary([{ ...item, bytes: new Uint8Array(64) }]), 'model.bin')[0];
  refusedAtOnce(() => addParameter(new Map(), short, 'encoder.layers.0.fc1.weight', 'W', [8, 4], 'model.bin'),
    /encoder_l1_ffn_W1: float32 data holds 64 bytes, \[4,8\] needs 128/);
  const tensors = new Map();
  addParameter(tensors, readMarianBinary(marianBinary([item]), 'model.bin')[0], 'encoder.layers.0.fc1.weight', 'W', [8, 4], 'model.bin');
  expect(tensors.get('encoder.layers.0.fc1.weight').shape).toEqual([8, 4]);
});
