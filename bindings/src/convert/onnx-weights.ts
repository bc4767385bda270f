/**
 * The weights of an OPUS-MT encoder or decoder exported to ONNX (optimum / torch.onnx, as in
 * Xenova/opus-mt-*), mapped back to HF MarianMT's names through the graph. torch.onnx names each node
 * by the module that ran it (`/model/encoder/layers.0/self_attn/q_proj/MatMul`), so the module is the
 * node's path; the weight is the node's initializer input, which is often anonymous
 * (`onnx::MatMul_1234`, nn.Linear's weight transposed to [in, out] by constant folding).
 *
 * q8 models (onnxruntime's dynamic quantization, as transformers.js quantizes them; bench/quantize_onnx.py
 * replicates it) hold a MatMulInteger per linear layer with an int8 weight `X_quantized` [in, out],
 * its scale `X_scale` (per output column, or one) and zero point `X_zero_point`: with zero points 0
 * this is exactly our int8 layout (docs/model-format.md: W[j, k] = scale[j] * Wq[j, k]), so it is
 * kept int8, transposed; otherwise it is dequantized to fp32. Embedding tables are stored uint8 with a
 * per-tensor scale and zero point (Gather then DequantizeLinear): they are dequantized exactly as
 * DequantizeLinear computes them, (q - zero_point) * scale in fp32.
 */
import { ConvertError } from './convert-error.js';
import { sameTensor } from './files.js';
import type { Tensor } from './model-file.js';
import type { OnnxGraph, OnnxNode, OnnxTensor } from './onnx.js';

/** HF-named tensors of one graph, plus how the output layer and positions were stored. */
export interface OnnxWeights {
  tensors: Map<string, Tensor>;
  /** The position table's tolerance for checkSinusoids: 8-bit storage rounds it by half a step. */
  positionTolerance: number;
  /** Layers kept int8 (the rest are fp32). */
  int8: number;
}

const MODULE = /(?:^|\/)(?:model\/)?(encoder|decoder)\/(layers\.\d+\/(?:(?:self_attn|encoder_attn)\/(?:q|k|v|out)_proj|fc1|fc2|self_attn_layer_norm|encoder_attn_layer_norm|final_layer_norm)|embed_tokens|embed_positions)\/[^/]+$/;
const LM_HEAD = /(?:^|\/)lm_head\/[^/]+$/;

function transpose(data: Float32Array | Int8Array, rows: number, cols: number): Float32Array | Int8Array {
  const out = new (data.constructor as Float32ArrayConstructor | Int8ArrayConstructor)(data.length);
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) out[c * rows + r] = data[r * cols + c];
  return out;
}

class GraphWeights {
  readonly tensors = new Map<string, Tensor>();
  positionTolerance = 1e-3;
  private readonly producer = new Map<string, OnnxNode>();

  constructor(private readonly graph: OnnxGraph, private readonly file: string) {
    for (const n of graph.nodes) for (const o of n.outputs) this.producer.set(o, n);
  }

  private init(name: string, field: string): OnnxTensor {
    const t = this.graph.initializers.get(name);
    if (!t) throw new ConvertError(this.file, field, `needs initializer '${name}', which the graph lacks`);
    return t;
  }

  /** Records a weight; optimum's merged decoders hold each layer twice (the If node's with-past and
   * without-past branches), reading the same values: a repeat must equal the first. */
  private set(name: string, t: Tensor): void {
    const seen = this.tensors.get(name);
    if (seen && !sameTensor(seen, t)) {
      throw new ConvertError(this.file, name, 'found twice in the graph with different values');
    }
    this.tensors.set(name, t);
  }

  /** A float initializer, or one reached through Transpose (perm [1, 0]): [rows, cols] as stored for nn.Linear. */
  private linearWeight(input: string, transposed: boolean, field: string): Tensor {
    const via = this.producer.get(input);
    if (via && via.opType === 'Transpose' && this.graph.initializers.has(via.inputs[0])) return this.linearWeight(via.inputs[0], !transposed, field);
    const t = this.init(input, field);
    if (!(t.data instanceof Float32Array) || t.dims.length !== 2) throw new ConvertError(this.file, field, `'${input}' is not a float matrix`);
    const [rows, cols] = t.dims;
    return transposed ? { dtype: 'F32', shape: [cols, rows], data: transpose(t.data, rows, cols) } : { dtype: 'F32', shape: [rows, cols], data: t.data };
  }

