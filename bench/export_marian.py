#!/usr/bin/env python3
"""Export a crossattn model file to Marian's model formats, for the Bergamot peer of `npm run bench`
(bench/bergamot.js) and the Marian converter's parity test (tests/js/convert-marian.test.js):
model.bin (Marian's binary format, with its special:model.yml), model.yml beside it, vocab.spm (our
SentencePiece model), differences.json (what makes Marian compute another function than ours on this
model; [] when none), lex.s2t.bin where the model file has a lexical shortlist (bench/marian_shortlist.py),
and with --npz also model.npz (numpy's format, as Marian's trainer saves it).

  /usr/bin/python3 bench/export_marian.py --model models/multi30k-en-de/multi30k-en-de.crossattn --out build/bench/marian
  /usr/bin/python3 bench/export_marian.py ... --gemm-type intgemm8     # int8 as marian-conv writes it
  /usr/bin/python3 bench/export_marian.py ... --npz                    # also model.npz (float32)
  /usr/bin/python3 bench/export_marian.py ... --ssru                   # an SSRU decoder (below)

Marian 'transformer' as in browsermt/marian-dev e88c1aa (the commit inside @browsermt/bergamot-translator
0.4.9); the sources read are in docs/bergamot.md:
  parameter names  the "marian" rows of cpp/model/tensor_spec.json (docs/model-format.md), read from
                   src/models/transformer.h; each row's role is its layout, its residual the axes permuted
  binary layout    src/common/binary.cpp (saveItems / loadItems); only this format loads from memory
  npz layout       one <name>.npy per item (src/common/io.cpp, cnpy), special:model.yml as int8 bytes
  W layout         Marian computes x @ W (W is [in, out]); ours is y = x W^T (W is [out, in]): transposed.
Our interleaved sinusoid layout is matched by permuting the residual dimensions. Marian computes the same
function as our engine only for a model trained with its conventions (post-norm, sinusoidal_layout
"marian", decoder_start "zero", layer_norm_eps 1e-6); for any other model the export says what differs
(Marian's pre-norm keys and values skip the layer norm, its decoder starts from a zero vector, its position
frequencies and layer-norm epsilon differ: docs/bergamot.md).

--gemm-type intgemm8 stores the 2-D weight matrices as marian-conv does
(src/tensors/cpu/expression_graph_packable.h:190-235): Type::intgemm8, the matrix transposed to [out, in],
int8 = round(W * 127/max|W|) (one scale per matrix), followed by that float32 scale; an int8 crossattn file
(per-row scales) is dequantized first and requantized per matrix.

--ssru writes a decoder of Bergamot's tiny students' kind (transformer-decoder-autoreg: rnn, dec-cell: ssru;
src/rnn/cells.h class SSRU, src/models/transformer.h DecoderLayerRNN): the model's encoder, cross-attention
and feed-forward weights, and in place of each decoder self-attention an SSRU with random weights
(--ssru-seed; W, Wf ~ N(0, 1/D), bf = 0) whose post-norm keeps the self-attention block's layer norm.
The model is not trained with it, so its translations are poor, but they still follow the source through
cross-attention, and the SSRU's state carries each target prefix into every step: a function both
engines must compute alike (model.yml's version says "--ssru (random SSRU weights)"). A model file whose config has decoder_autoregression "ssru" (such as
`crossattn convert`'s output of a Marian SSRU model) is exported with its own SSRU weights instead
(by the same rows, transposed back to Marian's [in, out]), so that Bergamot runs exactly the file's weights; --ssru refuses such a file.
"""
import argparse
import json
import os
import struct
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "models"))
from model_file import dequantized, read_safetensors  # noqa: E402
from model_spec_generated import ModelTensors as MT  # noqa: E402
from tensor_spec import expected_tensors, their_row  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from marian_shortlist import lex_bytes  # noqa: E402

# src/common/types.h:226-272
TYPE_INT8 = 0x0100 + 1
TYPE_FLOAT32 = 0x0400 + 4
TYPE_INTGEMM8 = 0x0100 + 1 + 0x4000
BINARY_FILE_VERSION = 1  # src/common/binary.h:10


