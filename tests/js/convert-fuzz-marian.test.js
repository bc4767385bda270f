// Mutation fuzzing of the Marian converter's readers (bindings/src/convert/marian*.ts, npz.ts,
// bounded-inflate.ts, sentencepiece-pieces.ts), one harness each: Marian's .bin, .npz (stored and
// deflated), gzip (a .bin.gz and a .spm.gz), model.yml and the binary lexical shortlist. The seeds
// are tiny valid Marian models made here (a 1-layer d_model 4 transformer over 8 pieces, as .bin
// with float32 or intgemm8 matrices or an SSRU decoder, and as .npz, the model.yml inside or beside,
// a SentencePiece vocabulary); each harness mutates its reader's file and runs the whole
// `convertFile`: the outcome is a .crossattn file or a ConvertError, within 5 s and 512 MiB, and
// nothing is written on error (convert-fuzz-lib.js).
//   CROSSATTN_FUZZ_SECONDS=60 npx vitest run --config tests/js/vitest.config.js tests/js/convert-fuzz-marian.test.js
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync, unzipSync, zipSync } from 'fflate';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { stringify as yamlText } from 'yaml';
import { convertFile } from '../../dist/convert/index.js';
import { marianParameters } from '../../dist/convert/marian-weights.js';
import { readMarianArchitecture } from '../../dist/convert/marian-config.js';
import { writeUnigramModel } from '../../dist/convert/sentencepiece-model.js';
import { concat, expectResultOrConvertError, fuzzTest, generator, label, mutateSome, mutateJson } from './convert-fuzz-lib.js';

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

