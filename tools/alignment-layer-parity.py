#!/usr/bin/env python3
"""PyTorch parity of a model file's word alignment layer: the word weights the engine's align() returns
(through the package, wasm) against models/alignment_layer.py's PyTorch reading of the same file, on the
first pairs of align-dev (../shared/data/align-dev). Prints the largest absolute difference and exits 1
when it is above --tolerance.

  /usr/bin/python3 models/dequantize.py --model X.int8.crossattn --out X.fp32.crossattn
  /usr/bin/python3 tools/alignment-layer-parity.py --model X.fp32.crossattn [--pairs 20]

On an fp32 file the two agree to 2e-6 (general-en-de with its layer, 2026-11-27); an int8 file differs by up
to about 0.04, the engine's dynamic int8 quantization of activations (gemm.h), which PyTorch does not do.

The reading (cpp/alignment/word_alignment.cc): each piece row of the layer's attention times the
lexicon prior (lex + 1e-4), renormalized without eos, source pieces summed into words and target
pieces averaged; the same as `align(source, target, { alignment: true })` for a file with the layer.
"""
import argparse
import json
import os
import subprocess
import sys

import numpy as np
import torch

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, os.path.join(ROOT, "models"))
import ibm2_align as ia  # noqa: E402
from alignment_layer import NAMES, AlignmentLayer, Lexicon, frozen_features  # noqa: E402
from model_file import dequantized, load_model, sentencepiece_of  # noqa: E402

ENGINE = """
import { readFileSync } from 'node:fs';
import { Translator } from './dist/index.js';
const [model, pairsFile] = process.argv.slice(1);
const t = await Translator.load(model);
const out = [];
for (const [src, tgt] of JSON.parse(readFileSync(pairsFile, 'utf8'))) {
  out.push((await t.align(src, tgt, { attention: false, alignment: true })).alignment.weights.map((row) => Array.from(row)));
}
console.log(JSON.stringify(out));
t.dispose();
"""


def word_weights(attention, prior, src_words, tgt_words, n_src, n_tgt):
    """[n_tgt, n_src] from piece attention [T, S] (eos last on both sides) as the engine merges it."""
    out, count = np.zeros((n_tgt, n_src)), np.zeros(n_tgt)
    for t in range(attention.shape[0] - 1):
        row = (attention[t] * prior[t])[:-1]
        row = row / row.sum()
        np.add.at(out[tgt_words[t]], src_words, row)
        count[tgt_words[t]] += 1
    return out / np.maximum(count, 1)[:, None]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", required=True, help="a model file with alignment.* tensors")
    ap.add_argument("--pairs", type=int, default=20)
    ap.add_argument("--tolerance", type=float, default=1e-3)
    ap.add_argument("--gold-dir", default=os.path.join(ROOT, "..", "shared", "data", "align-dev"))
    args = ap.parse_args()
    torch.set_num_threads(1)
    model, config, tensors, _ = load_model(args.model)
    layer = AlignmentLayer(config["d_model"])
    layer.load_state_dict({key: dequantized(tensors, name) for key, name in NAMES.items()})
    sp, lexicon = sentencepiece_of(args.model), Lexicon(tensors)
    en, de, _ = ia.read_gold(args.gold_dir, "en")
    src, tgt = (en, de) if config["source_lang"] == "en" else (de, en)
    pairs = list(zip(src, tgt))[:args.pairs]
    pairs_file = os.path.join(ROOT, "build", "alignment-layer-parity.json")
    with open(pairs_file, "w", encoding="utf-8") as f:
        json.dump(pairs, f)
    engine = json.loads(subprocess.run(["node", "--input-type=module", "-e", ENGINE, args.model, pairs_file],
                                       cwd=ROOT, check=True, capture_output=True, text=True).stdout)
    worst, compared = 0.0, 0
    for (s_text, t_text), got in zip(pairs, engine):
        s, t = sp.encode(s_text), sp.encode(t_text)
        states, embeds, enc, _ = frozen_features(model, config, [s], [t])[0]
        with torch.no_grad():
            mask = torch.ones(1, states.shape[0], enc.shape[0], dtype=torch.bool)
            attention = layer(states[None], embeds[None], enc[None], mask)[0].exp().numpy()
        prior = lexicon.prior(s + [config["eos_id"]], t + [config["eos_id"]]) if "lexicon.offsets" in tensors else 1.0
        sw, tw = ia.word_of_piece(sp.encode(s_text, out_type=str)), ia.word_of_piece(sp.encode(t_text, out_type=str))
        ours = word_weights(attention, np.broadcast_to(prior, attention.shape), sw, tw, len(s_text.split()), len(t_text.split()))
        got = np.array(got)
        if got.shape != ours.shape:  # the engine's word map differs from the '▁' reading: not comparable
            continue
        worst, compared = max(worst, float(np.abs(got - ours).max())), compared + 1
    print(f"{args.model}: {compared} of {len(pairs)} align-dev pairs compared; largest |engine - PyTorch| = {worst:.2e}")
    sys.exit(0 if compared and worst <= args.tolerance else 1)


if __name__ == "__main__":
    main()
