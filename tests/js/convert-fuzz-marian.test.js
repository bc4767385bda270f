// Mutation fuzzing of the Marian converter (bindings/src/convert/marian*.ts, npz.ts,
// sentencepiece-pieces.ts): tiny valid Marian models made here (a 1-layer d_model 4 transformer
// over 8 pieces, as Marian's binary .bin with float32 or intgemm8 matrices and as .npz, the
// model.yml inside or beside, a SentencePiece vocabulary and a binary lexical shortlist), their
// bytes and model.yml values mutated, and the whole `convertFile` run on each: the outcome is a
// .crossattn file or a ConvertError, within 5 s, and nothing is written on error.
//   CROSSATTN_FUZZ_RUNS=10000 npx vitest run --config tests/js/vitest.config.js tests/js/convert-fuzz-marian.test.js
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { stringify as yamlText } from 'yaml';
import { convertFile } from '../../dist/convert/index.js';
import { marianParameters } from '../../dist/convert/marian-weights.js';
import { readMarianArchitecture } from '../../dist/convert/marian-config.js';
import { writeUnigramModel } from '../../dist/convert/sentencepiece-model.js';
import { SEED, concat, expectResultOrConvertError, testTimeout, generator, label, fuzzRuns, mutateSome, mutateJson, runs } from './convert-fuzz-lib.js';

const FLOAT32 = 0x0404, INT8 = 0x0101, INTGEMM8 = 0x4101;  // Marian's Type (src/common/types.h)
const PIECES = ['<unk>', '<s>', '</s>', '\u2581a', '\u2581b', '\u2581c', 'a', 'b'];
const YML = {
  type: 'transformer', 'dim-emb': 4, 'enc-depth': 1, 'dec-depth': 1, 'transformer-heads': 1, 'transformer-dim-ffn': 4,
  'dim-vocabs': [PIECES.length, PIECES.length], 'tied-embeddings-all': true, 'transformer-preprocess': '',
  'transformer-postprocess': 'dan', 'transformer-ffn-activation': 'relu', version: 'v1.10.0',
};

const spm = () => writeUnigramModel(PIECES.map((piece, i) => ({ piece, score: -i, type: i === 0 ? 2 : i < 3 ? 3 : 1 })),
  { unkId: 0, bosId: 1, eosId: 2, padId: -1, byteFallback: false, precompiledCharsmap: new Uint8Array(0), addDummyPrefix: true, removeExtraWhitespaces: true });

/** The items of a model `yml` describes: float32, or intgemm8 matrices ([out, in] int8 then the float quantMult). */
function items(yml, intgemm) {
  const rng = generator(3);
  return marianParameters(readMarianArchitecture(yml, 'model.yml')).map(([name, , role, shape]) => {
    const marianShape = role === 'W' ? [shape[1], shape[0]] : role === 'vector' ? [1, shape[0]] : shape;
    const n = shape.reduce((a, b) => a * b, 1);
    if (intgemm && role !== 'vector') {
      const q = Int8Array.from({ length: n }, () => rng.int(255) - 127);
      return { name, type: INTGEMM8, shape: marianShape, bytes: concat(new Uint8Array(q.buffer), new Uint8Array(Float32Array.of(127).buffer)) };
    }
    return { name, type: FLOAT32, shape: marianShape, bytes: new Uint8Array(Float32Array.from({ length: n }, () => rng.next() - 0.5).buffer) };
  });
}

const ymlItem = (yml) => {
  const bytes = new TextEncoder().encode(`${yamlText(yml)}\0`);
  return { name: 'special:model.yml', type: INT8, shape: [bytes.length], bytes };
};

