#!/usr/bin/env python3
"""Write an int8 crossattn model file's weights as an fp32 model file: the same function in float.

  python3 models/dequantize.py --model models/general-en-de/general-en-de.int8.crossattn --out build/general-en-de.fp32.crossattn

Each int8 matrix Wq (rows [out, in] or the kernel layout [out/4, in/4, 16]) with its per-row scales
becomes W[j, k] = scale[j] * Wq[j, k] as an F32 tensor [out, in], the values the int8 engine
multiplies by (models/quantize.py's inverse up to its rounding: a product of an int8 and a float32
is exact in float32's 24-bit significand). Every other tensor (biases, layer norms, the tokenizer,
the alignment lexicon, the lexical shortlist) is kept as it is, and the checksum is written anew.

This is how `npm run bench` runs the fp32 engines and onnxruntime-web on a shipped int8 model, whose
fp32 weights are not committed: they then compute on exactly the weights the int8 engine uses.
"""
import argparse
import json
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from model_file import dequantized, read_safetensors, write_safetensors  # noqa: E402


def dequantize(tensors, metadata):
    """The tensors and metadata of an int8 model file as an fp32 one: each int8 matrix [out, in] (rows
    or panels) with its `_scale` [out] becomes one F32 [out, in], the rest is kept, and the metadata
    loses "quantization". Raises ValueError when no tensor is an int8 matrix with its scales."""
    matrices = [name for name, t in tensors.items() if t.dtype == torch.int8 and name + "_scale" in tensors]
    if not matrices:
        raise ValueError("no int8 matrix with a _scale tensor: not an int8 model file")
    scales = {name + "_scale" for name in matrices}
    out = {name: dequantized(tensors, name).contiguous() if name in matrices else t
           for name, t in tensors.items() if name not in scales}
    return out, {key: value for key, value in metadata.items() if key != "quantization"}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", required=True, help="int8 model file (models/quantize.py's output)")
    ap.add_argument("--out", required=True, help="fp32 model file to write")
    args = ap.parse_args()

    try:
        tensors, metadata = dequantize(*read_safetensors(args.model))
    except ValueError as e:
        sys.exit(f"{args.model}: {e}")
    metadata["dequantized_from"] = json.dumps(os.path.basename(args.model))
    write_safetensors(args.out, tensors, metadata)
    print(f"wrote {args.out}: {os.path.getsize(args.out)} bytes")


if __name__ == "__main__":
    main()
