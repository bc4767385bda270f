#!/usr/bin/env python3
"""An OPUS-MT-size Hugging Face MarianMT folder with random weights, for measuring conversion (not
translation): npm run bench:convert (bench/page-convert.js) converts it in the page.

  /usr/bin/python3 tools/opus-mt-size-fixture.py --out build/fixtures/opus-mt-size/opus-mt-en-de

The shapes are Helsinki-NLP/opus-mt-en-de's (its config.json: d_model 512, 6 + 6 layers, 8 heads,
d_ff 2048, swish, a shared vocabulary of 58,101 pieces, 512 positions), so pytorch_model.bin is
torch.save's zip of about 300 MB of float32, as transformers saved OPUS-MT models before safetensors.
The weights are N(0, 0.02) from seed 1; the SentencePiece models are the small fixture's
(tools/opus-mt-fixtures.py), and vocab.json lists their pieces, then numbered ones up to 58,101. Skipped
when --out/stamp.json names this script's hash.
"""
import argparse
import collections
import hashlib
import json
import os
import shutil

import torch

D, LAYERS, HEADS, FF, VOCAB, POSITIONS = 512, 6, 8, 2048, 58101, 512
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
SMALL = os.path.join(ROOT, "build", "fixtures", "opus-mt", "hf", "opus-mt-en-de")


def state_dict():
    g = torch.Generator().manual_seed(1)
    randn = lambda *shape: torch.randn(*shape, generator=g) * 0.02
    emb = randn(VOCAB, D)
    s = collections.OrderedDict([("model.shared.weight", emb), ("final_logits_bias", torch.zeros(1, VOCAB))])
    for side, blocks in (("encoder", ["self_attn"]), ("decoder", ["self_attn", "encoder_attn"])):
        s[f"model.{side}.embed_tokens.weight"] = emb
        s[f"model.{side}.embed_positions.weight"] = positions()
        for i in range(LAYERS):
            p = f"model.{side}.layers.{i}"
            for b in blocks:
                for proj in ("q", "k", "v", "out"):
                    s[f"{p}.{b}.{proj}_proj.weight"], s[f"{p}.{b}.{proj}_proj.bias"] = randn(D, D), randn(D)
                s[f"{p}.{b}_layer_norm.weight"], s[f"{p}.{b}_layer_norm.bias"] = torch.ones(D), torch.zeros(D)
            s[f"{p}.fc1.weight"], s[f"{p}.fc1.bias"] = randn(FF, D), randn(FF)
            s[f"{p}.fc2.weight"], s[f"{p}.fc2.bias"] = randn(D, FF), randn(D)
            s[f"{p}.final_layer_norm.weight"], s[f"{p}.final_layer_norm.bias"] = torch.ones(D), torch.zeros(D)
    s["lm_head.weight"] = emb
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


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    out = ap.parse_args().out
    stamp = hashlib.sha256(open(__file__, "rb").read()).hexdigest()
    stamp_path = os.path.join(out, "stamp.json")
    if os.path.exists(stamp_path) and json.load(open(stamp_path)).get("sha256") == stamp:
        return print(f"{out}: up to date")
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
                  max_position_embeddings=POSITIONS, pad_token_id=VOCAB - 1, decoder_start_token_id=VOCAB - 1,
                  bad_words_ids=[[VOCAB - 1]], activation_function="swish")
    json.dump(config, open(os.path.join(out, "config.json"), "w"), indent=2)
    torch.save(state_dict(), os.path.join(out, "pytorch_model.bin"))
    json.dump({"sha256": stamp}, open(stamp_path, "w"))
    print(f"wrote {out}: pytorch_model.bin {os.path.getsize(os.path.join(out, 'pytorch_model.bin'))} bytes")


if __name__ == "__main__":
    main()
