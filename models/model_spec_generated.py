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

# The tensor groups, in the spec's order: scope, layer prefix, all or none, tensors (name, shape rules, kind, condition).
TENSOR_GROUPS = [
  {
    "scope": "model",
    "tensors": [
      {"name": "shared.weight", "shape": ["V", "D"], "kind": "matrix", "when": "shared_vocab"},
      {"name": "encoder.embed_tokens.weight", "shape": ["Vs", "D"], "kind": "matrix", "when": "!shared_vocab"},
      {"name": "decoder.embed_tokens.weight", "shape": ["V", "D"], "kind": "matrix", "when": "!shared_vocab"},
      {"name": "lm_head.weight", "shape": ["V", "D"], "kind": "matrix", "when": "!tied_embeddings"},
      {"name": "final_logits_bias", "shape": ["V"], "kind": "vector", "when": "final_logits_bias"},
      {"name": "encoder.layer_norm.weight", "shape": ["D"], "kind": "vector", "when": "pre_norm"},
      {"name": "encoder.layer_norm.bias", "shape": ["D"], "kind": "vector", "when": "pre_norm"},
      {"name": "decoder.layer_norm.weight", "shape": ["D"], "kind": "vector", "when": "pre_norm"},
      {"name": "decoder.layer_norm.bias", "shape": ["D"], "kind": "vector", "when": "pre_norm"},
    ],
  },
  {
    "scope": "encoder_layer",
    "prefix": "encoder.layers.{i}.",
    "tensors": [
      {"name": "self_attn.q_proj.weight", "shape": ["D", "D"], "kind": "matrix"},
      {"name": "self_attn.q_proj.bias", "shape": ["D"], "kind": "vector"},
      {"name": "self_attn.k_proj.weight", "shape": ["D", "D"], "kind": "matrix"},
      {"name": "self_attn.k_proj.bias", "shape": ["D"], "kind": "vector"},
      {"name": "self_attn.v_proj.weight", "shape": ["D", "D"], "kind": "matrix"},
      {"name": "self_attn.v_proj.bias", "shape": ["D"], "kind": "vector"},
      {"name": "self_attn.out_proj.weight", "shape": ["D", "D"], "kind": "matrix"},
      {"name": "self_attn.out_proj.bias", "shape": ["D"], "kind": "vector"},
      {"name": "self_attn_layer_norm.weight", "shape": ["D"], "kind": "vector"},
      {"name": "self_attn_layer_norm.bias", "shape": ["D"], "kind": "vector"},
      {"name": "fc1.weight", "shape": ["F", "D"], "kind": "matrix"},
      {"name": "fc1.bias", "shape": ["F"], "kind": "vector"},
      {"name": "fc2.weight", "shape": ["D", "F"], "kind": "matrix"},
      {"name": "fc2.bias", "shape": ["D"], "kind": "vector"},
      {"name": "final_layer_norm.weight", "shape": ["D"], "kind": "vector"},
      {"name": "final_layer_norm.bias", "shape": ["D"], "kind": "vector"},
    ],
  },
  {
    "scope": "decoder_layer",
    "prefix": "decoder.layers.{i}.",
    "tensors": [
      {"name": "self_attn.q_proj.weight", "shape": ["D", "D"], "kind": "matrix", "when": "self_attention"},
      {"name": "self_attn.q_proj.bias", "shape": ["D"], "kind": "vector", "when": "self_attention"},
      {"name": "self_attn.k_proj.weight", "shape": ["D", "D"], "kind": "matrix", "when": "self_attention"},
      {"name": "self_attn.k_proj.bias", "shape": ["D"], "kind": "vector", "when": "self_attention"},
      {"name": "self_attn.v_proj.weight", "shape": ["D", "D"], "kind": "matrix", "when": "self_attention"},
      {"name": "self_attn.v_proj.bias", "shape": ["D"], "kind": "vector", "when": "self_attention"},
      {"name": "self_attn.out_proj.weight", "shape": ["D", "D"], "kind": "matrix", "when": "self_attention"},
      {"name": "self_attn.out_proj.bias", "shape": ["D"], "kind": "vector", "when": "self_attention"},
      {"name": "ssru.weight", "shape": ["D", "D"], "kind": "matrix", "when": "ssru"},
      {"name": "ssru.forget_weight", "shape": ["D", "D"], "kind": "matrix", "when": "ssru"},
      {"name": "ssru.forget_bias", "shape": ["D"], "kind": "vector", "when": "ssru"},
      {"name": "self_attn_layer_norm.weight", "shape": ["D"], "kind": "vector"},
      {"name": "self_attn_layer_norm.bias", "shape": ["D"], "kind": "vector"},
      {"name": "cross_attn.q_proj.weight", "shape": ["D", "D"], "kind": "matrix"},
      {"name": "cross_attn.q_proj.bias", "shape": ["D"], "kind": "vector"},
      {"name": "cross_attn.k_proj.weight", "shape": ["D", "D"], "kind": "matrix"},
      {"name": "cross_attn.k_proj.bias", "shape": ["D"], "kind": "vector"},
      {"name": "cross_attn.v_proj.weight", "shape": ["D", "D"], "kind": "matrix"},
      {"name": "cross_attn.v_proj.bias", "shape": ["D"], "kind": "vector"},
      {"name": "cross_attn.out_proj.weight", "shape": ["D", "D"], "kind": "matrix"},
      {"name": "cross_attn.out_proj.bias", "shape": ["D"], "kind": "vector"},
      {"name": "cross_attn_layer_norm.weight", "shape": ["D"], "kind": "vector"},
      {"name": "cross_attn_layer_norm.bias", "shape": ["D"], "kind": "vector"},
      {"name": "fc1.weight", "shape": ["F", "D"], "kind": "matrix"},
      {"name": "fc1.bias", "shape": ["F"], "kind": "vector"},
      {"name": "fc2.weight", "shape": ["D", "F"], "kind": "matrix"},
      {"name": "fc2.bias", "shape": ["D"], "kind": "vector"},
      {"name": "final_layer_norm.weight", "shape": ["D"], "kind": "vector"},
      {"name": "final_layer_norm.bias", "shape": ["D"], "kind": "vector"},
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
      {"name": "alignment.q_state.bias", "shape": ["D"], "kind": "vector"},
      {"name": "alignment.q_embed.weight", "shape": ["D", "D"], "kind": "matrix"},
      {"name": "alignment.k_proj.weight", "shape": ["D", "D"], "kind": "matrix"},
    ],
  },
]

# Each foreign format's names for ours (tensor_spec.py their_name): a row maps a whole name, or every
# name under a prefix ending in "." (or empty); "{i}" is a layer index; the first row that matches wins.
FORMAT_ROWS = {
  "huggingface-marian": [
    {"ours": "decoder.layers.{i}.cross_attn.", "theirs": "model.decoder.layers.{i}.encoder_attn."},
    {"ours": "decoder.layers.{i}.cross_attn_layer_norm.", "theirs": "model.decoder.layers.{i}.encoder_attn_layer_norm."},
    {"ours": "lm_head.weight", "theirs": "lm_head.weight"},
    {"ours": "final_logits_bias", "theirs": "final_logits_bias"},
    {"ours": "", "theirs": "model."},
  ],
}
