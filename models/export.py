#!/usr/bin/env python3
"""Export a trained run to one self-contained crossattn model file, and write the parity fixture.

  python3 models/export.py --run build/train/multi30k-en-de --config models/configs/multi30k-en-de.json \
      --out models/multi30k-en-de/multi30k-en-de.crossattn --fixture tests/fixtures/multi30k-en-de.parity.safetensors

The model file is a safetensors container (docs/model-format.md): weights under the names the engine
reads, the SentencePiece model as a U8 tensor (whose pieces are the vocabulary), and metadata with the config.
Weights are stored as fp16 by default (--dtype f32 for full precision); the fixture is computed by
PyTorch from the same rounded weights, so that the engine must match it to float32 accuracy.
"""
import argparse
import json
import os
import sys

import sentencepiece as spm
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from model_file import FORMAT, FORMAT_VERSION, average_state_dicts, engine_name, write_safetensors  # noqa: E402
from transformer import Transformer  # noqa: E402

FIXTURE_SENTENCES = [
    "A dog runs through the grass.",
    "Two young men are playing soccer on a field.",
    "A woman in a red coat is reading a book at the station.",
]


def parity_fixture(model, sp, m):
    """For each fixture sentence: source ids, the greedy target, and from teacher forcing on that target
    the logits [T, V] and cross-attention [L, H, T, S] that PyTorch computes."""
    tensors, sentences = {}, []
    model.eval()
    with torch.no_grad():
        for i, text in enumerate(FIXTURE_SENTENCES):
            src = torch.tensor([sp.encode(text) + [m["eos_id"]]])
            tgt = model.greedy(src, max_len=2 * src.shape[1] + 10)[0]
            tgt = tgt[: (tgt == m["eos_id"]).nonzero()[0, 0] + 1] if (tgt == m["eos_id"]).any() else tgt
            tgt_in = torch.cat([torch.tensor([m["decoder_start_id"]]), tgt[:-1]])[None]
            encoder_out, src_mask = model.encode(src)
            logits, cross = model.decode(tgt_in, encoder_out, src_mask)
            tensors[f"{i}.src_ids"] = src[0].to(torch.int32)
            tensors[f"{i}.tgt_ids"] = tgt.to(torch.int32)
            tensors[f"{i}.logits"] = logits[0].float()  # [T, V]
            tensors[f"{i}.cross_attention"] = torch.stack([c[0] for c in cross]).float()  # [L, H, T, S]
            sentences.append({"source": text, "target": sp.decode(tgt[tgt != m["eos_id"]].tolist())})
    return tensors, sentences


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--run", required=True, help="training run folder (spm.model, model.pt)")
    ap.add_argument("--config", help="the run's config (default: RUN/config.json, the one train.py ran with)")
    ap.add_argument("--out", required=True, help="model file to write (.crossattn)")
    ap.add_argument("--weights", default="model.pt",
                    help="state dict inside --run (default model.pt), or several separated by commas, averaged "
                         "(e.g. epoch3.pt,epoch4.pt,checkpoint.pt)")
    ap.add_argument("--dtype", choices=["f16", "f32"], default="f16")
    ap.add_argument("--fixture", help="also write the PyTorch parity fixture here")
    args = ap.parse_args()

    cfg = json.load(open(args.config or os.path.join(args.run, "config.json")))
    m = cfg["model"]
    state = average_state_dicts([os.path.join(args.run, w) for w in args.weights.split(",")])
    store = torch.float16 if args.dtype == "f16" else torch.float32
    state = {k: v.to(store) for k, v in state.items()}
    model = Transformer(m)
    model.load_state_dict({k: v.float() for k, v in state.items()})  # the rounded weights, for the fixture

    sp_path = os.path.join(args.run, "spm.model")
    sp = spm.SentencePieceProcessor(model_file=sp_path)
    spm_bytes = open(sp_path, "rb").read()
    tensors = {engine_name(k): v for k, v in state.items()}
    tensors["tokenizer.spm"] = torch.frombuffer(bytearray(spm_bytes), dtype=torch.uint8)
    engine_config = {k: v for k, v in m.items() if not k.endswith("dropout")}
    engine_config.update(name=cfg["name"], source_lang=cfg["source_lang"], target_lang=cfg["target_lang"])
    metadata = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "config": json.dumps(engine_config),
        "tokenizer": json.dumps({"type": "sentencepiece", "source_spm": "tokenizer.spm", "target_spm": "tokenizer.spm"}),
    }
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    write_safetensors(args.out, tensors, metadata)
    print(f"wrote {args.out}: {os.path.getsize(args.out)} bytes, {sum(v.numel() for v in state.values())} parameters")

    if args.fixture:
        fixture, sentences = parity_fixture(model, sp, m)
        os.makedirs(os.path.dirname(os.path.abspath(args.fixture)), exist_ok=True)
        write_safetensors(args.fixture, fixture, {"sentences": json.dumps(sentences, ensure_ascii=False)})
        print(f"wrote {args.fixture}: {len(sentences)} sentences")
        for s in sentences:
            print(f"  {s['source']} -> {s['target']}")


if __name__ == "__main__":
    main()
