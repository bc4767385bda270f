#!/usr/bin/env python3
"""An OPUS-MT-size Hugging Face MarianMT folder with random weights, and the same weights in
transformers.js's layout, for measuring conversion and speed (not translation quality):
npm run bench:convert (bench/page-convert.js) converts the HF folder in the page, and npm run bench:opus-mt
(bench/opus-mt-size.js) runs crossattn and transformers.js on them.

  /usr/bin/python3 tools/opus-mt-size-fixture.py --out build/fixtures/opus-mt-size/opus-mt-en-de
      [--transformers-js build/fixtures/opus-mt-size/xenova/opus-mt-en-de]

The shapes are Helsinki-NLP/opus-mt-en-de's (its config.json: d_model 512, 6 + 6 layers, 8 heads,
d_ff 2048, swish, a shared vocabulary of 58,101 pieces, 512 positions), so pytorch_model.bin is
torch.save's zip of about 300 MB of float32, as transformers saved OPUS-MT models before safetensors.
The weights are N(0, 0.02) from seed 1, biases 0 and layer norms 1 and 0 (the spec's init); the
SentencePiece models are the small fixture's (tools/opus-mt-fixtures.py), and vocab.json lists their
pieces, then numbered ones up to 58,101.
final_logits_bias is -10000 for </s> and <pad> (0 elsewhere): no engine ends a translation early, so
every engine decodes exactly the number of tokens it is asked for.
--transformers-js writes the folder of transformers.js's Xenova/opus-mt-* models (tools/opus_mt_onnx.py,
with the cross-attention cache that optimum's merged decoders have): encoder and decoder in fp32 and q8.
Each folder is skipped when its stamp.json names the hashes of this script and tools/opus_mt_onnx.py.
"""
import argparse
import collections
import hashlib
import json
import os
import shutil
import sys

import sentencepiece as spm
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from opus_mt_onnx import HF, write_transformers_js  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "models"))
from model_spec_generated import ModelTensors as T  # noqa: E402
from tensor_spec import initial_tensors, their_name  # noqa: E402

D, LAYERS, HEADS, FF, VOCAB, POSITIONS = 512, 6, 8, 2048, 58101, 512
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
SMALL = os.path.join(ROOT, "build", "fixtures", "opus-mt", "hf", "opus-mt-en-de")


def state_dict():
    """HF MarianMTModel's state dict of these shapes: the spec's tensors at initial values (models/
    tensor_spec.py initial_tensors) under HF's names (the spec's huggingface-marian rows), the embedding
    tied as MarianMTModel ties it, and the sinusoid tables that HF keeps as weights."""
    config = {"encoder_layers": LAYERS, "decoder_layers": LAYERS, "d_model": D, "n_heads": HEADS, "d_ff": FF,
              "activation": "swish", "layer_norm": "post", "embed_scale": True, "max_positions": POSITIONS,
              "tied_embeddings": True, "shared_vocab": True, "final_logits_bias": True, "vocab_size": VOCAB,
              "pad_id": VOCAB - 1, "unk_id": 1, "bos_id": VOCAB - 1, "eos_id": 0}  # Marian's: </s> 0, <pad> last
    ours = initial_tensors(config, torch.Generator().manual_seed(1))
    bias = ours[T.FINAL_LOGITS_BIAS]
    bias[config["eos_id"]] = bias[config["pad_id"]] = -10000.0
    ours[T.FINAL_LOGITS_BIAS] = bias[None, :]  # HF's [1, V]
    s = collections.OrderedDict((their_name(HF, name), t) for name, t in ours.items())
    for name in (T.ENCODER_EMBED_TOKENS_WEIGHT, T.DECODER_EMBED_TOKENS_WEIGHT, T.LM_HEAD_WEIGHT):
        s[their_name(HF, name)] = ours[T.SHARED_WEIGHT]
    for side in ("encoder", "decoder"):
        s[f"model.{side}.embed_positions.weight"] = positions()  # HF's own, not in our file
    return s


