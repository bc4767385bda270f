#!/usr/bin/env python3
"""q8 (dynamic int8) quantization of an ONNX model, replicating what transformers.js produces.

  /usr/bin/python3 bench/quantize_onnx.py IN.onnx OUT.onnx [--per-tensor] [--no-reduce-range]

transformers.js (scripts/quantize.py, quantize_q8) builds onnxruntime's
ONNXQuantizer(mode=QuantizationMode.IntegerOps, static=False, weight_qType=QInt8 (QUInt8 only when the model
has Conv/GroupQueryAttention/MultiHeadAttention), activation_qType=QUInt8,
op_types_to_quantize=IntegerOpsRegistry.keys(), extra_options={EnableSubgraph: True, MatMulConstBOnly: True})
with per_channel=True, reduce_range=True for every model type not in convert.py's
NO_PER_CHANNEL_REDUCE_RANGE_MODELS (encoder-decoder translation models such as marian are not in it).
That is onnxruntime's quantize_dynamic with the QOperator format; docs/performance.md lists the sources read.

This file re-implements that transformation with `onnx` and `numpy` only (onnxruntime's Python package is
not installable here). Defaults reproduce convert.py's settings for our model type (per-channel, reduce-range,
int8 symmetric weights); --per-tensor --no-reduce-range give quantize.py's own defaults (per_channel=None,
reduce_range=None, i.e. False).

What it does, op by op (onnxruntime IntegerOpsRegistry):
  Gemm   -> first rewritten to MatMul (+ Add of C) when alpha == beta == 1 and transA == 0 (a transB
            initializer is transposed in place), as ONNXQuantizer.__init__ does for static=False; else left.
  MatMul -> with B an initializer and A or B float: DynamicQuantizeLinear(A) (uint8, per tensor, computed at
            run time; one per distinct A, shared by the MatMuls that read it), B quantized offline to int8
            (symmetric, zero point 0; per output column when per-channel; range [-64, 64] when reduce-range,
            [-127, 127] otherwise), then MatMulInteger -> Cast(float) -> Mul(A_scale * B_scale) -> output.
            MatMuls whose B is not an initializer (attention scores, attention x V) stay float.
  Gather -> with a float initializer as data (embedding tables): the table is stored uint8 asymmetric per
            tensor, the Gather runs on uint8, and a DequantizeLinear restores the float output for the
            (unquantized) consumers.
  Transpose -> quantized only if its input is already quantized (Direct8BitOp); otherwise left.
  Conv, LSTM, Attention, EmbedLayerNormalization -> not implemented here (an error if present).
  Everything else stays float; a DequantizeLinear is inserted wherever a float op reads a quantized value.
"""
import argparse
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

QUANT_SUFFIX = "_quantized"  # quant_utils.TENSOR_NAME_QUANT_SUFFIX
INTEGER_OPS = {"Conv", "MatMul", "Attention", "LSTM", "Gather", "Transpose", "EmbedLayerNormalization"}

# quant_utils.ONNX_INT_TYPE_RANGE / _SYMMETRIC_RANGE / _REDUCED_RANGE
INT_RANGE = {TensorProto.UINT8: (0, 255), TensorProto.INT8: (-128, 127)}
SYMMETRIC_RANGE = {TensorProto.UINT8: (0, 254), TensorProto.INT8: (-127, 127)}
REDUCED_RANGE = {TensorProto.UINT8: (0, 127), TensorProto.INT8: (-64, 64)}
NP_TYPE = {TensorProto.UINT8: np.uint8, TensorProto.INT8: np.int8}


def qmin_qmax(qtype, reduce_range, symmetric):
    """quant_utils.get_qmin_qmax_for_qType."""
    if reduce_range:
        lo, hi = REDUCED_RANGE[qtype]
    elif symmetric:
        lo, hi = SYMMETRIC_RANGE[qtype]
    else:
        lo, hi = INT_RANGE[qtype]
    dt = NP_TYPE[qtype]
    return np.array(lo, dtype=dt), np.array(hi, dtype=dt)


