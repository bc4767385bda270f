#!/usr/bin/env python3
"""The general-domain English-German training corpus: every source cleaned, deduplicated, held-out
sentences removed, weighted by domain, and the joint SentencePiece vocabulary trained on it.

  /usr/bin/python3 models/prepare_general.py --data ../shared/data --out build/data

Reads parallel-en-de/*.tsv.gz and tatoeba-deu-eng/ (Tatoeba's own train split, made first by
prepare_tatoeba.py into OUT/tatoeba), and writes OUT/general/:
  train.{en,de}.gz        the weighted mixture, in the layout models/train.py reads ("general/train")
  finetune.{en,de}.gz     the fine-tuning phase's mixture, weighted towards sentence-level general text
  everyday.{en,de}.gz     a short last phase's mixture, weighted towards everyday sentences
  dev.{en,de}.gz          newstest2017 (held out of training; early stopping and checkpoint choice)
  newstest2018.{en,de}.gz held out too, a test set for the model cards
  spm-N.model             joint unigram SentencePiece models, one per --vocab-sizes entry
  report.md, report.json  what each filter dropped per source, what was kept, and each source's weight
and prints the report table.

Cleaning follows the habit of Mozilla's translations pipeline: each pair passes a list of named
filters, and every filter's drops are counted per source. Multi30k is research-only: it is left out
unless --with-multi30k is given, and a model trained with it must say so on its card.
"""
import argparse
import gzip
import json
import math
import os
import random
import re
import sys
import unicodedata

import sentencepiece as spm

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import prepare_tatoeba  # noqa: E402
from prepare_tatoeba import normalize, read_gz_lines  # noqa: E402

# The mixtures written, in their order in SOURCES' weights: (file prefix, what it is for). Each has its
# own seeded generator, so adding a mixture leaves the others byte for byte as they were.
MIXTURES = [("train", "main phase"), ("finetune", "fine-tuning"), ("everyday", "everyday phase")]

# (file stem, domain, (main, fine-tuning, everyday) weights). Earlier sources win deduplication, so
# the general-domain ones come first. A weight w repeats each kept pair floor(w) times and once more
# with probability frac(w) (seeded). The fine-tuning weights make the second phase's mixture:
# sentence-level general-domain text first, a little of everything else so the model does not forget
# it (mixed fine-tuning, Chu et al. 2017, "An Empirical Comparison of Domain Adaptation Methods for
# NMT"). The everyday weights make a short last phase for a model whose general-domain quality is
# there but whose everyday grammar slips (general-en-de's "Ich habe nicht gut schlafen."): the
# conversational sources (Tatoeba, Ding's example sentences, chat) up to about two thirds of the
# mixture, the general-domain ones kept at about a third.
SOURCES = [
    ("wmt-newstest-2008-2018", "news", (3.0, 2.0, 1.5)),
    ("wmt-generaltest-2023-2024", "news, social, speech", (3.0, 2.0, 1.5)),
    ("mlqe-pe", "Wikipedia", (3.0, 2.0, 1.5)),
    ("xquad", "Wikipedia", (3.0, 2.0, 1.5)),
    # Added 2026-11-27, weighted by the shipped models' reading of a sample (tools/source-survey.js;
    # general-en-de's card, "Sources added on 2026-11-27"): general domain, but its CommonCrawl part is
    # noisier than the news sets (cross-entropy 0.8 nats a piece above FLORES dev's): below them.
    ("wmt15-sample", "Europarl, news commentary, web", (2.0, 1.0, 0.5)),
    ("bcontrast", "chat", (2.0, 1.0, 1.0)),
    ("ding-sentences", "everyday examples", (2.0, 1.0, 1.0)),
    ("tatoeba", "everyday (Tatoeba train split)", (1.0, 0.3, 0.5)),
    ("0ad", "game, history", (1.0, 0.5, 0.2)),
    # Game texts added 2026-11-27: as 0ad where the models read them as easily as FLORES dev, less
    # where they read them worse (archaic address, fragments, names).
    ("naev", "game: missions, news, descriptions", (1.0, 0.5, 0.2)),
    ("widelands", "game: scenario story, encyclopedia", (1.0, 0.5, 0.2)),
    ("gcompris", "children's activities: instructions", (1.0, 0.5, 0.2)),
    ("tuxpaint-stamps", "plain short descriptions", (1.0, 0.5, 0.2)),
    ("cataclysm-dda", "game: descriptions, dialogue", (0.7, 0.2, 0.1)),
    ("freedroidrpg", "game: dialogue, item lore", (0.7, 0.2, 0.1)),
    ("wesnoth", "game: fantasy dialogue and narration", (0.7, 0.2, 0.1)),
    ("rustbook", "programming book", (1.0, 0.2, 0.1)),
    ("manuals", "software manuals", (1.0, 0.2, 0.1)),
    ("gnome-kde-help", "desktop help", (1.0, 0.1, 0.05)),
    ("libreoffice-help", "office help", (0.7, 0.1, 0.05)),
    ("mozilla", "browser UI", (0.7, 0.05, 0.02)),
    ("manpages", "Unix manuals", (0.5, 0.05, 0.02)),
    ("git-manpages", "Unix manuals", (0.5, 0.05, 0.02)),
    ("gettext", "software messages", (0.5, 0.05, 0.02)),
    ("freeorion", "game UI", (0.5, 0.05, 0.02)),
    ("ding", "dictionary entries", (0.1, 0.02, 0.01)),
    ("gettext-terms", "software labels", (0.1, 0.02, 0.01)),
]
MULTI30K = ("multi30k", "image captions (research-only licence)", (1.0, 0.3, 0.3))
# Pairs whose English has fewer than 3 words and no final punctuation (labels, single words) get
# at most this weight, whatever their source.
LABEL_WEIGHT = 0.1

