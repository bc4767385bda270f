#!/usr/bin/env python3
"""How sparse a model's ReLU feed-forward activations are: what the engine's InputZeros::kSkip can skip.

  /usr/bin/python3 tools/relu-zeros.py --model build/bench-models/bench-marian-en-de.crossattn \
      --src ../shared/data/flores-dev/dev.en --tgt ../shared/data/flores-dev/dev.de [--sentences 100]

Runs the PyTorch model of a model file teacher-forced on the first sentences of a parallel set and,
for every feed-forward block, counts the exact zeros of relu(x W1^T + b1) [tokens, d_ff], the input
of the block's second matrix. The fp32 product skips an input where it is zero in every row of a
block (cpp/kernels/gemm_f32.cc): 4 positions at a time in the encoder, one position per decoder step;
the int8 product skips input pairs (k, k+1) zero in both, row by row (cpp/kernels/gemm_int8.cc).
Prints per layer: the share of zeros, the share of inputs that are zero in all 4 rows of a block
of consecutive positions, and the share of input pairs zero in one position.
"""
import argparse
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "models"))
import transformer  # noqa: E402
from model_file import load_model, sentencepiece_of  # noqa: E402

ROWS = 4  # the fp32 kernel's block of rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model", required=True, help="model file (fp32, fp16 or int8; int8 is dequantized)")
    ap.add_argument("--src", required=True, help="source sentences, one per line")
    ap.add_argument("--tgt", required=True, help="their translations, line by line")
    ap.add_argument("--sentences", type=int, default=100)
    args = ap.parse_args()

    model, config, _, _ = load_model(args.model)
    if config.get("activation", "relu") != "relu":
        sys.exit(f"{args.model}: activation {config['activation']} has no exact zeros to skip")
    sps, spt = sentencepiece_of(args.model, "source"), sentencepiece_of(args.model, "target")
    counts = {}  # FeedForward -> [zeros, values, all-zero inputs of blocks, inputs of blocks, zero pairs, pairs]

    def forward(self, x):  # x [B, L, D]
        h = self.activation(self.fc1(x))  # [B, L, F]
        zero = h == 0
        c = counts.setdefault(self, [0, 0, 0, 0, 0, 0])
        c[0] += int(zero.sum())
        c[1] += zero.numel()
        blocks = h.shape[1] // ROWS
        if blocks:
            per_block = zero[:, : blocks * ROWS].reshape(h.shape[0], blocks, ROWS, -1).all(dim=2)
            c[2] += int(per_block.sum())
            c[3] += per_block.numel()
        pairs = zero[..., : h.shape[-1] // 2 * 2].reshape(*h.shape[:-1], -1, 2).all(dim=-1)
        c[4] += int(pairs.sum())
        c[5] += pairs.numel()
        return self.fc2(h)

    transformer.FeedForward.forward = forward
    names = {module: name for name, module in model.named_modules()}
    with open(args.src, encoding="utf-8") as f:
        src = [line.strip() for line in f][: args.sentences]
    with open(args.tgt, encoding="utf-8") as f:
        tgt = [line.strip() for line in f][: args.sentences]
    with torch.no_grad():
        for s, t in zip(src, tgt):
            src_ids = torch.tensor([sps.encode(s) + [config["eos_id"]]])
            tgt_in = torch.tensor([[config["decoder_start_id"]] + spt.encode(t)])
            model(src_ids, tgt_in)
    print(f"| feed-forward block | zeros | inputs zero in all {ROWS} rows of a block | input pairs zero |")
    print("| --- | ---: | ---: | ---: |")
    for module, (zeros, values, block_zeros, block_values, pair_zeros, pairs) in counts.items():
        print(f"| {names[module]} | {zeros / values:.3f} | {block_zeros / max(block_values, 1):.3f} "
              f"| {pair_zeros / max(pairs, 1):.3f} |")


if __name__ == "__main__":
    main()
