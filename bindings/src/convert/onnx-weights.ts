/**
 * The weights of an OPUS-MT encoder or decoder exported to ONNX (optimum / torch.onnx, as in
 * Xenova/opus-mt-*), mapped back to HF MarianMT's names: onnx-structure.ts says which module each node
 * computes, from the graph's structure; the weight is the node's initializer input, which is often
 * anonymous (`onnx::MatMul_1234`, nn.Linear's weight transposed to [in, out] by constant folding),
 * possibly behind Identity or Transpose nodes.
 *
 * q8 models (onnxruntime's dynamic quantization, as transformers.js quantizes them; bench/quantize_onnx.py
 * replicates it) hold a MatMulInteger per linear layer with an int8 weight [in, out], its scale (per
 * output column, or one; the initializer the product's result is multiplied by) and zero point: with zero points 0
 * this is exactly our int8 layout (docs/model-format.md: W[j, k] = scale[j] * Wq[j, k]), so it is
 * kept int8, transposed; otherwise it is dequantized to fp32. Embedding tables are stored uint8 with a
 * per-tensor scale and zero point (Gather then DequantizeLinear): they are dequantized exactly as
 * DequantizeLinear computes them, (q - zero_point) * scale in fp32.
 */
import { ConvertError } from './convert-error.js';
import { sameTensor } from './files.js';
import { hfName } from './marian-hf-weights.js';
import type { Tensor } from './model-file.js';
import { MODEL_TENSORS as ours } from './model-spec.generated.js';
import type { OnnxGraph, OnnxNode, OnnxTensor } from './onnx.js';

/** HF's name of the output layer's bias, which the decoder adds to the logits. */
const FINAL_LOGITS_BIAS = hfName(ours.finalLogitsBias);

/** HF-named tensors of one graph, plus how the output layer and positions were stored. */
export interface OnnxWeights {
  tensors: Map<string, Tensor>;
  /** The position table's tolerance for checkSinusoids: 8-bit storage rounds it by half a step. */
  positionTolerance: number;
  /** Layers kept int8 (the rest are fp32). */
  int8: number;
}


function transpose(data: Float32Array | Int8Array, rows: number, cols: number): Float32Array | Int8Array {
  const out = new (data.constructor as Float32ArrayConstructor | Int8ArrayConstructor)(data.length);
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) out[c * rows + r] = data[r * cols + c];
  return out;
}

class GraphWeights {
  readonly tensors = new Map<string, Tensor>();
  positionTolerance = 1e-3;
  private readonly producer = new Map<string, OnnxNode>();

  private readonly consumers = new Map<string, OnnxNode[]>();

  constructor(private readonly graph: OnnxGraph, private readonly file: string) {
    for (const n of graph.nodes) {
      for (const o of n.outputs) this.producer.set(o, n);
      for (const i of n.inputs) {
        const list = this.consumers.get(i);
        if (list) list.push(n);
        else this.consumers.set(i, [n]);
      }
    }
  }

  /** The float initializer among the inputs of the node that consumes `value` through Cast and Mul ops: a quantized product's scale. */
  private scaleAfter(value: string): Float32Array | undefined {
    for (let depth = 0; depth < 4; depth++) {
      const next = this.consumers.get(value)?.find((n) => ['Cast', 'Mul'].includes(n.opType));
      if (!next) return undefined;
      for (const input of next.inputs) {
        const direct = this.graph.initializers.get(input);
        if (direct?.data instanceof Float32Array) return direct.data;
        const factor = this.producer.get(input);  // onnxruntime: Mul(activation scale, weight scale)
        const weightScale = factor?.opType === 'Mul' ? factor.inputs.map((i) => this.graph.initializers.get(i)).find((t) => t?.data instanceof Float32Array) : undefined;
        if (weightScale) return weightScale.data as Float32Array;
      }
      value = next.outputs[0];
    }
    return undefined;
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
    // Through Transposes of an initializer, at most a few (a damaged graph may loop one on itself).
    for (let hops = 0, via = this.producer.get(input); via?.opType === 'Transpose' && this.graph.initializers.has(via.inputs[0]); via = this.producer.get(input)) {
      if (++hops > 4) throw new ConvertError(this.file, field, `'${input}' is reached through more than 4 Transposes (a loop in the graph)`);
      [input, transposed] = [via.inputs[0], !transposed];
    }
    const t = this.init(input, field);
    if (!(t.data instanceof Float32Array) || t.dims.length !== 2) throw new ConvertError(this.file, field, `'${input}' is not a float matrix`);
    const [rows, cols] = t.dims;
    return transposed ? { dtype: 'F32', shape: [cols, rows], data: transpose(t.data, rows, cols) } : { dtype: 'F32', shape: [rows, cols], data: t.data };
  }

