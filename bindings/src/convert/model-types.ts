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

/** The "config" metadata (docs/model-format.md, "config"); optional fields take the engine's defaults. */
export interface ModelConfigJson {
  name: string; source_lang: string; target_lang: string;
  encoder_layers: number; decoder_layers: number; d_model: number; n_heads: number; d_ff: number;
  activation: 'relu' | 'gelu' | 'swish';
  layer_norm: 'pre' | 'post'; layer_norm_eps: number; embed_scale: boolean;
  positional_encoding: 'sinusoidal'; sinusoidal_layout: 'interleaved' | 'halves' | 'marian'; max_positions: number;
  tied_embeddings: boolean; shared_vocab: boolean; final_logits_bias: boolean;
  vocab_size: number; pad_id: number; unk_id: number; bos_id: number; eos_id: number; decoder_start_id: number;
  decoder_start?: 'token' | 'zero';
  source_vocab_size?: number; source_eos_id?: number; source_unk_id?: number;
  decoder_autoregression?: 'self-attention' | 'ssru';
}
