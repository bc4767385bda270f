#!/usr/bin/env python3
"""A model file of the shape of Firefox's tiny translation students, with random weights, for measuring
speed against Bergamot (not translation quality): `npm run bench -- --model` on it exports the same
weights to Marian's format (bench/export_marian.py) and runs both engines.

  /usr/bin/python3 tools/firefox-tiny-size-fixture.py --out build/fixtures/firefox-tiny-size/firefox-tiny-size-en-de.crossattn

The shapes are those of Bergamot's "tiny" students (firefox-translations-models, e.g. enes/tiny
model.yml: dim-emb 256, transformer-dim-ffn 1536, 8 heads, enc-depth 6, dec-depth 2,
transformer-decoder-autoreg rnn with dec-cell ssru, tied-embeddings-all, a 32,000-piece shared
vocabulary) and Marian's conventions (post-norm, its sinusoid layout, the decoder starting from a
zero vector, layer norm epsilon 1e-6), so that both engines compute the same function.
The vocabulary is the bench model's 8,000-piece SentencePiece model (build/marian-fixtures/
bench-marian-en-de.crossattn) with 24,000 numbered pieces added ("\u2581x123"): texts tokenize as with that
model, and the output layer has 32,000 rows. Weights are N(0, 0.02) from
seed 1, biases 0 and layer norms 1 and 0 (the spec's init, models/tensor_spec.py initial_tensors);
final_logits_bias is -10000 for the special pieces (pad, unk, bos, eos):
no engine ends a translation early, so both decode to their length limit. The file carries a lexical
shortlist as Firefox's models ship one (Bergamot's settings: 100 frequent pieces, 50 per source piece;
models/shortlist.py), from --shortlist-train's piece links aligned with the 8,000-piece model
(models/ibm2_align.py: its table is dense in the vocabulary, and the added pieces never occur).
Skipped when the file is newer than this script and the bench model.
"""
import argparse
import json
import os
import subprocess
import sys

import torch
from sentencepiece import sentencepiece_model_pb2

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, os.path.join(ROOT, "models"))
from model_file import read_safetensors, write_safetensors  # noqa: E402
from model_spec_generated import ModelTensors as MT  # noqa: E402
from tensor_spec import initial_tensors  # noqa: E402

BASE = os.path.join(ROOT, "build", "marian-fixtures", "bench-marian-en-de.crossattn")
D, HEADS, FF, VOCAB = 256, 8, 1536, 32000


def widened_spm(spm_bytes):
    """The SentencePiece model with numbered pieces "\u2581x0", "\u2581x1", ... up to VOCAB, scored just below
    its own least likely piece: a text segments as before (no word of it is such a piece), and a
    translation made of them segments back into the same pieces, which the bench counts Bergamot's
    tokens by."""
    proto = sentencepiece_model_pb2.ModelProto()
    proto.ParseFromString(spm_bytes)
    normal = sentencepiece_model_pb2.ModelProto.SentencePiece.NORMAL
    lowest = min(p.score for p in proto.pieces if p.type == normal)
    for i in range(VOCAB - len(proto.pieces)):
        piece = proto.pieces.add()
        piece.piece, piece.score, piece.type = f"\u2581x{i}", lowest - 1, normal
    return proto.SerializeToString()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("--data", default=os.path.join(ROOT, "..", "shared", "data"))
    ap.add_argument("--shortlist-train", default="multi30k/train", help="pairs under --data: PREFIX.en.gz, PREFIX.de.gz")
    args = ap.parse_args()
    out = args.out
    if os.path.exists(out) and os.path.getmtime(out) > max(os.path.getmtime(__file__), os.path.getmtime(BASE)):
        return print(f"{out}: up to date")
    base, metadata = read_safetensors(BASE)
    config = json.loads(metadata["config"])
    config.update(name="firefox-tiny-size-en-de", d_model=D, n_heads=HEADS, d_ff=FF, vocab_size=VOCAB,
                  decoder_autoregression="ssru", max_positions=512, final_logits_bias=True)
    tensors = initial_tensors(config, torch.Generator().manual_seed(1))
    for special in ("pad_id", "unk_id", "bos_id", "eos_id"):
        tensors[MT.FINAL_LOGITS_BIAS][config[special]] = -10000.0
    spm = json.loads(metadata["tokenizer"])["source_spm"]  # one SentencePiece model for both sides
    tensors[spm] = torch.frombuffer(bytearray(widened_spm(base[spm].numpy().tobytes())), dtype=torch.uint8)
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    write_safetensors(out, tensors, {**{k: metadata[k] for k in ("format", "format_version", "tokenizer")},
                                     "config": json.dumps(config), "source": "tools/firefox-tiny-size-fixture.py (random weights)"})
    add_shortlist(out, *(os.path.join(args.data, f"{args.shortlist_train}.{lang}.gz") for lang in ("en", "de")))
    print(f"wrote {out}: {os.path.getsize(out)} bytes")


def add_shortlist(model, src, tgt):
    links = os.path.join(os.path.dirname(os.path.abspath(model)), "shortlist-train.align.gz")
    python = [sys.executable]
    subprocess.run(python + [os.path.join(ROOT, "models", "ibm2_align.py"), "--spm", BASE, "--src", src, "--tgt", tgt, "--out", links],
                   check=True, stdout=subprocess.DEVNULL)
    subprocess.run(python + [os.path.join(ROOT, "models", "shortlist.py"), "--model", model, "--src", src, "--tgt", tgt,
                             "--alignment", links, "--out", model, "--frequent", "100", "--per-source", "50"], check=True)


if __name__ == "__main__":
    main()
