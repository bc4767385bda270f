// Made by tools/model-spec/index.js from cpp/model/tensor_spec.json: the config's type and fields,
// and the tensor groups, which tensor-spec.ts checks a converted model by.
// Do not edit: `node tools/model-spec/index.js --write` makes it anew; tests/js/model-spec-generated.test.js
// fails when it differs from what the spec makes.

/** The "config" metadata of a model file (docs/model-format.md, "config"); absent optional fields take their defaults. */
export interface ModelConfigJson {
  /** identification, e.g. `multi30k-en-de`, `en`, `de`; default "" */
  name?: string;
  /** identification, e.g. `multi30k-en-de`, `en`, `de`; default "" */
  source_lang?: string;
  /** identification, e.g. `multi30k-en-de`, `en`, `de`; default "" */
  target_lang?: string;
  /** number of layers in each stack */
  encoder_layers: number;
  /** number of layers in each stack */
  decoder_layers: number;
  /** model width, attention heads (`d_k = d_model / n_heads`), feed-forward width */
  d_model: number;
  /** model width, attention heads (`d_k = d_model / n_heads`), feed-forward width */
  n_heads: number;
  /** model width, attention heads (`d_k = d_model / n_heads`), feed-forward width */
  d_ff: number;
  /** `relu`, `gelu` (erf form) or `swish` (`silu` is another name for it) */
  activation: "relu" | "gelu" | "swish" | "silu";
  /** `pre`: `x + f(LN(x))` with a final layer norm after each stack; `post`: `LN(x + f(x))` (Vaswani et al. 2017, Marian) */
  layer_norm: "pre" | "post";
  /** epsilon inside the square root; default 0.00001 */
  layer_norm_eps?: number;
  /** multiply embeddings by `sqrt(d_model)` */
  embed_scale: boolean;
  /** `sinusoidal`; default "sinusoidal" */
  positional_encoding?: "sinusoidal";
  /** `interleaved`: sin on even, cos on odd dimensions (the paper); `halves`: sin in the first half, cos in the second, the same frequencies (HF MarianMT); `marian`: halves with native Marian's frequencies `10000^(-i / (d_model/2 - 1))` (Bergamot; `cpp/model/positions.h`); default "interleaved" */
  sinusoidal_layout?: "interleaved" | "halves" | "marian";
  /** positions 0 .. max_positions-1 on either side; longer input is `InputTooLongError` */
  max_positions: number;
  /** the output projection is the target embedding matrix */
  tied_embeddings: boolean;
  /** source and target share one embedding matrix */
  shared_vocab: boolean;
  /** a bias `[vocab_size]` added to the logits; default false */
  final_logits_bias?: boolean;
  /** the target vocabulary and special ids; the source gets `source_eos_id` appended, decoding starts from `decoder_start_id` (`bos` for our models, `pad` for Marian) */
  vocab_size: number;
  /** the target vocabulary and special ids; the source gets `source_eos_id` appended, decoding starts from `decoder_start_id` (`bos` for our models, `pad` for Marian) */
  pad_id: number;
  /** the target vocabulary and special ids; the source gets `source_eos_id` appended, decoding starts from `decoder_start_id` (`bos` for our models, `pad` for Marian) */
  unk_id: number;
  /** the target vocabulary and special ids; the source gets `source_eos_id` appended, decoding starts from `decoder_start_id` (`bos` for our models, `pad` for Marian) */
  bos_id: number;
  /** the target vocabulary and special ids; the source gets `source_eos_id` appended, decoding starts from `decoder_start_id` (`bos` for our models, `pad` for Marian) */
  eos_id: number;
  /** the target vocabulary and special ids; the source gets `source_eos_id` appended, decoding starts from `decoder_start_id` (`bos` for our models, `pad` for Marian); default: bos_id */
  decoder_start_id?: number;
  /** the source vocabulary's size and special ids when it is not the target's (see "Vocabularies" above); default: vocab_size */
  source_vocab_size?: number;
  /** the source vocabulary's size and special ids when it is not the target's (see "Vocabularies" above); default: eos_id */
  source_eos_id?: number;
  /** the source vocabulary's size and special ids when it is not the target's (see "Vocabularies" above); default: unk_id */
  source_unk_id?: number;
  /** `self-attention`, or `ssru`: each decoder layer's first block is the SSRU of Bergamot's students instead of masked self-attention (below; Marian's `transformer-decoder-autoreg: rnn` with `dec-cell: ssru`); default "self-attention" */
  decoder_autoregression?: "self-attention" | "ssru";
  /** `token` feeds the embedding of `decoder_start_id` at the decoder's first position; `zero` feeds a zero vector there (plus its position encoding), as native Marian does; default "token" */
  decoder_start?: "token" | "zero";
  /** both or neither: the decoder layer (0-based) and head whose cross-attention was trained to align (guided alignment, docs/alignment.md); word alignments read it unless the caller names layers or heads; default -1 */
  alignment_layer?: number;
  /** both or neither: the decoder layer (0-based) and head whose cross-attention was trained to align (guided alignment, docs/alignment.md); word alignments read it unless the caller names layers or heads; default -1 */
  alignment_head?: number;
}