# SentencePiece's trainer sums its EM counts per thread, so its pieces' order (the ids) depends on the
# thread count: a fixed count makes the vocabulary the same on every machine (measured: 1 and 2 threads
# give the same pieces, 160 of 4,000 at other ids; the same count twice, the same model).
SPM_THREADS = 4

# News test sets in wmt-newstest-2008-2018.tsv.gz, in file order; each starts at its first line.
HELD_OUT_NEWS = [("newstest2017", "28-Year-Old Chef Found Dead at San Francisco Mall"),
                 ("newstest2018", "Munich 1856: Four maps that will change your view of the city")]

QUOTES = str.maketrans({c: '"' for c in "“”„‟«»″〝〞＂"} | {c: "'" for c in "‘’‚‛‹›′＇"})
INVISIBLE = re.compile("[\u00ad\u200b\u200c\u200d\u2060\ufeff]")
TOKENIZED_PUNCT = re.compile(r" ([,.;:?!)\]%])|([(\[]) ")
MARKUP = re.compile(
    r"<[A-Za-z/!][^>]*>"                              # HTML/XML tags
    r"|&(?:[a-zA-Z]+|#\d+|#x[0-9a-fA-F]+);"            # entities: &amp; &#39;
    r"|%(?:\d+\$)?[-+#0]*\d*(?:\.\d+)?[sdifuxXcpSlz@]"  # printf: %s %1$s %5.2f (not "5 % der")
    r"|%\d+%?|%\([a-z_]+\)[sd]"                        # Qt %1, Boost %1%, Python %(name)s
    r"|\{\d*\}|\{ *\$[\w-]+ *\}"                       # .NET/ICU {0}, Fluent { $count }
    r"|(?<![\w&])[&_](?=[^\W\d_])"                     # mnemonic markers: _File, &Open
    r"|\{[a-z]{1,4}\}|\[(?:Am|Br|ugs|übtr|fig|obs|slang|veraltet|selten)\.?\]"  # dictionary grammar marks
)
EN_WORDS = set("the and of to is are with that this for you not be have from by it which will can your "
               "on at or if when there they we has been would should".split())
DE_WORDS = set("der das und ist nicht mit ein eine zu von den dem des sie ich es auf für sich wird werden "
               "sind auch oder wenn kann nach wie aus im dass einen einer ihr wir".split())


