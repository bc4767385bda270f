// pytorch_model.bin (torch.save's zip of a pickle) read by bindings/src/convert/pytorch.ts: the fixture
// written by Debian's python3-torch converts to the same tensors as the safetensors folder of the same
// weights; a pickle that names any global other than a state dict's is refused, and nothing in it runs.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ConvertError } from '../../dist/convert/convert-error.js';
import { convertModel } from '../../dist/convert/index.js';
import { readPytorch } from '../../dist/convert/pytorch.js';
import { FIXTURES, HF, ensureFixtures } from './opus-mt-fixtures.js';

const PYTHON = process.env.CROSSATTN_PYTHON ?? '/usr/bin/python3';
let work;
beforeAll(() => {
  ensureFixtures();
  work = mkdtempSync(join(tmpdir(), 'crossattn-pytorch-'));
}, 300_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

const bytesOf = (t) => Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength);

/** torch.save of the state dict a Python expression makes (torch imported), written to a file of `work`. */
function torchSave(name, expression) {
  const path = join(work, name);
  execFileSync(PYTHON, ['-c', `import collections, sys, torch; torch.save(${expression}, sys.argv[1])`, path], { stdio: 'pipe' });
  return path;
}

const readBad = (bytes) => {
  try {
    readPytorch(bytes, 'pytorch_model.bin');
  } catch (e) {
    return e;
  }
  return null;
};

test('the torch.save folder converts to the same model as the safetensors one, tied embedding included', async () => {
  const fromSafetensors = await convertModel(HF);
  const fromPytorch = await convertModel(`${FIXTURES}/hf-pytorch/opus-mt-en-de`);
  expect(fromPytorch.config).toEqual(fromSafetensors.config);
  expect([...fromPytorch.tensors.keys()].sort()).toEqual([...fromSafetensors.tensors.keys()].sort());
  for (const [name, t] of fromSafetensors.tensors) {
    const u = fromPytorch.tensors.get(name);
    expect([u.dtype, u.shape], name).toEqual([t.dtype, t.shape]);
    expect(bytesOf(u).equals(bytesOf(t)), `${name} differs`).toBe(true);
  }
});

test('float16, bfloat16, views at an offset, and parameters', () => {
  const path = torchSave('mixed.bin', `collections.OrderedDict([
    ('half', torch.arange(6, dtype=torch.float16).reshape(2, 3)),
    ('bf16', torch.tensor([1.5, -2.0, 3.25], dtype=torch.bfloat16)),
    ('row', torch.arange(12, dtype=torch.float32).reshape(3, 4)[1]),
    ('param', torch.nn.Parameter(torch.ones(2)))])`);
  const t = readPytorch(new Uint8Array(readFileSync(path)), path);
  expect(t.get('half')).toMatchObject({ dtype: 'F16', shape: [2, 3] });
  expect(Array.from(t.get('half').data)).toEqual([0, 0x3c00, 0x4000, 0x4200, 0x4400, 0x4500]);  // 0..5 in IEEE half
  expect(t.get('bf16')).toMatchObject({ dtype: 'F32', shape: [3] });
  expect(Array.from(t.get('bf16').data)).toEqual([1.5, -2, 3.25]);
  expect(Array.from(t.get('row').data)).toEqual([4, 5, 6, 7]);  // the second row: storage offset 4
  expect(Array.from(t.get('param').data)).toEqual([1, 1]);
});

test('a transposed (non-contiguous) tensor and an int64 tensor are refused by name', () => {
  const transposed = torchSave('transposed.bin', "{'w': torch.zeros(2, 3).t()}");
  expect(readBad(new Uint8Array(readFileSync(transposed))).message).toMatch(/^pytorch_model\.bin: w: strides \[1,3\] of shape \[3,2\] are not contiguous/);
  const ints = torchSave('ints.bin', "{'ids': torch.arange(3)}");
  expect(readBad(new Uint8Array(readFileSync(ints))).message).toMatch(/torch\.LongStorage: a storage of a dtype crossattn does not read/);
});

/** A pickle's bytes written as a string of code points below 256 (`\x85` is the byte 0x85, where UTF-8 would write two). */
const latin1 = (text) => Uint8Array.from(text, (c) => c.charCodeAt(0));

test('a pickle that calls os.system is refused, and the command never runs', () => {
  const marker = join(work, 'ran');
  // protocol 2: GLOBAL posix.system, the argument tuple, REDUCE, STOP (pickle.dumps of a __reduce__ that runs a command)
  const command = `touch '${marker}'`;
  const pickle = new Uint8Array([0x80, 0x02, ...strToU8('cposix\nsystem\nq\x00X'), command.length, 0, 0, 0,
    ...latin1(`${command}q\x01\x85q\x02Rq\x03.`)]);
  const error = readBad(zipSync({ 'archive/data.pkl': pickle, 'archive/version': strToU8('3\n') }, { level: 0 }));
  expect(error).toBeInstanceOf(ConvertError);
  expect(error.message).toBe('pytorch_model.bin: posix.system: a global that a state dict of tensors does not use: refused, and nothing in the file was run');
  expect(existsSync(marker)).toBe(false);
});

test('every other global a hostile pickle may name is refused by name: builtins.eval, builtins.exec, subprocess.Popen, torch.load', () => {
  const code = `open('${join(work, 'ran-too')}', 'w')`;
  for (const [module, name] of [['builtins', 'eval'], ['builtins', 'exec'], ['subprocess', 'Popen'], ['torch', 'load'], ['__builtin__', 'getattr']]) {
    // protocol 2: GLOBAL module.name, a one-string tuple, REDUCE, STOP
    const pickle = new Uint8Array([0x80, 0x02, ...strToU8(`c${module}\n${name}\nq\x00X`), code.length, 0, 0, 0,
      ...latin1(`${code}q\x01\x85q\x02Rq\x03.`)]);
    const error = readBad(zipSync({ 'archive/data.pkl': pickle, 'archive/version': strToU8('3\n') }, { level: 0 }));
    expect(error, `${module}.${name}`).toBeInstanceOf(ConvertError);
    expect(error.message).toBe(`pytorch_model.bin: ${module}.${name}: a global that a state dict of tensors does not use: refused, and nothing in the file was run`);
  }
  expect(existsSync(join(work, 'ran-too'))).toBe(false);
});

test('damaged archives are ConvertErrors naming the field', () => {
  expect(readBad(strToU8('not a zip')).message).toMatch(/^pytorch_model\.bin: file: not a zip archive/);
  expect(readBad(zipSync({ 'archive/other': strToU8('x') })).message).toMatch(/data\.pkl: missing/);
  const path = torchSave('small.bin', "{'w': torch.ones(4)}");
  const parts = unzipSync(new Uint8Array(readFileSync(path)));
  const storage = Object.keys(parts).find((n) => /\/data\/\d+$/.test(n));
  const missing = Object.fromEntries(Object.entries(parts).filter(([n]) => n !== storage));
  expect(readBad(zipSync(missing)).message).toMatch(/^pytorch_model\.bin: w: its storage data\/\d+ is not in the archive/);
  const short = { ...parts, [storage]: parts[storage].subarray(0, 8) };
  expect(readBad(zipSync(short)).message).toMatch(/holds 8 bytes, the pickle says 4 elements of 4 bytes/);
});
