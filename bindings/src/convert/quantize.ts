/**
 * Symmetric per-row int8 of a converted model's weight matrices, as models/quantize.py makes the
 * shipped int8 files: every float tensor of the spec's kind "matrix" (cpp/model/tensor_spec.json:
 * linear layers, the SSRU's two, and embeddings) W [out, in] becomes
 *
 *   scale[j] = max_k |W[j, k]| / 127,   Wq[j, k] = round(W[j, k] / scale[j])  in [-127, 127]
 *
 * stored as I8 rows [out, in] plus F32 `<name>_scale` [out]; an all-zero row keeps scale 0. Biases,
 * layer norms and tensors already int8 stay as they are. The engine quantizes activations per row
 * at run time (docs/model-format.md, "int8").
 */
import { floatValues } from './marian-hf-weights.js';
import type { ConvertedModel, Tensor } from './model-file.js';
import { expectedTensors } from './tensor-spec.js';

/** x rounded to the nearest integer, ties to even (torch.round, as models/quantize.py rounds). */
function roundHalfEven(x: number): number {
  const r = Math.round(x);
  return r - x === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

/**
 * W [rows, cols] -> int8 rows and their scales [rows], bit for bit as models/quantize.py computes them
 * in float32 (each quotient rounded to float32 before it is rounded to an integer).
 */
export function quantizeMatrix(w: Float32Array, rows: number, cols: number): { q: Int8Array; scale: Float32Array } {
  const q = new Int8Array(rows * cols), scale = new Float32Array(rows);
  for (let j = 0; j < rows; j++) {
    let max = 0;  // [rows, cols] row-major: row j is w[j * cols .. (j + 1) * cols)
    for (let k = 0; k < cols; k++) max = Math.max(max, Math.abs(w[j * cols + k]));
    scale[j] = Math.fround(max / 127);
    if (scale[j] === 0) continue;
    for (let k = 0; k < cols; k++) q[j * cols + k] = Math.max(-127, Math.min(127, roundHalfEven(Math.fround(w[j * cols + k] / scale[j]))));
  }
  return { q, scale };
}

/**
 * `model` with its float weight matrices int8 per row (a new tensor map; the model's other fields
 * shared). A fused projection (the SSRU's weight and forget_weight, attention's q, k, v) is then int8
 * throughout, as the engine requires.
 */
export async function quantizeRows(model: ConvertedModel): Promise<ConvertedModel> {
  const matrices = new Set(expectedTensors(model.config).filter((e) => e.kind === 'matrix').map((e) => e.name));
  const tensors = new Map<string, Tensor>();
  let count = 0;
  for (const [name, t] of model.tensors) {
    if (!(matrices.has(name) && t.shape.length === 2 && (t.dtype === 'F32' || t.dtype === 'F16'))) {
      tensors.set(name, t);
      continue;
    }
    const [rows, cols] = t.shape;
    const { q, scale } = quantizeMatrix(floatValues(t), rows, cols);
    tensors.set(name, { dtype: 'I8', shape: [rows, cols], data: q }).set(`${name}_scale`, { dtype: 'F32', shape: [rows], data: scale });
    count++;
  }
  const quantization = JSON.stringify({ weights: 'int8, symmetric, per output row', activations: 'int8, per row, at run time', layout: 'rows', matrices: count });
  return { ...model, tensors, metadata: { ...model.metadata, quantization } };
}
