"""OPUS-MT's ONNX form as transformers.js runs it (the Xenova/opus-mt-* layout that optimum exports):
PyTorch modules named as HF's MarianMTModel (transformers modeling_marian.py), so that torch.onnx names
nodes and initializers as optimum does; their export; and the folder's tokenizer.json.

Used by tools/opus-mt-fixtures.py (the converter tests' small fixture) and tools/opus-mt-size-fixture.py
(the bench's OPUS-MT-size model). optimum's merged decoder holds the layers twice, in the two branches
of an If on use_cache_branch (without and with the cache); the export here holds them once: with
cache_cross, the cross-attention keys and values are projected for the encoder positions the cache
lacks (all of them when it is empty, at the first step; none after), which is the same arithmetic per
step in one graph.
"""
import json
import math
import os
import subprocess
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, os.path.join(ROOT, "models"))
from model_spec_generated import ModelTensors as T  # noqa: E402
from tensor_spec import their_name  # noqa: E402

HF = "huggingface-marian"  # the spec's rows for HF MarianMT's names (cpp/model/tensor_spec.json "formats")


class MarianAttention(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.h, self.dk = h, d // h
        self.q_proj, self.k_proj, self.v_proj, self.out_proj = (nn.Linear(d, d) for _ in range(4))

    def split(self, x):  # [B, L, D] -> [B, H, L, Dk]
        return x.view(x.shape[0], -1, self.h, self.dk).transpose(1, 2)

    def forward(self, x, source, mask, past_k=None, past_v=None):
        """x [B, T, D] queries, source [B, S, D] keys/values, mask additive [B|1, 1, T|1, S];
        past_k, past_v [B, H, P, Dk] prepended. Returns (out [B, T, D], k, v [B, H, P+S, Dk])."""
        q = self.split(self.q_proj(x) * self.dk**-0.5)  # modeling_marian.py: scaling after the bias
        k, v = self.split(self.k_proj(source)), self.split(self.v_proj(source))
        if past_k is not None:
            k, v = torch.cat([past_k, k], dim=2), torch.cat([past_v, v], dim=2)
        w = (q @ k.transpose(-1, -2) + mask).softmax(-1)  # [B, H, T, P+S]
        ctx = (w @ v).transpose(1, 2)  # [B, T, H, Dk]
        return self.out_proj(ctx.reshape(ctx.shape[0], ctx.shape[1], -1)), k, v


class EncoderLayer(nn.Module):
    def __init__(self, c):
        super().__init__()
        d = c["d_model"]
        self.self_attn = MarianAttention(d, c["n_heads"])
        self.self_attn_layer_norm = nn.LayerNorm(d)
        self.fc1, self.fc2 = nn.Linear(d, c["d_ff"]), nn.Linear(c["d_ff"], d)
        self.final_layer_norm = nn.LayerNorm(d)
        self.act = {"relu": F.relu, "gelu": F.gelu, "swish": F.silu}[c["activation"]]

    def forward(self, x, mask):  # post-norm (normalize_before false)
        x = self.self_attn_layer_norm(x + self.self_attn(x, x, mask)[0])
        return self.final_layer_norm(x + self.fc2(self.act(self.fc1(x))))


class DecoderLayer(EncoderLayer):
    def __init__(self, c):
        super().__init__(c)
        d = c["d_model"]
        self.encoder_attn = MarianAttention(d, c["n_heads"])
        self.encoder_attn_layer_norm = nn.LayerNorm(d)

    def forward(self, x, self_mask, past, enc, enc_mask):
        """past: the layer's (self key, self value) [B, H, P, Dk], or those and the cached cross-attention
        (key, value) [B, H, S|0, Dk]. With a cache, the keys and values are projected only for the encoder
        positions it lacks: all S at the first step (transformers.js feeds an empty cache), none after;
        without one they are projected from encoder_hidden_states at every step."""
        h, k, v = self.self_attn(x, x, self_mask, past[0], past[1])
        x = self.self_attn_layer_norm(x + h)
        if len(past) == 4:
            h, ck, cv = self.encoder_attn(x, enc[:, past[2].shape[2]:], enc_mask, past[2], past[3])
        else:
            h, ck, cv = self.encoder_attn(x, enc, enc_mask)
        x = self.encoder_attn_layer_norm(x + h)
        return self.final_layer_norm(x + self.fc2(self.act(self.fc1(x)))), (k, v, ck, cv)


def additive_mask(attention_mask):  # [B, S] of 1/0 -> [B, 1, 1, S]
    return (1.0 - attention_mask[:, None, None, :].float()) * torch.finfo(torch.float32).min


class Encoder(nn.Module):
    def __init__(self, c, vocab):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, c["d_model"])
        self.embed_positions = nn.Embedding(c["max_positions"], c["d_model"])
        self.layers = nn.ModuleList(EncoderLayer(c) for _ in range(c["encoder_layers"]))
        self.embed_scale = math.sqrt(c["d_model"])

    def forward(self, input_ids, attention_mask):  # [B, S] -> [B, S, D]
        positions = torch.arange(input_ids.shape[1])
        x = self.embed_tokens(input_ids) * self.embed_scale + self.embed_positions(positions)
        mask = additive_mask(attention_mask)
        for layer in self.layers:
            x = layer(x, mask)
        return x