/** One config field (docs/model-format.md, "config"). */
export interface ConfigField {
  name: keyof ModelConfigJson;
  type: 'int' | 'number' | 'bool' | 'string' | 'enum';
  /** An int's or number's range, inclusive. */
  min?: number;
  max?: number;
  /** An int must be less than this field's value. */
  below?: keyof ModelConfigJson;
  /** What an absent field is: a value, or another field's value. Neither: the field is required. */
  default?: number | boolean | string;
  default_from?: keyof ModelConfigJson;
  /** An enum's values. */
  values?: readonly string[];
}

/** The config's fields, in the spec's order (a default or a bound names only a field before it). */
export const CONFIG_FIELDS: readonly ConfigField[] = [
  {"name": "name", "type": "string", "default": ""},
  {"name": "source_lang", "type": "string", "default": ""},
  {"name": "target_lang", "type": "string", "default": ""},
  {"name": "encoder_layers", "type": "int", "min": 1, "max": 64},
  {"name": "decoder_layers", "type": "int", "min": 1, "max": 64},
  {"name": "d_model", "type": "int", "min": 1, "max": 16384},
  {"name": "n_heads", "type": "int", "min": 1, "max": 256},
  {"name": "d_ff", "type": "int", "min": 1, "max": 65536},
  {"name": "activation", "type": "enum", "values": ["relu", "gelu", "swish", "silu"]},
  {"name": "layer_norm", "type": "enum", "values": ["pre", "post"]},
  {"name": "layer_norm_eps", "type": "number", "min": 1e-30, "max": 0.1, "default": 0.00001},
  {"name": "embed_scale", "type": "bool"},
  {"name": "positional_encoding", "type": "enum", "values": ["sinusoidal"], "default": "sinusoidal"},
  {"name": "sinusoidal_layout", "type": "enum", "values": ["interleaved", "halves", "marian"], "default": "interleaved"},
  {"name": "max_positions", "type": "int", "min": 1, "max": 65536},
  {"name": "tied_embeddings", "type": "bool"},
  {"name": "shared_vocab", "type": "bool"},
  {"name": "final_logits_bias", "type": "bool", "default": false},
  {"name": "vocab_size", "type": "int", "min": 1, "max": 1048576},
  {"name": "pad_id", "type": "int", "min": 0, "below": "vocab_size"},
  {"name": "unk_id", "type": "int", "min": 0, "below": "vocab_size"},
  {"name": "bos_id", "type": "int", "min": 0, "below": "vocab_size"},
  {"name": "eos_id", "type": "int", "min": 0, "below": "vocab_size"},
  {"name": "decoder_start_id", "type": "int", "min": 0, "below": "vocab_size", "default_from": "bos_id"},
  {"name": "source_vocab_size", "type": "int", "min": 1, "max": 1048576, "default_from": "vocab_size"},
  {"name": "source_eos_id", "type": "int", "min": 0, "below": "source_vocab_size", "default_from": "eos_id"},
  {"name": "source_unk_id", "type": "int", "min": 0, "below": "source_vocab_size", "default_from": "unk_id"},
  {"name": "decoder_autoregression", "type": "enum", "values": ["self-attention", "ssru"], "default": "self-attention"},
  {"name": "decoder_start", "type": "enum", "values": ["token", "zero"], "default": "token"},
  {"name": "alignment_layer", "type": "int", "min": -1, "below": "decoder_layers", "default": -1},
  {"name": "alignment_head", "type": "int", "min": -1, "below": "n_heads", "default": -1},
];

/** The config a tensor is called for by: the field and the value it must have. */
export const CONDITIONS: Readonly<Record<string, { field: keyof ModelConfigJson; is: boolean | string }>> = {
  "shared_vocab": {"field": "shared_vocab", "is": true},
  "!shared_vocab": {"field": "shared_vocab", "is": false},
  "!tied_embeddings": {"field": "tied_embeddings", "is": false},
  "final_logits_bias": {"field": "final_logits_bias", "is": true},
  "pre_norm": {"field": "layer_norm", "is": "pre"},
  "self_attention": {"field": "decoder_autoregression", "is": "self-attention"},
  "ssru": {"field": "decoder_autoregression", "is": "ssru"},
};