def clean(text, detokenize=False):
    """NFC, straight quotes, no invisible characters, single spaces; `detokenize` undoes the
    space-separated punctuation of tokenized corpora (MLQE-PE)."""
    text = INVISIBLE.sub("", unicodedata.normalize("NFC", text)).translate(QUOTES)
    text = " ".join(text.split())
    return TOKENIZED_PUNCT.sub(lambda m: m.group(1) or m.group(2), text) if detokenize else text


def latin_share(text):
    letters = [c for c in text if c.isalpha()]
    return sum(unicodedata.name(c, "").startswith("LATIN") for c in letters) / len(letters) if letters else 0.0


def language_hits(text):
    words = re.findall(r"[^\W\d_]+", text.lower())
    return sum(w in EN_WORDS for w in words), sum(w in DE_WORDS for w in words)


def wrong_language(en, de):
    """A cheap language test: the stop words of the other language outnumber those of the expected one."""
    en_hits = language_hits(en)
    de_hits = language_hits(de)
    return (en_hits[1] >= 2 and en_hits[1] > en_hits[0]) or (de_hits[0] >= 2 and de_hits[0] > de_hits[1])


# Named filters in the order they are applied: (name, drop(en, de) -> bool).
FILTERS = [
    ("empty", lambda en, de: not en or not de),
    ("too_long", lambda en, de: max(len(en), len(de)) > 400),
    ("markup", lambda en, de: bool(MARKUP.search(en) or MARKUP.search(de))),
    ("same", lambda en, de: en.casefold() == de.casefold()),
    ("length_ratio", lambda en, de: (max(len(en), len(de)) + 15) / (min(len(en), len(de)) + 15) > 2.2),
    ("script", lambda en, de: latin_share(en) < 0.9 or latin_share(de) < 0.9),
    ("language", wrong_language),
]


def is_label(en):
    return len(en.split()) < 3 and not en.rstrip().endswith((".", "!", "?"))


def read_tsv(path):
    with gzip.open(path, "rt", encoding="utf-8") as f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            yield (fields[0], fields[1]) if len(fields) == 2 else ("", "")


def split_news(pairs):
    """wmt-newstest pairs -> (training pairs, {held-out set name: pairs}) cut at HELD_OUT_NEWS anchors."""
    starts = []
    for name, first in HELD_OUT_NEWS:
        at = next((i for i, (en, _) in enumerate(pairs) if en == first), None)
        if at is None:
            raise ValueError(f"wmt-newstest: the first line of {name} ({first!r}) is missing")
        starts.append(at)
    bounds = starts + [len(pairs)]
    held = {name: pairs[bounds[k]:bounds[k + 1]] for k, (name, _) in enumerate(HELD_OUT_NEWS)}
    return pairs[: starts[0]], held


def repeat(pair, weight, generator):
    """The copies of `pair` a mixture gets at `weight`: floor(w), and one more with probability frac(w)
    drawn from `generator`; labels (is_label) at most LABEL_WEIGHT."""
    w = min(weight, LABEL_WEIGHT) if is_label(pair[0]) else weight
    return [pair] * (math.floor(w) + (generator.random() < w - math.floor(w)))


def write_pairs(out_dir, prefix, pairs):
    for lang, column in (("en", 0), ("de", 1)):
        with gzip.open(os.path.join(out_dir, f"{prefix}.{lang}.gz"), "wt", encoding="utf-8") as f:
            f.writelines(p[column] + "\n" for p in pairs)


def report_table(rows):
    names = [name for name, _ in FILTERS]
    head = ["source", "domain", "read", *names, "held_out", "duplicate", "kept"]
    for _, title in MIXTURES:
        head += [f"{title} weight", f"in {title}"]
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * 2 + " ---: |" * (len(head) - 2)]
    counts = ["read", *names, "held_out", "duplicate", "kept"]
    total = {k: 0 for k in counts} | {prefix: 0 for prefix, _ in MIXTURES}
    for r in rows:
        cells = [r["source"], r["domain"], f"{r['read']:,}", *(f"{r['dropped'][n]:,}" for n in names),
                 f"{r['held_out']:,}", f"{r['duplicate']:,}", f"{r['kept']:,}"]
        for prefix, _ in MIXTURES:
            cells += [f"{r['weights'][prefix]:g}", f"{r['copies'][prefix]:,}"]
            total[prefix] += r["copies"][prefix]
        lines.append("| " + " | ".join(cells) + " |")
        for k in counts:
            total[k] += r["dropped"][k] if k in names else r[k]
    lines.append("| **total** | | " + " | ".join(f"{total[k]:,}" for k in counts)
                 + "".join(f" | | {total[prefix]:,}" for prefix, _ in MIXTURES) + " |")
    return "\n".join(lines)


