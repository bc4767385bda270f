#!/usr/bin/env python3
"""OPUS-MT-shaped fixtures for the converter tests (tests/js/convert-hf.test.js,
tests/js/convert-transformers-js.test.js), made from the committed bench model
models/runs/bench-marian-en-de/compact.pt (6 encoder + 2 decoder layers, post-norm, d_model 256).

  /usr/bin/python3 tools/opus-mt-fixtures.py --out build/fixtures/opus-mt

writes, under --out (skipped when --out/stamp.json already names this script's and the weights' hashes):
  hf/opus-mt-en-de/           a Hugging Face MarianMT folder laid out as HF's converter writes one
                              (transformers src/transformers/models/marian/convert_marian_to_pytorch.py):
                              Marian's vocabulary order (</s> 0, <unk> 1, the pieces), <pad> appended with a
                              zero embedding row and a zero logit bias (add_to_vocab_, add_emb_entries),
                              pad = decoder start; model.safetensors in HF's names, fp32; config.json with
                              MarianConfig's fields; generation_config.json; source.spm, target.spm.
  hf-pytorch/opus-mt-en-de/   the same folder with pytorch_model.bin (torch.save of the state dict, the tied
                              embedding under its four names sharing one storage) instead of model.safetensors.
  hf-separate/opus-mt-en-de/  the same function with separate vocabularies (share_encoder_decoder_embeddings
                              false): the source vocabulary numbers the pieces in reverse and has 5 pieces the
                              SentencePiece model never produces, so vocab_size (source) 8004 differs from
                              decoder_vocab_size 7999; target_vocab.json is the shared folder's vocab.json.
  xenova/opus-mt-en-de/       a transformers.js folder of the same weights (Xenova/opus-mt-* layout):
                              onnx/encoder_model.onnx, onnx/decoder_model_merged.onnx (torch.onnx from modules
                              named as HF's MarianMTModel, so node and initializer names come out as optimum's),
                              their _quantized (q8) variants from bench/quantize_onnx.py, tokenizer.json in
                              the layout of transformers.js's scripts/extra/marian.py, tokenizer_config.json,
                              config.json, generation_config.json.
  xenova-if/opus-mt-en-de/    the same fp32 folder with the decoder wrapped in an If node as optimum's merged
                              decoders are (both branches hold the layers), for the converter only.

The HF function differs slightly from the one the bench model was trained with (sinusoids in halves with
HF's frequencies, layer norm eps 1e-5, the decoder starting from the zero embedding row of <pad>): every
engine computes the HF function on these weights, which is what the parity tests compare.

The merged decoder has no If node: it always recomputes the cross-attention keys and values from
encoder_hidden_states (it has no past_key_values.*.encoder.* inputs), and
use_cache_branch is not an input; transformers.js feeds only the inputs a session declares
(transformers.js src/models/modeling_utils.js decoder_forward, `pick(new_model_inputs, session.inputNames)`).
"""
import argparse
import collections
import fcntl
import hashlib
import json
import math
import os
import shutil
import subprocess
import sys

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, os.path.join(ROOT, "models"))
from model_file import engine_name, write_safetensors  # noqa: E402

WEIGHTS = os.path.join(ROOT, "models", "runs", "bench-marian-en-de", "compact.pt")
EXTRA_SOURCE_PIECES = [f"\u2581crossattnunused{i}" for i in range(5)]


