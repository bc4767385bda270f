#!/usr/bin/env python3
"""A dedicated word-alignment layer for a frozen crossattn model, trained on the model pair's own alignments.

  python3 models/alignment_layer.py extract --model EN-DE.crossattn --src train.en.gz --tgt train.de.gz --limit 3000 --out F.pt
  python3 models/alignment_layer.py extract --model DE-EN.crossattn --src train.de.gz --tgt train.en.gz --limit 3000 --out R.pt
  python3 models/alignment_layer.py train --features F.pt --reverse-features R.pt --out LAYER.pt
  python3 models/alignment_layer.py add --model EN-DE.crossattn --layer LAYER.pt --out EN-DE.crossattn

An extra attention layer whose query already knows the target word it aligns (Zenkel et al. 2019,
"Adding Interpretable Attention to Neural Translation Models Improves Word Alignment", section 3: the
alignment layer attends with the target word's embedding; Chen et al. 2020, Shift-AET, section 3.2: a
separate alignment module on a frozen translation model, trained on the model's own alignments). Target
token t's query is the sum of a projection of the decoder's final state at step t (the state that
predicts y_t, after the final layer norm) and a projection of y_t's own embedding row; its keys are a
projection of encoder_out. Only this layer is trained, the translation model stays frozen, so
translations do not change:

  q_t = W_state · h_t + b + W_embed · E[y_t]      [T, D]
  k_i = W_key · encoder_out_i                      [S, D]
  A[t, i] = softmax_i(q_t · k_i / sqrt(D) + log(lex(s_i, y_t) + 1e-4))

The log of the model file's alignment lexicon (models/lexicon.py) enters the logits in training, so the
layer learns what the lexicon prior lacks; the engine multiplies the layer's softmax by the same prior and
renormalizes (cpp/alignment/word_alignment.cc), which is the same distribution. The targets (teacher_links)
are the pair's own symmetrized piece links, what the engine's defaults read before the layer: both
directions' trained heads × lexicons, averaged, grow-diag-final-and. Row t spreads 1 over the source
pieces target piece t is linked to; unlinked pieces and eos contribute nothing. Loss: cross-entropy of A
against those rows; the checkpoint kept has the lowest loss on 300 held-out pairs. IBM Model 2 links
(models/ibm2_align.py) were the first choice: on the shared 2-core machine one EM iteration over 60,000
pairs took 363 s (16 are needed), so they were not recomputed (docs/alignment.md).

Tensors (docs/model-format.md): alignment.q_state.weight [D, D], alignment.q_state.bias [D],
alignment.q_embed.weight [D, D], alignment.k_proj.weight [D, D] (a key bias would add a constant per
query and change no softmax). `add` keeps every existing tensor's bytes and rewrites the checksum.
"""
import argparse
import math
import os
import random
import sys
import time

import numpy as np
import torch
import torch.nn as nn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibm2_align as ia  # noqa: E402
from model_file import load_model, read_safetensors, sentencepiece_of, write_safetensors  # noqa: E402
from tensor_spec import our_name  # noqa: E402

FLOOR = 1e-4  # cpp/model/lexicon.h kLexiconFloor


class AlignmentLayer(nn.Module):
    """The alignment layer: (states [B, T, D], embeds [B, T, D], encoder_out [B, S, D], mask [B, T, S] True where
    allowed, log_prior [B, T, S] or None) -> log-probabilities [B, T, S] over source pieces."""

    def __init__(self, d_model):
        super().__init__()
        self.q_state = nn.Linear(d_model, d_model)
        self.q_embed = nn.Linear(d_model, d_model, bias=False)
        self.k_proj = nn.Linear(d_model, d_model, bias=False)
        self.scale = 1.0 / math.sqrt(d_model)

    def forward(self, states, embeds, encoder_out, mask, log_prior=None):
        q = self.q_state(states) + self.q_embed(embeds)  # [B, T, D]
        k = self.k_proj(encoder_out)  # [B, S, D]
        scores = (q @ k.transpose(1, 2)) * self.scale  # [B, T, S]
        if log_prior is not None:
            scores = scores + log_prior
        return scores.masked_fill(~mask, float("-inf")).log_softmax(-1)


class Lexicon:
    """The model file's lexicon.* table (models/lexicon.py), looked up for one sentence pair."""

    def __init__(self, tensors):
        self.offsets = tensors["lexicon.offsets"].numpy()
        self.targets = tensors["lexicon.targets"].numpy()
        self.scores = tensors["lexicon.scores"].numpy()

    def prior(self, src, tgt):
        """lex(src[i], tgt[j]) + FLOOR at [j, i]: [T, S] for source ids src [S], target ids tgt [T]."""
        tgt = np.asarray(tgt)
        out = np.zeros((len(tgt), len(src)), dtype=np.float32)
        for i, s in enumerate(src):
            listed = self.targets[self.offsets[s]:self.offsets[s + 1]]
            if len(listed):
                at = np.minimum(np.searchsorted(listed, tgt), len(listed) - 1)
                out[:, i] = np.where(listed[at] == tgt, self.scores[self.offsets[s] + at], 0.0)
        return out + FLOOR


