#!/usr/bin/env python3
"""Why crossattn's int8 and Bergamot's int8 write different translations from the same intgemm8 weights:
a simulation in PyTorch of each engine's activation quantization on a converted Marian int8 model.

  /usr/bin/python3 bench/marian_int8_sim.py --model build/marian-fixtures/int8.crossattn \\
      --src ../shared/data/flores-dev/dev.en --sentences 200 --mode bergamot > bergamot-sim.txt

The model file is `crossattn convert` of a Marian intgemm8 model: its weights, dequantized, are exactly
the q / quantMult both engines multiply by. Every matrix product with a weight then quantizes its
activations A to int8 (round to nearest, [-127, 127]) with a scale 127 / max|A|, taken
  --mode per-row    over each row (each position) alone, as crossattn's int8 kernels do;
  --mode bergamot   as Bergamot's int8shiftAll does (browsermt/marian-dev e88c1aa
                    src/tensors/cpu/intgemm_interface.h:250-290, QuantMultNodeOp: 127 / MaxAbsolute over
                    the whole input tensor): over all positions of the sentence for the encoder's products
                    and cross-attention's keys and values, over all target positions so far for decoder
                    self-attention's keys and values (transformer.h:385-391 recomputes them every step from
                    the cached layer inputs), over the one new position for every other decoder product;
  --mode fp32       not at all.
Greedy decoding as both engines run it in tests/js/convert-marian.test.js (at most 2 x source tokens,
<unk> never written: the converted model's logit bias). Writes one translation a line.
"""
import argparse
import os
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "models"))
from model_file import load_model, sentencepiece_of  # noqa: E402


def fake_quant(a, per_row):
    """a [.., L, D] rounded to int8 with scale 127 / max|a| per row (per_row) or over the whole tensor."""
    peak = a.abs().amax(-1, keepdim=True) if per_row else a.abs().amax()
    scale = 127.0 / peak.clamp_min(1e-30)
    return torch.round(a * scale).clamp(-127, 127) / scale


def quantize_inputs(model, mode):
    """Pre-hooks on every nn.Linear that quantize its input as `mode` says (module docstring)."""
    for name, module in model.named_modules():
        if not isinstance(module, torch.nn.Linear) or mode == "fp32":
            continue
        whole = mode == "bergamot" and (name.startswith("encoder_layers") or name.endswith(("k_proj", "v_proj")))
        module.register_forward_pre_hook(lambda _m, args, whole=whole: (fake_quant(args[0], per_row=not whole),))


@torch.no_grad()
def translate(model, c, ids, mode):
    """Greedy decoding of one sentence `ids` (with </s>), the output layer's input quantized per row
    (one position a step in both engines). Returns the target ids without </s>."""
    src = torch.tensor([ids])
    encoder_out, src_mask = model.encode(src)
    out = [c["decoder_start_id"]]
    for _ in range(2 * len(ids)):
        tgt = torch.tensor([out])
        mask = torch.ones(len(out), len(out), dtype=torch.bool).tril()[None, None]
        y = model.embed(tgt, zero_at_start=True)
        for layer in model.decoder_layers:
            y, _ = layer(y, encoder_out, mask, src_mask)
        y = y[:, -1:]
        if mode != "fp32":
            y = fake_quant(y, per_row=True)
        logits = y @ model.shared.weight.T + model.final_logits_bias
        nxt = int(logits[0, -1].argmax())
        if nxt == c["eos_id"]:
            break
        out.append(nxt)
    return out[1:]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", required=True)
    ap.add_argument("--src", required=True)
    ap.add_argument("--sentences", type=int, default=200)
    ap.add_argument("--mode", choices=["fp32", "per-row", "bergamot"], required=True)
    args = ap.parse_args()
    model, c, _, _ = load_model(args.model)
    quantize_inputs(model, args.mode)
    spm = sentencepiece_of(args.model, "source")
    lines = open(args.src, encoding="utf-8").read().split("\n")[: args.sentences]
    for line in lines:
        print(spm.decode(translate(model, c, spm.encode(line) + [c["eos_id"]], args.mode)), flush=True)


if __name__ == "__main__":
    main()