/** Marian's binary format (src/common/binary.cpp saveItems): version 1, headers, names, shapes, 256-aligned blobs (an item `unpadded` is not). */
function marianBinary(list) {
  const u64 = (...v) => new Uint8Array(new BigUint64Array(v.map(BigInt)).buffer);
  const blobs = list.map((it) => (it.unpadded ? it.bytes : concat(it.bytes, new Uint8Array((256 - (it.bytes.length % 256)) % 256))));
  const head = [u64(1, list.length), ...list.map((it, i) => u64(it.name.length + 1, it.type, it.shape.length, blobs[i].length)),
    ...list.map((it) => new TextEncoder().encode(`${it.name}\0`)), ...list.map((it) => new Uint8Array(new Int32Array(it.shape).buffer))];
  const pos = head.reduce((n, b) => n + b.length, 0);
  const offset = (Math.floor((pos + 8) / 256) + 1) * 256 - pos - 8;
  return concat(...head, u64(offset), new Uint8Array(offset), ...blobs);
}

/** An .npz (stored, not deflated, so that mutations reach the .npy bytes) of the items. */
function npz(list) {
  const members = {};
  for (const it of list) {
    const descr = it.type === FLOAT32 ? '<f4' : '|i1';
    let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': (${it.shape.join(', ')}${it.shape.length === 1 ? ',' : ''}), }`;
    header += `${' '.repeat(63 - ((10 + header.length) % 64))}\n`;
    const length = new Uint8Array(Uint16Array.of(header.length).buffer);
    members[`${it.name}.npy`] = concat(Uint8Array.of(0x93, 78, 85, 77, 80, 89, 1, 0), length, new TextEncoder().encode(header), it.bytes);
  }
  return zipSync(members, { level: 0 });
}

/** Marian's shortlist checksum (src/common/hash.h hashMem over the uint64 words after magic and checksum). */
function withChecksum(bytes) {
  const out = new Uint8Array(bytes);
  const words = new BigUint64Array(out.slice(16, 16 + 8 * Math.floor((out.length - 16) / 8)).buffer);
  let seed = 0n;
  for (const v of words) seed = BigInt.asUintN(64, seed ^ BigInt.asUintN(64, v + 0x9e3779b9n + (seed << 6n) + (seed >> 2n)));
  if (out.length >= 16) new DataView(out.buffer).setBigUint64(8, seed, true);
  return out;
}

/** A binary lexical shortlist (src/data/shortlist.cpp:164-201): each source id lists target ids 3 and 4. */
function shortlist() {
  const v = PIECES.length, lists = Array.from({ length: v }, () => [3, 4]).flat();
  const header = new BigUint64Array([0xf11a48d5013417f5n, 0n, 4n, 2n, BigInt(v + 1), BigInt(lists.length)]);
  const offsets = BigUint64Array.from({ length: v + 1 }, (_, s) => BigInt(2 * s));
  return withChecksum(concat(new Uint8Array(header.buffer), new Uint8Array(offsets.buffer), new Uint8Array(Uint32Array.from(lists).buffer)));
}

/** The seed folders: [file name, bytes] pairs, with the model's yml as an object to mutate. */
const SEEDS = [
  { model: 'model.ende.bin', intgemm: false, format: 'bin', ymlInside: true },
  { model: 'model.ende.intgemm.alphas.bin', intgemm: true, format: 'bin', ymlInside: true, lex: true },
  { model: 'model.ende.npz', intgemm: false, format: 'npz', ymlInside: false },
  { model: 'model.ende.bin', intgemm: false, format: 'bin', ymlInside: true, yml: { ...YML, 'transformer-decoder-autoreg': 'rnn', 'dec-cell': 'ssru', 'tied-embeddings-all': false, 'tied-embeddings': true } },
];

function seedFiles(seed) {
  const yml = seed.yml ?? YML;
  const list = items(yml, seed.intgemm);
  const withYml = seed.ymlInside ? [...list, ymlItem(yml)] : list;
  const files = { [seed.model]: seed.format === 'npz' ? npz(withYml) : marianBinary(withYml), 'vocab.ende.spm': spm() };
  if (!seed.ymlInside) files['model.yml'] = new TextEncoder().encode(yamlText(yml));
  if (seed.lex) files['lex.50.50.ende.s2t.bin'] = shortlist();
  return { files, list, yml };
}