@torch.no_grad()
def frozen_features(model, config, src_ids, tgt_ids):
    """Pairs through the frozen model, teacher-forced as the engine's align() does: source ids + eos, decoder
    input bos + target, rows predicting target + eos; a batch padded with pad_id. Returns per pair
    (states [T, D] after the final layer norm, embeds [T, D] = E[y_t] unscaled, encoder_out [S, D]) for
    T = len(tgt) + 1, S = len(src) + 1, and the trained alignment head's attention [T, S] (config alignment_layer,
    alignment_head). src_ids, tgt_ids: lists of id lists."""
    eos, pad = config["eos_id"], config["pad_id"]
    srcs = [s + [eos] for s in src_ids]
    tgts = [t + [eos] for t in tgt_ids]
    S, T = max(map(len, srcs)), max(map(len, tgts))
    src = torch.tensor([s + [pad] * (S - len(s)) for s in srcs])  # [B, S]
    tgt_in = torch.tensor([[config["decoder_start_id"]] + t[:-1] + [pad] * (T - len(t)) for t in tgts])  # [B, T]
    encoder_out, src_mask = model.encode(src)
    mask = torch.ones(T, T, dtype=torch.bool).tril()[None, None]
    y = model.embed(tgt_in, zero_at_start=config.get("decoder_start", "token") == "zero")
    cross = []
    for layer in model.decoder_layers:
        y, weights = layer(y, encoder_out, mask, src_mask)
        cross.append(weights)
    y = model.decoder_norm(y) if model.decoder_norm is not None else y
    head = cross[config["alignment_layer"]][:, config["alignment_head"]]  # [B, T, S]
    return [(y[b, :len(t)], model.shared.weight[torch.tensor(t)], encoder_out[b, :len(s)], head[b, :len(t), :len(s)])
            for b, (s, t) in enumerate(zip(srcs, tgts))]


def extract(args):
    """Features of the first --limit pairs (src, tgt as this model reads them), each with its corpus line `id`."""
    model, config, tensors, _ = load_model(args.model)
    sp = sentencepiece_of(args.model)
    lexicon = Lexicon(tensors)
    src, tgt = ia.read_lines(args.src)[:args.limit], ia.read_lines(args.tgt)[:args.limit]
    src_ids, tgt_ids = sp.encode(src), sp.encode(tgt)
    kept = [k for k in range(len(src)) if 0 < len(src_ids[k]) <= 120 and 0 < len(tgt_ids[k]) <= 120]
    kept.sort(key=lambda k: (len(src_ids[k]), len(tgt_ids[k])))  # batches of similar lengths pad little
    out, start, eos = [], time.time(), config["eos_id"]
    for b in range(0, len(kept), 32):
        chunk = kept[b:b + 32]
        feats = frozen_features(model, config, [src_ids[k] for k in chunk], [tgt_ids[k] for k in chunk])
        for k, (states, embeds, enc, head) in zip(chunk, feats):
            prior = lexicon.prior(src_ids[k] + [eos], tgt_ids[k] + [eos])
            out.append({"id": k, "states": states.half(), "embeds": embeds.half(), "enc": enc.half(),
                        "prior": torch.from_numpy(prior).half(), "head": head.half()})
        print(f"{len(out)} pairs, {time.time() - start:.0f} s", file=sys.stderr, flush=True)
    torch.save({"d_model": config["d_model"], "pairs": sorted(out, key=lambda p: p["id"])}, args.out)


def piece_links(score):
    """Piece links (i, j) of a score [T, S] (target rows, source columns, eos dropped): grow-diag-final-and
    of its row and column argmaxes, as cpp/alignment/word_alignment.cc links a word matrix."""
    forward = {(int(score[j].argmax()), j) for j in range(score.shape[0])}
    backward = {(i, int(score[:, i].argmax())) for i in range(score.shape[1])}
    return ia.grow_diag_final_and(forward, backward)


def teacher_links(pair, reverse):
    """The frozen pair's own symmetrized links of one sentence pair (Chen et al. 2020, Shift-AET, section 3.2,
    train the alignment module on the model's own alignments): each direction's trained head times its
    lexicon prior, rows renormalized without eos, the two directions averaged ([T, S] = (forward +
    backward transposed) / 2) and linked by grow-diag-final-and, as the engine's defaults do for words,
    here on pieces. `pair` and `reverse` are the two directions' features of the same corpus line."""
    def rows(p):
        a = (p["head"].float() * p["prior"].float())[:-1, :-1].numpy()
        return a / np.maximum(a.sum(1, keepdims=True), 1e-30)
    return sorted(piece_links((rows(pair) + rows(reverse).T) / 2))


