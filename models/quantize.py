#!/usr/bin/env python3
"""Quantize a crossattn model file to int8, for the engine's int8 kernels (cpp/kernels/gemm_int8.cc).

  python3 models/quantize.py --model models/multi30k-en-de/multi30k-en-de.crossattn --out models/multi30k-en-de/multi30k-en-de.int8.crossattn

Every weight matrix W [out, in] of a linear layer, and the embedding (which the tied output
projection shares), becomes symmetric per-row int8:

  scale[j] = max_k |W[j, k]| / 127,   Wq[j, k] = round(W[j, k] / scale[j])  in [-127, 127]

stored as an I8 tensor under the weight's name plus an F32 tensor `<name>_scale` [out]. Biases,
layer norms and the tokenizer stay as they are. Activations are quantized by the engine at run
time, per row (dynamic quantization), so no calibration data is needed. docs/model-format.md
describes the format; the model card reports the BLEU of both files.
"""
import argparse
import json
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from model_file import read_safetensors, write_safetensors  # noqa: E402


def quantize_rows(w):
    """Symmetric per-row int8 of a float matrix [out, in]: returns (int8 [out, in], fp32 scale [out])."""
    w = w.float()
    scale = w.abs().amax(dim=1) / 127.0  # [out]
    safe = torch.where(scale > 0, scale, torch.ones_like(scale))  # all-zero rows (padding) stay zero
    q = torch.clamp(torch.round(w / safe[:, None]), -127, 127).to(torch.int8)
    return q, scale


def is_quantized_weight(name, t):
    """Linear and embedding weights: 2-D float tensors named *.weight (layer norms are 1-D)."""
    return name.endswith(".weight") and t.dim() == 2 and t.is_floating_point()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", required=True, help="model file to quantize (fp16 or fp32)")
    ap.add_argument("--out", required=True, help="int8 model file to write")
    args = ap.parse_args()

    tensors, metadata = read_safetensors(args.model)
    out = {}
    for name, t in tensors.items():
        if is_quantized_weight(name, t):
            out[name], out[name + "_scale"] = quantize_rows(t)
        else:
            out[name] = t
    metadata = dict(metadata)
    metadata["quantization"] = json.dumps({"weights": "int8, symmetric, per output row", "activations": "int8, per row, at run time"})
    write_safetensors(args.out, out, metadata)
    quantized = sum(1 for n in out if n.endswith("_scale"))
    print(f"wrote {args.out}: {os.path.getsize(args.out)} bytes, {quantized} int8 matrices "
          f"(from {os.path.getsize(args.model)} bytes)")


if __name__ == "__main__":
    main()
