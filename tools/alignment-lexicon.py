#!/usr/bin/env python3
"""Word alignment from a model's cross-attention times a lexical translation table, by AER on align-dev.

  /usr/bin/python3 tools/alignment-lexicon.py --model general-en-de.crossattn \
      --src build/data/general/train.en.gz --tgt build/data/general/train.de.gz \
      --alignment build/data/general/train.en-de.align.gz [--gold-dir ../shared/data/align-dev]

Reading alignments from attention alone asks the
attention to say which source piece a target piece translates; attention also looks at context. An
IBM-style view separates the two: the posterior of target piece j aligning to source piece i is

  P(a_j = i) ∝ A[j, i] * (lex(s_i, t_j) + eps)

with A the model's cross-attention (the prior over positions, in context) and lex the lexical
translation table of the training data, sqrt(p(t | s) p(s | t)) from the counts c(s, t) of the
same IBM Model 2 piece links that train the alignment head (models/lexicon.py, which the engine's
model files carry). This PyTorch reading links at the piece level, then maps links to words; it is
where the lexicon's floor (1e-4) and size (every pair, or the shortlist's 50 per source piece) were
chosen. The engine's word-level reading is measured by tools/alignment-methods.js. Links: grow-diag-final-and of the row and column argmaxes of the score, at
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
import lexicon  # noqa: E402
import shortlist as sl  # noqa: E402
from model_file import load_model, sentencepiece_of  # noqa: E402


class Lexicon:
    """models/lexicon.py's table, looked up for a sentence pair."""

    def __init__(self, s, t, count, vocab_size, per_source=0):
        self.offsets, self.targets, self.scores = lexicon.alignment_lexicon(s, t, count, vocab_size, per_source)

    def scores_of(self, src, tgt):
        """lex [T, S] for source pieces src [S] and target pieces tgt [T] (0 where the table lists none)."""
        out = np.zeros((len(tgt), len(src)))
        for i, s in enumerate(src):
            listed = self.targets[self.offsets[s]:self.offsets[s + 1]]
            at = np.minimum(np.searchsorted(listed, tgt), max(len(listed) - 1, 0))
            if len(listed):
                out[:, i] = np.where(listed[at] == tgt, self.scores[self.offsets[s] + at], 0.0)
        return out


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
        lex = {name: table.scores_of(src_ids, np.array(tgt_ids)) for name, table in lexicons.items()}
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
