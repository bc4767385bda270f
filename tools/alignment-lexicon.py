#!/usr/bin/env python3
"""Word alignment from a model's cross-attention times a lexical translation table, by AER on align-dev.

  /usr/bin/python3 tools/alignment-lexicon.py --model general-en-de.crossattn \
      --src build/data/general/train.en.gz --tgt build/data/general/train.de.gz \
      --alignment build/data/general/train.en-de.align.gz [--gold-dir ../shared/data/align-dev]

A measurement ahead of an engine feature (issue 16). Reading alignments from attention alone asks the
attention to say which source piece a target piece translates; attention also looks at context. An
IBM-style view separates the two: the posterior of target piece j aligning to source piece i is

  P(a_j = i) ∝ A[j, i] * (lex(s_i, t_j) + eps)

with A the model's cross-attention (the prior over positions, in context) and lex the lexical
translation table of the training data, here sqrt(p(t | s) p(s | t)) from the counts c(s, t) of the
same IBM Model 2 piece links that train the alignment head (models/ibm2_align.py, models/shortlist.py
counts them the same way). Links: grow-diag-final-and of the row and column argmaxes of the score, at
the piece level, then pieces to words; scored against the gold as models/ibm2_align.py does. Prints
one AER per reading: the alignment head alone, the lexicon alone, and their products.
"""
import argparse
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "models"))
import ibm2_align as ia  # noqa: E402
import shortlist as sl  # noqa: E402
from model_file import load_model, sentencepiece_of  # noqa: E402


class Lexicon:
    """c(s, t) of the training links, and lex(s, t) = sqrt(p(t | s) p(s | t)) for a sentence pair."""

    def __init__(self, s, t, count, vocab_size, per_source=0):
        self.v = vocab_size
        count = count.astype(np.float64)
        self.by_source = np.bincount(s, weights=count, minlength=vocab_size)  # sum_t c(s, t)
        self.by_target = np.bincount(t, weights=count, minlength=vocab_size)  # sum_s c(s, t)
        if per_source:  # only each source piece's per_source most probable targets, as the shortlist keeps
            prob = count / self.by_source[s]
            order = np.lexsort((t, -prob, s))
            rank = np.empty(len(s), dtype=np.int64)
            rank[order] = np.arange(len(s)) - np.searchsorted(s[order], s[order])
            keep = rank < per_source
            s, t, count = s[keep], t[keep], count[keep]
        self.keys, self.count = s * vocab_size + t, count  # sorted by key, as np.unique made them

    def scores(self, src, tgt):
        """lex [T, S] for source pieces src [S] and target pieces tgt [T]."""
        q = (np.asarray(src)[None, :] * self.v + np.asarray(tgt)[:, None]).ravel()
        at = np.minimum(np.searchsorted(self.keys, q), len(self.keys) - 1)
        c = np.where(self.keys[at] == q, self.count[at], 0.0).reshape(len(tgt), len(src))
        return np.sqrt(c / np.maximum(self.by_source[src], 1)[None, :] * c / np.maximum(self.by_target[tgt], 1)[:, None])


def links_of(score):
    """Piece links (i, j) of a score [T, S]: grow-diag-final-and of its row and column argmaxes."""
    forward = {(int(score[j].argmax()), j) for j in range(score.shape[0])}
    backward = {(i, int(score[:, i].argmax())) for i in range(score.shape[1])}
    return ia.grow_diag_final_and(forward, backward)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sl.add_corpus_arguments(ap)  # the model needs an alignment head
    ap.add_argument("--gold-dir", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                                       "shared", "data", "align-dev"))
    args = ap.parse_args()
    torch.set_num_threads(1)

    model, config, _, _ = load_model(args.model)
    sp = sentencepiece_of(args.model)
    v = config["vocab_size"]
    s, t, count = sl.link_counts(sp.encode(sl.read_lines(args.src)), sp.encode(sl.read_lines(args.tgt)),
                                 sl.read_lines(args.alignment), v)
    lexicons = {"all pairs": Lexicon(s, t, count, v), "50 per source": Lexicon(s, t, count, v, per_source=50)}
    src, tgt, gold = ia.read_gold(args.gold_dir, config["source_lang"])
    layer, head = config["alignment_layer"], config["alignment_head"]
    readings = {}
    for k in range(len(src)):
        src_ids, tgt_ids = sp.encode(src[k]), sp.encode(tgt[k])
        with torch.no_grad():
            _, cross = model(torch.tensor([src_ids + [config["eos_id"]]]),
                             torch.tensor([[config["decoder_start_id"]] + tgt_ids]), with_cross_attention=True)
        attention = cross[layer][0, head].numpy()[:-1, :-1]  # [T, S]: the rows that predict t_j, eos left out
        lex = {name: table.scores(src_ids, tgt_ids) for name, table in lexicons.items()}
        scores = {"alignment head alone": attention, "lexicon alone (all pairs)": lex["all pairs"] + 1e-9}
        for name, table in lex.items():
            for eps in (1e-4, 1e-3):
                scores[f"head x (lexicon ({name}) + {eps:g})"] = attention * (table + eps)
        source_words = ia.word_of_piece(sp.encode(src[k], out_type=str))
        target_words = ia.word_of_piece(sp.encode(tgt[k], out_type=str))
        for name, score in scores.items():
            readings.setdefault(name, []).append({(source_words[i], target_words[j]) for i, j in links_of(score)})
    print(f"Model {config['name']}, head {layer}:{head}, on {len(src)} align-dev pairs; AER % (lower is better).\n")
    print("| reading | AER |\n| --- | ---: |")
    for name, hyp in readings.items():
        print(f"| {name} | {100 * ia.aer(hyp, gold):.1f} |")


if __name__ == "__main__":
    main()