/** One mutation of a seed's files: bytes of one file, or values of its model.yml (rewritten into the model). */
function mutateFiles(seed, built, rng) {
  const files = { ...built.files };
  const names = Object.keys(files);
  if (rng.int(3) === 0) {
    const yml = mutateJson(built.yml, rng);
    if (seed.ymlInside) {
      const list = [...built.list, ymlItem(yml)];
      files[seed.model] = seed.format === 'npz' ? npz(list) : marianBinary(list);
    } else {
      files['model.yml'] = new TextEncoder().encode(yamlText(yml));
    }
    return { files, what: `model.yml ${JSON.stringify(yml).slice(0, 300)}` };
  }
  const name = rng.pick(names);
  const bytes = mutateSome(files[name], rng);
  files[name] = name.startsWith('lex.') && rng.int(2) ? withChecksum(bytes) : bytes;
  return { files, what: `${name} mutated (${bytes.length} bytes)` };
}

let scratch;
beforeAll(() => { scratch = mkdtempSync(join(tmpdir(), 'crossattn-fuzz-marian-')); });
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function convertFolder(files, run) {
  const folder = join(scratch, `in-${run}`), out = join(scratch, `out-${run}`);
  mkdirSync(folder);
  mkdirSync(out);
  for (const [name, bytes] of Object.entries(files)) writeFileSync(join(folder, name), bytes);
  try {
    return await expectResultOrConvertError(() => convertFile(folder, join(out, 'model.crossattn'), 'fuzz', { sourceLang: 'en', targetLang: 'de' }),
      () => `${label('marian', run)}`, out);
  } finally {
    rmSync(folder, { recursive: true, force: true });
    rmSync(out, { recursive: true, force: true });
  }
}

test('each seed converts', async () => {
  for (const [i, seed] of SEEDS.entries()) expect(await convertFolder(seedFiles(seed).files, `seed${i}`)).toBe('ok');
});

const RUNS = runs(1500);
test(`${RUNS} mutated Marian models (seed ${SEED}): a model or a ConvertError, nothing written on error`, async () => {
  const built = SEEDS.map(seedFiles);
  const counts = await fuzzRuns('convert-fuzz-marian', RUNS, (rng) => {
    const s = rng.int(SEEDS.length), { files, what } = mutateFiles(SEEDS[s], built[s], rng);
    return { files, what: `seed folder ${s}, ${what}` };
  }, convertFolder);
  expect(counts.ok + counts.error).toBe(RUNS);
}, testTimeout(RUNS));

// Regression cases: the shapes of inputs that crashed the converter (a TypeError, a RangeError, running
// out of memory, or a message over several lines) before these checks.
test('damaged Marian inputs found by fuzzing are one-line ConvertErrors', async () => {
  const seed = SEEDS[0], built = seedFiles(seed);
  const withYml = (yml) => ({ ...built.files, [seed.model]: marianBinary([...built.list, ymlItem({ ...YML, ...yml })]) });
  const cases = [
    ['dec-depth 2^53 (built 2^53 layers of tensor names: out of memory)', withYml({ 'dec-depth': 2 ** 53 })],
    ['an activation that is a mapping with a non-callable toString (String() threw a TypeError)', withYml({ 'transformer-ffn-activation': { toString: 1 } })],
    ['a float32 blob shorter than its shape (a RangeError making the Float32Array)', {
      ...built.files, [seed.model]: marianBinary([...built.list.map((it) => (it.name === 'encoder_l1_ffn_b2' ? { ...it, bytes: it.bytes.slice(0, 6), unpadded: true } : it)), ymlItem(YML)]),
    }],
  ];
  for (const [what, files] of cases) expect(await convertFolder(files, what.slice(0, 12).replace(/\W/g, '_')), what).toBe('error');
  // A zip member named with a newline: the message names it on one line.
  const npzSeed = SEEDS[2], npzBuilt = seedFiles(npzSeed);
  const bytes = new Uint8Array(npzBuilt.files[npzSeed.model]);
  const name = new TextEncoder().encode('Wemb.npy');
  bytes.forEach((_, i) => { if (name.every((c, k) => bytes[i + k] === c)) bytes[i + 1] = 10; });  // "W\nmb.npy", in both zip headers
  expect(await convertFolder({ ...npzBuilt.files, [npzSeed.model]: bytes }, 'newline-member')).toBe('error');
});
