#!/usr/bin/env python3
"""Train an encoder-decoder Transformer translation model from a config.

  python3 models/train.py --config models/configs/multi30k-en-de.json --data ../shared/data --out build/train/multi30k-en-de

Trains a joint SentencePiece vocabulary on the training text, then the model with Adam, label smoothing
and the inverse square-root schedule of Vaswani et al. 2017 (section 5.3). Resumable: the run writes
checkpoint.pt after every epoch (and when --max-minutes runs out) and continues from it when started
again with the same --out. Uses a CUDA GPU when one is present. The result is model.pt: the average of
the last `average_last` epoch checkpoints up to the best validation loss.
"""
import argparse
import gzip
import json
import os
import platform
import random
import sys
import time

import sentencepiece as spm
import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from model_file import average_state_dicts  # noqa: E402
from transformer import Transformer  # noqa: E402


def read_lines(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        return [line.rstrip("\n") for line in f]


def read_corpus(data_dir, prefix, src_lang, tgt_lang):
    """Parallel text `prefix.{src,tgt}.gz` under data_dir, as two aligned lists of lines."""
    src = read_lines(os.path.join(data_dir, f"{prefix}.{src_lang}.gz"))
    tgt = read_lines(os.path.join(data_dir, f"{prefix}.{tgt_lang}.gz"))
    if len(src) != len(tgt):
        raise ValueError(f"{prefix}: {len(src)} source lines but {len(tgt)} target lines")
    return src, tgt


def train_sentencepiece(lines, out_prefix, m):
    """Joint unigram SentencePiece model whose ids are the model's ids (pad, unk, bos, eos first)."""
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(lines),
        model_prefix=out_prefix,
        vocab_size=m["vocab_size"],
        model_type="unigram",
        character_coverage=1.0,
        pad_id=m["pad_id"],
        unk_id=m["unk_id"],
        bos_id=m["bos_id"],
        eos_id=m["eos_id"],
        minloglevel=2,
    )


def encode_pairs(sp, src, tgt, m, max_len):
    """Source ids + eos; target bos + ids + eos. Pairs longer than max_len tokens are dropped."""
    pairs = []
    for s, t in zip(sp.encode(src), sp.encode(tgt)):
        s, t = s + [m["eos_id"]], [m["bos_id"]] + t + [m["eos_id"]]
        if len(s) <= max_len and len(t) <= max_len:
            pairs.append((s, t))
    return pairs


def make_batches(pairs, batch_tokens, rng):
    """Length-bucketed batches of at most batch_tokens padded tokens on either side, in random order."""
    order = sorted(range(len(pairs)), key=lambda i: (len(pairs[i][0]) + rng.random(), len(pairs[i][1])))
    batches, cur, longest = [], [], 0
    for i in order:
        longest_next = max(longest, len(pairs[i][0]), len(pairs[i][1]))
        if cur and longest_next * (len(cur) + 1) > batch_tokens:
            batches.append(cur)
            cur, longest_next = [], max(len(pairs[i][0]), len(pairs[i][1]))
        cur.append(i)
        longest = longest_next
    if cur:
        batches.append(cur)
    rng.shuffle(batches)
    return batches


def collate(pairs, idx, pad_id, device):
    """Padded tensors src [B, S], tgt_in [B, T-1], tgt_out [B, T-1]."""
    s_len = max(len(pairs[i][0]) for i in idx)
    t_len = max(len(pairs[i][1]) for i in idx)
    src = torch.full((len(idx), s_len), pad_id, dtype=torch.long)
    tgt = torch.full((len(idx), t_len), pad_id, dtype=torch.long)
    for row, i in enumerate(idx):
        s, t = pairs[i]
        src[row, : len(s)] = torch.tensor(s)
        tgt[row, : len(t)] = torch.tensor(t)
    return src.to(device), tgt[:, :-1].to(device), tgt[:, 1:].to(device)