/** The config field a shape rule's letter reads; none: any length. */
export const DIMENSIONS: Readonly<Record<string, { field?: keyof ModelConfigJson }>> = {
  "D": {"field": "d_model"},
  "F": {"field": "d_ff"},
  "V": {"field": "vocab_size"},
  "Vs": {"field": "source_vocab_size"},
  "n": {},
};

/** How a tensor is stored: a float (or int8) matrix, a float vector, I32 ids, or F32 values. */
export type TensorKind = "matrix" | "vector" | "ids" | "f32";

/** One group of tensors: once in the model, once per encoder or decoder layer, or optional and all or none. */
export interface TensorGroup {
  scope: 'model' | 'encoder_layer' | 'decoder_layer' | 'optional';
  prefix?: string;
  all_or_none?: boolean;
  tensors: readonly { name: string; shape: readonly string[]; kind: TensorKind; init?: 'ones' | 'zeros'; when?: string }[];
}

/** The spec's tensor groups, in its order. */
export const TENSOR_GROUPS: readonly TensorGroup[] = [
  {
    "scope": "model",
    "tensors": [
      {"name": "shared.weight", "shape": ["V", "D"], "kind": "matrix", "when": "shared_vocab"},
      {"name": "encoder.embed_tokens.weight", "shape": ["Vs", "D"], "kind": "matrix", "when": "!shared_vocab"},
      {"name": "decoder.embed_tokens.weight", "shape": ["V", "D"], "kind": "matrix", "when": "!shared_vocab"},
      {"name": "lm_head.weight", "shape": ["V", "D"], "kind": "matrix", "when": "!tied_embeddings"},
      {"name": "final_logits_bias", "shape": ["V"], "kind": "vector", "init": "zeros", "when": "final_logits_bias"},
      {"name": "encoder.layer_norm.weight", "shape": ["D"], "kind": "vector", "init": "ones", "when": "pre_norm"},
      {"name": "encoder.layer_norm.bias", "shape": ["D"], "kind": "vector", "init": "zeros", "when": "pre_norm"},
      {"name": "decoder.layer_norm.weight", "shape": ["D"], "kind": "vector", "init": "ones", "when": "pre_norm"},
      {"name": "decoder.layer_norm.bias", "shape": ["D"], "kind": "vector", "init": "zeros", "when": "pre_norm"},
    ],
  },
  {
    "scope": "encoder_layer",
    "prefix": "encoder.layers.{i}.",
    "tensors": [
      {"name": "self_attn.q_proj.weight", "shape": ["D", "D"], "kind": "matrix"},
      {"name": "self_attn.q_proj.bias", "shape": ["D"], "kind": "vector", "init": "zeros"},
      {"name": "self_attn.k_proj.weight", "shape": ["D", "D"], "kind": "matrix"},
      {"name": "self_attn.k_proj.bias", "shape": ["D"], "kind": "vector", "init": "zeros"},
      {"name": "self_attn.v_proj.weight", "shape": ["D", "D"], "kind": "matrix"},
      {"name": "self_attn.v_proj.bias", "shape": ["D"], "kind": "vector", "init": "zeros"},
      {"name": "self_attn.out_proj.weight", "shape": ["D", "D"], "kind": "matrix"},
      {"name": "self_attn.out_proj.bias", "shape": ["D"], "kind": "vector", "init": "zeros"},
      {"name": "self_attn_layer_norm.weight", "shape": ["D"], "kind": "vector", "init": "ones"},
      {"name": "self_attn_layer_norm.bias", "shape": ["D"], "kind": "vector", "init": "zeros"},
      {"name": "fc1.weight", "shape": ["F", "D"], "kind": "matrix"},
      {"name": "fc1.bias", "shape": ["F"], "kind": "vector", "init": "zeros"},
      {"name": "fc2.weight", "shape": ["D", "F"], "kind": "matrix"},
      {"name": "fc2.bias", "shape": ["D"], "kind": "vector", "init": "zeros"},
      {"name": "final_layer_norm.weight", "shape": ["D"], "kind": "vector", "init": "ones"},
      {"name": "final_layer_norm.bias", "shape": ["D"], "kind": "vector", "init": "zeros"},
    ],
  },
  {
    "scope": "decoder_layer",
    "prefix": "decoder.layers.{i}.",
    "tensors": [
      {"name": "self_attn.q_proj.weight", "shape": ["D", "D"], "kind": "matrix", "when": "self_attention"},
      {"name": "self_attn.q_proj.bias", "shape": ["D"], "kind": "vector", "init": "zeros", "when": "self_attention"},
      {"name": "self_attn.k_proj.weight", "shape": ["D", "D"], "kind": "matrix", "when": "self_attention"},
      {"name": "self_attn.k_proj.bias", "shape": ["D"], "kind": "vector", "init": "zeros", "when": "self_attention"},
      {"name": "self_attn.v_proj.weight", "shape": ["D", "D"], "kind": "matrix", "when": "self_attention"},
      {"name": "self_attn.v_proj.bias", "shape": ["D"], "kind": "vector", "init": "zeros", "when": "self_attention"},
      {"name": "self_attn.out_proj.weight", "shape": ["D", "D"], "kind": "matrix", "when": "self_attention"},
      {"name": "self_attn.out_proj.bias", "shape": ["D"], "kind": "vector", "init": "zeros", "when": "self_attention"},
      {"name": "ssru.weight", "shape": ["D", "D"], "kind": "matrix", "when": "ssru"},
      {"name": "ssru.forget_weight", "shape": ["D", "D"], "kind": "matrix", "when": "ssru"},
      {"name": "ssru.forget_bias", "shape": ["D"], "kind": "vector", "init": "zeros", "when": "ssru"},
      {"name": "self_attn_layer_norm.weight", "shape": ["D"], "kind": "vector", "init": "ones"},
      {"name": "self_attn_layer_norm.bias", "shape": ["D"], "kind": "vector", "init": "zeros"},
      {"name": "cross_attn.q_proj.weight", "shape": ["D", "D"], "kind": "matrix"},
      {"name": "cross_attn.q_proj.bias", "shape": ["D"], "kind": "vector", "init": "zeros"},
      {"name": "cross_attn.k_proj.weight", "shape": ["D", "D"], "kind": "matrix"},
      {"name": "cross_attn.k_proj.bias", "shape": ["D"], "kind": "vector", "init": "zeros"},
      {"name": "cross_attn.v_proj.weight", "shape": ["D", "D"], "kind": "matrix"},
      {"name": "cross_attn.v_proj.bias", "shape": ["D"], "kind": "vector", "init": "zeros"},
      {"name": "cross_attn.out_proj.weight", "shape": ["D", "D"], "kind": "matrix"},
      {"name": "cross_attn.out_proj.bias", "shape": ["D"], "kind": "vector", "init": "zeros"},
      {"name": "cross_attn_layer_norm.weight", "shape": ["D"], "kind": "vector", "init": "ones"},
      {"name": "cross_attn_layer_norm.bias", "shape": ["D"], "kind": "vector", "init": "zeros"},
      {"name": "fc1.weight", "shape": ["F", "D"], "kind": "matrix"},
      {"name": "fc1.bias", "shape": ["F"], "kind": "vector", "init": "zeros"},
      {"name": "fc2.weight", "shape": ["D", "F"], "kind": "matrix"},
      {"name": "fc2.bias", "shape": ["D"], "kind": "vector", "init": "zeros"},
      {"name": "final_layer_norm.weight", "shape": ["D"], "kind": "vector", "init": "ones"},
      {"name": "final_layer_norm.bias", "shape": ["D"], "kind": "vector", "init": "zeros"},
    ],
  },
  {
    "scope": "optional",
    "all_or_none": true,
    "tensors": [
      {"name": "shortlist.frequent", "shape": ["n"], "kind": "ids"},
      {"name": "shortlist.offsets", "shape": ["Vs+1"], "kind": "ids"},
      {"name": "shortlist.targets", "shape": ["n"], "kind": "ids"},
    ],
  },
  {
    "scope": "optional",
    "all_or_none": true,
    "tensors": [
      {"name": "lexicon.offsets", "shape": ["Vs+1"], "kind": "ids"},
      {"name": "lexicon.targets", "shape": ["n"], "kind": "ids"},
      {"name": "lexicon.scores", "shape": ["n"], "kind": "f32"},
    ],
  },
  {
    "scope": "optional",
    "all_or_none": true,
    "tensors": [
      {"name": "alignment.q_state.weight", "shape": ["D", "D"], "kind": "matrix"},
      {"name": "alignment.q_state.bias", "shape": ["D"], "kind": "vector", "init": "zeros"},
      {"name": "alignment.q_embed.weight", "shape": ["D", "D"], "kind": "matrix"},
      {"name": "alignment.k_proj.weight", "shape": ["D", "D"], "kind": "matrix"},
    ],
  },
];

