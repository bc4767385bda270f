"""Read and write crossattn model files (safetensors containers, docs/model-format.md) from Python.

Shared by train.py and export.py (checkpoint averaging), export.py (writes a trained run),
quantize.py (int8 from a model file) and bench/export_onnx.py (the same weights for onnxruntime-web).
"""
import argparse
import json
import re
import struct

import torch
import xxhash

from tensor_spec import check_tensors, our_name

FORMAT, FORMAT_VERSION = "crossattn", "1"
DTYPES = {torch.float32: "F32", torch.float16: "F16", torch.uint8: "U8", torch.int32: "I32", torch.int8: "I8"}
TORCH_DTYPES = {v: k for k, v in DTYPES.items()} | {"BF16": torch.bfloat16}

def average_state_dicts(paths):
    """The element-wise mean of the state dicts saved at `paths` (checkpoint averaging, Vaswani et al.
    2017, section 6.1), in float32. A training checkpoint (train.py's checkpoint.pt, which also holds
    the optimizer, or its compact checkpoint) contributes its model weights."""
    states = []
    for path in paths:
        state = torch.load(path, map_location="cpu")
        states.append(state["model"] if isinstance(state.get("model"), dict) else state)
    return {k: sum(s[k].float() for s in states) / len(states) for k in states[0]}


def engine_name(name):
    """The engine's tensor name for a PyTorch state-dict key (models/transformer.py's module names), by the
    spec's rows for the format "pytorch" (cpp/model/tensor_spec.json)."""
    return our_name("pytorch", name)


CHECKSUM_ZEROS = "xxh3:" + "0" * 16


