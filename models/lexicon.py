#!/usr/bin/env python3
"""Add the alignment lexicon to a crossattn model file: how strongly each source piece translates to each
target piece, for reading word alignments (docs/alignment.md).

  /usr/bin/python3 models/lexicon.py --model X.int8.crossattn --src build/data/general/train.en.gz \
      --tgt build/data/general/train.de.gz --alignment build/data/general/train.en-de.align.gz --out X.int8.crossattn

Attention says where a target piece looked in its context; it does not say which source piece the
target piece translates. The engine reads alignments as an IBM-style posterior with attention as the
prior over source positions and this lexicon as the emission (cpp/model/lexicon.h):

  P(a_j = i) ∝ A[j, i] · (lex(s_i, t_j) + 1e-4),   lex(s, t) = sqrt(p(t | s) · p(s | t))

with p(t | s) = c(s, t) / sum_t' c(s, t') and p(s | t) = c(s, t) / sum_s' c(s', t) from the counts of
the training pairs' piece links (models/ibm2_align.py, counted as models/shortlist.py counts them).
The geometric mean of both directions keeps a frequent target piece (a comma, "die") from
matching every source piece. Measured on align-dev: docs/alignment.md.

Stored as a compressed sparse row table: lexicon.offsets I32 [V + 1], lexicon.targets I32 [N]
(source piece s's targets are targets[offsets[s]:offsets[s + 1]], ascending) and lexicon.scores F32
[N]; metadata "lexicon" records the settings. Every linked pair is kept unless --per-source is given.
"""
import argparse
import json
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import shortlist as sl  # noqa: E402
from model_file import read_safetensors, sentencepiece_of, write_safetensors  # noqa: E402


def alignment_lexicon(s, t, count, vocab_size, per_source=0):
    """(offsets [V + 1], targets [N], scores [N]) of lex(s, t) = sqrt(p(t | s) p(s | t)) for the linked
    pairs (s [K], t [K], count [K]) sorted by source then target, as link_counts returns them; with
    per_source > 0, each source piece keeps only its per_source most probable targets by p(t | s)."""
    count = count.astype(np.float64)
    by_source = np.bincount(s, weights=count, minlength=vocab_size)  # sum_t c(s, t)
    by_target = np.bincount(t, weights=count, minlength=vocab_size)  # sum_s c(s, t)
    if per_source:
        prob = count / by_source[s]
        order = np.lexsort((t, -prob, s))
        rank = np.empty(len(s), dtype=np.int64)
        rank[order] = np.arange(len(s)) - np.searchsorted(s[order], s[order])
        keep = rank < per_source
        s, t, count = s[keep], t[keep], count[keep]
    scores = np.sqrt(count / by_source[s] * count / by_target[t])
    offsets = np.concatenate([[0], np.cumsum(np.bincount(s, minlength=vocab_size))])
    return offsets.astype(np.int32), t.astype(np.int32), scores.astype(np.float32)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sl.add_corpus_arguments(ap)
    ap.add_argument("--out", required=True, help="model file to write (may be --model)")
    ap.add_argument("--per-source", type=int, default=0, help="targets kept per source piece (default 0: all linked)")
    args = ap.parse_args()

    tensors, metadata = read_safetensors(args.model)
    config = json.loads(metadata["config"])
    src, tgt, links = sl.read_lines(args.src), sl.read_lines(args.tgt), sl.read_lines(args.alignment)
    if not len(src) == len(tgt) == len(links):
        raise SystemExit(f"--src, --tgt and --alignment have {len(src)}, {len(tgt)} and {len(links)} lines")
    s, t, count = sl.link_counts(sentencepiece_of(args.model, "source").encode(src),
                                 sentencepiece_of(args.model, "target").encode(tgt), links, config["vocab_size"])
    offsets, targets, scores = alignment_lexicon(s, t, count, config["vocab_size"], args.per_source)
    tensors["lexicon.offsets"] = torch.from_numpy(offsets)
    tensors["lexicon.targets"] = torch.from_numpy(targets)
    tensors["lexicon.scores"] = torch.from_numpy(scores)
    metadata = dict(metadata)
    metadata["lexicon"] = json.dumps({"per_source": args.per_source, "pairs": len(src), "links": int(count.sum())})
    write_safetensors(args.out, tensors, metadata)
    print(f"wrote {args.out}: alignment lexicon of {len(targets)} pairs from {int(count.sum())} links in {len(src)} pairs")


if __name__ == "__main__":
    main()