/** An .npz of the items: stored (as Marian writes it, so that byte mutations reach the .npy bytes), or deflated. */
function npz(list, level = 0) {
  const members = {};
  for (const it of list) {
    const descr = it.type === FLOAT32 ? '<f4' : '|i1';
    let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': (${it.shape.join(', ')}${it.shape.length === 1 ? ',' : ''}), }`;
    header += `${' '.repeat(63 - ((10 + header.length) % 64))}\n`;
    const length = new Uint8Array(Uint16Array.of(header.length).buffer);
    members[`${it.name}.npy`] = concat(Uint8Array.of(0x93, 78, 85, 77, 80, 89, 1, 0), length, new TextEncoder().encode(header), it.bytes);
  }
  return zipSync(members, { level });
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

/** The seed folders; `format` is how the model file is written, and `gz` gzips it and the vocabulary. */
const SEEDS = {
  bin: { model: 'model.ende.bin', intgemm: false, format: 'bin', ymlInside: true },
  intgemm: { model: 'model.ende.intgemm.alphas.bin', intgemm: true, format: 'bin', ymlInside: true, lex: true },
  npz: { model: 'model.ende.npz', intgemm: false, format: 'npz', ymlInside: false },
  npzDeflated: { model: 'model.ende.npz', intgemm: false, format: 'npz', level: 6, ymlInside: true },
  ssru: { model: 'model.ende.bin', intgemm: false, format: 'bin', ymlInside: true, yml: { ...YML, 'transformer-decoder-autoreg': 'rnn', 'dec-cell': 'ssru', 'tied-embeddings-all': false, 'tied-embeddings': true } },
  gz: { model: 'model.ende.bin.gz', intgemm: true, format: 'bin', ymlInside: false, gz: true },
};

const modelBytes = (seed, list) => {
  const bytes = seed.format === 'npz' ? npz(list, seed.level) : marianBinary(list);
  return seed.gz ? gzipSync(bytes) : bytes;
};

function seedFiles(seed) {
  const yml = seed.yml ?? YML;
  const list = items(yml, seed.intgemm);
  const files = { [seed.model]: modelBytes(seed, seed.ymlInside ? [...list, ymlItem(yml)] : list) };
  files[seed.gz ? 'vocab.ende.spm.gz' : 'vocab.ende.spm'] = seed.gz ? gzipSync(spm()) : spm();
  if (!seed.ymlInside) files['model.yml'] = new TextEncoder().encode(yamlText(yml));
  if (seed.lex) files['lex.50.50.ende.s2t.bin'] = shortlist();
  return { files, list, yml };
}

const BUILT = Object.fromEntries(Object.entries(SEEDS).map(([name, seed]) => [name, seedFiles(seed)]));

/** A seed's files with `name` replaced by `bytes`. */
const withFile = (seedName, name, bytes, what) => ({ files: { ...BUILT[seedName].files, [name]: bytes }, what: `${seedName} seed, ${what}` });

/** The mutations of each reader's harness: each changes that reader's file of a seed folder. */
const READERS = {
  'Marian .bin': (rng) => {
    const seedName = rng.pick(['bin', 'intgemm', 'ssru']), model = SEEDS[seedName].model;
    const bytes = mutateSome(BUILT[seedName].files[model], rng);
    return withFile(seedName, model, bytes, `${model} mutated (${bytes.length} bytes)`);
  },
  npz: (rng) => {
    const seedName = rng.pick(['npz', 'npzDeflated']), seed = SEEDS[seedName];
    if (rng.int(2)) {  // a member's .npy bytes, re-zipped: deflating hides the .npy from byte mutations
      const members = unzipSync(BUILT[seedName].files[seed.model]);
      const member = rng.pick(Object.keys(members));
      members[member] = mutateSome(members[member], rng);
      return withFile(seedName, seed.model, zipSync(members, { level: seed.level ?? 0 }), `member ${member} mutated (${members[member].length} bytes)`);
    }
    const bytes = mutateSome(BUILT[seedName].files[seed.model], rng);
    return withFile(seedName, seed.model, bytes, `${seed.model} mutated (${bytes.length} bytes)`);
  },
  gzip: (rng) => {
    const name = rng.pick(['model.ende.bin.gz', 'vocab.ende.spm.gz']);
    const gz = BUILT.gz.files[name];
    if (rng.int(2)) return withFile('gz', name, mutateSome(gz, rng), `${name} mutated`);
    const inner = mutateSome(name.startsWith('model') ? marianBinary(BUILT.gz.list) : spm(), rng);  // what it holds, mutated, then gzipped
    return withFile('gz', name, gzipSync(inner), `${name} holding ${inner.length} mutated bytes`);
  },
  'model.yml': (rng) => {
    const seedName = rng.pick(['bin', 'npz', 'ssru']), seed = SEEDS[seedName], built = BUILT[seedName];
    const yml = mutateJson(built.yml, rng);
    if (seed.ymlInside) return withFile(seedName, seed.model, modelBytes(seed, [...built.list, ymlItem(yml)]), `model.yml ${JSON.stringify(yml).slice(0, 300)}`);
    const text = new TextEncoder().encode(yamlText(yml));
    return rng.int(2) ? withFile(seedName, 'model.yml', text, `model.yml ${JSON.stringify(yml).slice(0, 300)}`)
      : withFile(seedName, 'model.yml', mutateSome(built.files['model.yml'], rng), 'model.yml bytes mutated');
  },
  'lex shortlist': (rng) => {
    const name = 'lex.50.50.ende.s2t.bin', bytes = mutateSome(BUILT.intgemm.files[name], rng);
    return withFile('intgemm', name, rng.int(2) ? withChecksum(bytes) : bytes, `${name} mutated (${bytes.length} bytes)`);
  },
};

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
  for (const [name, built] of Object.entries(BUILT)) expect(await convertFolder(built.files, `seed-${name}`), name).toBe('ok');
});

for (const [reader, mutate] of Object.entries(READERS)) fuzzTest('convert-fuzz-marian', reader, 300, mutate, convertFolder);

// Regression cases: the shapes of inputs that crashed the converter (a TypeError, a RangeError, running
// out of memory, or a message over several lines) before these checks.
test('damaged Marian inputs found by fuzzing are one-line ConvertErrors', async () => {
  const seed = SEEDS.bin, built = BUILT.bin;
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
  const npzSeed = SEEDS.npz, npzBuilt = BUILT.npz;
  const bytes = new Uint8Array(npzBuilt.files[npzSeed.model]);
  const name = new TextEncoder().encode('Wemb.npy');
  bytes.forEach((_, i) => { if (name.every((c, k) => bytes[i + k] === c)) bytes[i + 1] = 10; });  // "W\nmb.npy", in both zip headers
  expect(await convertFolder({ ...npzBuilt.files, [npzSeed.model]: bytes }, 'newline-member')).toBe('error');
});