class Decoder(nn.Module):
    def __init__(self, c, vocab):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, c["d_model"])
        self.embed_positions = nn.Embedding(c["max_positions"], c["d_model"])
        self.layers = nn.ModuleList(DecoderLayer(c) for _ in range(c["decoder_layers"]))
        self.embed_scale = math.sqrt(c["d_model"])

    def forward(self, input_ids, enc, encoder_attention_mask, past):  # [B, T] -> [B, T, D], presents
        past_len, t = past[0].shape[2], input_ids.shape[1]
        positions = torch.arange(t) + past_len  # [T]
        x = self.embed_tokens(input_ids) * self.embed_scale + self.embed_positions(positions)
        causal = (torch.arange(t + past_len)[None, :] > positions[:, None]).float() * torch.finfo(torch.float32).min
        self_mask, enc_mask = causal[None, None], additive_mask(encoder_attention_mask)
        presents, per_layer = [], len(past) // len(self.layers)
        for i, layer in enumerate(self.layers):
            x, kv = layer(x, self_mask, past[per_layer * i:per_layer * (i + 1)], enc, enc_mask)
            presents += kv
        return x, presents


class Model(nn.Module):
    """MarianModel's module tree: model.encoder, model.decoder (node names /model/encoder/layers.0/...)."""

    def __init__(self, c, vocab):
        super().__init__()
        self.encoder, self.decoder = Encoder(c, vocab), Decoder(c, vocab)

    def forward(self, input_ids, attention_mask, encoder_hidden_states=None, past=None):
        if encoder_hidden_states is None:
            return self.encoder(input_ids, attention_mask)
        return self.decoder(input_ids, encoder_hidden_states, attention_mask, past)


class EncoderModel(nn.Module):
    """encoder_model.onnx: input_ids, attention_mask [B, S] -> last_hidden_state [B, S, D]."""

    def __init__(self, c, vocab):
        super().__init__()
        self.model = Model(c, vocab)

    def forward(self, input_ids, attention_mask):
        return self.model(input_ids, attention_mask)


class DecoderModelMerged(nn.Module):
    """decoder_model_merged.onnx (optimum's names): input_ids [B, T], encoder_attention_mask [B, S],
    encoder_hidden_states [B, S, D], past_key_values.{i}.decoder.{key,value} [B, H, P, Dk] -> logits [B, T, V],
    present.{i}.{decoder,encoder}.{key,value}."""

    def __init__(self, c, vocab):
        super().__init__()
        self.model = Model(c, vocab)
        self.lm_head = nn.Linear(c["d_model"], vocab, bias=False)
        self.register_buffer("final_logits_bias", torch.zeros(1, vocab))

    def forward(self, input_ids, encoder_attention_mask, encoder_hidden_states, *past):
        x, presents = self.model(input_ids, encoder_attention_mask, encoder_hidden_states, past)
        return (self.lm_head(x) + self.final_logits_bias, *presents)


