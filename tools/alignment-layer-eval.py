#!/usr/bin/env python3
"""AER on align-dev halves (pairs 1-75 to choose, 76-150 to report, and all 150) of the readings of a model
pair: each direction's trained head, the last two layers' heads averaged, and each direction's alignment
layer (models/alignment_layer.py checkpoints), each times its lexicon, alone and symmetrized. The PyTorch
reading of the engine's method (cpp/alignment/word_alignment.cc): piece rows x prior, renormalized without
eos, source pieces summed into words, target pieces averaged, grow-diag-final-and of row and column
argmaxes; the two directions' word matrices averaged for the symmetrized rows. On the shipped pair it
gives the engine's own 25.7 (trained heads) and 24.9 (last two layers) symmetrized (docs/alignment.md).

  /usr/bin/python3 tools/alignment-layer-eval.py LAYER-EN-DE.pt LAYER-DE-EN.pt     ('' '' for no layers)
"""
import sys, os, numpy as np, torch
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "models"))
import ibm2_align as ia
from model_file import load_model, sentencepiece_of
from alignment_layer import AlignmentLayer, Lexicon, frozen_features
torch.set_num_threads(1)
MODELS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "models")

def word_matrix(A, sw, tw, nS, nT):
    # A [T+1, S+1] rows over source pieces incl eos (last); returns [nT, nS]
    W = np.zeros((nT, nS)); cnt = np.zeros(nT)
    for t in range(A.shape[0] - 1):
        row = A[t, :-1]; row = row / max(row.sum(), 1e-30)
        for s in range(len(row)): W[tw[t], sw[s]] += row[s]
        cnt[tw[t]] += 1
    return W / np.maximum(cnt, 1)[:, None]

def links(W):
    f = {(int(W[t].argmax()), t) for t in range(W.shape[0])}
    b = {(s, int(W[:, s].argmax())) for s in range(W.shape[1])}
    return ia.grow_diag_final_and(f, b)

def readings(path, layer_path, src, tgt):
    model, config, tensors, _ = load_model(path)
    sp = sentencepiece_of(path); lex = Lexicon(tensors)
    layer = None
    if layer_path:
        saved = torch.load(layer_path); layer = AlignmentLayer(saved["d_model"]); layer.load_state_dict(saved["state"]); layer.eval()
    out = {"head": [], "layer": [], "layer_noprior": [], "last2": []}
    for s_text, t_text in zip(src, tgt):
        s, t = sp.encode(s_text), sp.encode(t_text)
        sw = ia.word_of_piece(sp.encode(s_text, out_type=str)); tw = ia.word_of_piece(sp.encode(t_text, out_type=str))
        nS, nT = len(s_text.split()), len(t_text.split())
        prior = lex.prior(s + [config["eos_id"]], t + [config["eos_id"]])
        with torch.no_grad():
            _, cross = model(torch.tensor([s + [config["eos_id"]]]), torch.tensor([[config["decoder_start_id"]] + t]), with_cross_attention=True)
            head = cross[config["alignment_layer"]][0, config["alignment_head"]].numpy()
            last2 = sum(cross[l][0].mean(0).numpy() for l in (-2, -1)) / 2
            out["head"].append(word_matrix(head * prior, sw, tw, nS, nT))
            out["last2"].append(word_matrix(last2 * prior, sw, tw, nS, nT))
            if layer is not None:
                st, em, enc, _ = frozen_features(model, config, [s], [t])[0]
                mask = torch.ones(1, st.shape[0], enc.shape[0], dtype=torch.bool)
                logp = layer(st[None], em[None], enc[None], mask)[0].exp().numpy()
                out["layer"].append(word_matrix(logp * prior, sw, tw, nS, nT))
                out["layer_noprior"].append(word_matrix(logp, sw, tw, nS, nT))
    return out

ende, deen = sys.argv[1], sys.argv[2]   # layer files or '' 
src, tgt, gold = ia.read_gold(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "data", "align-dev"), "en")   # gold (en word, de word)
f = readings(os.path.join(MODELS, "general-en-de", "general-en-de.int8.crossattn"), ende, src, tgt)
b = readings(os.path.join(MODELS, "general-de-en", "general-de-en.int8.crossattn"), deen, tgt, src)
halves = {"tune 1-75": range(0, 75), "report 76-150": range(75, 150), "all 150": range(150)}
print("| reading | direction | " + " | ".join(halves) + " |")
for name in f:
    if not f[name] or not b[name]: continue
    for d in ("en-de", "de-en", "sym"):
        hyp = []
        for k in range(150):
            if d == "en-de": L = links(f[name][k])
            elif d == "de-en": L = {(t, s) for s, t in links(b[name][k])}
            else: L = links((f[name][k] + b[name][k].T) / 2)
            hyp.append(L)
        cells = [f"{100*ia.aer([hyp[k] for k in r], [gold[k] for k in r]):.1f}" for r in halves.values()]
        print(f"| {name} | {d} | " + " | ".join(cells) + " |", flush=True)
