/**
 * Reads a safetensors file (https://github.com/huggingface/safetensors, "Format"): 8 bytes N
 * (unsigned little-endian), N bytes of JSON header mapping each tensor name to
 * `{dtype, shape, data_offsets: [begin, end)}` relative to the data that follows, and an optional
 * `__metadata__` map of strings. Hugging Face's `model.safetensors` is one.
 */
import { parseJson } from './bounded-parse.js';
import { ConvertError, isJsonObject as isObject, shown } from './convert-error.js';
import type { Tensor } from './model-file.js';

const ELEMENT_SIZE: Record<string, number> = { F32: 4, F16: 2, BF16: 2, I8: 1, U8: 1, I32: 4, I64: 8, F64: 8 };

/** bfloat16 bits [n] -> float32 [n]: the 16 bits are the top half of the float32. */
export function bf16ToF32(bits: Uint16Array): Float32Array {
  const out = new Uint32Array(bits.length);
  for (let i = 0; i < bits.length; i++) out[i] = bits[i] << 16;
  return new Float32Array(out.buffer);
}

function tensorOf(bytes: Uint8Array, dtype: string, shape: number[], file: string, name: string): Tensor {
  const copy = new Uint8Array(bytes);  // an aligned copy (Buffer.slice would be a view)
  switch (dtype) {
    case 'F32': return { dtype: 'F32', shape, data: new Float32Array(copy.buffer) };
    case 'F16': return { dtype: 'F16', shape, data: new Uint16Array(copy.buffer) };
    case 'BF16': return { dtype: 'F32', shape, data: bf16ToF32(new Uint16Array(copy.buffer)) };
    case 'I8': return { dtype: 'I8', shape, data: new Int8Array(copy.buffer) };
    case 'U8': return { dtype: 'U8', shape, data: copy };
    case 'I32': return { dtype: 'I32', shape, data: new Int32Array(copy.buffer) };
    default: throw new ConvertError(file, name, `dtype ${dtype} is not one crossattn reads (F32, F16, BF16, I8, U8, I32)`);
  }
}

/** Whether `v` is a list of at most `max` non-negative safe integers. */
const isSizes = (v: unknown, max: number): v is number[] =>
  Array.isArray(v) && v.length <= max && v.every((x) => Number.isSafeInteger(x) && x >= 0);

/**
 * The largest safetensors header read, in bytes: a header lists about 100 bytes a tensor, so 8 MiB
 * holds 80,000 tensors; 60 MB of empty tensors took 1.3 GB to parse.
 */
export const MAX_HEADER_BYTES = 8 * 2 ** 20;

/**
 * The tensors' byte ranges must tile the data, in some order, with no overlap and no gap, as the
 * safetensors library requires (safetensors/src/tensor.rs, validate: "InvalidOffset"): two tensors
 * sharing bytes, or bytes no tensor owns, mark a file made to mislead a reader.
 * @throws ConvertError naming the tensor whose range overlaps or leaves a gap before it.
 */
function checkContiguous(ranges: [number, number, string][], dataLength: number, path: string): void {
  ranges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let at = 0;
  for (const [begin, end, name] of ranges) {
    if (begin !== at) throw new ConvertError(path, name, `data_offsets [${begin}, ${end}) ${begin < at ? 'overlap another tensor\'s bytes' : `leave bytes ${at} to ${begin} to no tensor`}`);
    at = end;
  }
  if (at !== dataLength) throw new ConvertError(path, 'header', `the tensors end at byte ${at} of the data, which has ${dataLength}: trailing bytes belong to no tensor`);
}

/**
 * The tensors of the safetensors file `file` (BF16 widened to F32, other dtypes as stored) and
 * its metadata; `path` names it in errors.
 * @throws ConvertError naming the file and the tensor for a truncated file, an unreadable header,
 *   offsets outside the data, disagreeing with the shape, overlapping or leaving gaps, or a dtype
 *   crossattn does not read.
 */
export function readSafetensors(file: Uint8Array, path: string): { tensors: Map<string, Tensor>; metadata: Record<string, string> } {
  if (file.length < 8) throw new ConvertError(path, 'header', 'shorter than the 8-byte header length');
  const n = Number(new DataView(file.buffer, file.byteOffset, file.byteLength).getBigUint64(0, true));
  if (8 + n > file.length) throw new ConvertError(path, 'header', `says ${n} header bytes, the file has ${file.length - 8}`);
  if (n > MAX_HEADER_BYTES) throw new ConvertError(path, 'header', `is ${n} bytes, over the ${MAX_HEADER_BYTES} of any model's header: refused before parsing`);
  const header = parseJson(new TextDecoder().decode(file.subarray(8, 8 + n)), path, 'header');
  if (!isObject(header)) throw new ConvertError(path, 'header', `is ${shown(header)}, not a JSON object of tensors`);
  const data = file.subarray(8 + n);
  const tensors = new Map<string, Tensor>();
  const ranges: [number, number, string][] = [];
  let metadata: Record<string, string> = {};
  for (const [name, entry] of Object.entries(header)) {
    if (name === '__metadata__') {
      if (!isObject(entry)) throw new ConvertError(path, name, 'is not a JSON object');
      metadata = entry as unknown as Record<string, string>;
      continue;
    }
    if (!isObject(entry)) throw new ConvertError(path, name, `is ${shown(entry)}, not a tensor entry ({dtype, shape, data_offsets})`);
    const { dtype, shape, data_offsets: offsets } = entry as Record<string, unknown>;
    const size = typeof dtype === 'string' && Object.hasOwn(ELEMENT_SIZE, dtype) ? ELEMENT_SIZE[dtype] : undefined;
    if (size === undefined) throw new ConvertError(path, name, `unknown dtype ${shown(dtype)}`);
    if (!isSizes(shape, 8) || !isSizes(offsets, 2) || offsets.length !== 2) {
      throw new ConvertError(path, name, `shape ${shown(shape)} and data_offsets ${shown(offsets)} must be lists of non-negative integers (at most 8 and exactly 2)`);
    }
    const [begin, end] = offsets;
    const numel = shape.reduce((a, b) => a * b, 1);
    if (!(begin >= 0 && end <= data.length && end - begin === numel * size)) {
      throw new ConvertError(path, name, `data_offsets [${begin}, ${end}) do not hold shape [${shape}] of ${dtype} inside the file`);
    }
    ranges.push([begin, end, name]);
    tensors.set(name, tensorOf(data.subarray(begin, end), dtype as string, shape, path, name));
  }
  checkContiguous(ranges, data.length, path);
  return { tensors, metadata };
}