def int8_panels(q):
    """int8 rows [out, in] (both multiples of 4) -> the engine's int8 kernel layout [out/4, in/4, 16]
    (docs/model-format.md, "int8 kernel layout"): panels[p, kk, 8h + 2f + e] = q[4p + f, 4kk + 2h + e]."""
    out, inputs = q.shape
    return q.reshape(out // 4, 4, inputs // 4, 2, 2).permute(0, 2, 3, 1, 4).reshape(out // 4, inputs // 4, 16)


def int8_rows(panels):
    """The inverse of int8_panels: [out/4, in/4, 16] -> [out, in]."""
    p, kk, _ = panels.shape
    return panels.reshape(p, kk, 2, 4, 2).permute(0, 3, 1, 2, 4).reshape(4 * p, 4 * kk)


def dequantized(tensors, name):
    """Tensor `name` of a model file as fp32: int8 weights (rows or kernel-layout panels) times their
    per-row scales `name`_scale, float tensors converted."""
    t = tensors[name]
    if t.dtype != torch.int8:
        return t.float()
    rows = int8_rows(t) if t.dim() == 3 else t
    return rows.float() * tensors[name + "_scale"].float()[:, None]


def _tensor_order(tensors):
    """Wider dtypes first (each tensor aligned to its element size), then by name, except that an
    attention block's projections come as q, k, v, out: the engine then reads the fused [3D, D] (or
    cross-attention's [2D, D]) panels of an int8 file in place, with no copy."""
    def key(name):
        return (-tensors[name].element_size(), re.sub(r"\.(q|k|v|out)_proj\.", lambda m: f".proj{'qkvo'.index(m[1][0])}.", name))
    return sorted(tensors, key=key)


def header_padding(json_length, wide_bytes):
    """Spaces after a header of `json_length` bytes, followed by `wide_bytes` of tensors wider than a
    byte: the 1-byte tensors (int8 weights) then start on a 16-byte boundary of the file, where the
    engine's int8 kernels load them (an engine allocates a file 64-byte aligned), and the wider ones
    on a multiple of 8, or of 4 where no multiple of 8 does both (models/model_file.py and
    bindings/src/convert/model-file.ts pad alike); where nothing does both (a 2-byte tensor of odd
    length), the header is padded to a multiple of 8."""
    for step in (8, 4):
        for pad in range(16):
            start = 8 + json_length + pad
            if start % step == 0 and (start + wide_bytes) % 16 == 0:
                return pad
    return -json_length % 8


def write_safetensors(path, tensors, metadata):
    """Writes {name: tensor} and a {str: str} metadata map as safetensors, in _tensor_order, the header
    padded by header_padding. A model file (metadata format "crossattn") gets its `checksum`
    (docs/model-format.md): the XXH3-64 of the whole file with the checksum's 16 hex digits read as
    zeros, written into those digits; its tensors are first checked against the spec
    (cpp/model/tensor_spec.json, tensor_spec.py), so that nothing the engine would refuse is written."""
    order = _tensor_order(tensors)
    if metadata.get("format") == FORMAT:
        tokenizer = json.loads(metadata["tokenizer"])
        check_tensors(json.loads(metadata["config"]), {n: (DTYPES[t.dtype], list(t.shape)) for n, t in tensors.items()},
                      {tokenizer["source_spm"], tokenizer["target_spm"]})
        metadata = {**metadata, "checksum": CHECKSUM_ZEROS}
    header, offset, blobs = {"__metadata__": metadata}, 0, []
    for name in order:
        t = tensors[name].contiguous()
        data = t.numpy().tobytes()
        header[name] = {"dtype": DTYPES[t.dtype], "shape": list(t.shape), "data_offsets": [offset, offset + len(data)]}
        blobs.append(data)
        offset += len(data)
    header_bytes = json.dumps(header, separators=(",", ":")).encode("utf-8")
    wide = sum(len(blob) for name, blob in zip(order, blobs) if tensors[name].element_size() > 1)
    header_bytes += b" " * header_padding(len(header_bytes), wide)
    head = struct.pack("<Q", len(header_bytes)) + header_bytes
    if "checksum" in metadata:
        digest = xxhash.xxh3_64(head)
        for blob in blobs:
            digest.update(blob)
        head = head.replace(CHECKSUM_ZEROS.encode(), f"xxh3:{digest.intdigest():016x}".encode(), 1)
    with open(path, "wb") as f:
        f.write(head)
        for blob in blobs:
            f.write(blob)


def stamp(path):
    """Rewrites a model file with its checksum (the same tensors and metadata, checksum recomputed)."""
    tensors, metadata = read_safetensors(path)
    write_safetensors(path, tensors, metadata)


def read_safetensors(path):
    """Returns ({name: tensor}, metadata) of a safetensors file."""
    with open(path, "rb") as f:
        raw = f.read()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8 : 8 + n])
    metadata = header.pop("__metadata__", {})
    data = raw[8 + n :]
    tensors = {}
    for name, entry in header.items():
        begin, end = entry["data_offsets"]
        t = torch.frombuffer(bytearray(data[begin:end]), dtype=TORCH_DTYPES[entry["dtype"]])
        tensors[name] = t.reshape(entry["shape"])
    return tensors, metadata


def sentencepiece_of(path, side="source"):
    """A SentencePieceProcessor from a SentencePiece .model file, or from the `side` ("source" or
    "target") tokenizer tensor that a model file's metadata names (docs/model-format.md)."""
    import sentencepiece as spm

    if not path.endswith(".crossattn"):
        return spm.SentencePieceProcessor(model_file=path)
    tensors, metadata = read_safetensors(path)
    name = json.loads(metadata["tokenizer"])[f"{side}_spm"]
    return spm.SentencePieceProcessor(model_proto=tensors[name].numpy().tobytes())


def load_model(path):
    """The fp32 Transformer of a model file (int8 tensors dequantized), its config, tensors and metadata."""
    from transformer import Transformer

    tensors, metadata = read_safetensors(path)
    config = json.loads(metadata["config"])
    config.setdefault("dropout", 0.0)
    for key in ("attention_dropout", "activation_dropout"):
        config.setdefault(key, 0.0)
    model = Transformer(config)
    state = {}
    for key in model.state_dict():
        state[key] = dequantized(tensors, engine_name(key))
    model.load_state_dict(state)
    return model.eval(), config, tensors, metadata


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description="Rewrites model files with their checksum (docs/model-format.md).")
    ap.add_argument("--stamp", nargs="+", required=True, metavar="FILE", help="model files to rewrite in place")
    for file in ap.parse_args().stamp:
        stamp(file)
        print(f"{file}: {read_safetensors(file)[1]['checksum']}")