def positions():
    """MarianSinusoidalPositionalEmbedding's table: sin in the first half of each row, cos in the second."""
    pos = torch.arange(POSITIONS, dtype=torch.float64)[:, None]
    j = torch.arange(D)[None, :]
    angle = pos / torch.pow(10000, 2 * (j // 2) / D)
    out = torch.zeros(POSITIONS, D)
    out[:, : D // 2] = torch.sin(angle[:, 0::2]).float()
    out[:, D // 2:] = torch.cos(angle[:, 1::2]).float()
    return out


def stamp():
    h = hashlib.sha256()
    for path in (__file__, os.path.join(os.path.dirname(os.path.abspath(__file__)), "opus_mt_onnx.py")):
        h.update(open(path, "rb").read())
    return h.hexdigest()


def up_to_date(out):
    path = os.path.join(out, "stamp.json")
    return os.path.exists(path) and json.load(open(path)).get("sha256") == stamp()


def write_hf(out):
    """The HF folder; returns its config and state dict."""
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    small = json.load(open(os.path.join(SMALL, "vocab.json")))
    pieces = [p for p, _ in sorted(small.items(), key=lambda kv: kv[1]) if p != "<pad>"]
    pieces += [f"\u2581w{i}" for i in range(VOCAB - 1 - len(pieces))] + ["<pad>"]
    json.dump({p: i for i, p in enumerate(pieces)}, open(os.path.join(out, "vocab.json"), "w"))
    for name in ("source.spm", "target.spm", "tokenizer_config.json"):
        shutil.copyfile(os.path.join(SMALL, name), os.path.join(out, name))
    config = json.load(open(os.path.join(SMALL, "config.json")))
    config.update(d_model=D, encoder_layers=LAYERS, decoder_layers=LAYERS, encoder_attention_heads=HEADS,
                  decoder_attention_heads=HEADS, encoder_ffn_dim=FF, decoder_ffn_dim=FF, vocab_size=VOCAB,
                  decoder_vocab_size=VOCAB, max_position_embeddings=POSITIONS, pad_token_id=VOCAB - 1,
                  decoder_start_token_id=VOCAB - 1, bad_words_ids=[[VOCAB - 1]], activation_function="swish")
    generation = json.load(open(os.path.join(SMALL, "generation_config.json")))
    generation.update(bad_words_ids=[[VOCAB - 1]], decoder_start_token_id=VOCAB - 1, pad_token_id=VOCAB - 1)
    json.dump(config, open(os.path.join(out, "config.json"), "w"), indent=2)
    json.dump(generation, open(os.path.join(out, "generation_config.json"), "w"), indent=2)
    state = state_dict()
    torch.save(state, os.path.join(out, "pytorch_model.bin"))
    json.dump({"sha256": stamp()}, open(os.path.join(out, "stamp.json"), "w"))
    print(f"wrote {out}: pytorch_model.bin {os.path.getsize(os.path.join(out, 'pytorch_model.bin'))} bytes")
    return config, state, pieces


def write_xenova(out, hf, config, state, pieces):
    shutil.rmtree(out, ignore_errors=True)
    c = {"d_model": D, "n_heads": HEADS, "d_ff": FF, "activation": "swish", "encoder_layers": LAYERS,
         "decoder_layers": LAYERS, "max_positions": POSITIONS}
    sp = spm.SentencePieceProcessor(model_file=os.path.join(hf, "source.spm"))
    generation = json.load(open(os.path.join(hf, "generation_config.json")))
    write_transformers_js(out, c, sp, state, pieces, config, generation, cache_cross=True)
    json.dump({"sha256": stamp()}, open(os.path.join(out, "stamp.json"), "w"))
    print(f"wrote {out}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True, help="the Hugging Face folder")
    ap.add_argument("--transformers-js", help="the transformers.js folder of the same weights")
    args = ap.parse_args()
    xenova = args.transformers_js
    if up_to_date(args.out) and (xenova is None or up_to_date(xenova)):
        return print(f"{args.out}: up to date")
    config, state, pieces = write_hf(args.out)  # seeded: the same weights every time
    if xenova is not None:
        write_xenova(xenova, args.out, config, state, pieces)


if __name__ == "__main__":
    main()
