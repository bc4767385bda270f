#!/usr/bin/env python3
"""Add a lexical shortlist to a crossattn model file: the target pieces worth scoring for each source piece.

  /usr/bin/python3 models/shortlist.py --model X.int8.crossattn --src build/data/general/train.en.gz \
      --tgt build/data/general/train.de.gz --alignment build/data/general/train.en-de.align.gz --out X.int8.crossattn

The output layer is the largest product of a decoder step (d_model x vocab_size). Marian and Bergamot
score only a lexical shortlist of the vocabulary (Junczys-Dowmunt et al. 2018, "Marian: Cost-effective
High-Quality Neural Machine Translation in C++", section 4.1; Marian's `--shortlist lex.s2t 100 50`):
the most frequent target pieces, plus, for each source piece of the sentence, the target pieces it is
most often aligned to. Here the lexical table comes from the piece links of the training pairs made by
models/ibm2_align.py with the model's own vocabulary (the same links guided alignment trains on):

  c(s, t) = how often source piece s links to target piece t,   p(t | s) = c(s, t) / sum_t' c(s, t')

and each source piece keeps the --per-source target pieces of highest p(t | s) that reach --min-prob.
The engine (cpp/model/shortlist.h) scores, per call, the union of the --frequent pieces, eos and the
lists of every source piece; every other logit is -inf.

Marian's 100 frequent pieces suit its 32k vocabularies; with our 8k ones the pieces the model picks
outside the table are mostly frequent word fragments ("nis", "keit"), so the default keeps 1000: on
FLORES dev with general-en-de at 8,500 updates (int8, greedy) 100 frequent pieces left 2.5% of the
full layer's output pieces outside the candidates (BLEU 12.27 -> 12.13), 1000 left 1.3% (12.23), at
about 1,650 candidates of 8,000 per sentence.

Stored as int32 tensors, a compressed sparse row table: shortlist.frequent [F];
shortlist.offsets [V + 1] and shortlist.targets [N] (source piece s's list is
targets[offsets[s]:offsets[s + 1]], best first); metadata "shortlist" records the settings.
"""
import argparse
import gzip
import json
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from model_file import read_safetensors, sentencepiece_of, write_safetensors  # noqa: E402


def read_lines(path):
    with (gzip.open(path, "rt", encoding="utf-8") if path.endswith(".gz") else open(path, encoding="utf-8")) as f:
        return f.read().split("\n")[:-1]


def link_counts(src_ids, tgt_ids, links, vocab_size):
    """The nonzero c(s, t): (s [K], t [K], count [K]), from each pair's Pharaoh piece links "i-j"."""
    keys = []
    for s, t, line in zip(src_ids, tgt_ids, links):
        if not line:
            continue
        pairs = np.array([link.split("-") for link in line.split()], dtype=np.int64)  # [links, 2]
        ok = (pairs[:, 0] < len(s)) & (pairs[:, 1] < len(t))
        keys.append(np.asarray(s)[pairs[ok, 0]] * vocab_size + np.asarray(t)[pairs[ok, 1]])
    unique, count = np.unique(np.concatenate(keys) if keys else np.zeros(0, dtype=np.int64), return_counts=True)
    return unique // vocab_size, unique % vocab_size, count


def lexical_table(s, t, count, vocab_size, per_source, min_prob):
    """(offsets [V + 1], targets [N]): each source piece's best target pieces by p(t | s), best first
    (ties by target id)."""
    prob = count / np.bincount(s, weights=count, minlength=vocab_size)[s]
    order = np.lexsort((t, -prob, s))  # by source piece, then p(t | s) descending
    s, t, prob = s[order], t[order], prob[order]
    first = np.searchsorted(s, s)  # where each entry's source piece starts
    keep = (np.arange(len(s)) - first < per_source) & (prob >= min_prob)
    offsets = np.concatenate([[0], np.cumsum(np.bincount(s[keep], minlength=vocab_size))])
    return offsets.astype(np.int32), t[keep].astype(np.int32)


def frequent_targets(tgt_ids, vocab_size, n, eos_id):
    """The n most frequent target pieces of the training data, and eos."""
    freq = np.bincount(np.concatenate([np.asarray(t, dtype=np.int64) for t in tgt_ids]), minlength=vocab_size)
    top = [int(i) for i in np.argsort(-freq, kind="stable")[:n] if freq[i] > 0]
    return np.array(sorted(set(top) | {eos_id}), dtype=np.int32)


def add_corpus_arguments(ap):
    """--model, --src, --tgt and --alignment: a model file and its training pairs' piece links."""
    ap.add_argument("--model", required=True, help="model file (fp16, fp32 or int8) to read")
    ap.add_argument("--src", required=True, help="training sources, one per line (.gz or plain), the model's source language")
    ap.add_argument("--tgt", required=True, help="training targets, line by line with --src")
    ap.add_argument("--alignment", required=True, help="Pharaoh piece links per line (source-target), models/ibm2_align.py")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_corpus_arguments(ap)
    ap.add_argument("--out", required=True, help="model file to write (may be --model)")
    ap.add_argument("--per-source", type=int, default=50, help="target pieces kept per source piece (default 50)")
    ap.add_argument("--frequent", type=int, default=1000, help="most frequent target pieces always scored (default 1000)")
    ap.add_argument("--min-prob", type=float, default=0.0, help="smallest p(t | s) kept (default 0)")
    args = ap.parse_args()

    tensors, metadata = read_safetensors(args.model)
    config = json.loads(metadata["config"])
    src, tgt, links = read_lines(args.src), read_lines(args.tgt), read_lines(args.alignment)
    if not len(src) == len(tgt) == len(links):
        raise SystemExit(f"--src, --tgt and --alignment have {len(src)}, {len(tgt)} and {len(links)} lines")
    src_ids, tgt_ids = sentencepiece_of(args.model, "source").encode(src), sentencepiece_of(args.model, "target").encode(tgt)
    vocab = config["vocab_size"]
    s, t, count = link_counts(src_ids, tgt_ids, links, vocab)
    offsets, targets = lexical_table(s, t, count, vocab, args.per_source, args.min_prob)
    frequent = frequent_targets(tgt_ids, vocab, args.frequent, config["eos_id"])

    tensors["shortlist.frequent"] = torch.from_numpy(frequent)
    tensors["shortlist.offsets"] = torch.from_numpy(offsets)
    tensors["shortlist.targets"] = torch.from_numpy(targets)
    metadata = dict(metadata)
    metadata["shortlist"] = json.dumps({"per_source": args.per_source, "frequent": args.frequent,
                                        "min_prob": args.min_prob, "pairs": len(src),
                                        "links": int(count.sum())})
    write_safetensors(args.out, tensors, metadata)
    print(f"wrote {args.out}: shortlist of {len(frequent)} frequent pieces and {len(targets)} entries "
          f"({len(targets) / max(1, int((np.diff(offsets) > 0).sum())):.1f} per source piece that has any), "
          f"from {int(count.sum())} links in {len(src)} pairs")


if __name__ == "__main__":
    main()
