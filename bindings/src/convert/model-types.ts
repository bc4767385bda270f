/**
 * The types of a model file's contents (docs/model-format.md): its tensors and its "config"
 * metadata, on their own so that the writer (model-file.ts) and the checks it runs (tensor-spec.ts,
 * files.ts) all stand on them.
 */

export type Dtype = 'F32' | 'F16' | 'I8' | 'I32' | 'U8';

/** One tensor, row-major; `data.length` equals the product of `shape`. */
export interface Tensor {
  dtype: Dtype;
  shape: number[];
  data: Float32Array | Uint16Array | Int8Array | Int32Array | Uint8Array;
}

/** The "config" metadata (docs/model-format.md, "config"), generated from the spec. */
export type { ModelConfigJson } from './model-spec.generated.js';
