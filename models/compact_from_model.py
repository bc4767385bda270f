#!/usr/bin/env python3
"""A compact checkpoint (train.py's --resume-from / --init-from) from a model file, so training of a shipped
model continues where its fp32 weights were never committed.

  python3 models/compact_from_model.py --model models/general-en-de/general-en-de.int8.crossattn \
      --config models/configs/general-en-de.json --step 9323 --out build/resume/general-en-de.pt

The weights are the model file's, int8 matrices dequantized (W = scale[j] * Wq[j, k], the values the int8
engine multiplies by: model_file.load_model), stored in fp16 as train.py stores a compact checkpoint. The
vocabulary is the file's own SentencePiece model, byte for byte. The run's state says --step updates were
made (the model card's count), so `train.py --resume-from` continues the inverse square-root schedule from
there, re-warming over training.rewarm_steps updates while Adam's moments rebuild; its --max-minutes counts
this continuation's time only. The int8 rounding (at most half a step of 1/127 of each row's largest weight)
is what the continued training starts from.
"""
import argparse
import json
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from model_file import load_model  # noqa: E402


def compact_of(path, config, step, epoch):
    """The compact checkpoint dict {model, state, config, spm} of the model file at `path`, trained with the
    train.py `config` (dict) for `step` updates over `epoch` passes. Raises ValueError when the file's
    architecture differs from the config's model section or its tokenizer is not one shared SentencePiece."""
    model, file_config, tensors, metadata = load_model(path)
    differs = {k: (v, file_config.get(k)) for k, v in config["model"].items()
               if k not in ("dropout", "attention_dropout", "activation_dropout") and file_config.get(k) != v}
    if differs:
        raise ValueError(f"{path} is not the config's model: (config, file) differ in {differs}")
    tokenizer = json.loads(metadata["tokenizer"])
    if tokenizer.get("source_spm") != tokenizer.get("target_spm"):
        raise ValueError(f"{path} has two vocabularies; train.py trains one shared vocabulary")
    state = {"step": step, "epoch": epoch, "batch_in_epoch": 0, "train_seconds": 0.0, "history": [],
             "best": None, "bad_evals": 0, "rewarm_from": None}
    return {"model": {k: v.half() for k, v in model.state_dict().items()}, "state": state, "config": config,
            "spm": tensors[tokenizer["source_spm"]].numpy().tobytes()}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", required=True, help="a crossattn model file, int8 or fp32")
    ap.add_argument("--config", required=True, help="the train.py config the continuation uses")
    ap.add_argument("--step", type=int, required=True, help="updates the model has had (its card's count)")
    ap.add_argument("--epoch", type=int, default=0, help="passes it made (seeds the next pass's batch order)")
    ap.add_argument("--out", required=True, help="the compact checkpoint to write")
    ap.add_argument("--spm-out", help="also write its SentencePiece model here")
    args = ap.parse_args()
    with open(args.config) as f:
        compact = compact_of(args.model, json.load(f), args.step, args.epoch)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    torch.save(compact, args.out)
    if args.spm_out:
        with open(args.spm_out, "wb") as f:
            f.write(compact["spm"])
    print(f"{args.out}: {sum(v.numel() for v in compact['model'].values()):,} parameters, step {args.step}")


if __name__ == "__main__":
    main()