def vocabulary_table(out_dir, sizes, dev_pairs, d_model):
    """Pieces per dev sentence and embedding bytes (int8) for each vocabulary size."""
    lines = ["| vocab_size | pieces per sentence, en | pieces per sentence, de | embedding bytes (int8, d_model "
             f"{d_model}) |", "| ---: | ---: | ---: | ---: |"]
    for size in sizes:
        sp = spm.SentencePieceProcessor(model_file=os.path.join(out_dir, f"spm-{size}.model"))
        en = sum(len(x) for x in sp.encode([p[0] for p in dev_pairs])) / len(dev_pairs)
        de = sum(len(x) for x in sp.encode([p[1] for p in dev_pairs])) / len(dev_pairs)
        lines.append(f"| {size:,} | {en:.1f} | {de:.1f} | {size * d_model:,} |")
    return "\n".join(lines)


def held_out_sets(data, tatoeba_dir, news_held):
    """{set name: [(en, de)]}: every sentence of a dev or test set, which training must not contain."""
    held_out = {name: list(pairs) for name, pairs in news_held.items()}
    flores = os.path.join(data, "flores-dev")
    held_out["flores-dev"] = list(zip(*(open(os.path.join(flores, f"dev.{lang}"), encoding="utf-8").read().splitlines()
                                        for lang in ("en", "de"))))
    for split in ("dev", "test"):
        held_out[f"tatoeba-{split}"] = list(zip(*(read_gz_lines(os.path.join(tatoeba_dir, f"{split}.{lang}.gz"))
                                                  for lang in ("en", "de"))))
    for split in ("val", "test_2016_flickr", "test_2017_flickr", "test_2017_mscoco"):
        held_out[f"multi30k-{split}"] = list(zip(*(read_gz_lines(os.path.join(data, "multi30k", f"{split}.{lang}.gz"))
                                                   for lang in ("en", "de"))))
    return held_out


def source_reader(data, tatoeba_dir, news_train):
    """stem -> an iterable of that source's raw (en, de) pairs."""
    def pairs_of(stem):
        if stem == "wmt-newstest-2008-2018":
            return news_train
        if stem == "tatoeba":
            return zip(*(read_gz_lines(os.path.join(tatoeba_dir, f"train.{lang}.gz")) for lang in ("en", "de")))
        if stem == "multi30k":
            return zip(*(read_gz_lines(os.path.join(data, "multi30k", f"train.{lang}.gz")) for lang in ("en", "de")))
        return read_tsv(os.path.join(data, "parallel-en-de", f"{stem}.tsv.gz"))
    return pairs_of


def mix(sources, pairs_of, held_out, seed):
    """Cleans, filters and deduplicates each source of `sources` [(stem, domain, weights)] in order
    (earlier sources win duplicates; a pair with either side in `held_out`'s sets is dropped) and
    repeats each kept pair into every mixture by its weight. Returns (report rows, {prefix: pairs})."""
    held_en = {normalize(clean(en)) for pairs in held_out.values() for en, _ in pairs}
    held_de = {normalize(clean(de)) for pairs in held_out.values() for _, de in pairs}
    generators = {prefix: random.Random(seed + k) for k, (prefix, _) in enumerate(MIXTURES)}
    seen, rows, mixtures = set(), [], {prefix: [] for prefix, _ in MIXTURES}
    for stem, domain, weights in sources:
        row = {"source": stem, "domain": domain, "read": 0, "dropped": {n: 0 for n, _ in FILTERS},
               "held_out": 0, "duplicate": 0, "kept": 0,
               "weights": dict(zip(mixtures, weights)), "copies": {prefix: 0 for prefix in mixtures}}
        for en, de in pairs_of(stem):
            row["read"] += 1
            en, de = clean(en, stem == "mlqe-pe"), clean(de, stem == "mlqe-pe")
            failed = next((name for name, drop in FILTERS if drop(en, de)), None)
            key = (normalize(en), normalize(de))
            outcome = failed or ("held_out" if key[0] in held_en or key[1] in held_de else
                                 "duplicate" if key in seen else "kept")
            (row["dropped"] if failed else row)[outcome] += 1
            if outcome != "kept":
                continue
            seen.add(key)
            for prefix, mixture in mixtures.items():
                copies = repeat((en, de), row["weights"][prefix], generators[prefix])
                mixture += copies
                row["copies"][prefix] += len(copies)
        rows.append(row)
        print(f"{stem}: {row['read']:,} read, {row['kept']:,} kept, {row['copies']['train']:,} in the main mixture",
              flush=True)
    for prefix, mixture in mixtures.items():
        generators[prefix].shuffle(mixture)
    return rows, mixtures