def compute_scale_zp(rmin, rmax, qmin, qmax, symmetric):
    """quant_utils.compute_scale_zp (min_real_range=None)."""
    rmin = np.minimum(rmin, np.array(0, dtype=rmin.dtype))
    rmax = np.maximum(rmax, np.array(0, dtype=rmax.dtype))
    if symmetric:
        absmax = np.maximum(np.abs(rmin), np.abs(rmax))
        rmin, rmax = -absmax, +absmax
    dr = np.array(rmax - rmin, dtype=np.float64)
    dq = np.array(qmax, dtype=np.float64) - np.array(qmin, dtype=np.float64)
    scale = np.array(dr / dq)
    if scale < np.finfo(rmax.dtype).tiny:
        return np.array(0, dtype=qmin.dtype), np.array(1.0, dtype=rmax.dtype)
    if symmetric:
        zero_point = np.array(np.round((qmin + qmax) / np.array(2.0, dtype=np.float64)), dtype=qmin.dtype)
    else:
        zero_point = np.array(np.round(qmin - rmin / scale), dtype=qmin.dtype)
    return zero_point, scale.astype(rmax.dtype)


def quantize_nparray(qtype, arr, scale, zero_point):
    """quant_utils.quantize_nparray for 8-bit integer types (clip to the full type range)."""
    lo, hi = INT_RANGE[qtype]
    arr_fp32 = np.asarray((arr.astype(np.float32) / scale).round() + zero_point)
    np.clip(arr_fp32, lo, hi, out=arr_fp32)
    return arr_fp32.astype(NP_TYPE[qtype])


def quantize_data(data, qtype, symmetric, reduce_range):
    """quant_utils.quantize_data / compute_data_quant_params: returns zero_point, scale, quantized data."""
    rmin = np.array(data.min() if len(data) else 0.0, dtype=data.dtype)
    rmax = np.array(data.max() if len(data) else 0.0, dtype=data.dtype)
    qmin, qmax = qmin_qmax(qtype, reduce_range, symmetric)
    if len(data):
        zero_point, scale = compute_scale_zp(rmin, rmax, qmin, qmax, symmetric)
    else:
        zero_point, scale = np.array(0, dtype=qmin.dtype), np.array(1.0, dtype=data.dtype)
    return zero_point, scale, quantize_nparray(qtype, data, scale, zero_point)


class QuantizedValue:
    def __init__(self, name, q_name, scale_name, zp_name):
        self.name, self.q_name, self.scale_name, self.zp_name = name, q_name, scale_name, zp_name


