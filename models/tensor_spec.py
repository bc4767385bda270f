"""The model file's spec (cpp/model/tensor_spec.json, as tables in model_spec_generated.py) read from
Python: whether a config is valid, which tensors it calls for, and the check every model file written
here passes before it is written (model_file.py's write_safetensors), as the engine's loader
(cpp/model/config.cc, tensor_spec.cc) and the converters (bindings/src/convert/tensor-spec.ts) check.
"""
import json
import re

from model_spec_generated import CONDITIONS, CONFIG_FIELDS, DIMENSIONS, FORMAT_ROWS, TENSOR_GROUPS

FLOAT_DTYPES = {"F32", "F16", "BF16"}


def _field_problem(f, value, config):
    """Why `value` is not a valid field `f` under the fields before it (`config`), or None."""
    kind = f["type"]
    if kind in ("int", "number"):
        top = min(f.get("max", float("inf")), config[f["below"]] - 1 if "below" in f else float("inf"))
        numeric = isinstance(value, int if kind == "int" else (int, float)) and not isinstance(value, bool)
        if numeric and f["min"] <= value <= top:
            return None
        below = f" (below {f['below']})" if "below" in f else ""
        top_text = json.dumps(top) if isinstance(top, float) and not top.is_integer() else int(top)
        return f"must be {'an integer' if kind == 'int' else 'a number'} in {f['min']}..{top_text}{below}"
    if kind == "bool":
        return None if isinstance(value, bool) else "must be true or false"
    if kind == "string":
        return None if isinstance(value, str) else "must be a string"
    return None if isinstance(value, str) and value in f["values"] else "must be one of " + ", ".join(json.dumps(v) for v in f["values"])


def resolve_config(config):
    """`config` (the file's config dict) with every field of the spec present: absent ones take their
    defaults (a value, or an earlier field's value), and every field is checked as given.
    Raises ValueError naming the first field at fault."""
    out = dict(config)
    for f in CONFIG_FIELDS:
        name, defaulted = f["name"], f["name"] not in config
        if defaulted:
            if "default" not in f and "default_from" not in f:
                raise ValueError(f"config field '{name}' is missing: the spec requires it")
            out[name] = f["default"] if "default" in f else out[f["default_from"]]
        problem = _field_problem(f, out[name], out)
        if problem:
            raise ValueError(f"config field '{name}' {problem}, not {json.dumps(out[name])}{' (its default)' if defaulted else ''}")
    return out


_LAYER = re.compile(r"\{i(\+1)?\}")


def _read(pattern, name):
    """(layer index or -1, rest after a prefix) of `name` read by `pattern` (one side of a row), or None
    when it does not match or names a layer below 0."""
    prefix = pattern == "" or pattern.endswith(".")
    token = _LAYER.search(pattern)
    regex = re.escape(pattern[:token.start()]) + r"(\d+)" + re.escape(pattern[token.end():]) if token else re.escape(pattern)
    match = re.fullmatch(regex + ("(.*)" if prefix else ""), name)
    if not match:
        return None
    layer = int(match.group(1)) - (1 if token.group(1) else 0) if token else -1
    if token and layer < 0:
        return None
    return layer, match.groups()[-1] if prefix else ""


def _rename(format_name, name, source, target, config):
    """(the name on the `target` side, the row) of the first row whose `source` side reads `name`, or None."""
    c = resolve_config(config) if config is not None else None
    for row in FORMAT_ROWS[format_name]:
        when = CONDITIONS.get(row.get("when"))
        if when and (c is None or c[when["field"]] != when["is"]):
            continue
        parts = _read(row[source], name)
        if parts is not None:
            layer, rest = parts
            return _LAYER.sub(lambda m: str(layer + (1 if m.group(1) else 0)), row[target]) + rest, row
    return None


def their_row(format_name, ours, config=None):
    """`format_name`'s name for our tensor `ours`, and the row that gives it (its "role" says how the
    format stores the tensor, its "residual" which of our axes are the residual stream's), by the
    format's rows in the spec (FORMAT_ROWS, as bindings/src/convert/format-rows.ts reads them): a row
    maps a whole name, or every name under a prefix ending in "." (or empty); "{i}" is a layer index
    and "{i+1}" the same counted from 1; a row with a condition holds only for a `config` it is true
    of; the first row that matches wins. Raises KeyError when no row maps it."""
    found = _rename(format_name, ours, "ours", "theirs", config)
    if found is None:
        raise KeyError(f"tensor_spec.json: the format '{format_name}' has no row for '{ours}'")
    return found


def their_name(format_name, ours, config=None):
    """`format_name`'s name for our tensor `ours` (their_row's name). Raises KeyError as their_row."""
    return their_row(format_name, ours, config)[0]


def our_name(format_name, theirs, config=None):
    """Our name for `format_name`'s tensor `theirs` (their_name the other way), or None."""
    found = _rename(format_name, theirs, "theirs", "ours", config)
    return found[0] if found else None


def _expanded(config):
    """(name, shape, the spec's tensor, optional group index or None) of each tensor `config` calls for."""
    c = resolve_config(config)

    def dimension(rule):
        base, _, plus = rule.partition("+")
        field = DIMENSIONS[base]
        return -1 if field is None else c[field] + int(plus or 0)

    for g, group in enumerate(TENSOR_GROUPS):
        layers = {"encoder_layer": c["encoder_layers"], "decoder_layer": c["decoder_layers"]}.get(group["scope"], 1)
        for i in range(layers):
            prefix = group.get("prefix", "").replace("{i}", str(i))
            for t in group["tensors"]:
                when = CONDITIONS.get(t.get("when"))
                if when is None or c[when["field"]] == when["is"]:
                    yield prefix + t["name"], [dimension(d) for d in t["shape"]], t, g if group.get("all_or_none") else None


def expected_tensors(config):
    """[(name, shape, kind, optional group index or None)] that `config` (the file's config dict) calls
    for, layers expanded; -1 in a shape is any length. Raises ValueError for an invalid config."""
    return [(name, shape, t["kind"], group) for name, shape, t, group in _expanded(config)]


def initial_tensors(config, generator, std=0.02):
    """{name: fp32 tensor} of every tensor `config` calls for but the optional groups', in the spec's
    order, at initial values: the spec's init where it has one (ones for a layer norm's scale, zeros for
    a bias), else N(0, std²) drawn from `generator` (a torch.Generator). For models whose weights only
    their size matters to (the bench's size fixtures). Raises ValueError for an invalid config."""
    import torch

    out = {}
    for name, shape, t, group in _expanded(config):
        if group is not None:
            continue
        init = t.get("init")
        if init == "ones":
            out[name] = torch.ones(shape)
        elif init == "zeros":
            out[name] = torch.zeros(shape)
        else:
            out[name] = torch.randn(*shape, generator=generator) * std
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