  /** MatMulInteger's weight [in, out] with its scale and zero point -> ours [out, in], int8 when exact. */
  private integerWeight(node: OnnxNode, name: string): void {
    const q = this.init(node.inputs[1], name);
    const scale = this.scaleAfter(node.outputs[0]);
    if (!scale) throw new ConvertError(this.file, name, `'${node.inputs[1]}' is an integer weight with no scale after its product`);
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

  /** A Gather's table: float, or 8-bit with the scale and zero point of the DequantizeLinear after the lookup. */
  private table(gather: OnnxNode, field: string): Tensor {
    const input = this.weightName(gather.inputs[0]);
    const t = this.init(input, field);
    if (t.data instanceof Float32Array) return { dtype: 'F32', shape: t.dims, data: t.data };
    const dequantize = this.consumers.get(gather.outputs[0])?.find((n) => n.opType === 'DequantizeLinear');
    if (!dequantize) throw new ConvertError(this.file, field, `'${input}' is an 8-bit table with no DequantizeLinear after its lookup`);
    const scale = (this.init(dequantize.inputs[1], field).data as Float32Array)[0];
    const zeroPoint = dequantize.inputs[2] ? this.init(dequantize.inputs[2], field).data[0] : 0;
    const data = Float32Array.from(t.data as Uint8Array | Int8Array, (v) => Math.fround(v - zeroPoint) * scale);
    if (field.endsWith('embed_positions')) this.positionTolerance = scale / 2 + 1e-3;
    return { dtype: 'F32', shape: t.dims, data };
  }

  /** The vector `node` adds or multiplies by, as `${name}.${suffix}` (`name` alone without a suffix), flattened. */
  private vector(node: OnnxNode, name: string, suffix: string): void {
    const input = node.inputs.map((i) => this.weightName(i)).find((i) => (this.graph.initializers.get(i)?.data.length ?? 0) > 1);
    if (!input) return;  // an Add of activations (a residual) or of a scalar constant
    const t = this.init(input, name);
    this.set(suffix ? `${name}.${suffix}` : name, { dtype: 'F32', shape: [t.data.length], data: t.data as Float32Array });
  }

  /** The initializer `name` reads through Identity nodes (an exporter's deduplication of shared weights). */
  private weightName(name: string): string {
    for (let hops = 0, via = this.producer.get(name); hops < 64 && via?.opType === 'Identity' && !this.graph.initializers.has(name); hops++, via = this.producer.get(name)) {
      name = via.inputs[0];  // at most 64 hops: Identities in a cycle loop
    }
    return name;
  }

  /** Reads the weight, bias or table of module `name` (onnx-structure.ts) that `node` reads. */
  visit(node: OnnxNode, name: string): void {
    const isNorm = name.endsWith('layer_norm');
    if (name === FINAL_LOGITS_BIAS) return this.vector(node, name, '');
    switch (node.opType) {
      case 'MatMul': if (!isNorm) this.set(`${name}.weight`, this.linearWeight(this.weightName(node.inputs[1]), true, name)); break;
      case 'MatMulInteger': this.integerWeight(node, name); break;
      case 'Gemm': {
        this.set(`${name}.weight`, this.linearWeight(this.weightName(node.inputs[1]), node.attributes.get('transB') !== 1, name));
        if (node.inputs[2]) this.vector({ ...node, inputs: [node.inputs[2]] }, name, 'bias');
        break;
      }
      case 'Gather': if (!isNorm) this.set(`${name}.weight`, this.table(node, name)); break;
      case 'LayerNormalization':
        this.set(`${name}.weight`, this.linearVector(this.weightName(node.inputs[1]), name));
        if (node.inputs[2]) this.set(`${name}.bias`, this.linearVector(this.weightName(node.inputs[2]), name));
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
 * `model.decoder.embed_tokens.weight`, `lm_head.weight`, `final_logits_bias` when the graph has them),
 * read from the nodes `roles` (onnx-structure.ts) names.
 * @throws ConvertError naming `file` when a node's weight is missing or not a matrix, or a name repeats.
 */
export function onnxWeights(graph: OnnxGraph, file: string, roles: Map<OnnxNode, string>): OnnxWeights {
  const g = new GraphWeights(graph, file);
  for (const node of graph.nodes) {
    const name = roles.get(node);
    if (name !== undefined) g.visit(node, name);
  }
  const int8 = [...g.tensors.values()].filter((t) => t.dtype === 'I8').length;
  return { tensors: g.tensors, positionTolerance: g.positionTolerance, int8 };
}