def hf_positions(n_pos, dim):
    """MarianSinusoidalPositionalEmbedding._init_weight (transformers modeling_marian.py): position_enc
    [pos, j] = pos / 10000^(2 (j // 2) / dim); sin of the even columns in the first half, cos of the odd
    ones in the second."""
    pos = np.arange(n_pos)[:, None]
    j = np.arange(dim)[None, :]
    enc = pos / np.power(10000, 2 * (j // 2) / dim)
    out = np.zeros((n_pos, dim), dtype=np.float32)
    out[:, : dim // 2] = np.sin(enc[:, 0::2])
    out[:, dim // 2 :] = np.cos(enc[:, 1::2])
    return torch.from_numpy(out)


def marian_vocab(sp):
    """Marian's vocabulary of a SentencePiece model, as OPUS-MT's vocab.yml numbers it (</s> 0, <unk> 1,
    then the normal pieces), and the SentencePiece ids of its entries (the rows to take)."""
    rows = [sp.eos_id(), sp.unk_id()] + [i for i in range(sp.get_piece_size()) if not (sp.is_control(i) or sp.is_unknown(i))]
    return [sp.id_to_piece(i) for i in rows], rows


def hf_state(weights, c, rows):
    """HF MarianMTModel state dict (shared vocabulary) from our engine-named weights."""
    d = c["d_model"]
    emb = weights["shared.weight"][rows]
    emb = torch.cat([emb, torch.zeros(1, d)])  # add_emb_entries: <pad> gets a zero row
    bias = torch.cat([weights["final_logits_bias"].reshape(-1)[rows], torch.zeros(1)])[None, :]  # [1, V]
    state = {"model.shared.weight": emb, "final_logits_bias": bias}
    positions = hf_positions(c["max_positions"], d)
    for side in ("encoder", "decoder"):
        state[f"model.{side}.embed_positions.weight"] = positions
    for name, t in weights.items():
        if name.startswith(("encoder.layers.", "decoder.layers.")):
            state["model." + name.replace(".cross_attn.", ".encoder_attn.").replace(".cross_attn_layer_norm.", ".encoder_attn_layer_norm.")] = t
    return {k: v.float().contiguous() for k, v in state.items()}


def hf_config(c, vocab_size, pad_id, decoder_vocab_size=None, shared=True):
    """config.json as MarianConfig writes it for an OPUS-MT model (convert_marian_to_pytorch.py OpusState)."""
    return {
        "_name_or_path": "opus-mt-en-de", "activation_dropout": 0.0, "activation_function": c["activation"],
        "architectures": ["MarianMTModel"], "attention_dropout": 0.0, "bad_words_ids": [[pad_id]], "bos_token_id": 0,
        "classif_dropout": 0.0, "classifier_dropout": 0.0, "d_model": c["d_model"],
        "decoder_attention_heads": c["n_heads"], "decoder_ffn_dim": c["d_ff"], "decoder_layerdrop": 0.0,
        "decoder_layers": c["decoder_layers"], "decoder_start_token_id": pad_id,
        "decoder_vocab_size": decoder_vocab_size or vocab_size, "dropout": 0.1,
        "encoder_attention_heads": c["n_heads"], "encoder_ffn_dim": c["d_ff"], "encoder_layerdrop": 0.0,
        "encoder_layers": c["encoder_layers"], "eos_token_id": 0, "forced_eos_token_id": 0, "init_std": 0.02,
        "is_encoder_decoder": True, "max_length": 512, "max_position_embeddings": c["max_positions"],
        "model_type": "marian", "normalize_before": False, "normalize_embedding": False, "num_beams": 4,
        "num_hidden_layers": c["encoder_layers"], "pad_token_id": pad_id, "scale_embedding": True,
        "share_encoder_decoder_embeddings": shared, "static_position_embeddings": True,
        "tie_word_embeddings": True, "torch_dtype": "float32", "transformers_version": "4.46.3",
        "use_cache": True, "vocab_size": vocab_size,
    }


def generation_config(pad_id):
    return {"bad_words_ids": [[pad_id]], "bos_token_id": 0, "decoder_start_token_id": pad_id, "eos_token_id": 0,
            "forced_eos_token_id": 0, "max_length": 512, "num_beams": 4, "pad_token_id": pad_id,
            "transformers_version": "4.46.3"}


def dump(obj, path):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(obj, f, ensure_ascii=False, indent=2)


def write_card(out):
    """A model card as the Hub's OPUS-MT repositories have one: README.md whose YAML front matter
    states the licence, which the converters record (bindings/src/convert/model-card.ts)."""
    with open(os.path.join(out, "README.md"), "w", encoding="utf-8") as f:
        f.write("---\nlanguage:\n- en\n- de\ntags:\n- translation\nlicense: cc-by-4.0\n---\n\n# opus-mt-en-de (test fixture)\n")


def write_hf(out, c, spm_bytes, state, vocab, target_vocab=None, config=None):
    os.makedirs(out, exist_ok=True)
    write_card(out)
    write_safetensors(os.path.join(out, "model.safetensors"), state, {"format": "pt"})
    dump({p: i for i, p in enumerate(vocab)}, os.path.join(out, "vocab.json"))
    if target_vocab is not None:
        dump({p: i for i, p in enumerate(target_vocab)}, os.path.join(out, "target_vocab.json"))
    for name in ("source.spm", "target.spm"):
        with open(os.path.join(out, name), "wb") as f:
            f.write(spm_bytes)
    dump(config, os.path.join(out, "config.json"))
    dump(generation_config(config["decoder_start_token_id"]), os.path.join(out, "generation_config.json"))
    dump({"source_lang": "en", "target_lang": "de", "separate_vocabs": target_vocab is not None,
          "model_max_length": 512, "tokenizer_class": "MarianTokenizer", "eos_token": "</s>",
          "unk_token": "<unk>", "pad_token": "<pad>"}, os.path.join(out, "tokenizer_config.json"))


def write_pytorch(hf_folder, out, state):
    """The HF folder with pytorch_model.bin instead of model.safetensors, as transformers < 4.35 saved
    OPUS-MT models (torch.save of the state dict, zip serialization): the embedding is one tensor under
    the three names that share it (model.shared, the encoder's and the decoder's embed_tokens) and the
    output layer (lm_head), as MarianMTModel ties them, so they share one storage in the archive."""
    shutil.copytree(hf_folder, out, ignore=shutil.ignore_patterns("model.safetensors"))
    tied = dict(state)
    emb = state["model.shared.weight"]
    for name in ("model.encoder.embed_tokens.weight", "model.decoder.embed_tokens.weight", "lm_head.weight"):
        tied[name] = emb
    torch.save(collections.OrderedDict(tied), os.path.join(out, "pytorch_model.bin"))


# --- PyTorch modules named as HF's MarianMTModel (modeling_marian.py), for torch.onnx ---------------------


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

    def forward(self, x, self_mask, past_k, past_v, enc, enc_mask):
        h, k, v = self.self_attn(x, x, self_mask, past_k, past_v)
        x = self.self_attn_layer_norm(x + h)
        h, ck, cv = self.encoder_attn(x, enc, enc_mask)  # recomputed every step: no If node
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
        presents = []
        for i, layer in enumerate(self.layers):
            x, kv = layer(x, self_mask, past[2 * i], past[2 * i + 1], enc, enc_mask)
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
    """Loads HF-named tensors into EncoderModel / DecoderModelMerged (tied: embed_tokens and lm_head =
    model.shared.weight, as tie_word_embeddings and share_encoder_decoder_embeddings make them)."""
    own = {}
    for name in module.state_dict():
        if name.endswith("embed_tokens.weight") or name == "lm_head.weight":
            own[name] = state["model.shared.weight"]
        else:
            own[name] = state[name]
    module.load_state_dict(own)
    if hasattr(module, "lm_head"):
        module.lm_head.weight = module.model.decoder.embed_tokens.weight  # tied, one parameter as in HF
    return module.eval()


def export_onnx(out, c, state, vocab_size):
    onnx_dir = os.path.join(out, "onnx")
    os.makedirs(onnx_dir, exist_ok=True)
    n, h, dk = c["decoder_layers"], c["n_heads"], c["d_model"] // c["n_heads"]
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
    past_names, present_names, past, axes = [], [], [], {}
    for i in range(n):
        for kind in ("decoder", "encoder"):
            for kv in ("key", "value"):
                present_names.append(f"present.{i}.{kind}.{kv}")
                axes[present_names[-1]] = {0: "batch_size", 2: "past_decoder_sequence_length + 1" if kind == "decoder" else "encoder_sequence_length_out"}
                if kind == "decoder":  # optimum's past_key_values.{i}.encoder.* would be unused here
                    past_names.append(f"past_key_values.{i}.decoder.{kv}")
                    past.append(torch.zeros(1, h, 2, dk))
                    axes[past_names[-1]] = {0: "batch_size", 2: "past_decoder_sequence_length"}
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


def wrap_in_if(src, dst):
    """The decoder as optimum's merged decoders hold it: every node inside both branches of an If on a
    use_cache_branch input, the initializers shared by the outer graph. For the converter test only (the
    branches are the same graph; transformers.js runs the unwrapped one)."""
    import onnx
    from onnx import TensorProto, helper

    m = onnx.load(src)
    g = m.graph
    branches = [helper.make_graph(list(g.node), name, [], list(g.output)) for name in ("then_branch", "else_branch")]
    wrapped = helper.make_node("If", ["use_cache_branch"], [o.name for o in g.output], name="optimum::if",
                               then_branch=branches[0], else_branch=branches[1])
    g.ClearField("node")
    g.node.append(wrapped)
    g.input.append(helper.make_tensor_value_info("use_cache_branch", TensorProto.BOOL, [1]))
    onnx.save(m, dst)


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


def write_xenova(out, c, sp, state, vocab, config):
    os.makedirs(out, exist_ok=True)
    write_card(out)
    export_onnx(out, c, state, len(vocab))
    dump(tokenizer_json(sp, vocab), os.path.join(out, "tokenizer.json"))
    dump({"clean_up_tokenization_spaces": True, "eos_token": "</s>", "model_max_length": 512, "pad_token": "<pad>",
          "separate_vocabs": False, "source_lang": "en", "sp_model_kwargs": {}, "target_lang": "de",
          "tokenizer_class": "MarianTokenizer", "unk_token": "<unk>"}, os.path.join(out, "tokenizer_config.json"))
    dump(config, os.path.join(out, "config.json"))
    dump(generation_config(config["decoder_start_token_id"]), os.path.join(out, "generation_config.json"))
    merged_if = os.path.join(os.path.dirname(os.path.dirname(out)), "xenova-if", os.path.basename(out))
    shutil.copytree(out, merged_if, ignore=shutil.ignore_patterns("*.onnx"))
    for name in ("encoder_model.onnx", "decoder_model_merged.onnx"):
        src = os.path.join(out, "onnx", name)
        (shutil.copyfile if name.startswith("encoder") else wrap_in_if)(src, os.path.join(merged_if, "onnx", name))


def separate_state(state, vocab):
    """Separate vocabularies of the same function: source ids reversed over the pieces, 5 unused pieces
    added before <pad>; the target side is the shared one."""
    n = len(vocab) - 1  # without <pad>
    order = [0, 1] + list(range(n - 1, 1, -1))  # source id -> shared id
    source_vocab = [vocab[i] for i in order] + EXTRA_SOURCE_PIECES + ["<pad>"]
    emb = state["model.shared.weight"]
    extra = torch.randn(len(EXTRA_SOURCE_PIECES), emb.shape[1], generator=torch.Generator().manual_seed(1)) * 0.05
    enc_emb = torch.cat([emb[order], extra, torch.zeros(1, emb.shape[1])])
    out = {k: v for k, v in state.items() if k != "model.shared.weight"}
    out["model.encoder.embed_tokens.weight"] = enc_emb.contiguous()
    out["model.decoder.embed_tokens.weight"] = emb
    return out, source_vocab


def stamp_of():
    h = hashlib.sha256()
    for path in (os.path.abspath(__file__), WEIGHTS, os.path.join(ROOT, "bench", "quantize_onnx.py")):
        with open(path, "rb") as f:
            h.update(f.read())
    return h.hexdigest()


def make_fixtures(out):
    stamp_path, stamp = os.path.join(out, "stamp.json"), stamp_of()
    if os.path.exists(stamp_path) and json.load(open(stamp_path)).get("sha256") == stamp:
        print(f"{out}: up to date")
        return
    shutil.rmtree(out, ignore_errors=True)
    import sentencepiece as spm

    ckpt = torch.load(WEIGHTS, map_location="cpu")
    c = {**ckpt["config"]["model"]}
    weights = {engine_name(k): v for k, v in ckpt["model"].items()}
    sp = spm.SentencePieceProcessor(model_proto=ckpt["spm"])
    pieces, rows = marian_vocab(sp)
    vocab = pieces + ["<pad>"]  # add_to_vocab_(vocab, ["<pad>"])
    pad = len(vocab) - 1
    state = hf_state(weights, c, rows)
    write_hf(os.path.join(out, "hf", "opus-mt-en-de"), c, ckpt["spm"], state, vocab, config=hf_config(c, len(vocab), pad))
    write_pytorch(os.path.join(out, "hf", "opus-mt-en-de"), os.path.join(out, "hf-pytorch", "opus-mt-en-de"), state)
    sep, source_vocab = separate_state(state, vocab)
    write_hf(os.path.join(out, "hf-separate", "opus-mt-en-de"), c, ckpt["spm"], sep, source_vocab, target_vocab=vocab,
             config=hf_config(c, len(source_vocab), pad, decoder_vocab_size=len(vocab), shared=False))
    write_xenova(os.path.join(out, "xenova", "opus-mt-en-de"), c, sp, state, vocab, hf_config(c, len(vocab), pad))
    dump({"sha256": stamp}, stamp_path)
    print(f"wrote {out}: hf, hf-pytorch, hf-separate, xenova (vocab {len(vocab)}, pad {pad})")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    out = os.path.abspath(args.out)
    os.makedirs(os.path.dirname(out), exist_ok=True)
    # Test files that run at once may each ask for the fixtures: one makes them while the others wait
    # on the lock beside the folder, then find them up to date.
    with open(out + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        make_fixtures(out)


if __name__ == "__main__":
    main()