def load_hf_state(module, state):
    """Loads HF-named tensors into EncoderModel / DecoderModelMerged (tied: both embeddings and the output
    layer are the shared embedding, as tie_word_embeddings and share_encoder_decoder_embeddings make them;
    HF's names by the spec's huggingface-marian rows)."""
    tied = {their_name(HF, name) for name in (T.ENCODER_EMBED_TOKENS_WEIGHT, T.DECODER_EMBED_TOKENS_WEIGHT, T.LM_HEAD_WEIGHT)}
    shared = state[their_name(HF, T.SHARED_WEIGHT)]
    module.load_state_dict({name: shared if name in tied else state[name] for name in module.state_dict()})
    if hasattr(module, "lm_head"):
        module.lm_head.weight = module.model.decoder.embed_tokens.weight  # tied, one parameter as in HF
    return module.eval()


def export_onnx(out, c, state, vocab_size, cache_cross=False):
    """Writes out/onnx/encoder_model.onnx and decoder_model_merged.onnx (fp32, opset 14), and their q8
    variants (*_quantized.onnx, bench/quantize_onnx.py). `c`: d_model, n_heads, d_ff, activation,
    encoder_layers, decoder_layers, max_positions; `state`: HF MarianMTModel tensors (shared vocabulary).
    cache_cross: the decoder also takes and returns the cross-attention keys and values, as optimum's
    (past_key_values.{i}.encoder.*), so that they are projected once per sentence, not at every step."""
    onnx_dir = os.path.join(out, "onnx")
    os.makedirs(onnx_dir, exist_ok=True)
    ids, mask = torch.tensor([[5, 6, 7, 0]]), torch.ones(1, 4, dtype=torch.int64)
    encoder = load_hf_state(EncoderModel(c, vocab_size), state)
    torch.onnx.export(encoder, (ids, mask), os.path.join(onnx_dir, "encoder_model.onnx"),
                      input_names=["input_ids", "attention_mask"], output_names=["last_hidden_state"],
                      dynamic_axes={"input_ids": {0: "batch_size", 1: "encoder_sequence_length"},
                                    "attention_mask": {0: "batch_size", 1: "encoder_sequence_length"},
                                    "last_hidden_state": {0: "batch_size", 1: "encoder_sequence_length"}},
                      opset_version=14, do_constant_folding=True)
    with torch.no_grad():
        enc = encoder(ids, mask)
    past_names, present_names, past, axes = cache_io(c, enc.shape[1], cache_cross)
    decoder = load_hf_state(DecoderModelMerged(c, vocab_size), state)
    torch.onnx.export(decoder, (torch.tensor([[vocab_size - 1]]), mask, enc, *past),
                      os.path.join(onnx_dir, "decoder_model_merged.onnx"),
                      input_names=["input_ids", "encoder_attention_mask", "encoder_hidden_states", *past_names],
                      output_names=["logits", *present_names],
                      dynamic_axes={"input_ids": {0: "batch_size", 1: "decoder_sequence_length"},
                                    "encoder_attention_mask": {0: "batch_size", 1: "encoder_sequence_length"},
                                    "encoder_hidden_states": {0: "batch_size", 1: "encoder_sequence_length"},
                                    "logits": {0: "batch_size", 1: "decoder_sequence_length"}, **axes},
                      opset_version=14, do_constant_folding=True)
    for name in ("encoder_model", "decoder_model_merged"):
        subprocess.run([sys.executable, os.path.join(ROOT, "bench", "quantize_onnx.py"),
                        os.path.join(onnx_dir, f"{name}.onnx"), os.path.join(onnx_dir, f"{name}_quantized.onnx")],
                       check=True, stdout=subprocess.DEVNULL)


