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

The merged decoder (tools/opus_mt_onnx.py, without cache_cross) has no If node: it recomputes the
cross-attention keys and values from encoder_hidden_states at every step (it has no
past_key_values.*.encoder.* inputs), and
use_cache_branch is not an input; transformers.js feeds only the inputs a session declares
(transformers.js src/models/modeling_utils.js decoder_forward, `pick(new_model_inputs, session.inputNames)`).
"""
import argparse
import collections
import fcntl
import hashlib
import json
import os
import shutil
import sys

import numpy as np
import torch

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, os.path.join(ROOT, "models"))
from model_file import engine_name, write_safetensors  # noqa: E402
from model_spec_generated import ModelTensors as T  # noqa: E402
from tensor_spec import their_name  # noqa: E402
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from opus_mt_onnx import HF, dump, write_transformers_js  # noqa: E402

WEIGHTS = os.path.join(ROOT, "models", "runs", "bench-marian-en-de", "compact.pt")
OPUS_MT_ONNX = os.path.join(ROOT, "tools", "opus_mt_onnx.py")
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
    emb = weights[T.SHARED_WEIGHT][rows]
    emb = torch.cat([emb, torch.zeros(1, d)])  # add_emb_entries: <pad> gets a zero row
    bias = torch.cat([weights[T.FINAL_LOGITS_BIAS].reshape(-1)[rows], torch.zeros(1)])[None, :]  # [1, V]
    state = {their_name(HF, T.SHARED_WEIGHT): emb, their_name(HF, T.FINAL_LOGITS_BIAS): bias}
    positions = hf_positions(c["max_positions"], d)
    for side in ("encoder", "decoder"):
        state[f"model.{side}.embed_positions.weight"] = positions
    for name, t in weights.items():
        if name.startswith(("encoder.layers.", "decoder.layers.")):
            state[their_name(HF, name)] = t
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
    emb = state[their_name(HF, T.SHARED_WEIGHT)]
    for name in (T.ENCODER_EMBED_TOKENS_WEIGHT, T.DECODER_EMBED_TOKENS_WEIGHT, T.LM_HEAD_WEIGHT):
        tied[their_name(HF, name)] = emb
    torch.save(collections.OrderedDict(tied), os.path.join(out, "pytorch_model.bin"))


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


def write_xenova(out, c, sp, state, vocab, config):
    write_transformers_js(out, c, sp, state, vocab, config, generation_config(config["decoder_start_token_id"]))
    write_card(out)
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
    emb = state[their_name(HF, T.SHARED_WEIGHT)]
    extra = torch.randn(len(EXTRA_SOURCE_PIECES), emb.shape[1], generator=torch.Generator().manual_seed(1)) * 0.05
    enc_emb = torch.cat([emb[order], extra, torch.zeros(1, emb.shape[1])])
    out = {k: v for k, v in state.items() if k != their_name(HF, T.SHARED_WEIGHT)}
    out[their_name(HF, T.ENCODER_EMBED_TOKENS_WEIGHT)] = enc_emb.contiguous()
    out[their_name(HF, T.DECODER_EMBED_TOKENS_WEIGHT)] = emb
    return out, source_vocab


def stamp_of():
    h = hashlib.sha256()
    for path in (os.path.abspath(__file__), OPUS_MT_ONNX, WEIGHTS, os.path.join(ROOT, "bench", "quantize_onnx.py"),
                 os.path.join(ROOT, "models", "tensor_spec.py"), os.path.join(ROOT, "models", "model_spec_generated.py")):
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
