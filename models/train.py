#!/usr/bin/env python3
"""Train an encoder-decoder Transformer translation model from a config.

  python3 models/train.py --config models/configs/multi30k-en-de.json --data ../shared/data --out build/train/multi30k-en-de

Uses the config's joint SentencePiece vocabulary (data.spm, made by prepare_general.py) or trains one
on the training text, then trains the model with Adam, label smoothing and the inverse square-root
schedule of Vaswani et al. 2017 (section 5.3). Evaluates every training.eval_every updates (or at each
epoch's end): validation cross-entropy and, for each set in data.bleu, greedy BLEU; each evaluation's
weights are kept, and training stops early when the selection metric (BLEU on data.bleu's "dev" set if
given, else validation loss) has not improved for `patience` evaluations. The result is model.pt:
the average of the last `average_last` evaluations' weights up to the best one (checkpoint averaging).

Resumable: checkpoint.pt (weights, optimizer, schedule, data position) is written at every evaluation,
every --checkpoint-minutes and at the end; the same command continues from it. --compact PATH also
writes a small checkpoint (fp16 weights and the run's state, no optimizer) meant to be committed, so a
run survives onto a new machine: --resume-from PATH starts from it, re-warming the learning rate over
training.rewarm_steps updates while Adam's moments rebuild. --init-from PATH instead starts a new run
(step 0, fresh schedule) from a compact checkpoint's weights and vocabulary: the reverse direction of a
trained run warm-starts this way, as both directions share one vocabulary and tied embeddings.

Uses a CUDA GPU when present; --amp bf16 trains in bf16 mixed precision (autocast, fp32 master weights)
on CUDA or on a CPU with native bf16 dot products (AVX512-BF16, AMX), where an update takes about 0.6 of
the fp32 time; under torchrun (DDP, one process per
GPU, detected from the environment) each process takes every WORLD_SIZE-th batch and rank 0 evaluates,
logs and saves. The log is OUT/train.log.jsonl, one JSON line per evaluation (step, hours, losses, BLEU).
"""
import argparse
import collections
import contextlib
import gzip
import hashlib
import json
import os
import platform
import random
import shutil
import sys
import time

import sentencepiece as spm
import torch
import torch.distributed as dist
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from evaluation import corpus_bleu, greedy_translate  # noqa: E402
from model_file import average_state_dicts  # noqa: E402
from transformer import Transformer  # noqa: E402