def train_vocabularies(out_dir, train_pairs, sizes, sentences, seed):
    """One joint SentencePiece unigram model per size in `sizes`, trained on a sample of the mixture's sentences."""
    sample = [s for pair in train_pairs for s in pair]
    random.Random(seed).shuffle(sample)
    for size in sizes:
        spm.SentencePieceTrainer.train(
            sentence_iterator=iter(sample[:sentences]), model_prefix=os.path.join(out_dir, f"spm-{size}"),
            vocab_size=size, model_type="unigram", character_coverage=0.9999, pad_id=0, unk_id=1, bos_id=2,
            eos_id=3, byte_fallback=False, num_threads=SPM_THREADS, minloglevel=2)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default="../shared/data")
    ap.add_argument("--out", default="build/data", help="writes OUT/tatoeba and OUT/general")
    ap.add_argument("--vocab-sizes", default="8000,16000", help="joint SentencePiece models to train")
    ap.add_argument("--spm-sentences", type=int, default=2_000_000, help="sentences sampled for SentencePiece")
    ap.add_argument("--with-multi30k", action="store_true", help="add Multi30k train (research-only licence)")
    prepare_tatoeba.add_arguments(ap)
    args = ap.parse_args()

    out_dir = os.path.join(args.out, "general")
    os.makedirs(out_dir, exist_ok=True)
    tatoeba_dir = os.path.join(args.out, "tatoeba")
    print(json.dumps({"tatoeba": prepare_tatoeba.prepare(argparse.Namespace(**{**vars(args), "out": tatoeba_dir}))}))

    news = list(read_tsv(os.path.join(args.data, "parallel-en-de", "wmt-newstest-2008-2018.tsv.gz")))
    news_train, news_held = split_news([(clean(en), clean(de)) for en, de in news])
    held_out = held_out_sets(args.data, tatoeba_dir, news_held)
    sources = SOURCES + ([MULTI30K] if args.with_multi30k else [])
    rows, mixtures = mix(sources, source_reader(args.data, tatoeba_dir, news_train), held_out, args.seed)
    for prefix, mixture in mixtures.items():
        write_pairs(out_dir, prefix, mixture)
    write_pairs(out_dir, "dev", held_out["newstest2017"])
    write_pairs(out_dir, "newstest2018", held_out["newstest2018"])

    sizes = [int(s) for s in args.vocab_sizes.split(",") if s]
    train_vocabularies(out_dir, mixtures["train"], sizes, args.spm_sentences, args.seed)
    table = report_table(rows)
    vocab = vocabulary_table(out_dir, sizes, held_out["newstest2017"], 256)
    held_counts = {name: len(pairs) for name, pairs in held_out.items()}
    with open(os.path.join(out_dir, "report.md"), "w", encoding="utf-8") as f:
        f.write(f"{table}\n\nHeld out (every sentence removed from training): {held_counts}\n\n{vocab}\n")
    json.dump({"sources": rows, "held_out": held_counts,
               "pairs": {prefix: len(mixture) for prefix, mixture in mixtures.items()}},
              open(os.path.join(out_dir, "report.json"), "w"), indent=1)
    print(table)
    print(f"held out: {held_counts}")
    print(vocab)


if __name__ == "__main__":
    main()