  /** MatMulInteger's weight [in, out] with its scale and zero point -> ours [out, in], int8 when exact. */
  private integerWeight(node: OnnxNode, name: string): void {
    const q = this.init(node.inputs[1], name);
    const base = node.inputs[1].replace(/_quantized$/, '');
    const scale = this.init(`${base}_scale`, name).data as Float32Array;
    const zeroPoint = node.inputs[3] ? this.init(node.inputs[3], name).data : new Int8Array(1);
    if (q.dims.length !== 2) throw new ConvertError(this.file, name, `'${node.inputs[1]}' has dims [${q.dims}], not a matrix`);
    const [inputs, outputs] = q.dims;
    const exact = q.data instanceof Int8Array && zeroPoint.every((z) => z === 0) && !q.data.includes(-128) && (scale.length === outputs || scale.length === 1);
    const rowScale = Float32Array.from({ length: outputs }, (_, j) => scale[scale.length === 1 ? 0 : j]);
    if (exact) {
      this.set(`${name}.weight`, { dtype: 'I8', shape: [outputs, inputs], data: transpose(q.data as Int8Array, inputs, outputs) });
      this.set(`${name}.weight_scale`, { dtype: 'F32', shape: [outputs], data: rowScale });
      return;
    }
    const w = new Float32Array(inputs * outputs);  // [out, in]
    for (let k = 0; k < inputs; k++) {
      for (let j = 0; j < outputs; j++) {
        const z = zeroPoint[zeroPoint.length === 1 ? 0 : j];
        w[j * inputs + k] = (q.data[k * outputs + j] - z) * rowScale[j];
      }
    }
    this.set(`${name}.weight`, { dtype: 'F32', shape: [outputs, inputs], data: w });
  }

  /** A Gather's table: float, or 8-bit with `_scale` and `_zero_point` (DequantizeLinear per tensor). */
  private table(input: string, field: string): Tensor {
    const t = this.init(input, field);
    if (t.data instanceof Float32Array) return { dtype: 'F32', shape: t.dims, data: t.data };
    const base = input.replace(/_quantized$/, '');
    const scale = (this.init(`${base}_scale`, field).data as Float32Array)[0];
    const zeroPoint = this.init(`${base}_zero_point`, field).data[0];
    const data = Float32Array.from(t.data as Uint8Array | Int8Array, (v) => Math.fround(v - zeroPoint) * scale);
    if (field.endsWith('embed_positions')) this.positionTolerance = scale / 2 + 1e-3;
    return { dtype: 'F32', shape: t.dims, data };
  }

  private vector(node: OnnxNode, name: string, suffix: string): void {
    const input = node.inputs.find((i) => this.graph.initializers.get(i)?.dims.length === 1);
    if (!input) return;  // an Add of activations (a residual) or of a scalar constant
    const t = this.init(input, name);
    this.set(`${name}.${suffix}`, { dtype: 'F32', shape: t.dims, data: t.data as Float32Array });
  }

  /** Reads one node: the weight, bias or table its module owns, if it has one. */
  visit(node: OnnxNode): void {
    const m = MODULE.exec(node.name);
    const lm = !m && LM_HEAD.test(node.name);
    if (!m && !lm) return;
    const name = lm ? 'lm_head' : `model.${m![1]}.${m![2].replace(/\//g, '.')}`;
    const isNorm = name.endsWith('layer_norm');
    switch (node.opType) {
      case 'MatMul': if (!isNorm) this.set(`${name}.weight`, this.linearWeight(node.inputs[1], true, name)); break;
      case 'MatMulInteger': this.integerWeight(node, name); break;
      case 'Gemm': {
        this.set(`${name}.weight`, this.linearWeight(node.inputs[1], node.attributes.get('transB') !== 1, name));
        if (node.inputs[2]) this.vector({ ...node, inputs: [node.inputs[2]] }, name, 'bias');
        break;
      }
      case 'Gather': if (!isNorm) this.set(`${name}.weight`, this.table(node.inputs[0], name)); break;
      case 'LayerNormalization':
        this.set(`${name}.weight`, this.linearVector(node.inputs[1], name));
        if (node.inputs[2]) this.set(`${name}.bias`, this.linearVector(node.inputs[2], name));
        break;
      case 'Add': this.vector(node, name, 'bias'); break;
      case 'Mul': if (isNorm) this.vector(node, name, 'weight'); break;
      default:
    }
  }

  private linearVector(input: string, field: string): Tensor {
    const t = this.init(input, field);
    return { dtype: 'F32', shape: t.dims, data: t.data as Float32Array };
  }
}

/**
 * The HF-named weights in `graph` (`model.encoder.layers.0.self_attn.q_proj.weight` [out, in], ...,
 * `model.decoder.embed_tokens.weight`, `lm_head.weight`, `final_logits_bias` when the graph has them).
 * @throws ConvertError naming `file` when a node's weight is missing or not a matrix, or a name repeats.
 */
export function onnxWeights(graph: OnnxGraph, file: string): OnnxWeights {
  const g = new GraphWeights(graph, file);
  for (const node of graph.nodes) g.visit(node);
  const bias = graph.initializers.get('final_logits_bias');
  if (bias) g.tensors.set('final_logits_bias', { dtype: 'F32', shape: [bias.data.length], data: bias.data as Float32Array });
  const int8 = [...g.tensors.values()].filter((t) => t.dtype === 'I8').length;
  return { tensors: g.tensors, positionTolerance: g.positionTolerance, int8 };
}