/** The names of the tensors a model has once (the spec's model and optional groups), by their camelCase keys. */
export const MODEL_TENSORS = {
  sharedWeight: "shared.weight",
  encoderEmbedTokensWeight: "encoder.embed_tokens.weight",
  decoderEmbedTokensWeight: "decoder.embed_tokens.weight",
  lmHeadWeight: "lm_head.weight",
  finalLogitsBias: "final_logits_bias",
  encoderLayerNormWeight: "encoder.layer_norm.weight",
  encoderLayerNormBias: "encoder.layer_norm.bias",
  decoderLayerNormWeight: "decoder.layer_norm.weight",
  decoderLayerNormBias: "decoder.layer_norm.bias",
  shortlistFrequent: "shortlist.frequent",
  shortlistOffsets: "shortlist.offsets",
  shortlistTargets: "shortlist.targets",
  lexiconOffsets: "lexicon.offsets",
  lexiconTargets: "lexicon.targets",
  lexiconScores: "lexicon.scores",
  alignmentQStateWeight: "alignment.q_state.weight",
  alignmentQStateBias: "alignment.q_state.bias",
  alignmentQEmbedWeight: "alignment.q_embed.weight",
  alignmentKProjWeight: "alignment.k_proj.weight",
} as const;

/** The names of the tensors in each encoder or decoder layer, without the layer's prefix (tensor-spec.ts layerTensor adds it). */
export const LAYER_TENSORS = {
  selfAttnQProjWeight: "self_attn.q_proj.weight",
  selfAttnQProjBias: "self_attn.q_proj.bias",
  selfAttnKProjWeight: "self_attn.k_proj.weight",
  selfAttnKProjBias: "self_attn.k_proj.bias",
  selfAttnVProjWeight: "self_attn.v_proj.weight",
  selfAttnVProjBias: "self_attn.v_proj.bias",
  selfAttnOutProjWeight: "self_attn.out_proj.weight",
  selfAttnOutProjBias: "self_attn.out_proj.bias",
  selfAttnLayerNormWeight: "self_attn_layer_norm.weight",
  selfAttnLayerNormBias: "self_attn_layer_norm.bias",
  fc1Weight: "fc1.weight",
  fc1Bias: "fc1.bias",
  fc2Weight: "fc2.weight",
  fc2Bias: "fc2.bias",
  finalLayerNormWeight: "final_layer_norm.weight",
  finalLayerNormBias: "final_layer_norm.bias",
  ssruWeight: "ssru.weight",
  ssruForgetWeight: "ssru.forget_weight",
  ssruForgetBias: "ssru.forget_bias",
  crossAttnQProjWeight: "cross_attn.q_proj.weight",
  crossAttnQProjBias: "cross_attn.q_proj.bias",
  crossAttnKProjWeight: "cross_attn.k_proj.weight",
  crossAttnKProjBias: "cross_attn.k_proj.bias",
  crossAttnVProjWeight: "cross_attn.v_proj.weight",
  crossAttnVProjBias: "cross_attn.v_proj.bias",
  crossAttnOutProjWeight: "cross_attn.out_proj.weight",
  crossAttnOutProjBias: "cross_attn.out_proj.bias",
  crossAttnLayerNormWeight: "cross_attn_layer_norm.weight",
  crossAttnLayerNormBias: "cross_attn_layer_norm.bias",
} as const;

