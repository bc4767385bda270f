/**
 * Reads a PyTorch state dict saved by `torch.save` (Hugging Face's `pytorch_model.bin`): a zip
 * archive (PyTorch's zipfile serialization, torch/serialization.py `_save`) holding `<archive>/data.pkl`,
 * a pickle of the dict, and one member `<archive>/data/<key>` of raw little-endian bytes per storage.
 *
 * The pickle is read by pickleparser and nothing in it is executed: the only globals it may name are
 * the dict (`collections.OrderedDict`), the tensor rebuilders (`torch._utils._rebuild_tensor_v2`,
 * `_rebuild_parameter`) and the storage classes of the dtypes read here; any other global (`posix.system`,
 * `builtins.eval`, ...) is a ConvertError. Each storage the pickle names by persistent id
 * `('storage', torch.FloatStorage, key, location, numel)` is the member `data/<key>`.
 */
import { unzipBounded } from './bounded-inflate.js';
import { NameRegistry, Parser } from 'pickleparser';
import { ConvertError, shown } from './convert-error.js';
import { checkPickleOpcodes } from './pickle-opcodes.js';
import type { Tensor } from './model-file.js';
import { bf16ToF32 } from './safetensors.js';

/** The storage classes read, and the dtype and element size of each. */
const STORAGES: Record<string, { dtype: 'F32' | 'F16' | 'BF16'; size: number }> = {
  FloatStorage: { dtype: 'F32', size: 4 },
  HalfStorage: { dtype: 'F16', size: 2 },
  BFloat16Storage: { dtype: 'BF16', size: 2 },
};

/** One marker function per storage class: the pickle's GLOBAL pushes it, and a persistent id carries it. */
const STORAGE_CLASSES = new Map(Object.keys(STORAGES).map((name) => [name, () => name] as const));
const storageClass = (type: unknown) => [...STORAGE_CLASSES].find(([, marker]) => marker === type)?.[0];

/** A storage as the pickle's persistent id names it: its member and dtype, read when a tensor takes it. */
interface StorageRef { storage: true; key: string; dtype: 'F32' | 'F16' | 'BF16'; size: number; numel: number }

/** What `_rebuild_tensor_v2` returns here: the storage and the view of it that the tensor is. */
interface TensorRef { tensor: true; storage: StorageRef; offset: number; shape: readonly number[]; stride: readonly number[] }

/** The dict `collections.OrderedDict()` makes; its instance attributes (`_metadata`) are ignored. */
class StateDict extends Map<unknown, unknown> {
  __setstate__(): void {}
}

const isSizes = (v: unknown): v is number[] => Array.isArray(v) && v.length <= 8 && v.every((x) => Number.isSafeInteger(x) && x >= 0);

/**
 * The tensors and storages this reader made, frozen: only these are tensors, whatever else the pickle
 * builds (a dict with a `tensor` key, a BUILD that sets a field of one after it was checked).
 */
const made = new WeakSet<object>();
const make = <T extends object>(value: T): T => {
  made.add(Object.freeze(value));
  return value;
};

/** The names the pickle may use; every other is refused (onMissingName). */
function registry(file: string): NameRegistry {
  const names = new (class extends NameRegistry {
    onMissingName(module: string, name: string): never {
      if (module === 'torch' && name.endsWith('Storage')) {
        throw new ConvertError(file, `torch.${name}`, 'a storage of a dtype crossattn does not read (float32, float16, bfloat16)');
      }
      throw new ConvertError(file, `${module}.${name}`, 'a global that a state dict of tensors does not use: refused, and nothing in the file was run');
    }
  })();
  names.register('collections', 'OrderedDict', () => new StateDict());
  names.register('torch._utils', '_rebuild_tensor_v2', (storage: unknown, offset: unknown, shape: unknown, stride: unknown): TensorRef => {
    if (!Number.isSafeInteger(offset) || !isSizes(shape) || !isSizes(stride) || shape.length !== stride.length) {
      throw new ConvertError(file, 'data.pkl', `_rebuild_tensor_v2 with arguments ${shown([offset, shape, stride])} that do not describe a tensor`);
    }
    if (!made.has(storage as object)) throw new ConvertError(file, 'data.pkl', '_rebuild_tensor_v2 of something that is not a storage');
    return make({ tensor: true, storage: storage as StorageRef, offset: offset as number, shape: Object.freeze([...shape]), stride: Object.freeze([...stride]) });
  });
  names.register('torch._utils', '_rebuild_parameter', (data: unknown) => data);
  for (const [name, marker] of STORAGE_CLASSES) names.register('torch', name, marker);
  return names;
}

