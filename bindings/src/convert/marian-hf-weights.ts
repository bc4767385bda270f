/**
 * Helpers shared by the two OPUS-MT converters (huggingface.ts, transformers-js.ts): HF MarianMT's
 * layer tensors by our names (the spec's rows for the format, format-rows.ts), the check that a
 * position table is MarianSinusoidalPositionalEmbedding's, and vocab.json.
 */
import { ConvertError, isJsonObject, shown } from './convert-error.js';
import type { Tensor } from './model-file.js';
import { ourName, theirName } from './format-rows.js';
import { readJsonFile, type ModelFiles } from './model-files.js';
import { isLayerTensor } from './tensor-spec.js';

/** HF MarianMT's name for our tensor `ours` (`shared.weight` -> `model.shared.weight`). */
export const hfName = (ours: string): string => theirName('huggingface-marian', ours);

/**
 * Our name for HF MarianMT's layer tensor `name` (`model.decoder.layers.0.encoder_attn.k_proj.weight` ->
 * `decoder.layers.0.cross_attn.k_proj.weight`), or undefined when it is no layer tensor of the spec.
 */
export function layerTensorName(name: string): string | undefined {
  const ours = ourName('huggingface-marian', name);
  return ours !== undefined && isLayerTensor(ours) ? ours : undefined;
}

/** IEEE half-precision bits -> number. */
function halfToNumber(h: number): number {
  const exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff, sign = h & 0x8000 ? -1 : 1;
  if (exponent === 0) return sign * mantissa * 2 ** -24;
  if (exponent === 31) return mantissa ? NaN : sign * Infinity;
  return sign * (1 + mantissa / 1024) * 2 ** (exponent - 15);
}

/** A float tensor's values as float32 (F16 widened). */
export function floatValues(t: Tensor): Float32Array {
  if (t.dtype === 'F32') return t.data as Float32Array;
  if (t.dtype === 'F16') return Float32Array.from(t.data as Uint16Array, halfToNumber);
  throw new Error(`floatValues: ${t.dtype} is not a float dtype`);
}

/**
 * Checks that `table` [max_positions, d_model] is MarianSinusoidalPositionalEmbedding._init_weight's
 * table (transformers modeling_marian.py): [pos, j] = sin(pos / 10000^(2j/D)) for j < D/2 and
 * cos(pos / 10000^(2(j - D/2)/D)) after, to within `tolerance` (fp16 and 8-bit storage round it).
 * @throws ConvertError naming the tensor when the shape or a value differs: learned positions,
 *   which crossattn does not compute.
 */
export function checkSinusoids(table: Tensor, maxPositions: number, dModel: number, file: string, name: string, tolerance: number): void {
  if (table.shape.length !== 2 || table.shape[0] !== maxPositions || table.shape[1] !== dModel) {
    throw new ConvertError(file, name, `has shape [${table.shape}], max_position_embeddings and d_model say [${maxPositions}, ${dModel}]`);
  }
  const values = floatValues(table), half = dModel / 2;
  for (let pos = 0; pos < maxPositions; pos++) {
    for (let j = 0; j < dModel; j++) {
      const i = j < half ? j : j - half;
      const angle = pos / 10000 ** ((2 * i) / dModel);
      const expected = j < half ? Math.sin(angle) : Math.cos(angle);
      if (!(Math.abs(values[pos * dModel + j] - expected) <= tolerance)) {
        throw new ConvertError(file, name, `is not MarianMTModel's sinusoidal table (position ${pos}, dimension ${j}: ${values[pos * dModel + j]}, expected ${expected.toFixed(6)}); learned positions are not supported`);
      }
    }
  }
}

/**
 * The pieces of the vocab.json ({piece: id}) `file` of `files`, by id.
 * @throws ConvertError naming the file when it is missing, not JSON, or its ids are not 0 .. n-1 each once.
 */
export function readVocabJson(files: ModelFiles, file: string): string[] {
  const path = files.display(file);
  const raw = readJsonFile<Record<string, number>>(files, file, 'vocab');
  if (!isJsonObject(raw)) throw new ConvertError(path, 'vocab', `is ${shown(raw)}, not a JSON object of piece ids`);
  const entries = Object.entries(raw);
  const pieces: string[] = new Array(entries.length);
  for (const [piece, id] of entries) {
    if (!Number.isInteger(id) || id < 0 || id >= entries.length || pieces[id] !== undefined) {
      throw new ConvertError(path, piece, `has id ${shown(id)}; the ids must be 0 .. ${entries.length - 1}, each once`);
    }
    pieces[id] = piece;
  }
  return pieces;
}

/** Marian's target-language tokens (`>>fra<<`) in a vocabulary: the user types them at the start of the text. */
export function languageTokens(vocab: string[]): string[] {
  return vocab.filter((p) => /^>>[^\s<>]+<<$/.test(p));
}
