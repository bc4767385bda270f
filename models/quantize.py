#!/usr/bin/env python3
"""Quantize a crossattn model file to int8, for the engine's int8 kernels (cpp/kernels/gemm_int8.cc).

  python3 models/quantize.py --model models/multi30k-en-de/multi30k-en-de.crossattn --out models/multi30k-en-de/multi30k-en-de.int8.crossattn

Every weight matrix W [out, in] (the spec's kind "matrix", cpp/model/tensor_spec.json: linear layers,
the SSRU's two, and the embedding, which the tied output projection shares) becomes symmetric per-row int8:

  scale[j] = max_k |W[j, k]| / 127,   Wq[j, k] = round(W[j, k] / scale[j])  in [-127, 127]

stored as an I8 tensor under the weight's name plus an F32 tensor `<name>_scale` [out]. Biases,
layer norms and the tokenizer stay as they are. Activations are quantized by the engine at run
time, per row (dynamic quantization), so no calibration data is needed. docs/model-format.md
describes the format; the model card reports the BLEU of both files.

--layout kernel (the default) stores each int8 matrix whose dimensions are multiples of 4 in the
layout the engine's kernel reads, [out/4, in/4, 16], which the engine then multiplies in place with
no packing at load (docs/model-format.md, "int8 kernel layout"); --layout rows stores [out, in].
An int8 input file is re-laid out without quantizing again: the values stay bit for bit.
"""
import argparse
import json
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from model_file import int8_panels, int8_rows, read_safetensors, write_safetensors  # noqa: E402
from tensor_spec import expected_tensors  # noqa: E402


def quantize_rows(w):
    """Symmetric per-row int8 of a float matrix [out, in]: returns (int8 [out, in], fp32 scale [out])."""
    w = w.float()
    scale = w.abs().amax(dim=1) / 127.0  # [out]
    safe = torch.where(scale > 0, scale, torch.ones_like(scale))  # all-zero rows (padding) stay zero
    q = torch.clamp(torch.round(w / safe[:, None]), -127, 127).to(torch.int8)
    return q, scale


def matrix_names(config):
    """The names of the tensors `config` calls for whose kind is "matrix" (tensor_spec.py)."""
    return {name for name, _, kind, _ in expected_tensors(config) if kind == "matrix"}


def laid_out(q, layout):
    """int8 weights (rows [out, in] or panels [out/4, in/4, 16]) in `layout`: "kernel" for every
    matrix whose dimensions are multiples of 4, rows otherwise, or "rows"."""
    rows = int8_rows(q) if q.dim() == 3 else q
    if layout == "kernel" and rows.shape[0] % 4 == 0 and rows.shape[1] % 4 == 0:
        return int8_panels(rows).contiguous()
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", required=True, help="model file to quantize (fp16 or fp32), or an int8 file to lay out again")
    ap.add_argument("--out", required=True, help="int8 model file to write")
    ap.add_argument("--layout", choices=["kernel", "rows"], default="kernel",
                    help="int8 matrices as the engine's kernel reads them (in place, no packing at load) or as rows")
    args = ap.parse_args()

    tensors, metadata = read_safetensors(args.model)
    matrices = matrix_names(json.loads(metadata["config"]))
    out = {}
    for name, t in tensors.items():
        if name in matrices and t.is_floating_point():
            q, out[name + "_scale"] = quantize_rows(t)
            out[name] = laid_out(q, args.layout)
        elif t.dtype == torch.int8:
            out[name] = laid_out(t, args.layout)
        else:
            out[name] = t
    metadata = dict(metadata)
    metadata["quantization"] = json.dumps({"weights": "int8, symmetric, per output row", "activations": "int8, per row, at run time",
                                           "layout": args.layout})
    write_safetensors(args.out, out, metadata)
    quantized = sum(1 for n in out if n.endswith("_scale"))
    print(f"wrote {args.out}: {os.path.getsize(args.out)} bytes, {quantized} int8 matrices "
          f"(from {os.path.getsize(args.model)} bytes)")


if __name__ == "__main__":
    main()
