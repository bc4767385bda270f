"""The model file's tensor spec (cpp/model/tensor_spec.json) read from Python: which tensors a config
calls for, and the check every model file written here passes before it is written (model_file.py's
write_safetensors), as the engine's loader (cpp/model/tensor_spec.cc) and the converters
(bindings/src/convert/tensor-spec.ts) check the same list.
"""
import json
import os

SPEC_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cpp", "model", "tensor_spec.json")
FLOAT_DTYPES = {"F32", "F16", "BF16"}


def _holds(condition, c):
    ssru = c.get("decoder_autoregression", "self-attention") == "ssru"
    return {
        None: True, "shared_vocab": c["shared_vocab"], "!shared_vocab": not c["shared_vocab"],
        "!tied_embeddings": not c["tied_embeddings"], "final_logits_bias": c.get("final_logits_bias", False),
        "pre_norm": c["layer_norm"] == "pre", "self_attention": not ssru, "ssru": ssru,
    }[condition]


def _dimension(rule, c):
    base, _, plus = rule.partition("+")
    size = {"D": c["d_model"], "F": c["d_ff"], "V": c["vocab_size"],
            "Vs": c.get("source_vocab_size", c["vocab_size"]), "n": -1}[base]
    return -1 if size < 0 else size + int(plus or 0)


def expected_tensors(config):
    """[(name, shape, kind, optional group index or None)] that `config` (the file's config dict) calls
    for, layers expanded; -1 in a shape is any length."""
    with open(SPEC_PATH) as f:
        spec = json.load(f)
    out = []
    for g, group in enumerate(spec["groups"]):
        layers = {"encoder_layer": config["encoder_layers"], "decoder_layer": config["decoder_layers"]}.get(group["scope"], 1)
        for i in range(layers):
            prefix = group.get("prefix", "").replace("{i}", str(i))
            for t in group["tensors"]:
                if _holds(t.get("when"), config):
                    shape = [_dimension(d, config) for d in t["shape"]]
                    out.append((prefix + t["name"], shape, t["kind"], g if group.get("all_or_none") else None))
    return out


def _shape_ok(actual, expected):
    if len(actual) == 2 and len(expected) == 1 and actual[0] == 1:
        actual = actual[1:]
    return len(actual) == len(expected) and all(e < 0 or a == e for a, e in zip(actual, expected))


def _problem(name, dtype, shape, kind, expected, dtypes):
    """dtypes: {name: (dtype, shape)} of the file. The problem with one tensor, or None."""
    if kind in ("ids", "f32"):
        if dtype != {"ids": "I32", "f32": "F32"}[kind]:
            return f"is {dtype}, the spec needs {'I32' if kind == 'ids' else 'F32'}"
    elif kind == "matrix" and dtype == "I8":
        scale = dtypes.get(name + "_scale")
        if scale is None or scale[0] != "F32" or not _shape_ok(scale[1], expected[:1]):
            return f"is I8 without an F32 '{name}_scale' of shape [{expected[0]}]"
        out, inputs = expected
        if _shape_ok(shape, [(out + 3) // 4, (inputs + 3) // 4, 16]):
            return None  # the int8 kernel layout
    elif dtype not in FLOAT_DTYPES:
        return f"is {dtype}, the spec needs a float dtype"
    return None if _shape_ok(shape, expected) else f"has shape {shape}, the config needs {expected}"


def check_tensors(config, dtypes, tokenizer_tensors):
    """Raises ValueError naming the first tensor that disagrees with the spec: missing, misshapen,
    wrongly typed, an optional group that is not whole, or a tensor the spec does not know.
    dtypes: {name: (dtype string, shape list)}; tokenizer_tensors: the U8 tensors the metadata names."""
    expected = expected_tensors(config)
    present_groups = {g for name, _, _, g in expected if g is not None and name in dtypes}
    known = set(tokenizer_tensors)
    for name, shape, kind, group in expected:
        known.add(name)
        if kind == "matrix" and dtypes.get(name, ("",))[0] == "I8":  # a scale only beside an I8 matrix, as the loader
            known.add(name + "_scale")
        if name not in dtypes:
            if group is None or group in present_groups:
                raise ValueError(f"tensor '{name}' is missing: the config calls for it")
            continue
        problem = _problem(name, *dtypes[name], kind, shape, dtypes)
        if problem:
            raise ValueError(f"tensor '{name}' {problem}")
    unknown = sorted(set(dtypes) - known)
    if unknown:
        raise ValueError(f"tensor '{unknown[0]}' is not a tensor of this config (cpp/model/tensor_spec.json)")