def cache_io(c, source_len, cache_cross):
    """The decoder's cache inputs and outputs in optimum's names, with example tensors for the trace (a
    cache of 2 target positions, and of all source_len positions for the cross-attention) and their
    dynamic axes: (past_names, present_names, past, axes)."""
    h, dk = c["n_heads"], c["d_model"] // c["n_heads"]
    past_names, present_names, past, axes = [], [], [], {}
    for i in range(c["decoder_layers"]):
        for kind in ("decoder", "encoder"):
            length_axis = "past_decoder_sequence_length" if kind == "decoder" else "encoder_sequence_length_out"
            for kv in ("key", "value"):
                present_names.append(f"present.{i}.{kind}.{kv}")
                axes[present_names[-1]] = {0: "batch_size", 2: "past_decoder_sequence_length + 1" if kind == "decoder" else length_axis}
                if kind == "decoder" or cache_cross:
                    past_names.append(f"past_key_values.{i}.{kind}.{kv}")
                    past.append(torch.zeros(1, h, 2 if kind == "decoder" else source_len, dk))
                    axes[past_names[-1]] = {0: "batch_size", 2: length_axis}
    return past_names, present_names, past, axes


def tokenizer_json(sp, vocab):
    """tokenizer.json as transformers.js's scripts/extra/marian.py generate_tokenizer_json writes it for
    Xenova/opus-mt-*: a null Precompiled charsmap (no normalization), WhitespaceSplit + Metaspace, a Unigram
    model over vocab.json's order with the SentencePiece scores (0.0 for special tokens), </s> appended."""
    specials = ["</s>", "<unk>", "<pad>"]
    scores = {sp.id_to_piece(i): sp.get_score(i) for i in range(sp.get_piece_size())}
    added = [{"id": vocab.index(t), "special": True, "content": t, "single_word": False, "lstrip": False,
              "rstrip": False, "normalized": False} for t in specials]
    metaspace = {"type": "Metaspace", "replacement": "\u2581", "add_prefix_space": True}
    eos = {"SpecialToken": {"id": "</s>", "type_id": 0}}
    seq = lambda x: {"Sequence": {"id": x, "type_id": 0}}  # noqa: E731
    return {
        "version": "1.0", "truncation": None, "padding": None, "added_tokens": added,
        "normalizer": {"type": "Precompiled", "precompiled_charsmap": None},
        "pre_tokenizer": {"type": "Sequence", "pretokenizers": [{"type": "WhitespaceSplit"}, metaspace]},
        "post_processor": {"type": "TemplateProcessing", "single": [seq("A"), eos], "pair": [seq("A"), eos, seq("B"), eos],
                           "special_tokens": {"</s>": {"id": "</s>", "ids": [vocab.index("</s>")], "tokens": ["</s>"]}}},
        "decoder": metaspace,
        "model": {"type": "Unigram", "unk_id": vocab.index("<unk>"),
                  "vocab": [[p, 0.0 if p in specials else scores.get(p, -100.0)] for p in vocab]},
    }


def write_transformers_js(out, c, sp, state, vocab, config, generation, cache_cross=False):
    """A transformers.js folder (Xenova/opus-mt-* layout) of these weights: onnx/ (export_onnx),
    tokenizer.json, tokenizer_config.json, and the given config.json and generation_config.json."""
    os.makedirs(out, exist_ok=True)
    export_onnx(out, c, state, len(vocab), cache_cross)
    dump(tokenizer_json(sp, vocab), os.path.join(out, "tokenizer.json"))
    dump({"clean_up_tokenization_spaces": True, "eos_token": "</s>", "model_max_length": 512, "pad_token": "<pad>",
          "separate_vocabs": False, "source_lang": "en", "sp_model_kwargs": {}, "target_lang": "de",
          "tokenizer_class": "MarianTokenizer", "unk_token": "<unk>"}, os.path.join(out, "tokenizer_config.json"))
    dump(config, os.path.join(out, "config.json"))
    dump(generation, os.path.join(out, "generation_config.json"))


def dump(obj, path):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(obj, f, ensure_ascii=False, indent=2)
