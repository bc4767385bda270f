#!/usr/bin/env python3
"""The learning curve of a training run as a markdown table: one row per evaluation of train.py's log.

  python3 models/curve.py models/runs/general-en-de/train.log.jsonl
"""
import json
import sys


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    records = [json.loads(line) for line in open(sys.argv[1], encoding="utf-8") if line.strip()]
    bleu = sorted({k for r in records for k in r if k.startswith("bleu_")})
    guided = any("alignment_loss" in r for r in records)  # guided alignment (train.py) from some point on
    print("| updates | training hours | train loss | valid loss | " + " | ".join(f"BLEU {k[5:]}" for k in bleu)
          + (" | alignment loss" if guided else "") + " |")
    print("| ---: " * (4 + len(bleu) + guided) + "|")
    for r in records:
        cells = [f"{r['step']:,}", f"{r['hours']:.2f}", f"{r['train_loss']:.3f}", f"{r['valid_loss']:.3f}"]
        cells += [str(r.get(k, "")) for k in bleu] + ([f"{r['alignment_loss']:.3f}" if "alignment_loss" in r else ""]
                                                      if guided else [])
        print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