/** The persistent id of a storage, `('storage', class, key, location, numel)`, as a StorageRef. */
function storageOf(pid: unknown, file: string): StorageRef {
  const parts = Array.isArray(pid) ? pid : [];
  const [kind, type, key, , numel] = parts;
  const className = storageClass(type);
  const info = className === undefined ? undefined : STORAGES[className];
  if (kind !== 'storage' || typeof key !== 'string' || !Number.isSafeInteger(numel) || (numel as number) < 0) {
    throw new ConvertError(file, 'data.pkl', `persistent id ${shown(pid)} is not a storage`);
  }
  if (!info) throw new ConvertError(file, `data/${key}`, 'a storage of a dtype crossattn does not read (float32, float16, bfloat16)');
  return make({ storage: true, key, dtype: info.dtype, size: info.size, numel: numel as number });
}

/** The contiguous bytes of one tensor in its storage member (copied only when a typed array could not view them). */
function tensorBytes(t: TensorRef, members: Record<string, Uint8Array>, prefix: string, file: string, name: string): Uint8Array {
  const member = members[`${prefix}data/${t.storage.key}`];
  if (!member) throw new ConvertError(file, name, `its storage data/${t.storage.key} is not in the archive`);
  if (member.length !== t.storage.numel * t.storage.size) {
    throw new ConvertError(file, `data/${t.storage.key}`, `holds ${member.length} bytes, the pickle says ${t.storage.numel} elements of ${t.storage.size} bytes`);
  }
  const numel = t.shape.reduce((a, b) => a * b, 1);
  let expected = 1;  // row-major strides: the only layout save_pretrained writes
  for (let d = t.shape.length - 1; d >= 0; d--) {
    if (t.shape[d] !== 1 && t.stride[d] !== expected) throw new ConvertError(file, name, `strides [${t.stride}] of shape [${t.shape}] are not contiguous`);
    expected *= t.shape[d];
  }
  if (t.offset + numel > t.storage.numel) throw new ConvertError(file, name, `shape [${t.shape}] at offset ${t.offset} lies outside its storage of ${t.storage.numel}`);
  const begin = t.offset * t.storage.size;
  const bytes = member.subarray(begin, begin + numel * t.storage.size);
  return (member.byteOffset + begin) % t.storage.size === 0 ? bytes : bytes.slice();  // a view where a typed array can be one
}

function tensorOf(bytes: Uint8Array, dtype: StorageRef['dtype'], shape: number[]): Tensor {
  if (dtype === 'F32') return { dtype, shape, data: new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4) };
  if (dtype === 'F16') return { dtype, shape, data: new Uint16Array(bytes.buffer, bytes.byteOffset, bytes.length / 2) };
  return { dtype: 'F32', shape, data: bf16ToF32(new Uint16Array(bytes.buffer, bytes.byteOffset, bytes.length / 2)) };
}

/** The zip's members; a file that is not a zip is a ConvertError. */
function members(bytes: Uint8Array, file: string): Record<string, Uint8Array> {
  return unzipBounded(bytes, file, 'file', "not a zip archive as torch.save writes one; files of torch.save's legacy format (before PyTorch 1.6) are not read");
}

/**
 * The tensors of the state dict in `bytes` (float32, float16, bfloat16 widened to float32), by name.
 * @param file names the file in errors.
 * @throws ConvertError naming the file and field: not a zip, no data.pkl, a pickle that names a
 *   global other than a state dict's, a storage of another dtype or missing, a tensor that is not
 *   contiguous or lies outside its storage, an entry that is not a tensor.
 */
export function readPytorch(bytes: Uint8Array, file: string): Map<string, Tensor> {
  const zip = members(bytes, file);
  const pickleName = Object.keys(zip).find((n) => /^[^/]+\/data\.pkl$/.test(n));
  if (!pickleName) throw new ConvertError(file, 'data.pkl', 'missing: not a torch.save archive');
  const prefix = pickleName.slice(0, -'data.pkl'.length);
  checkPickleOpcodes(zip[pickleName], file);
  let dict: unknown;
  try {
    dict = new Parser({
      nameResolver: registry(file),
      persistentResolver: { resolve: (pid: unknown) => storageOf(pid, file) },
      unpicklingTypeOfDictionary: 'Map',
    }).parse(zip[pickleName]);
  } catch (e) {
    if (e instanceof ConvertError) throw e;
    throw new ConvertError(file, 'data.pkl', `not a pickle pickleparser reads (${e instanceof Error ? e.message : String(e)})`);
  }
  if (!(dict instanceof Map)) throw new ConvertError(file, 'data.pkl', 'holds no dict of tensors');
  const tensors = new Map<string, Tensor>();
  for (const [name, value] of dict) {
    if (typeof name !== 'string' || typeof value !== 'object' || value === null || !made.has(value) || !(value as TensorRef).tensor) {
      throw new ConvertError(file, typeof name === 'string' ? name : shown(name), 'is not a tensor');
    }
    const t = value as TensorRef;
    tensors.set(name, tensorOf(tensorBytes(t, zip, prefix, file, name), t.storage.dtype, [...t.shape]));
  }
  return tensors;
}