def loss_fn(model, batch, m, label_smoothing):
    src, tgt_in, tgt_out = batch
    logits = model(src, tgt_in)  # [B, T, V]
    return F.cross_entropy(
        logits.reshape(-1, logits.shape[-1]),
        tgt_out.reshape(-1),
        ignore_index=m["pad_id"],
        label_smoothing=label_smoothing,
        reduction="sum",
    ), int((tgt_out != m["pad_id"]).sum())


@torch.no_grad()
def valid_loss(model, pairs, m, device, batch_tokens):
    model.eval()
    total, n = 0.0, 0
    for idx in make_batches(pairs, batch_tokens, random.Random(0)):
        loss, tokens = loss_fn(model, collate(pairs, idx, m["pad_id"], device), m, 0.0)
        total, n = total + float(loss), n + tokens
    model.train()
    return total / n


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--config", required=True)
    ap.add_argument("--data", default="../shared/data", help="folder with multi30k/ (default ../shared/data)")
    ap.add_argument("--prepared", default="build/data",
                    help="folder with corpora our scripts make, e.g. tatoeba/ from models/prepare_tatoeba.py")
    ap.add_argument("--out", required=True, help="run folder: tokenizer, checkpoints, log, model.pt")
    ap.add_argument("--max-steps", type=int, default=0, help="stop after this many updates (smoke runs)")
    ap.add_argument("--max-minutes", type=float, default=0,
                    help="checkpoint and stop once the run's training time, earlier sessions included, passes this")
    ap.add_argument("--max-epochs", type=int, default=0, help="stop after this many epochs (default: the config's)")
    ap.add_argument("--threads", type=int, default=os.cpu_count())
    args = ap.parse_args()

    cfg = json.load(open(args.config))
    m, tr = cfg["model"], cfg["training"]
    if args.max_epochs:
        tr["max_epochs"] = args.max_epochs
    os.makedirs(args.out, exist_ok=True)
    torch.set_num_threads(args.threads)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    random.seed(tr["seed"])
    torch.manual_seed(tr["seed"])

    src_lang, tgt_lang = cfg["source_lang"], cfg["target_lang"]
    train_src, train_tgt = [], []
    def root_of(prefix):  # the shared data, else our prepared corpora
        return args.data if os.path.exists(os.path.join(args.data, f"{prefix}.{src_lang}.gz")) else args.prepared

    for prefix in cfg["data"]["train"]:
        s, t = read_corpus(root_of(prefix), prefix, src_lang, tgt_lang)
        train_src += s
        train_tgt += t
    valid_prefix = cfg["data"]["valid"]
    valid_src, valid_tgt = read_corpus(root_of(valid_prefix), valid_prefix, src_lang, tgt_lang)

    spm_prefix = os.path.join(args.out, "spm")
    if not os.path.exists(spm_prefix + ".model"):
        train_sentencepiece(train_src + train_tgt, spm_prefix, m)
    sp = spm.SentencePieceProcessor(model_file=spm_prefix + ".model")
    if sp.get_piece_size() != m["vocab_size"]:
        raise ValueError(f"tokenizer has {sp.get_piece_size()} pieces, config says {m['vocab_size']}")
    max_len = m["max_positions"]
    train = encode_pairs(sp, train_src, train_tgt, m, max_len)
    valid = encode_pairs(sp, valid_src, valid_tgt, m, max_len)

    model = Transformer(m).to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=tr["lr"], betas=(0.9, 0.98), eps=1e-9, weight_decay=tr["weight_decay"])

    def lr_at(step):  # inverse square-root schedule with linear warmup, peaking at tr["lr"]
        return tr["lr"] * min(step / tr["warmup_steps"], (tr["warmup_steps"] / max(step, 1)) ** 0.5)

    ckpt_path = os.path.join(args.out, "checkpoint.pt")
    state = {"step": 0, "epoch": 0, "train_seconds": 0.0, "history": [], "best": None, "bad_epochs": 0}
    if os.path.exists(ckpt_path):
        ckpt = torch.load(ckpt_path, map_location="cpu")
        model.load_state_dict(ckpt["model"])
        opt.load_state_dict(ckpt["optimizer"])
        state = ckpt["state"]
        print(f"resumed at epoch {state['epoch']} step {state['step']}", flush=True)

    def save_checkpoint():
        torch.save({"model": model.state_dict(), "optimizer": opt.state_dict(), "state": state}, ckpt_path + ".tmp")
        os.replace(ckpt_path + ".tmp", ckpt_path)

    n_params = sum(p.numel() for p in model.parameters())
    print(f"{len(train)} training pairs, {n_params} parameters, device {device}, {args.threads} threads", flush=True)
    log = open(os.path.join(args.out, "train.log.jsonl"), "a")
    start = time.time() - state["train_seconds"]
    stopped = False
    while state["epoch"] < tr["max_epochs"] and state["bad_epochs"] < tr["patience"] and not stopped:
        rng = random.Random(tr["seed"] * 1000 + state["epoch"])
        batches = make_batches(train, tr["batch_tokens"], rng)
        skip = state.get("batch_in_epoch", 0)
        epoch_loss, epoch_tokens = 0.0, 0
        for b, idx in enumerate(batches):
            if b < skip:
                continue
            state["step"] += 1
            for group in opt.param_groups:
                group["lr"] = lr_at(state["step"])
            loss, tokens = loss_fn(model, collate(train, idx, m["pad_id"], device), m, tr["label_smoothing"])
            opt.zero_grad(set_to_none=True)
            (loss / tokens).backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            epoch_loss, epoch_tokens = epoch_loss + float(loss), epoch_tokens + tokens
            if state["step"] % 100 == 0:
                print(f"epoch {state['epoch']} step {state['step']} loss {epoch_loss / epoch_tokens:.3f} "
                      f"{time.time() - start:.0f}s", flush=True)
            out_of_time = args.max_minutes and time.time() - start > args.max_minutes * 60
            if (args.max_steps and state["step"] >= args.max_steps) or out_of_time:
                state["batch_in_epoch"] = b + 1
                stopped = True
                break
        if stopped:
            break
        state["batch_in_epoch"] = 0
        vl = valid_loss(model, valid, m, device, tr["batch_tokens"])
        state["epoch"] += 1
        state["train_seconds"] = time.time() - start
        torch.save(model.state_dict(), os.path.join(args.out, f"epoch{state['epoch']}.pt"))
        improved = state["best"] is None or vl < state["best"]["valid_loss"]
        if improved:
            state["best"] = {"epoch": state["epoch"], "valid_loss": vl}
        state["bad_epochs"] = 0 if improved else state["bad_epochs"] + 1
        record = {"epoch": state["epoch"], "step": state["step"], "train_loss": epoch_loss / max(epoch_tokens, 1),
                  "valid_loss": vl, "seconds": round(state["train_seconds"])}
        state["history"].append(record)
        log.write(json.dumps(record) + "\n")
        log.flush()
        print(json.dumps(record), flush=True)
        save_checkpoint()

    state["train_seconds"] = time.time() - start
    save_checkpoint()
    if stopped and not args.max_steps:
        print("stopped on --max-minutes; run again with the same --out to continue", flush=True)
        return
    best_epoch = state["best"]["epoch"] if state["best"] else 0
    epochs = [e for e in range(max(1, best_epoch - tr["average_last"] + 1), best_epoch + 1)]
    weights = average_state_dicts([os.path.join(args.out, f"epoch{e}.pt") for e in epochs]) if epochs else model.state_dict()
    torch.save(weights, os.path.join(args.out, "model.pt"))
    summary = {
        "parameters": n_params,
        "epochs": state["epoch"],
        "steps": state["step"],
        "averaged_epochs": epochs,
        "best": state["best"],
        "train_seconds": round(state["train_seconds"]),
        "device": torch.cuda.get_device_name() if device == "cuda" else f"CPU ({platform.processor() or platform.machine()}), {args.threads} threads",
        "torch": torch.__version__,
    }
    json.dump(summary, open(os.path.join(args.out, "summary.json"), "w"), indent=2)
    print(json.dumps(summary), flush=True)


if __name__ == "__main__":
    main()