def read_lines(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        return [line.rstrip("\n") for line in f]


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
    """Source ids + eos; target bos + ids + eos. Pairs longer than max_len tokens are dropped.
    Returns (pairs, kept): kept [len(pairs)] is each pair's line index in src/tgt."""
    pairs, kept = [], []
    for k, (s, t) in enumerate(zip(sp.encode(src), sp.encode(tgt))):
        s, t = s + [m["eos_id"]], [m["bos_id"]] + t + [m["eos_id"]]
        if len(s) <= max_len and len(t) <= max_len:
            pairs.append((s, t))
            kept.append(k)
    return pairs, kept


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


def collate(pairs, idx, pad_id, device, links=None):
    """Padded tensors src [B, S], tgt_in [B, T-1], tgt_out [B, T-1], and with links (a Pharaoh line of
    piece links per pair) the guided-alignment targets [B, T-1, S], else None."""
    s_len = max(len(pairs[i][0]) for i in idx)
    t_len = max(len(pairs[i][1]) for i in idx)
    src = torch.full((len(idx), s_len), pad_id, dtype=torch.long)
    tgt = torch.full((len(idx), t_len), pad_id, dtype=torch.long)
    for row, i in enumerate(idx):
        s, t = pairs[i]
        src[row, : len(s)] = torch.tensor(s)
        tgt[row, : len(t)] = torch.tensor(t)
    aln = None if links is None else alignment_targets([links[i] for i in idx], t_len - 1, s_len).to(device)
    return src.to(device), tgt[:, :-1].to(device), tgt[:, 1:].to(device), aln


def alignment_targets(lines, t_len, s_len):
    """Guided-alignment targets [B, T, S] from Pharaoh piece links "i-j" (source piece i, target piece j):
    row j spreads probability 1 evenly over the source pieces target piece j links to; rows of unlinked
    pieces (and eos) stay zero. Target piece j is what decoder step j predicts (tgt_out[j])."""
    rows, tgt, src = [], [], []  # one indexed write: per-link writes took 10x as long (39 ms a 5,000-link batch)
    for row, line in enumerate(lines):
        for link in line.split():
            i, _, j = link.partition("-")
            rows.append(row)
            tgt.append(int(j))
            src.append(int(i))
    aln = torch.zeros(len(lines), t_len, s_len)
    aln[torch.tensor(rows, dtype=torch.long), torch.tensor(tgt, dtype=torch.long), torch.tensor(src, dtype=torch.long)] = 1.0
    return aln / aln.sum(-1, keepdim=True).clamp(min=1.0)


def loss_fn(model, batch, m, label_smoothing, guided_weight=0.0):
    """Summed label-smoothed cross-entropy over the target tokens, plus guided_weight times the
    guided-alignment cross-entropy -sum aln * log(attention) of the head m["alignment_layer"],
    m["alignment_head"] (Garg et al. 2019, eq. 6; Marian's guided-alignment-cost "ce").
    Returns (loss, target tokens, the alignment term alone)."""
    src, tgt_in, tgt_out, aln = batch
    guided = guided_weight > 0 and aln is not None
    logits, cross = model(src, tgt_in, with_cross_attention=True) if guided else (model(src, tgt_in), None)  # [B, T, V]
    loss = F.cross_entropy(
        logits.reshape(-1, logits.shape[-1]).float(),
        tgt_out.reshape(-1),
        ignore_index=m["pad_id"],
        label_smoothing=label_smoothing,
        reduction="sum",
    )
    aln_loss = torch.zeros(())
    if guided:
        attention = cross[m["alignment_layer"]][:, m["alignment_head"]]  # [B, T, S]
        aln_loss = -(aln * torch.log(attention + 1e-6)).sum()
        loss = loss + guided_weight * aln_loss
    return loss, int((tgt_out != m["pad_id"]).sum()), float(aln_loss.detach())


@torch.no_grad()
def valid_loss(model, pairs, m, device, batch_tokens):
    model.eval()
    total, n = 0.0, 0
    for idx in make_batches(pairs, batch_tokens, random.Random(0)):
        loss, tokens, _ = loss_fn(model, collate(pairs, idx, m["pad_id"], device), m, 0.0)
        total, n = total + float(loss), n + tokens
    model.train()
    return total / n


def read_set(path_prefix, lang):
    """Lines of PREFIX.LANG.gz or PREFIX.LANG."""
    return read_lines(path_prefix + f".{lang}.gz" if os.path.exists(path_prefix + f".{lang}.gz") else path_prefix + f".{lang}")


def cpu_has_bf16():
    """Whether this CPU computes bf16 natively (AVX512-BF16 or AMX); without it, PyTorch's CPU autocast
    emulates bf16 and trains far slower than fp32 (general-en-de on a shared 2-core AMD EPYC without
    AVX-512: about 1 update a minute in bf16, 30 in fp32)."""
    try:
        flags = open("/proc/cpuinfo", encoding="utf-8").read()
    except OSError:
        return True  # not Linux: leave the choice to the user
    return "avx512_bf16" in flags or "amx_bf16" in flags


def distributed():
    """(rank, world_size, local_rank) under torchrun, else (0, 1, 0)."""
    if "WORLD_SIZE" not in os.environ:
        return 0, 1, 0
    dist.init_process_group("nccl" if torch.cuda.is_available() else "gloo")
    return dist.get_rank(), dist.get_world_size(), int(os.environ.get("LOCAL_RANK", 0))


Process = collections.namedtuple("Process", "rank world local_rank device main")


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--config", required=True)
    ap.add_argument("--data", default="../shared/data", help="the shared data folder (default ../shared/data)")
    ap.add_argument("--prepared", default="build/data",
                    help="folder with corpora our scripts make (prepare_tatoeba.py, prepare_general.py)")
    ap.add_argument("--out", required=True, help="run folder: tokenizer, checkpoints, log, model.pt")
    ap.add_argument("--max-steps", type=int, default=0, help="stop after this many updates (smoke runs)")
    ap.add_argument("--max-minutes", type=float, default=0,
                    help="checkpoint and stop once the run's training time, earlier sessions included, passes this")
    ap.add_argument("--max-epochs", type=int, default=0, help="stop after this many epochs (default: the config's)")
    ap.add_argument("--checkpoint-minutes", type=float, default=10, help="write checkpoint.pt this often")
    ap.add_argument("--compact", help="also write the compact checkpoint (fp16 weights + state) here")
    ap.add_argument("--resume-from", help="start from this compact checkpoint when --out has no checkpoint.pt")
    ap.add_argument("--init-from", help="start a new run from this compact checkpoint's weights and vocabulary "
                    "(e.g. the reverse direction's run) when --out has no checkpoint.pt")
    ap.add_argument("--amp", choices=["none", "bf16"], default="none", help="bf16 mixed precision (CUDA, or CPUs with AVX512-BF16/AMX)")
    ap.add_argument("--threads", type=int, default=os.cpu_count())
    ap.add_argument("--set", action="append", default=[], metavar="SECTION.KEY=VALUE",
                    help="override a config value, e.g. --set training.batch_tokens=25000 (a GPU's batch); repeatable")
    return ap.parse_args()


def load_config(args):
    """The config file with each --set SECTION.KEY=VALUE and --max-epochs applied. Raises SystemExit on a
    --set outside model, training and data, or guided alignment without its data and head."""
    cfg = json.load(open(args.config))
    for assignment in args.set:
        key, _, value = assignment.partition("=")
        section, _, name = key.partition(".")
        if section not in ("model", "training", "data") or not name:
            raise SystemExit(f"--set {assignment}: expected model.KEY, training.KEY or data.KEY")
        try:  # numbers, booleans, JSON, or a bare string
            parsed = json.loads(value)
        except ValueError:
            parsed = value
        cfg[section][name] = type(cfg[section][name])(parsed) if name in cfg[section] else parsed
    m, tr, data = cfg["model"], cfg["training"], cfg["data"]
    if tr.get("guided_alignment_weight", 0.0) > 0 and not (
            0 <= m.get("alignment_layer", -1) < m["decoder_layers"]
            and 0 <= m.get("alignment_head", -1) < m["n_heads"] and "alignment" in data):
        raise SystemExit("guided alignment needs data.alignment and model.alignment_layer/alignment_head naming a "
                         "decoder layer and head")
    if args.max_epochs:
        tr["max_epochs"] = args.max_epochs
    return cfg


def set_up_process(args, cfg):
    """Joins torchrun's process group if any, writes OUT/config.json (the config as run, --set included:
    export.py reads it) from rank 0, sets the threads and the device, and seeds Python and PyTorch."""
    rank, world, local_rank = distributed()
    process = Process(rank, world, local_rank, f"cuda:{local_rank}" if torch.cuda.is_available() else "cpu", rank == 0)
    os.makedirs(args.out, exist_ok=True)
    if process.main:
        with open(os.path.join(args.out, "config.json"), "w") as f:
            json.dump(cfg, f, indent=2)
    torch.set_num_threads(args.threads)
    if process.device != "cpu":
        torch.cuda.set_device(process.device)
    random.seed(cfg["training"]["seed"])
    torch.manual_seed(cfg["training"]["seed"])
    return process


def corpus_root(args, src_lang, prefix):
    """PREFIX in the shared data when it is there, else in our prepared corpora."""
    shared = os.path.join(args.data, prefix)
    return shared if any(os.path.exists(f"{shared}.{src_lang}{ext}") for ext in (".gz", "")) \
        else os.path.join(args.prepared, prefix)


def read_corpora(args, cfg):
    """Lines (train_src, train_tgt, valid_src, valid_tgt) of data.train's sets and data.valid."""
    src_lang, tgt_lang, data = cfg["source_lang"], cfg["target_lang"], cfg["data"]
    train_src, train_tgt = [], []
    for prefix in data["train"]:
        train_src += read_set(corpus_root(args, src_lang, prefix), src_lang)
        train_tgt += read_set(corpus_root(args, src_lang, prefix), tgt_lang)
    valid_src, valid_tgt = (read_set(corpus_root(args, src_lang, data["valid"]), lang) for lang in (src_lang, tgt_lang))
    return train_src, train_tgt, valid_src, valid_tgt


def read_bleu_sets(args, cfg):
    """{name: (source lines, reference lines)} of data.bleu, the first bleu_sentences of each."""
    src_lang, tgt_lang = cfg["source_lang"], cfg["target_lang"]
    n_bleu = cfg["training"].get("bleu_sentences", 500)
    return {name: tuple(read_set(corpus_root(args, src_lang, prefix), lang)[:n_bleu] for lang in (src_lang, tgt_lang))
            for name, prefix in cfg["data"].get("bleu", {}).items()}


def read_compact(args, ckpt_path):
    """The compact checkpoint of --resume-from or --init-from when OUT has no checkpoint.pt, else None."""
    if args.resume_from and args.init_from:
        raise SystemExit("--resume-from continues a run, --init-from starts one: give one of them")
    start_from = args.resume_from or args.init_from
    return None if os.path.exists(ckpt_path) or not start_from else torch.load(start_from, map_location="cpu")


def prepare_vocabulary(args, cfg, compact, corpora, process):
    """OUT/spm.model, made once by rank 0: the compact checkpoint's, data.spm (shared by both directions),
    or one trained on the training text. Returns its path once every process can read it."""
    spm_path = os.path.join(args.out, "spm.model")
    if process.main and not os.path.exists(spm_path):
        if compact is not None:  # the vocabulary the compact checkpoint's weights were trained with
            open(spm_path, "wb").write(compact["spm"])
        elif "spm" in cfg["data"]:  # the shared vocabulary of both directions
            shutil.copyfile(os.path.join(args.prepared, cfg["data"]["spm"]), spm_path)
        else:
            train_sentencepiece(corpora[0] + corpora[1], spm_path[: -len(".model")], cfg["model"])
    if process.world > 1:
        dist.barrier()
    return spm_path


def alignment_links_path(args, cfg, spm_path):
    """The path of data.alignment's piece links when training with guided alignment, else None.
    Raises SystemExit when the file is missing, with the command that makes it."""
    if cfg["training"].get("guided_alignment_weight", 0.0) <= 0:
        return None
    links_path = os.path.join(args.prepared, cfg["data"]["alignment"])
    if not os.path.exists(links_path):
        src_lang, tgt_lang = cfg["source_lang"], cfg["target_lang"]
        raise SystemExit(f"{links_path} is missing: make it with this run's vocabulary, e.g. /usr/bin/python3 "
                         f"models/ibm2_align.py --spm {spm_path} --src TRAIN.{src_lang}.gz --tgt TRAIN.{tgt_lang}.gz "
                         f"--out {links_path} (the files of data.train)")
    return links_path


def load_tokenizer(spm_path, m):
    sp = spm.SentencePieceProcessor(model_file=spm_path)
    if sp.get_piece_size() != m["vocab_size"]:
        raise ValueError(f"tokenizer has {sp.get_piece_size()} pieces, config says {m['vocab_size']}")
    return sp


def encode_data(sp, cfg, corpora, links_path):
    """(train pairs, valid pairs, links): links holds the piece links of each kept training pair (made by
    ibm2_align.py with this vocabulary) when links_path is given, else None."""
    train_src, train_tgt, valid_src, valid_tgt = corpora
    m = cfg["model"]
    train, train_lines = encode_pairs(sp, train_src, train_tgt, m, m["max_positions"])
    valid, _ = encode_pairs(sp, valid_src, valid_tgt, m, m["max_positions"])
    if links_path is None:
        return train, valid, None
    all_links = read_lines(links_path)
    if len(all_links) != len(train_src):
        raise ValueError(f"{cfg['data']['alignment']} has {len(all_links)} lines, the training data {len(train_src)}")
    return train, valid, [all_links[k] for k in train_lines]


class Run:
    """One training run: its model, optimizer, data and state, and the steps of training it."""

    def __init__(self, args, cfg, process, sp, spm_path, data, bleu_sets):
        self.args, self.cfg, self.process = args, cfg, process
        self.m, self.tr = cfg["model"], cfg["training"]
        self.guided_weight = self.tr.get("guided_alignment_weight", 0.0)
        self.sp, self.spm_path = sp, spm_path
        self.train, self.valid, self.links = data
        self.bleu_sets = bleu_sets
        self.ckpt_path = os.path.join(args.out, "checkpoint.pt")
        self.build_model()
        # The data position (epoch, batch_in_epoch) only means something on the same data and batch size.
        self.fingerprint = hashlib.sha1(repr((self.tr["batch_tokens"], len(self.train), self.train[:1000],
                                              self.train[-1000:])).encode()).hexdigest()
        self.state = {"step": 0, "epoch": 0, "batch_in_epoch": 0, "train_seconds": 0.0, "history": [], "best": None,
                      "bad_evals": 0, "rewarm_from": None}
        self.log = None

    def build_model(self):
        """The Transformer, AdamW, the DDP wrapper under torchrun, and the autocast context of --amp."""
        device, tr = self.process.device, self.tr
        self.model = Transformer(self.m).to(device)
        self.opt = torch.optim.AdamW(self.model.parameters(), lr=tr["lr"], betas=(0.9, 0.98), eps=1e-9,
                                     weight_decay=tr["weight_decay"])
        self.ddp = torch.nn.parallel.DistributedDataParallel(
            self.model, device_ids=[self.process.local_rank] if device != "cpu" else None) \
            if self.process.world > 1 else self.model
        if self.args.amp == "bf16" and device == "cpu" and not cpu_has_bf16():
            print("warning: this CPU has no native bf16 (AVX512-BF16 or AMX): --amp bf16 runs emulated, several "
                  "times slower than fp32; leave --amp out here", flush=True)
        self.autocast = torch.autocast("cuda" if device != "cpu" else "cpu", dtype=torch.bfloat16) \
            if self.args.amp == "bf16" else contextlib.nullcontext()

    def restore(self, compact):
        """Continues from OUT/checkpoint.pt, else starts from the compact checkpoint (--resume-from keeps its
        state and re-warms; --init-from takes its weights only); then checks the data position still applies."""
        state, args = self.state, self.args
        if os.path.exists(self.ckpt_path):
            ckpt = torch.load(self.ckpt_path, map_location="cpu")
            self.model.load_state_dict(ckpt["model"])
            self.opt.load_state_dict(ckpt["optimizer"])
            state.update(ckpt["state"])
            print(f"resumed at epoch {state['epoch']} step {state['step']}", flush=True)
        elif compact is not None:
            self.model.load_state_dict({k: v.float() for k, v in compact["model"].items()})
            if args.resume_from:
                state.update(compact["state"], rewarm_from=compact["state"]["step"])
                print(f"resumed from compact {args.resume_from} at step {state['step']}, re-warming", flush=True)
            else:
                print(f"initialised from {args.init_from} (trained {compact['config']['source_lang']}->"
                      f"{compact['config']['target_lang']}, {compact['state']['step']} updates)", flush=True)
        if state.get("data", self.fingerprint) != self.fingerprint:
            print("warning: the training data or batch size differs from the run's: the data position restarts "
                  "at this epoch's beginning", flush=True)
            state["batch_in_epoch"] = 0
        state["data"] = self.fingerprint

    def lr_at(self, step):
        """Inverse square-root schedule with linear warmup, peaking at tr["lr"]; after a resume from a
        compact checkpoint (no optimizer state) it ramps up again over tr["rewarm_steps"] updates."""
        tr = self.tr
        lr = tr["lr"] * min(step / tr["warmup_steps"], (tr["warmup_steps"] / max(step, 1)) ** 0.5)
        if self.state["rewarm_from"] is not None:
            lr *= min(1.0, (step - self.state["rewarm_from"]) / tr.get("rewarm_steps", 500))
        return lr

    def save_checkpoint(self):
        """OUT/checkpoint.pt and, with --compact, the compact checkpoint; rank 0 only."""
        if not self.process.main:
            return
        model, ckpt_path, compact = self.model, self.ckpt_path, self.args.compact
        torch.save({"model": model.state_dict(), "optimizer": self.opt.state_dict(), "state": self.state},
                   ckpt_path + ".tmp")
        os.replace(ckpt_path + ".tmp", ckpt_path)
        if compact:
            os.makedirs(os.path.dirname(os.path.abspath(compact)), exist_ok=True)
            small = {"model": {k: v.half() for k, v in model.state_dict().items()}, "state": self.state,
                     "config": self.cfg, "spm": open(self.spm_path, "rb").read()}
            torch.save(small, compact + ".tmp")
            os.replace(compact + ".tmp", compact)

    def evaluate(self, train_loss, alignment_loss, name):
        """Validation loss and BLEU; keeps the weights as `name`; returns True when training should stop.
        Losses are per target token over the updates since the last evaluation."""
        state, model, device = self.state, self.model, self.process.device
        record = {"step": state["step"], "epoch": state["epoch"], "hours": round(state["train_seconds"] / 3600, 3),
                  "train_loss": round(train_loss, 4),
                  "valid_loss": round(valid_loss(model, self.valid, self.m, device, self.tr["batch_tokens"]), 4)}
        if self.guided_weight:
            record["alignment_loss"] = round(alignment_loss, 4)
        for set_name, (src_lines, ref_lines) in self.bleu_sets.items():
            record[f"bleu_{set_name}"] = corpus_bleu(greedy_translate(model, self.sp, src_lines, self.m, device), ref_lines)
        record["weights"] = name
        torch.save(model.state_dict(), os.path.join(self.args.out, name))
        metric = record["bleu_dev"] if "dev" in self.bleu_sets else -record["valid_loss"]
        improved = state["best"] is None or metric > state["best"]["metric"]
        if improved:
            state["best"] = {"metric": metric, "weights": name, "step": state["step"]}
        state["bad_evals"] = 0 if improved else state["bad_evals"] + 1
        state["history"].append(record)
        self.log.write(json.dumps(record) + "\n")
        self.log.flush()
        print(json.dumps(record), flush=True)
        return state["bad_evals"] >= self.tr["patience"]

    def agree(self, stop):
        """Rank 0's decision to stop early, known to every process (the others do not evaluate)."""
        if self.process.world == 1:
            return bool(stop)
        flag = torch.tensor([1.0 if stop else 0.0], device=self.process.device)
        dist.broadcast(flag, 0)
        return bool(flag.item())

    def evaluate_window(self, name, least_tokens):
        """Evaluates on the losses since the last evaluation (each divided by at least least_tokens tokens),
        agrees on stopping early, starts a new window and saves the checkpoint."""
        tokens = max(self.window_tokens, least_tokens)
        self.early_stop = self.agree(self.process.main and self.evaluate(self.window_loss / tokens,
                                                                         self.window_aln / tokens, name))
        self.window_loss, self.window_tokens, self.window_aln = 0.0, 0, 0.0
        self.save_checkpoint()

    def budget_spent(self):
        """--max-steps or --max-minutes reached; both count over resumes."""
        args = self.args
        return bool((args.max_steps and self.state["step"] >= args.max_steps)
                    or (args.max_minutes and self.state["train_seconds"] > args.max_minutes * 60))

    def update(self, idx):
        """One optimizer step on the training pairs idx; adds its losses to the window."""
        state = self.state
        state["step"] += 1
        for group in self.opt.param_groups:
            group["lr"] = self.lr_at(state["step"])
        with self.autocast:
            loss, tokens, aln_loss = loss_fn(self.ddp, collate(self.train, idx, self.m["pad_id"], self.process.device,
                                                               self.links),
                                             self.m, self.tr["label_smoothing"], self.guided_weight)
        self.opt.zero_grad(set_to_none=True)
        (loss / tokens).backward()
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
        self.opt.step()
        self.window_loss, self.window_tokens = self.window_loss + float(loss) - self.guided_weight * aln_loss, \
            self.window_tokens + tokens
        self.window_aln += aln_loss

    def train_epoch(self):
        """The epoch's batches from the data position on, each process taking every world-th; evaluates
        every eval_every updates and checkpoints every --checkpoint-minutes. Stops on the budget or early."""
        state, world = self.state, self.process.world
        batches = make_batches(self.train, self.tr["batch_tokens"], random.Random(self.tr["seed"] * 1000 + state["epoch"]))
        batches = batches[: len(batches) - len(batches) % world]
        for b in range(state["batch_in_epoch"], len(batches), world):
            self.update(batches[b + self.process.rank])
            state["batch_in_epoch"] = b + world
            state["train_seconds"] = time.time() - self.start
            if state["step"] % 100 == 0 and self.process.main:
                print(f"epoch {state['epoch']} step {state['step']} loss {self.window_loss / self.window_tokens:.3f} "
                      + (f"alignment loss {self.window_aln / self.window_tokens:.3f} " if self.guided_weight else "")
                      + f"{state['train_seconds']:.0f}s", flush=True)
            if self.tr.get("eval_every") and state["step"] % self.tr["eval_every"] == 0:
                self.evaluate_window(f"step{state['step']}.pt", 0)
                self.last_save = time.time()
            elif time.time() - self.last_save > self.args.checkpoint_minutes * 60:
                self.save_checkpoint()
                self.last_save = time.time()
            self.stopped = self.budget_spent()
            if self.stopped or self.early_stop:
                break

    def run(self):
        """Trains epoch by epoch until max_epochs, the budget (--max-steps, --max-minutes) or early stopping."""
        self.log = open(os.path.join(self.args.out, "train.log.jsonl"), "a") if self.process.main else None
        self.n_params = sum(p.numel() for p in self.model.parameters())
        if self.process.main:
            print(f"{len(self.train)} training pairs, {self.n_params} parameters, device {self.process.device} x "
                  f"{self.process.world}, {self.args.threads} threads", flush=True)
        self.start = time.time() - self.state["train_seconds"]
        self.last_save = time.time()
        self.stopped, self.early_stop = self.budget_spent(), False  # a resume whose budget is spent trains no further update
        self.window_loss, self.window_tokens, self.window_aln = 0.0, 0, 0.0
        while self.state["epoch"] < self.tr["max_epochs"] and not self.stopped and not self.early_stop:
            self.train_epoch()
            if self.stopped or self.early_stop:
                break
            self.state["epoch"] += 1
            self.state["batch_in_epoch"] = 0
            if not self.tr.get("eval_every"):
                self.evaluate_window(f"epoch{self.state['epoch']}.pt", 1)

    def finish(self):
        """The last checkpoint; then, on rank 0 unless --max-minutes stopped the run, model.pt and summary.json."""
        self.state["train_seconds"] = time.time() - self.start
        self.save_checkpoint()
        if self.process.world > 1:
            dist.destroy_process_group()
        if not self.process.main:
            return
        if self.stopped and not self.args.max_steps:
            print("stopped on --max-minutes; run again with the same --out to continue", flush=True)
            return
        averaged = self.write_model()
        self.write_summary(averaged)

    def write_model(self):
        """OUT/model.pt: the best evaluation's weights averaged with those of the average_last - 1
        evaluations just before it, where still on disk. Returns the names averaged."""
        out, state = self.args.out, self.state
        names = [r["weights"] for r in state["history"]]
        best = names.index(state["best"]["weights"]) if state["best"] else len(names) - 1
        averaged = [n for n in names[max(0, best - self.tr["average_last"] + 1): best + 1]
                    if os.path.exists(os.path.join(out, n))]
        weights = average_state_dicts([os.path.join(out, n) for n in averaged]) if averaged else self.model.state_dict()
        torch.save(weights, os.path.join(out, "model.pt"))
        return averaged

    def write_summary(self, averaged):
        state, args, device = self.state, self.args, self.process.device
        summary = {
            "parameters": self.n_params,
            "epochs": state["epoch"],
            "steps": state["step"],
            "averaged": averaged,
            "best": state["best"],
            "train_seconds": round(state["train_seconds"]),
            "device": (f"{self.process.world} x {torch.cuda.get_device_name()}" if device != "cpu"
                       else f"CPU ({platform.processor() or platform.machine()}), {args.threads} threads"),
            "precision": "bf16 autocast" if args.amp == "bf16" else "fp32",
            "torch": torch.__version__,
        }
        json.dump(summary, open(os.path.join(args.out, "summary.json"), "w"), indent=2)
        print(json.dumps(summary), flush=True)


def main():
    args = parse_args()
    cfg = load_config(args)
    process = set_up_process(args, cfg)
    corpora = read_corpora(args, cfg)
    compact = read_compact(args, os.path.join(args.out, "checkpoint.pt"))
    spm_path = prepare_vocabulary(args, cfg, compact, corpora, process)
    links_path = alignment_links_path(args, cfg, spm_path)
    sp = load_tokenizer(spm_path, cfg["model"])
    data = encode_data(sp, cfg, corpora, links_path)
    run = Run(args, cfg, process, sp, spm_path, data, read_bleu_sets(args, cfg))
    run.restore(compact)
    run.run()
    run.finish()


if __name__ == "__main__":
    main()
