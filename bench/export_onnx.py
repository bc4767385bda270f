#!/usr/bin/env python3
"""Export a crossattn model file to ONNX for the onnxruntime-web peer in `npm run bench`.

  python3 bench/export_onnx.py --model models/multi30k-en-de/multi30k-en-de.crossattn --src SOURCES.txt --out build/bench/onnx

Writes the layout transformers.js runs (HF Optimum's seq2seq export), from the same weights:
  encoder.onnx  input_ids [1, S] -> for each decoder layer l: cross_key_l, cross_value_l [1, H, S, Dk]
                (the final encoder output projected by that layer's W_K, W_V once per sentence);
  decoder.onnx  input_ids [1, 1], past_key_l, past_value_l [1, H, P, Dk], cross_key_l, cross_value_l
                -> logits [1, V], present_key_l, present_value_l [1, H, P+1, Dk].
and sources.json: the SentencePiece ids of every line of --src (eos appended) and the vocabulary,
so that the JS greedy loop needs no tokenizer (tokenization is left out of the peer's timings).
"""
import argparse
import json
import os
import sys

import sentencepiece as spm
import torch
import torch.nn as nn

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "models"))
from model_file import load_model  # noqa: E402


class Encoder(nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, input_ids):  # [1, S]
        encoder_out, _ = self.model.encode(input_ids)  # [1, S, D]
        outputs = []
        for layer in self.model.decoder_layers:
            attn = layer.cross_attn
            outputs += [attn.split(attn.k_proj(encoder_out)), attn.split(attn.v_proj(encoder_out))]  # [1, H, S, Dk]
        return tuple(outputs)


class Decoder(nn.Module):
    """One decoding step with the self-attention KV cache (past) and the cross-attention keys/values."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, input_ids, *caches):
        m, c = self.model, self.model.c
        n = len(m.decoder_layers)
        past, cross = caches[: 2 * n], caches[2 * n :]
        position = past[0].shape[2]
        y = m.shared(input_ids) * m.embed_scale  # [1, 1, D]
        if c.get("decoder_start", "token") == "zero":  # the first step's input is the zero vector
            y = y * (position > 0)
        y = y + m.positions[position]
        presents = []
        for i, layer in enumerate(m.decoder_layers):

            def self_attn(h, attn=layer.self_attn, i=i):
                q = attn.split(attn.q_proj(h)) / (attn.d_k**0.5)  # [1, H, 1, Dk]
                k = torch.cat([past[2 * i], attn.split(attn.k_proj(h))], dim=2)  # [1, H, P+1, Dk]
                v = torch.cat([past[2 * i + 1], attn.split(attn.v_proj(h))], dim=2)
                presents.extend([k, v])
                ctx = (q @ k.transpose(-1, -2)).softmax(-1) @ v  # [1, H, 1, Dk]
                return attn.out_proj(ctx.transpose(1, 2).reshape(h.shape)), None

            def cross_attn(h, attn=layer.cross_attn, i=i):
                q = attn.split(attn.q_proj(h)) / (attn.d_k**0.5)
                ctx = (q @ cross[2 * i].transpose(-1, -2)).softmax(-1) @ cross[2 * i + 1]
                return attn.out_proj(ctx.transpose(1, 2).reshape(h.shape)), None

            y, _ = layer.self_attn_sublayer(y, self_attn)
            y, _ = layer.cross_attn_sublayer(y, cross_attn)
            y, _ = layer.ffn_sublayer(y, lambda h, layer=layer: (layer.ffn(h), None))
        if m.decoder_norm is not None:
            y = m.decoder_norm(y)
        logits = y[:, -1] @ (m.shared.weight if m.lm_head is None else m.lm_head.weight).T  # [1, V]
        if m.final_logits_bias is not None:
            logits = logits + m.final_logits_bias
        return (logits, *presents)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", required=True)
    ap.add_argument("--src", required=True, help="source sentences, one per line")
    ap.add_argument("--out", required=True, help="output folder")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)

    model, c, tensors, metadata = load_model(args.model)
    n, h, dk = c["decoder_layers"], c["n_heads"], c["d_model"] // c["n_heads"]
    layer_names = lambda kind: [f"{kind}_{p}_{i}" for i in range(n) for p in ("key", "value")]  # noqa: E731
    cross, past, present = layer_names("cross"), layer_names("past"), layer_names("present")

    src = torch.tensor([[5, 6, 7, c["eos_id"]]])
    torch.onnx.export(Encoder(model), (src,), os.path.join(args.out, "encoder.onnx"), input_names=["input_ids"],
                      output_names=cross, dynamic_axes={"input_ids": {1: "src_len"}, **{k: {2: "src_len"} for k in cross}},
                      opset_version=14)
    with torch.no_grad():
        cross_values = Encoder(model)(src)
    empty = [torch.zeros(1, h, 1, dk) for _ in past]  # traced with P = 1; exported with P dynamic
    torch.onnx.export(Decoder(model), (torch.tensor([[c["decoder_start_id"]]]), *empty, *cross_values),
                      os.path.join(args.out, "decoder.onnx"), input_names=["input_ids", *past, *cross],
                      output_names=["logits", *present],
                      dynamic_axes={**{k: {2: "past_len"} for k in past}, **{k: {2: "src_len"} for k in cross},
                                    **{k: {2: "present_len"} for k in present}},
                      opset_version=14)

    # the SentencePiece models the metadata's tokenizer names (docs/model-format.md): source ids in, target pieces out
    tokenizer = json.loads(metadata["tokenizer"])
    sp, target_sp = (spm.SentencePieceProcessor(model_proto=tensors[tokenizer[f"{side}_spm"]].numpy().tobytes())
                     for side in ("source", "target"))
    lines = [line.rstrip("\n") for line in open(args.src, encoding="utf-8")]
    vocab = json.loads(metadata["vocab"]) if "vocab" in metadata else [target_sp.id_to_piece(i) for i in range(target_sp.get_piece_size())]
    json.dump({"config": c, "vocab": vocab,
               "sources": [sp.encode(line) + [c["eos_id"]] for line in lines]},
              open(os.path.join(args.out, "sources.json"), "w"))
    print(f"wrote {args.out}: encoder.onnx, decoder.onnx, sources.json ({len(lines)} sentences)")


if __name__ == "__main__":
    main()
