#!/usr/bin/env python3
"""Deduplicate and split ManyThings/Tatoeba English-German into train, dev and test.

  python3 models/prepare_tatoeba.py --data ../shared/data --out build/data/tatoeba

Reads tatoeba-deu-eng/deu.txt.gz (English<TAB>German per line) and writes {train,dev,test}.{en,de}.gz
under --out, the layout models/train.py reads (a config names them "tatoeba/train", ...).

The file has many near-duplicates ("Tom is here." / "Tom's here." / "tom is here"): pairs are
deduplicated by their normalized source and target (NFKC, case-folded, punctuation removed, spaces
collapsed). Dev and test must share no sentence with the training data, so pairs are grouped by
connected components over shared normalized sentences (a pair joins every pair with its English or
its German sentence) and whole groups are assigned to one split; groups that contain a sentence of
Multi30k's training data, and groups larger than --max-group pairs, stay in train. The split is
seeded and deterministic. Prints the counts as JSON and fails if any sentence crosses splits.
"""
import argparse
import gzip
import json
import os
import random
import re
import unicodedata

PUNCTUATION = re.compile(r"[^\w\s]", re.UNICODE)


def normalize(text):
    """The deduplication key of a sentence: NFKC, case-folded, no punctuation, single spaces."""
    text = unicodedata.normalize("NFKC", text).casefold()
    return " ".join(PUNCTUATION.sub(" ", text).split())


def read_gz_lines(path):
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return [line.rstrip("\n") for line in f]


class DisjointSets:
    def __init__(self):
        self.parent = {}

    def find(self, x):
        self.parent.setdefault(x, x)
        root = x
        while self.parent[root] != root:
            root = self.parent[root]
        while self.parent[x] != root:
            self.parent[x], x = root, self.parent[x]
        return root

    def union(self, a, b):
        self.parent[self.find(a)] = self.find(b)


def prepare(args):
    """Deduplicates and splits deu.txt.gz into args.out/{train,dev,test}.{en,de}.gz; returns the counts."""
    pairs, seen = [], set()
    raw = read_gz_lines(os.path.join(args.data, "tatoeba-deu-eng", "deu.txt.gz"))
    for line in raw:
        fields = line.split("\t")
        if len(fields) < 2 or not fields[0].strip() or not fields[1].strip():
            continue
        en, de = fields[0].strip(), fields[1].strip()
        key = (normalize(en), normalize(de))
        if key in seen:
            continue
        seen.add(key)
        pairs.append((en, de, key))

    # Connected components: pair i is linked to its normalized English ("en:") and German ("de:") sentences.
    sets = DisjointSets()
    for i, (_, _, (en_key, de_key)) in enumerate(pairs):
        sets.union(("pair", i), ("en", en_key))
        sets.union(("pair", i), ("de", de_key))
    groups = {}
    for i in range(len(pairs)):
        groups.setdefault(sets.find(("pair", i)), []).append(i)
    multi30k = set()
    for lang in ("en", "de"):
        multi30k.update((lang, normalize(s)) for s in read_gz_lines(os.path.join(args.data, "multi30k", f"train.{lang}.gz")))

    def eligible(members):
        if len(members) > args.max_group:
            return False
        return not any(("en", pairs[i][2][0]) in multi30k or ("de", pairs[i][2][1]) in multi30k for i in members)

    order = sorted(groups.values(), key=lambda g: g[0])
    random.Random(args.seed).shuffle(order)
    split = {"dev": [], "test": [], "train": []}
    for members in order:
        if eligible(members) and len(split["test"]) < args.test:
            split["test"] += members
        elif eligible(members) and len(split["dev"]) < args.dev:
            split["dev"] += members
        else:
            split["train"] += members

    # No normalized sentence of dev or test may occur in train (Tatoeba's or Multi30k's).
    train_sentences = {("en", pairs[i][2][0]) for i in split["train"]} | {("de", pairs[i][2][1]) for i in split["train"]}
    train_sentences |= multi30k
    for name in ("dev", "test"):
        for i in split[name]:
            if ("en", pairs[i][2][0]) in train_sentences or ("de", pairs[i][2][1]) in train_sentences:
                raise AssertionError(f"{name} pair {pairs[i][:2]} shares a sentence with the training data")

    os.makedirs(args.out, exist_ok=True)
    for name, members in split.items():
        members.sort()
        for lang, column in (("en", 0), ("de", 1)):
            with gzip.open(os.path.join(args.out, f"{name}.{lang}.gz"), "wt", encoding="utf-8") as f:
                f.writelines(pairs[i][column] + "\n" for i in members)
    return {"lines": len(raw), "unique_pairs": len(pairs), "groups": len(groups),
            **{name: len(members) for name, members in split.items()}}


def add_arguments(ap):
    ap.add_argument("--dev", type=int, default=2000, help="Tatoeba dev pairs (at least)")
    ap.add_argument("--test", type=int, default=2000, help="Tatoeba test pairs (at least)")
    ap.add_argument("--max-group", type=int, default=8, help="larger groups of related Tatoeba pairs stay in train")
    ap.add_argument("--seed", type=int, default=1)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default="../shared/data")
    ap.add_argument("--out", default="build/data/tatoeba")
    add_arguments(ap)
    print(json.dumps(prepare(ap.parse_args())))


if __name__ == "__main__":
    main()