/**
 * One row of a format: our name and theirs, with how theirs is stored (role), the config it holds
 * under (when), and the axes of our tensor that are the residual stream's dimensions (residual).
 */
export interface FormatRow { ours: string; theirs: string; role?: string; when?: string; residual?: readonly number[] }

/**
 * Each foreign format's names for ours (format-rows.ts reads them): a row maps a whole name, or
 * every name under a prefix ending in "." (or empty); "{i}" is a layer index, "{i+1}" the same
 * counted from 1; a row with a condition holds only under it; the first row that matches wins.
 */
export const FORMAT_ROWS: Readonly<Record<string, readonly FormatRow[]>> = {
  "huggingface-marian": [
    {"ours": "decoder.layers.{i}.cross_attn.", "theirs": "model.decoder.layers.{i}.encoder_attn."},
    {"ours": "decoder.layers.{i}.cross_attn_layer_norm.", "theirs": "model.decoder.layers.{i}.encoder_attn_layer_norm."},
    {"ours": "lm_head.weight", "theirs": "lm_head.weight"},
    {"ours": "final_logits_bias", "theirs": "final_logits_bias"},
    {"ours": "", "theirs": "model."},
  ],
  "alignment-layer": [
    {"ours": "alignment.", "theirs": ""},
  ],
  "pytorch": [
    {"ours": "encoder.layers.{i}.self_attn_layer_norm.", "theirs": "encoder_layers.{i}.self_attn_sublayer.norm."},
    {"ours": "encoder.layers.{i}.final_layer_norm.", "theirs": "encoder_layers.{i}.ffn_sublayer.norm."},
    {"ours": "encoder.layers.{i}.self_attn.", "theirs": "encoder_layers.{i}.self_attn."},
    {"ours": "encoder.layers.{i}.", "theirs": "encoder_layers.{i}.ffn."},
    {"ours": "decoder.layers.{i}.self_attn_layer_norm.", "theirs": "decoder_layers.{i}.self_attn_sublayer.norm."},
    {"ours": "decoder.layers.{i}.cross_attn_layer_norm.", "theirs": "decoder_layers.{i}.cross_attn_sublayer.norm."},
    {"ours": "decoder.layers.{i}.final_layer_norm.", "theirs": "decoder_layers.{i}.ffn_sublayer.norm."},
    {"ours": "decoder.layers.{i}.self_attn.", "theirs": "decoder_layers.{i}.self_attn."},
    {"ours": "decoder.layers.{i}.cross_attn.", "theirs": "decoder_layers.{i}.cross_attn."},
    {"ours": "decoder.layers.{i}.", "theirs": "decoder_layers.{i}.ffn."},
    {"ours": "encoder.layer_norm.", "theirs": "encoder_norm."},
    {"ours": "decoder.layer_norm.", "theirs": "decoder_norm."},
    {"ours": "", "theirs": ""},
  ],
  "marian": [
    {"ours": "shared.weight", "theirs": "Wemb", "role": "emb", "residual": [1]},
    {"ours": "encoder.embed_tokens.weight", "theirs": "encoder_Wemb", "role": "emb", "residual": [1]},
    {"ours": "decoder.embed_tokens.weight", "theirs": "decoder_Wemb", "role": "emb", "residual": [1]},
    {"ours": "lm_head.weight", "theirs": "decoder_ff_logit_out_Wt", "role": "Wt", "residual": [1]},
    {"ours": "final_logits_bias", "theirs": "decoder_ff_logit_out_b", "role": "vector"},
    {"ours": "encoder.layer_norm.weight", "theirs": "encoder_top_ln_scale", "role": "vector", "residual": [0]},
    {"ours": "encoder.layer_norm.bias", "theirs": "encoder_top_ln_bias", "role": "vector", "residual": [0]},
    {"ours": "decoder.layer_norm.weight", "theirs": "decoder_top_ln_scale", "role": "vector", "residual": [0]},
    {"ours": "decoder.layer_norm.bias", "theirs": "decoder_top_ln_bias", "role": "vector", "residual": [0]},
    {"ours": "encoder.layers.{i}.self_attn.q_proj.weight", "theirs": "encoder_l{i+1}_self_Wq", "role": "W", "residual": [1]},
    {"ours": "encoder.layers.{i}.self_attn.q_proj.bias", "theirs": "encoder_l{i+1}_self_bq", "role": "vector"},
    {"ours": "encoder.layers.{i}.self_attn.k_proj.weight", "theirs": "encoder_l{i+1}_self_Wk", "role": "W", "residual": [1]},
    {"ours": "encoder.layers.{i}.self_attn.k_proj.bias", "theirs": "encoder_l{i+1}_self_bk", "role": "vector"},
    {"ours": "encoder.layers.{i}.self_attn.v_proj.weight", "theirs": "encoder_l{i+1}_self_Wv", "role": "W", "residual": [1]},
    {"ours": "encoder.layers.{i}.self_attn.v_proj.bias", "theirs": "encoder_l{i+1}_self_bv", "role": "vector"},
    {"ours": "encoder.layers.{i}.self_attn.out_proj.weight", "theirs": "encoder_l{i+1}_self_Wo", "role": "W", "residual": [0]},
    {"ours": "encoder.layers.{i}.self_attn.out_proj.bias", "theirs": "encoder_l{i+1}_self_bo", "role": "vector", "residual": [0]},
    {"ours": "encoder.layers.{i}.self_attn_layer_norm.weight", "theirs": "encoder_l{i+1}_self_Wo_ln_scale_pre", "role": "vector", "residual": [0], "when": "pre_norm"},
    {"ours": "encoder.layers.{i}.self_attn_layer_norm.weight", "theirs": "encoder_l{i+1}_self_Wo_ln_scale", "role": "vector", "residual": [0]},
    {"ours": "encoder.layers.{i}.self_attn_layer_norm.bias", "theirs": "encoder_l{i+1}_self_Wo_ln_bias_pre", "role": "vector", "residual": [0], "when": "pre_norm"},
    {"ours": "encoder.layers.{i}.self_attn_layer_norm.bias", "theirs": "encoder_l{i+1}_self_Wo_ln_bias", "role": "vector", "residual": [0]},
    {"ours": "encoder.layers.{i}.fc1.weight", "theirs": "encoder_l{i+1}_ffn_W1", "role": "W", "residual": [1]},
    {"ours": "encoder.layers.{i}.fc1.bias", "theirs": "encoder_l{i+1}_ffn_b1", "role": "vector"},
    {"ours": "encoder.layers.{i}.fc2.weight", "theirs": "encoder_l{i+1}_ffn_W2", "role": "W", "residual": [0]},
    {"ours": "encoder.layers.{i}.fc2.bias", "theirs": "encoder_l{i+1}_ffn_b2", "role": "vector", "residual": [0]},
    {"ours": "encoder.layers.{i}.final_layer_norm.weight", "theirs": "encoder_l{i+1}_ffn_ffn_ln_scale_pre", "role": "vector", "residual": [0], "when": "pre_norm"},
    {"ours": "encoder.layers.{i}.final_layer_norm.weight", "theirs": "encoder_l{i+1}_ffn_ffn_ln_scale", "role": "vector", "residual": [0]},
    {"ours": "encoder.layers.{i}.final_layer_norm.bias", "theirs": "encoder_l{i+1}_ffn_ffn_ln_bias_pre", "role": "vector", "residual": [0], "when": "pre_norm"},
    {"ours": "encoder.layers.{i}.final_layer_norm.bias", "theirs": "encoder_l{i+1}_ffn_ffn_ln_bias", "role": "vector", "residual": [0]},
    {"ours": "decoder.layers.{i}.self_attn.q_proj.weight", "theirs": "decoder_l{i+1}_self_Wq", "role": "W", "when": "self_attention", "residual": [1]},
    {"ours": "decoder.layers.{i}.self_attn.q_proj.bias", "theirs": "decoder_l{i+1}_self_bq", "role": "vector", "when": "self_attention"},
    {"ours": "decoder.layers.{i}.self_attn.k_proj.weight", "theirs": "decoder_l{i+1}_self_Wk", "role": "W", "when": "self_attention", "residual": [1]},
    {"ours": "decoder.layers.{i}.self_attn.k_proj.bias", "theirs": "decoder_l{i+1}_self_bk", "role": "vector", "when": "self_attention"},
    {"ours": "decoder.layers.{i}.self_attn.v_proj.weight", "theirs": "decoder_l{i+1}_self_Wv", "role": "W", "when": "self_attention", "residual": [1]},
    {"ours": "decoder.layers.{i}.self_attn.v_proj.bias", "theirs": "decoder_l{i+1}_self_bv", "role": "vector", "when": "self_attention"},
    {"ours": "decoder.layers.{i}.self_attn.out_proj.weight", "theirs": "decoder_l{i+1}_self_Wo", "role": "W", "when": "self_attention", "residual": [0]},
    {"ours": "decoder.layers.{i}.self_attn.out_proj.bias", "theirs": "decoder_l{i+1}_self_bo", "role": "vector", "when": "self_attention", "residual": [0]},
    {"ours": "decoder.layers.{i}.ssru.weight", "theirs": "decoder_l{i+1}_rnn_W", "role": "W", "when": "ssru", "residual": [0, 1]},
    {"ours": "decoder.layers.{i}.ssru.forget_weight", "theirs": "decoder_l{i+1}_rnn_Wf", "role": "W", "when": "ssru", "residual": [0, 1]},
    {"ours": "decoder.layers.{i}.ssru.forget_bias", "theirs": "decoder_l{i+1}_rnn_bf", "role": "vector", "when": "ssru", "residual": [0]},
    {"ours": "decoder.layers.{i}.self_attn_layer_norm.weight", "theirs": "decoder_l{i+1}_rnn_ffn_ln_scale", "role": "vector", "when": "ssru", "residual": [0]},
    {"ours": "decoder.layers.{i}.self_attn_layer_norm.bias", "theirs": "decoder_l{i+1}_rnn_ffn_ln_bias", "role": "vector", "when": "ssru", "residual": [0]},
    {"ours": "decoder.layers.{i}.self_attn_layer_norm.weight", "theirs": "decoder_l{i+1}_self_Wo_ln_scale_pre", "role": "vector", "residual": [0], "when": "pre_norm"},
    {"ours": "decoder.layers.{i}.self_attn_layer_norm.bias", "theirs": "decoder_l{i+1}_self_Wo_ln_bias_pre", "role": "vector", "residual": [0], "when": "pre_norm"},
    {"ours": "decoder.layers.{i}.self_attn_layer_norm.weight", "theirs": "decoder_l{i+1}_self_Wo_ln_scale", "role": "vector", "when": "self_attention", "residual": [0]},
    {"ours": "decoder.layers.{i}.self_attn_layer_norm.bias", "theirs": "decoder_l{i+1}_self_Wo_ln_bias", "role": "vector", "when": "self_attention", "residual": [0]},
    {"ours": "decoder.layers.{i}.cross_attn.q_proj.weight", "theirs": "decoder_l{i+1}_context_Wq", "role": "W", "residual": [1]},
    {"ours": "decoder.layers.{i}.cross_attn.q_proj.bias", "theirs": "decoder_l{i+1}_context_bq", "role": "vector"},
    {"ours": "decoder.layers.{i}.cross_attn.k_proj.weight", "theirs": "decoder_l{i+1}_context_Wk", "role": "W", "residual": [1]},
    {"ours": "decoder.layers.{i}.cross_attn.k_proj.bias", "theirs": "decoder_l{i+1}_context_bk", "role": "vector"},
    {"ours": "decoder.layers.{i}.cross_attn.v_proj.weight", "theirs": "decoder_l{i+1}_context_Wv", "role": "W", "residual": [1]},
    {"ours": "decoder.layers.{i}.cross_attn.v_proj.bias", "theirs": "decoder_l{i+1}_context_bv", "role": "vector"},
    {"ours": "decoder.layers.{i}.cross_attn.out_proj.weight", "theirs": "decoder_l{i+1}_context_Wo", "role": "W", "residual": [0]},
    {"ours": "decoder.layers.{i}.cross_attn.out_proj.bias", "theirs": "decoder_l{i+1}_context_bo", "role": "vector", "residual": [0]},
    {"ours": "decoder.layers.{i}.cross_attn_layer_norm.weight", "theirs": "decoder_l{i+1}_context_Wo_ln_scale_pre", "role": "vector", "residual": [0], "when": "pre_norm"},
    {"ours": "decoder.layers.{i}.cross_attn_layer_norm.weight", "theirs": "decoder_l{i+1}_context_Wo_ln_scale", "role": "vector", "residual": [0]},
    {"ours": "decoder.layers.{i}.cross_attn_layer_norm.bias", "theirs": "decoder_l{i+1}_context_Wo_ln_bias_pre", "role": "vector", "residual": [0], "when": "pre_norm"},
    {"ours": "decoder.layers.{i}.cross_attn_layer_norm.bias", "theirs": "decoder_l{i+1}_context_Wo_ln_bias", "role": "vector", "residual": [0]},
    {"ours": "decoder.layers.{i}.fc1.weight", "theirs": "decoder_l{i+1}_ffn_W1", "role": "W", "residual": [1]},
    {"ours": "decoder.layers.{i}.fc1.bias", "theirs": "decoder_l{i+1}_ffn_b1", "role": "vector"},
    {"ours": "decoder.layers.{i}.fc2.weight", "theirs": "decoder_l{i+1}_ffn_W2", "role": "W", "residual": [0]},
    {"ours": "decoder.layers.{i}.fc2.bias", "theirs": "decoder_l{i+1}_ffn_b2", "role": "vector", "residual": [0]},
    {"ours": "decoder.layers.{i}.final_layer_norm.weight", "theirs": "decoder_l{i+1}_ffn_ffn_ln_scale_pre", "role": "vector", "residual": [0], "when": "pre_norm"},
    {"ours": "decoder.layers.{i}.final_layer_norm.weight", "theirs": "decoder_l{i+1}_ffn_ffn_ln_scale", "role": "vector", "residual": [0]},
    {"ours": "decoder.layers.{i}.final_layer_norm.bias", "theirs": "decoder_l{i+1}_ffn_ffn_ln_bias_pre", "role": "vector", "residual": [0], "when": "pre_norm"},
    {"ours": "decoder.layers.{i}.final_layer_norm.bias", "theirs": "decoder_l{i+1}_ffn_ffn_ln_bias", "role": "vector", "residual": [0]},
  ],
};