def write_marian_bin(path, items):
    """items: list of (name, type, shape(list of int), bytes). Layout of src/common/binary.cpp:saveItems."""
    def pad256(b):
        return b + b"\0" * (-len(b) % 256)

    datas = [pad256(data) for _, _, _, data in items]
    out = [struct.pack("<QQ", BINARY_FILE_VERSION, len(items))]
    for (name, typ, shape, _), data in zip(items, datas):
        # struct Header { uint64 nameLength; uint64 type; uint64 shapeLength; uint64 dataLength; }
        out.append(struct.pack("<QQQQ", len(name.encode()) + 1, typ, len(shape), len(data)))
    for name, _, _, _ in items:
        out.append(name.encode() + b"\0")
    for _, _, shape, _ in items:
        out.append(struct.pack(f"<{len(shape)}i", *shape))
    pos = sum(len(b) for b in out)
    nextpos = ((pos + 8) // 256 + 1) * 256
    offset = nextpos - pos - 8
    out.append(struct.pack("<Q", offset) + b"\0" * offset)
    out.extend(datas)
    with open(path, "wb") as f:
        for b in out:
            f.write(b)


def write_npz(path, items):
    """items as for write_marian_bin, float32 and the int8 model.yml only: one <name>.npy per item, as
    Marian's trainer saves model.npz (src/common/io.cpp saveItemsNpz, cnpy)."""
    arrays = {}
    for name, typ, shape, data in items:
        dtype = {TYPE_FLOAT32: "<f4", TYPE_INT8: "i1"}[typ]
        arrays[name] = np.frombuffer(data, dtype=dtype)[:int(np.prod(shape))].reshape(shape)
    np.savez(path, **arrays)


def residual_permutation(d, layout):
    """perm[m] = our dimension that becomes Marian dimension m: Marian's sinusoid puts the sines in the
    first half of the dimensions and the cosines in the second (src/graph/node_initializers.cpp:215-234)."""
    if layout in ("halves", "marian"):
        return np.arange(d)
    assert layout == "interleaved"
    h = d // 2
    return np.array([2 * m if m < h else 2 * (m - h) + 1 for m in range(d)])


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--gemm-type", choices=["float32", "intgemm8"], default="float32")
    ap.add_argument("--npz", action="store_true", help="also write model.npz (float32 only)")
    ap.add_argument("--ssru", action="store_true", help="SSRU decoder layers with random weights in place of self-attention")
    ap.add_argument("--ssru-seed", type=int, default=20261127)
    args = ap.parse_args()
    if args.npz and args.gemm_type != "float32":
        sys.exit("--npz writes float32 only (marian-conv writes intgemm8 to .bin)")
    return args


def check_config(c, args):
    """Exits with a message on a config this exporter does not write, or --ssru on a model that cannot take it."""
    for key, want in [("positional_encoding", "sinusoidal"), ("tied_embeddings", True), ("shared_vocab", True),
                      ("embed_scale", True)]:
        if c[key] != want:
            sys.exit(f"unsupported config: {key}={c[key]!r} (this prototype handles {want!r})")
    if c.get("decoder_autoregression", "self-attention") == "ssru" and args.ssru:
        sys.exit(f"{args.model}: config.decoder_autoregression: the model has its own SSRU weights; --ssru adds random ones to a self-attention model")
    if args.ssru and c["layer_norm"] == "pre":  # pre-norm SSRU normalizes <prefix>_ln_*_pre before the cell (transformer.h:519): not written here
        sys.exit("--ssru writes post-norm models only")


def marian_differences(c):
    """What makes Marian compute another function than ours on a model of config c ([] when nothing)."""
    return [what for what, differs in [
        ("pre-norm (Marian's keys and values skip the layer norm)", c["layer_norm"] == "pre"),
        ("the decoder starts from a token's embedding, Marian's from a zero vector",
         c.get("decoder_start", "token") != "zero"),
        ("the position frequencies are not Marian's", c["sinusoidal_layout"] != "marian"),
        ("the layer-norm epsilon is not Marian's 1e-6", c["layer_norm_eps"] != 1e-6)] if differs]


class MarianItems:
    """Marian's items (name, type, shape, bytes) made from our tensors by the spec's "marian" rows
    (cpp/model/tensor_spec.json): each renamed, its residual axes permuted into Marian's sinusoid
    layout, stored in its row's role (W transposed to Marian's [in, out], a vector as [1, n]), and with
    intgemm8 quantized as marian-conv does."""

    def __init__(self, c, gemm_type):
        self.config, self.gemm_type = c, gemm_type
        self.perm = torch.as_tensor(residual_permutation(c["d_model"], c["sinusoidal_layout"]))
        self.items = []

    def add(self, name, role, arr):
        """Item `name` from `arr` in Marian's layout for `role`."""
        arr = arr.contiguous().float()
        shape = list(arr.shape) if arr.dim() == 2 else [1, arr.shape[0]]
        if role in ("W", "Wt", "emb") and self.gemm_type == "intgemm8":
            w = arr.numpy()
            q = 127.0 / np.abs(w).max()
            # marian-conv transposes every _W matrix to [out, in] before quantizing; Wemb is not transposed
            src = w.T if role == "W" else w
            qi = np.clip(np.rint(src * q), -127, 127).astype(np.int8)  # intgemm::Int8::PrepareA rounds to nearest
            self.items.append((name, TYPE_INTGEMM8, shape, qi.tobytes() + struct.pack("<f", q)))
        else:
            self.items.append((name, TYPE_FLOAT32, shape, arr.numpy().astype("<f4").tobytes()))

    def add_ours(self, ours, arr):
        """Our tensor `ours` (`arr`, fp32 in our layout) as the item its row names."""
        name, row = their_row("marian", ours, self.config)
        for axis in row.get("residual", []):
            arr = arr.index_select(axis, self.perm)
        if row["role"] == "W":
            arr = arr.T
        elif row["role"] == "vector":
            arr = arr.reshape(-1)  # HF's final_logits_bias may be [1, V]
        self.add(name, row["role"], arr)

    def add_random_ssru(self, ours, shape, generator):
        """--ssru on a self-attention model: the SSRU's `ours`, drawn in Marian's layout (W, Wf ~ N(0, 1/D), bf = 0)."""
        name, row = their_row("marian", ours, self.config)
        if row.get("when") != "ssru":
            sys.exit(f"the model file has no tensor {ours}")
        d = shape[0]
        self.add(name, row["role"], torch.randn(d, d, generator=generator) / d ** 0.5 if len(shape) == 2 else torch.zeros(d))


def add_tensors(out, tensors, args):
    """Every tensor of Marian's model, in the spec's order: the file's (int8 dequantized), under --ssru
    random SSRU weights in place of each decoder self-attention (its post-norm keeps the self-attention
    block's layer norm), and a zero output bias where the file has none (Marian's output layer has one)."""
    generator = torch.Generator().manual_seed(args.ssru_seed)
    for ours, shape, _, optional_group in expected_tensors(out.config):
        if optional_group is not None:  # shortlist, lexicon, alignment: not Marian parameters
            continue
        if ours in tensors:
            out.add_ours(ours, dequantized(tensors, ours))
        else:
            out.add_random_ssru(ours, shape, generator)
    if not out.config["final_logits_bias"]:
        name, row = their_row("marian", MT.FINAL_LOGITS_BIAS, out.config)
        out.add(name, row["role"], torch.zeros(out.config["vocab_size"]))


def marian_yml(c, args):
    """model.yml's options for a model of config c, as Marian's 'transformer' reads them."""
    v, pre = c["vocab_size"], c["layer_norm"] == "pre"
    ssru = args.ssru or c.get("decoder_autoregression", "self-attention") == "ssru"
    return {
        "type": "transformer",
        "dim-vocabs": [v, v],
        "dim-emb": c["d_model"],
        "enc-depth": c["encoder_layers"],
        "dec-depth": c["decoder_layers"],
        "transformer-heads": c["n_heads"],
        "transformer-dim-ffn": c["d_ff"],
        "transformer-ffn-depth": 2,
        "transformer-ffn-activation": c["activation"],
        "transformer-preprocess": "n" if pre else "",
        "transformer-postprocess": "da" if pre else "dan",
        "transformer-postprocess-emb": "d",
        "transformer-postprocess-top": "n" if pre else "",
        "transformer-decoder-autoreg": "rnn" if ssru else "self-attention",
        "transformer-no-projection": False,
        "transformer-train-position-embeddings": False,
        "transformer-tied-layers": [],
        "transformer-guided-alignment-layer": "last",
        "tied-embeddings": True,
        "tied-embeddings-src": False,
        "tied-embeddings-all": True,
        "output-omit-bias": False,
        "right-left": False,
        "skip": False,
        "layer-normalization": False,
        "enc-type": "bidirectional",
        "enc-cell": "gru",
        "dec-cell": "ssru" if ssru else "gru",
        "dim-rnn": 1024,
        "enc-cell-depth": 1,
        "dec-cell-base-depth": 2,
        "dec-cell-high-depth": 1,
        "input-types": [],
        "lemma-dim-emb": 0,
        "ulr": False,
        "version": "crossattn bench/export_marian.py" + (" --ssru (random SSRU weights)" if args.ssru else ""),
    }


def yml_value(val):
    if isinstance(val, bool):
        return "true" if val else "false"
    if isinstance(val, list):
        return "[" + ", ".join(yml_value(x) for x in val) + "]"
    if isinstance(val, str):
        return json.dumps(val)
    return str(val)


def write_outputs(args, items, yml_text, spm_bytes, differences):
    """model.bin (model.yml's text as its first item), model.npz with --npz, model.yml, vocab.spm and
    differences.json under --out."""
    # addMetaToItems (src/common/io.cpp:71): Type::int8, shape [len+1], NUL-terminated
    items.insert(0, ("special:model.yml", TYPE_INT8, [len(yml_text) + 1], yml_text.encode() + b"\0"))
    write_marian_bin(os.path.join(args.out, "model.bin"), items)
    if args.npz:
        write_npz(os.path.join(args.out, "model.npz"), items)
    with open(os.path.join(args.out, "model.yml"), "w") as f:
        f.write(yml_text)
    with open(os.path.join(args.out, "vocab.spm"), "wb") as f:
        f.write(spm_bytes)
    with open(os.path.join(args.out, "differences.json"), "w") as f:
        json.dump(differences, f)
    print(f"wrote {args.out}/model.bin ({len(items)} items, gemm-type {args.gemm_type}), "
          f"vocab.spm, model.yml, differences.json")


def main():
    args = parse_args()
    os.makedirs(args.out, exist_ok=True)
    tensors, metadata = read_safetensors(args.model)
    c = json.loads(metadata["config"])
    check_config(c, args)
    differences = marian_differences(c)
    if differences:
        print("Marian will compute a different function from this model's: " + "; ".join(differences), file=sys.stderr)
    out = MarianItems(dict(c, decoder_autoregression="ssru") if args.ssru else c, args.gemm_type)
    add_tensors(out, tensors, args)
    yml_text = "".join(f"{k}: {yml_value(val)}\n" for k, val in marian_yml(c, args).items())
    tok = json.loads(metadata["tokenizer"])
    write_outputs(args, out.items, yml_text, tensors[tok["source_spm"]].numpy().tobytes(), differences)
    if "shortlist.offsets" in tensors:
        lex = lex_bytes(*(tensors[f"shortlist.{n}"].numpy() for n in ("frequent", "offsets", "targets")), c["eos_id"])
        with open(os.path.join(args.out, "lex.s2t.bin"), "wb") as f:
            f.write(lex)
        print(f"wrote {args.out}/lex.s2t.bin (the model's lexical shortlist, bench/marian_shortlist.py)")


if __name__ == "__main__":
    main()
