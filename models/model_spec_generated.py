"""The model file's spec (cpp/model/tensor_spec.json) as Python tables, which tensor_spec.py checks a
model file by.

Made by tools/model-spec/index.js.
Do not edit: `node tools/model-spec/index.js --write` makes it anew; tests/js/model-spec-generated.test.js
fails when it differs from what the spec makes.
"""

# The config's fields, in the spec's order (a default or a bound names only a field before it): type
# (int, number, bool, string, enum), range [min, max], "below" (less than that field's value),
# "default" or "default_from" (another field's value; neither: required), an enum's "values".
CONFIG_FIELDS = [
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
  {"name": "final_logits_bias", "type": "bool", "default": False},
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
]

# The config a tensor is called for by: the field and the value it must have.
CONDITIONS = {
  "shared_vocab": {"field": "shared_vocab", "is": True},
  "!shared_vocab": {"field": "shared_vocab", "is": False},
  "!tied_embeddings": {"field": "tied_embeddings", "is": False},
  "final_logits_bias": {"field": "final_logits_bias", "is": True},
  "pre_norm": {"field": "layer_norm", "is": "pre"},
  "self_attention": {"field": "decoder_autoregression", "is": "self-attention"},
  "ssru": {"field": "decoder_autoregression", "is": "ssru"},
}

# The config field a shape rule's letter reads; None: any length.
DIMENSIONS = {"D": "d_model", "F": "d_ff", "V": "vocab_size", "Vs": "source_vocab_size", "n": None}

# The tensor groups, in the spec's order: scope, layer prefix, all or none, tensors (name, shape rules, kind, initial value, condition).
TENSOR_GROUPS = [
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
    "all_or_none": True,
    "tensors": [
      {"name": "shortlist.frequent", "shape": ["n"], "kind": "ids"},
      {"name": "shortlist.offsets", "shape": ["Vs+1"], "kind": "ids"},
      {"name": "shortlist.targets", "shape": ["n"], "kind": "ids"},
    ],
  },
  {
    "scope": "optional",
    "all_or_none": True,
    "tensors": [
      {"name": "lexicon.offsets", "shape": ["Vs+1"], "kind": "ids"},
      {"name": "lexicon.targets", "shape": ["n"], "kind": "ids"},
      {"name": "lexicon.scores", "shape": ["n"], "kind": "f32"},
    ],
  },
  {
    "scope": "optional",
    "all_or_none": True,
    "tensors": [
      {"name": "alignment.q_state.weight", "shape": ["D", "D"], "kind": "matrix"},
      {"name": "alignment.q_state.bias", "shape": ["D"], "kind": "vector", "init": "zeros"},
      {"name": "alignment.q_embed.weight", "shape": ["D", "D"], "kind": "matrix"},
      {"name": "alignment.k_proj.weight", "shape": ["D", "D"], "kind": "matrix"},
    ],
  },
]


class ModelTensors:
    """The names of the tensors a model has once (the spec's model and optional groups)."""

    SHARED_WEIGHT = "shared.weight"
    ENCODER_EMBED_TOKENS_WEIGHT = "encoder.embed_tokens.weight"
    DECODER_EMBED_TOKENS_WEIGHT = "decoder.embed_tokens.weight"
    LM_HEAD_WEIGHT = "lm_head.weight"
    FINAL_LOGITS_BIAS = "final_logits_bias"
    ENCODER_LAYER_NORM_WEIGHT = "encoder.layer_norm.weight"
    ENCODER_LAYER_NORM_BIAS = "encoder.layer_norm.bias"
    DECODER_LAYER_NORM_WEIGHT = "decoder.layer_norm.weight"
    DECODER_LAYER_NORM_BIAS = "decoder.layer_norm.bias"
    SHORTLIST_FREQUENT = "shortlist.frequent"
    SHORTLIST_OFFSETS = "shortlist.offsets"
    SHORTLIST_TARGETS = "shortlist.targets"
    LEXICON_OFFSETS = "lexicon.offsets"
    LEXICON_TARGETS = "lexicon.targets"
    LEXICON_SCORES = "lexicon.scores"
    ALIGNMENT_Q_STATE_WEIGHT = "alignment.q_state.weight"
    ALIGNMENT_Q_STATE_BIAS = "alignment.q_state.bias"
    ALIGNMENT_Q_EMBED_WEIGHT = "alignment.q_embed.weight"
    ALIGNMENT_K_PROJ_WEIGHT = "alignment.k_proj.weight"


# Each foreign format's names for ours (tensor_spec.py their_name): a row maps a whole name, or every
# name under a prefix ending in "." (or empty); "{i}" is a layer index, "{i+1}" the same counted from
# 1; a row with a condition ("when") holds only under it; the first row that matches wins.
FORMAT_ROWS = {
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
}
