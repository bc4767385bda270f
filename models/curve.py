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
    print("| updates | training hours | train loss | valid loss | " + " | ".join(f"BLEU {k[5:]}" for k in bleu) + " |")
    print("| ---: " * (4 + len(bleu)) + "|")
    for r in records:
        cells = [f"{r['step']:,}", f"{r['hours']:.2f}", f"{r['train_loss']:.3f}", f"{r['valid_loss']:.3f}"]
        print("| " + " | ".join(cells + [str(r.get(k, "")) for k in bleu]) + " |")


if __name__ == "__main__":
    main()