def batches(pairs, size, generator=None):
    order = torch.randperm(len(pairs), generator=generator).tolist() if generator is not None else range(len(pairs))
    order = list(order)
    for b in range(0, len(order), size):
        chunk = [pairs[k] for k in order[b:b + size]]
        T = max(p["states"].shape[0] for p in chunk)
        S = max(p["enc"].shape[0] for p in chunk)
        D = chunk[0]["states"].shape[1]
        states, embeds, enc = (torch.zeros(len(chunk), n, D) for n in (T, T, S))
        log_prior = torch.zeros(len(chunk), T, S)
        mask = torch.zeros(len(chunk), T, S, dtype=torch.bool)
        target = torch.zeros(len(chunk), T, S)
        for r, p in enumerate(chunk):
            t, s = p["states"].shape[0], p["enc"].shape[0]
            states[r, :t], embeds[r, :t], enc[r, :s] = p["states"].float(), p["embeds"].float(), p["enc"].float()
            log_prior[r, :t, :s] = p["prior"].float().log()
            mask[r, :t, :s] = True
            li = p["links"].long()
            target[r, li[:, 1], li[:, 0]] = 1.0
        target = target / target.sum(-1, keepdim=True).clamp(min=1.0)
        yield states, embeds, enc, mask, log_prior, target


def loss_of(layer, batch, use_prior):
    states, embeds, enc, mask, log_prior, target = batch
    logp = layer(states, embeds, enc, mask, log_prior if use_prior else None)
    tokens = (target.sum(-1) > 0).sum()
    return -(target * logp.masked_fill(~mask, 0.0)).sum() / tokens.clamp(min=1)


def train(args):
    torch.manual_seed(1)
    data = torch.load(args.features)
    reverse = {p["id"]: p for p in torch.load(args.reverse_features)["pairs"]}
    pairs = [p for p in data["pairs"] if p["id"] in reverse]
    for p in pairs:
        p["links"] = torch.tensor(teacher_links(p, reverse[p["id"]]), dtype=torch.int16).reshape(-1, 2)
    del reverse
    random.Random(1).shuffle(pairs)
    held, pairs = pairs[:300], pairs[300:]
    layer = AlignmentLayer(data["d_model"])
    opt = torch.optim.Adam(layer.parameters(), lr=args.lr)
    g = torch.Generator().manual_seed(1)
    step, start, best = 0, time.time(), float("inf")
    for epoch in range(args.epochs):
        for batch in batches(pairs, args.batch_size, g):
            loss = loss_of(layer, batch, not args.no_prior)
            opt.zero_grad()
            loss.backward()
            opt.step()
            step += 1
            if step % 100 == 0:
                with torch.no_grad():
                    held_loss = float(np.mean([loss_of(layer, b, not args.no_prior).item() for b in batches(held, 64)]))
                print(f"epoch {epoch} step {step}: loss {loss.item():.3f}, held-out {held_loss:.3f} ({time.time() - start:.0f} s)",
                      file=sys.stderr, flush=True)
                if held_loss < best:  # the checkpoint kept is the one with the lowest held-out loss
                    best = held_loss
                    torch.save({"d_model": data["d_model"], "state": layer.state_dict(), "prior": not args.no_prior,
                                "step": step, "held_out_loss": held_loss}, args.out)


def add(args):
    """Adds the layer's tensors to a model file; every existing tensor is kept as it is."""
    tensors, metadata = read_safetensors(args.model)
    saved = torch.load(args.layer)
    for key, value in saved["state"].items():
        tensors[our_name("alignment-layer", key)] = value.float().contiguous()
    write_safetensors(args.out, tensors, metadata)
    print(f"wrote {args.out}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    e = sub.add_parser("extract", help="the frozen model's features of training pairs")
    e.add_argument("--model", required=True)
    e.add_argument("--src", required=True)
    e.add_argument("--tgt", required=True)
    e.add_argument("--limit", type=int, default=4000, help="the first N pairs")
    e.add_argument("--out", required=True)
    t = sub.add_parser("train", help="train the layer on extracted features")
    t.add_argument("--features", required=True)
    t.add_argument("--reverse-features", required=True, help="the other direction's features of the same pairs")
    t.add_argument("--out", required=True)
    t.add_argument("--epochs", type=int, default=3)
    t.add_argument("--batch-size", type=int, default=32)
    t.add_argument("--lr", type=float, default=1e-3)
    t.add_argument("--no-prior", action="store_true", help="train without the lexicon in the logits")
    a = sub.add_parser("add", help="add a trained layer's tensors to a model file")
    a.add_argument("--model", required=True)
    a.add_argument("--layer", required=True)
    a.add_argument("--out", required=True)
    args = ap.parse_args()
    torch.set_num_threads(1)
    {"extract": extract, "train": train, "add": add}[args.command](args)


if __name__ == "__main__":
    main()