class Q8Quantizer:
    """The parts of onnxruntime's BaseQuantizer/ONNXQuantizer that IntegerOps + dynamic mode uses."""

    def __init__(self, model, per_channel=True, reduce_range=True, weight_qtype=TensorProto.INT8):
        self.per_channel = per_channel
        self.reduce_range = reduce_range
        self.weight_qtype = weight_qtype
        self.activation_qtype = TensorProto.UINT8
        # BaseQuantizer: WeightSymmetric defaults to weight type in (INT4, INT8, INT16, FLOAT8); ActivationSymmetric False.
        self.weight_symmetric = weight_qtype == TensorProto.INT8
        self.activation_symmetric = False
        self.op_types = set(INTEGER_OPS)
        self.model = model
        opset = [o.version for o in model.opset_import if o.domain in ("", "ai.onnx")]
        if len(opset) != 1 or opset[0] < 11:
            raise ValueError("this re-implementation handles ai.onnx opset >= 11 only (DynamicQuantizeLinear path)")
        self.replace_gemm_with_matmul()
        self.model = onnx.shape_inference.infer_shapes(self.model)
        g = self.model.graph
        self.value_types = {}
        for vi in list(g.value_info) + list(g.output) + list(g.input):
            if vi.type.HasField("tensor_type"):
                self.value_types[vi.name] = vi.type.tensor_type.elem_type
        self.initializers = {i.name: i for i in g.initializer}
        init_names = set(self.initializers)
        self.generated_value_names = {i.name for i in g.input if i.name not in init_names}
        self.new_nodes = []
        self.new_node_names = set()
        self.quantized_value_map = {}
        self.new_initializers = []
        self.stats = {"MatMulInteger": 0, "MatMul kept float": 0, "Gather quantized": 0, "DynamicQuantizeLinear": 0,
                      "DequantizeLinear": 0, "Gemm rewritten": 0}

    # --- ONNXModel.replace_gemm_with_matmul ------------------------------------------------------
    def replace_gemm_with_matmul(self):
        g = self.model.graph
        inits = {i.name: i for i in g.initializer}
        nodes = []
        for node in g.node:
            if node.op_type != "Gemm":
                nodes.append(node)
                continue
            attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
            alpha, beta = attrs.get("alpha", 1.0), attrs.get("beta", 1.0)
            trans_a, trans_b = attrs.get("transA", 0), attrs.get("transB", 0)
            if not (alpha == 1.0 and beta == 1.0 and trans_a == 0):
                nodes.append(node)
                continue
            input_b = node.input[1]
            if trans_b == 1:
                if input_b in inits:
                    b = inits[input_b]
                    b_t = numpy_helper.from_array(numpy_helper.to_array(b).T.copy(), b.name)
                    g.initializer.remove(b)
                    g.initializer.append(b_t)
                    inits[input_b] = b_t
                else:
                    input_b += "_Transposed"
                    nodes.append(helper.make_node("Transpose", [node.input[1]], [input_b],
                                                  name=node.name + "_Transpose" if node.name else ""))
            has_c = len(node.input) > 2
            nodes.append(helper.make_node("MatMul", [node.input[0], input_b],
                                          [node.output[0] + ("_MatMul" if has_c else "")],
                                          name=node.name + "_MatMul" if node.name else ""))
            if has_c:
                nodes.append(helper.make_node("Add", [node.output[0] + "_MatMul", node.input[2]], list(node.output),
                                              name=node.name + "_Add" if node.name else ""))
            self.stats_gemm = getattr(self, "stats_gemm", 0) + 1
        g.ClearField("node")
        g.node.extend(nodes)

    # --- helpers ------------------------------------------------------------------------------------
    def add_initializer(self, tensor):
        if tensor.name in self.initializers:
            return
        self.initializers[tensor.name] = tensor
        self.new_initializers.append(tensor)

    def is_valid_quantize_weight(self, name):
        t = self.initializers.get(name)
        return t is not None and t.data_type in (TensorProto.FLOAT, TensorProto.FLOAT16)

    def is_float_tensor(self, name):
        if name in self.initializers:
            return self.is_valid_quantize_weight(name)
        return self.value_types.get(name) in (TensorProto.FLOAT, TensorProto.FLOAT16)

    def append(self, nodes):
        for n in nodes:
            self.new_nodes.append(n)
            if n.name:
                self.new_node_names.add(n.name)

    # --- BaseQuantizer.quantize_initializer_impl / quantize_weight_per_channel_impl -----------------
    def quantize_initializer(self, weight, qtype, reduce_range):
        if weight.name in self.quantized_value_map:
            qv = self.quantized_value_map[weight.name]
            return qv.q_name, qv.zp_name, qv.scale_name
        q_name, zp_name, scale_name = weight.name + QUANT_SUFFIX, weight.name + "_zero_point", weight.name + "_scale"
        data = numpy_helper.to_array(weight)
        symmetric = self.weight_symmetric if qtype == self.weight_qtype else self.activation_symmetric
        zero_point, scale, q = quantize_data(data.flatten(), qtype, symmetric, self.reduce_range and reduce_range)
        self.add_initializer(helper.make_tensor(scale_name, weight.data_type, [], scale.reshape((-1,)).tolist()))
        self.add_initializer(helper.make_tensor(zp_name, qtype, [], zero_point.reshape((-1,)).tolist()))
        self.add_initializer(numpy_helper.from_array(q.reshape(tuple(weight.dims)), q_name))
        self.quantized_value_map[weight.name] = QuantizedValue(weight.name, q_name, scale_name, zp_name)
        return q_name, zp_name, scale_name

    def quantize_weight_per_channel(self, name, qtype, channel_axis, reduce_range):
        if name in self.quantized_value_map:
            qv = self.quantized_value_map[name]
            return qv.q_name, qv.zp_name, qv.scale_name
        weight = self.initializers[name]
        w = numpy_helper.to_array(weight)
        axis = channel_axis % w.ndim
        symmetric = self.weight_symmetric if qtype == self.weight_qtype else False
        reduce = self.reduce_range and reduce_range
        reshape_dims = list(w.shape)
        reshape_dims[axis] = 1
        zps, scales, parts = [], [], []
        for i in range(w.shape[axis]):
            zp, s, q = quantize_data(w.take(i, axis).flatten(), qtype, symmetric, reduce)
            zps.append(zp)
            scales.append(s)
            parts.append(np.asarray(q).reshape(reshape_dims))
        qw = np.concatenate(parts, axis)
        q_name, zp_name, scale_name = name + QUANT_SUFFIX, name + "_zero_point", name + "_scale"
        shape = [w.shape[axis]]
        self.add_initializer(helper.make_tensor(scale_name, weight.data_type, shape, np.hstack(scales).tolist()))
        self.add_initializer(helper.make_tensor(zp_name, qtype, shape, np.hstack(zps).tolist()))
        self.add_initializer(numpy_helper.from_array(qw.astype(NP_TYPE[qtype]).reshape(tuple(weight.dims)), q_name))
        self.quantized_value_map[name] = QuantizedValue(name, q_name, scale_name, zp_name)
        return q_name, zp_name, scale_name

    # --- ONNXQuantizer.__quantize_inputs --------------------------------------------------------------
    def quantize_inputs(self, node, indices, use_weight_qtype, reduce_range, per_channel, axis=-1):
        q_names, zp_names, scale_names, nodes = [], [], [], []
        for idx in indices:
            name = node.input[idx]
            if name in self.quantized_value_map:
                qv = self.quantized_value_map[name]
                q_names.append(qv.q_name); zp_names.append(qv.zp_name); scale_names.append(qv.scale_name)
                continue
            if name in self.initializers:
                qtype = self.weight_qtype if use_weight_qtype else self.activation_qtype
                if self.per_channel and per_channel:
                    q, zp, s = self.quantize_weight_per_channel(name, qtype, axis, reduce_range)
                else:
                    q, zp, s = self.quantize_initializer(self.initializers[name], qtype, reduce_range)
                q_names.append(q); zp_names.append(zp); scale_names.append(s)
                continue
            # _get_quantize_input_nodes, dynamic mode with opset > 10 and uint8 activations.
            ql_name = name + "_QuantizeLinear"
            q, s, zp = name + QUANT_SUFFIX, name + "_scale", name + "_zero_point"
            if ql_name not in self.new_node_names:
                nodes.append(helper.make_node("DynamicQuantizeLinear", [name], [q, s, zp], ql_name))
                self.stats["DynamicQuantizeLinear"] += 1
            self.quantized_value_map[name] = QuantizedValue(name, q, s, zp)
            q_names.append(q); zp_names.append(zp); scale_names.append(s)
        return q_names, zp_names, scale_names, nodes

    # --- operators/matmul.py MatMulInteger -------------------------------------------------------------
    def matmul_should_quantize(self, node):
        if not self.is_float_tensor(node.input[1]) and not self.is_float_tensor(node.input[0]):
            return False
        if node.input[1] not in self.initializers:  # MatMulConstBOnly
            print(f"Ignore MatMul due to non constant B: /[{node.name}]")
            return False
        return True

    def quantize_matmul(self, node):
        q_a, zp_a, s_a, nodes = self.quantize_inputs(node, [0], use_weight_qtype=False, reduce_range=False,
                                                     per_channel=False)
        q_b, zp_b, s_b, nodes_b = self.quantize_inputs(node, [1], use_weight_qtype=True, reduce_range=True,
                                                       per_channel=True)
        nodes += nodes_b
        q_names, zp_names, scale_names = q_a + q_b, zp_a + zp_b, s_a + s_b
        mmi_out = node.output[0] + "_output_quantized"
        mmi_name = node.name + "_quant" if node.name else ""
        nodes.append(helper.make_node("MatMulInteger", q_names + zp_names, [mmi_out], mmi_name))
        cast_out = mmi_out + "_cast_output"
        nodes.append(helper.make_node("Cast", [mmi_out], [cast_out], mmi_out + "_cast", to=TensorProto.FLOAT))
        scales_mul = mmi_name + "_scales_mul" if mmi_name else scale_names[0] + "_" + scale_names[1] + "_mul"
        if scales_mul not in self.new_node_names:
            nodes.append(helper.make_node("Mul", scale_names, [scales_mul + ":0"], scales_mul))
        nodes.append(helper.make_node("Mul", [cast_out, scales_mul + ":0"], [node.output[0]],
                                      mmi_name + "_output_scale_mul" if mmi_name else ""))
        self.append(nodes)
        self.stats["MatMulInteger"] += 1

    # --- operators/gather.py GatherQuant ------------------------------------------------------------------
    def quantize_gather(self, node):
        q, zp, s, nodes = self.quantize_inputs(node, [0], use_weight_qtype=False, reduce_range=False,
                                               per_channel=False)
        new_out = node.output[0] + QUANT_SUFFIX
        self.quantized_value_map[node.output[0]] = QuantizedValue(node.output[0], new_out, s[0], zp[0])
        gather = onnx.NodeProto()
        gather.CopyFrom(node)
        gather.output[0] = new_out
        gather.input[0] = q[0]
        nodes.append(gather)
        self.append(nodes)
        self.stats["Gather quantized"] += 1

    # --- operators/direct_q8.py Direct8BitOp (IntegerOps registry entry for Transpose) --------------------
    def quantize_direct8(self, node):
        qv = self.quantized_value_map.get(node.input[0])
        if qv is None:
            self.append([node])
            return
        out = QuantizedValue(node.output[0], node.output[0] + QUANT_SUFFIX, qv.scale_name, qv.zp_name)
        self.quantized_value_map[node.output[0]] = out
        n = onnx.NodeProto()
        n.CopyFrom(node)
        n.input[0], n.output[0] = qv.q_name, out.q_name
        self.append([n])

    # --- ONNXQuantizer._dequantize_value / QuantOperatorBase.quantize ------------------------------------
    def dequantize_value(self, name):
        if name in self.quantized_value_map and name not in self.generated_value_names:
            qv = self.quantized_value_map[name]
            scale = self.initializers.get(qv.scale_name)
            assert scale is None or numpy_helper.to_array(scale).size == 1
            dq_name = name + "_DequantizeLinear"
            if dq_name not in self.new_node_names:
                self.stats["DequantizeLinear"] += 1
                return helper.make_node("DequantizeLinear", [qv.q_name, qv.scale_name, qv.zp_name], [name], dq_name)
        return None

    def keep_float(self, node):
        for name in node.input:
            dq = self.dequantize_value(name)
            if dq is not None:
                self.append([dq])
        self.append([node])

    def quantize_model(self):
        g = self.model.graph
        for node in g.node:
            if any(a.type in (onnx.AttributeProto.GRAPH, onnx.AttributeProto.GRAPHS) for a in node.attribute):
                raise NotImplementedError("subgraphs (EnableSubgraph) are not replicated here")
            start = len(self.new_nodes)
            op = node.op_type if node.op_type in self.op_types else None
            if op in ("Conv", "LSTM", "Attention", "EmbedLayerNormalization"):
                raise NotImplementedError(f"{op} quantization is not replicated here")
            if op == "MatMul" and self.matmul_should_quantize(node):
                self.quantize_matmul(node)
            elif op == "Gather" and self.is_valid_quantize_weight(node.input[0]):
                self.quantize_gather(node)
            elif op == "Transpose":
                self.quantize_direct8(node)
            else:
                if node.op_type == "MatMul":
                    self.stats["MatMul kept float"] += 1
                self.keep_float(node)
            for n in self.new_nodes[start:]:
                self.generated_value_names.update(n.output)
        for out in g.output:  # _dequantize_outputs
            dq = self.dequantize_value(out.name)
            if dq is not None:
                self.append([dq])
        g.ClearField("node")
        g.node.extend(self.new_nodes)
        g.initializer.extend(self.new_initializers)
        # ONNXModel.clean_initializers: drop initializers no node (or graph output) reads.
        used = {i for n in g.node for i in n.input} | {o.name for o in g.output}
        unused = [t for t in g.initializer if t.name not in used]
        for t in unused:
            g.initializer.remove(t)
        for vi in list(g.input):
            if vi.name in {t.name for t in unused}:
                g.input.remove(vi)
        # The quantizer's model came through shape inference; ORT keeps those value_infos too. Drop them so the
        # saved graph does not carry stale types for renamed tensors.
        g.ClearField("value_info")
        self.model.producer_name = "onnx.quantize"  # quant_utils.__producer__
        self.model.producer_version = "0.1.0"  # quant_utils.__version__
        self.stats["Gemm rewritten"] = getattr(self, "stats_gemm", 0)
        return self.model


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("input")
    ap.add_argument("output")
    ap.add_argument("--per-tensor", action="store_true", help="per_channel=False (quantize.py's own default)")
    ap.add_argument("--no-reduce-range", action="store_true", help="reduce_range=False (quantize.py's own default)")
    ap.add_argument("--uint8-weights", action="store_true", help="weight_type=QUInt8 (models with Conv)")
    args = ap.parse_args()
    model = onnx.load(args.input)
    ops = {n.op_type for n in model.graph.node}
    if not args.uint8_weights and ops & {"Conv", "GroupQueryAttention", "MultiHeadAttention"}:
        print("note: transformers.js would pick QUInt8 weights for this model (it has Conv/GQA/MHA)", file=sys.stderr)
    q = Q8Quantizer(model, per_channel=not args.per_tensor, reduce_range=not args.no_reduce_range,
                    weight_qtype=TensorProto.UINT8 if args.uint8_weights else TensorProto.INT8)
    out = q.quantize_model()
    onnx.checker.check_model(out, full_check=True)  # transformers.js scripts/utils.py strict_check_model
    onnx.save(out, args.output)
    print(f"{args.input} -> {args.output}: {q.stats}")


if __name__ == "__main__":
    main()
