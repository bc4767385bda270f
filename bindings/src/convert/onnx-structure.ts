/**
 * Which MarianMTModel module each weight of an exported encoder or decoder belongs to, read from the
 * graph's structure: what each operation computes and where its result goes, not what the exporter
 * named it. torch.onnx names nodes after modules, but not in one way: optimum exports the encoder
 * alone (`/layers.0/self_attn/q_proj/MatMul`, no `encoder/`), names the decoder's embedding lookup
 * after `shared`, and an optimizer may rename or fuse nodes. The dataflow of a post-norm Transformer
 * layer is the same in all of them (Vaswani et al. 2017; transformers modeling_marian.py):
 *
 *   q, k, v = x Wq, x Wk, x Wv        (cross-attention: k and v from the encoder's output)
 *   s = q k^T (MatMul of two activations: q its first operand, k its second); p = softmax(s)
 *   a = p v  (MatMul of two activations: v its second operand); x = LayerNorm(x + a Wo)
 *   x = LayerNorm(x + act(x W1) W2)
 *
 * so a weight's product is q, k or v by which operand of which attention product it reaches, out_proj
 * when it reads an attention product and its result meets the residual stream, fc1 when its result
 * reaches another weight's product without meeting the stream, fc2 when it reads fc1's; a layer norm is
 * the [d_model] scale (Mul) and shift (Add) after a residual Add; layers are numbered in the graph's
 * order (ONNX requires nodes in topological order). Each subgraph (an If node's branch: optimum's merged
 * decoders hold the decoder twice, with and without past keys) is read on its own.
 */
import { ConvertError } from './convert-error.js';
import { hfName } from './marian-hf-weights.js';
import { LAYER_TENSORS as L, MODEL_TENSORS as ours } from './model-spec.generated.js';
import type { OnnxGraph, OnnxNode } from './onnx.js';
import { layerTensor } from './tensor-spec.js';

/** Sizes the roles are checked against (config.json's). */
export interface StructureFacts { layers: number; dModel: number; vocabSize: number; maxPositions: number }

/** Ops a weight reaches a product or the stream through without changing what it is. */
const PASS_THROUGH = new Set(['Add', 'Mul', 'Div', 'Reshape', 'Transpose', 'Cast', 'Unsqueeze', 'Squeeze', 'Concat',
  'Identity', 'DequantizeLinear', 'DynamicQuantizeLinear', 'Where', 'Expand', 'Slice', 'Dropout']);
const PRODUCTS = new Set(['MatMul', 'Gemm', 'MatMulInteger']);
/** Activation functions, whole or decomposed (GELU's Erf, swish's Sigmoid), between fc1 and fc2. */
const ACTIVATIONS = new Set(['Relu', 'Gelu', 'Sigmoid', 'Erf', 'Tanh', 'Pow']);
const throughActivations = (n: OnnxNode) => PASS_THROUGH.has(n.opType) || ACTIVATIONS.has(n.opType);

type Block = { kind: 'attention'; product: OnnxNode; q?: OnnxNode; k?: OnnxNode; v?: OnnxNode; out?: OnnxNode; cross: boolean } |
  { kind: 'ffn'; fc1: OnnxNode; fc2?: OnnxNode };

/** One (sub)graph's nodes with the maps its searches need. */
class Dataflow {
  readonly producer = new Map<string, OnnxNode>();
  readonly consumers = new Map<string, OnnxNode[]>();
  readonly constants = new Set<string>();
  readonly order = new Map<OnnxNode, number>();

  constructor(readonly nodes: OnnxNode[], readonly graph: OnnxGraph) {
    nodes.forEach((n, i) => {
      this.order.set(n, i);
      for (const o of n.outputs) this.producer.set(o, n);
      if (n.opType === 'Constant') n.outputs.forEach((o) => this.constants.add(o));
      for (const input of n.inputs) {
        const list = this.consumers.get(input);
        if (list) list.push(n);
        else this.consumers.set(input, [n]);
      }
    });
  }

  /** The initializer `name` names, through Identity and Transpose nodes (an exporter's deduplication). */
  initializer(name: string): string | undefined {
    for (let hops = 0; hops < 4 && name; hops++) {
      if (this.graph.initializers.has(name)) return name;
      const via = this.producer.get(name);
      if (!via || !['Identity', 'Transpose'].includes(via.opType)) return undefined;
      name = via.inputs[0];
    }
    return undefined;
  }

  isConstant(name: string): boolean {
    return name === '' || this.constants.has(name) || this.initializer(name) !== undefined;
  }

  /** A product of an activation by a weight (the weight's product), or of two activations (an attention product). */
  isWeightProduct(n: OnnxNode): boolean {
    return PRODUCTS.has(n.opType) && this.initializer(n.inputs[1]) !== undefined;
  }

  isAttentionProduct(n: OnnxNode): boolean {
    return n.opType === 'MatMul' && !this.isConstant(n.inputs[0]) && !this.isConstant(n.inputs[1]);
  }

  /** An Add of two activations: the residual stream meeting a sub-layer's result (or the attention mask). */
  isResidualAdd(n: OnnxNode): boolean {
    return n.opType === 'Add' && n.inputs.length === 2 && n.inputs.every((i) => !this.isConstant(i));
  }

  /**
   * Walks forward from `start`'s outputs through pass-through ops; returns the first node `stop`
   * accepts, with the operand slot it was reached at, or undefined.
   */
  forward(start: OnnxNode, stop: (n: OnnxNode, slot: number) => boolean, through = (n: OnnxNode) => PASS_THROUGH.has(n.opType)): { node: OnnxNode; slot: number } | undefined {
    const seen = new Set<OnnxNode>([start]);
    let frontier = [...start.outputs];
    for (let depth = 0; depth < 64 && frontier.length; depth++) {
      const next: string[] = [];
      for (const value of frontier) {
        for (const n of this.consumers.get(value) ?? []) {
          if (seen.has(n)) continue;
          seen.add(n);
          const slot = n.inputs.indexOf(value);
          if (stop(n, slot)) return { node: n, slot };
          if (through(n)) for (const o of n.outputs) next.push(o);  // not a spread: a node may have a million outputs
        }
      }
      frontier = next;
    }
    return undefined;
  }

  /** Walks back from `value` through pass-through ops to the first product that made it. */
  backToProduct(value: string): OnnxNode | undefined {
    for (let depth = 0; depth < 64; depth++) {
      const n = this.producer.get(value);
      if (!n) return undefined;
      if (PRODUCTS.has(n.opType)) return n;
      if (!throughActivations(n)) return undefined;
      value = n.inputs.find((i) => !this.isConstant(i)) ?? '';
    }
    return undefined;
  }

  /** Whether `value` is (a reshaping of) a softmax's output: the weights of an attention's weighted sum. */
  fromSoftmax(value: string): boolean {
    for (let depth = 0; depth < 16; depth++) {
      const n = this.producer.get(value);
      if (!n || PRODUCTS.has(n.opType)) return false;
      if (n.opType === 'Softmax') return true;
      value = n.inputs.find((i) => !this.isConstant(i)) ?? '';
    }
    return false;
  }

  /** The activation a product reads: through quantization and shape ops back to a float tensor. */
  stream(n: OnnxNode): string {
    let value = n.inputs[0];
    for (let hops = 0, p = this.producer.get(value); hops < 64 && p && ['DynamicQuantizeLinear', 'Cast', 'Identity'].includes(p.opType); hops++, p = this.producer.get(value)) {
      value = p.inputs[0];  // at most 64 hops: an Identity that feeds itself loops
    }
    return value;
  }
}

/** The attention product p v that `product` (q k^T) feeds: the next attention product after its softmax. */
function valueProduct(f: Dataflow, product: OnnxNode): OnnxNode | undefined {
  return f.forward(product, (n) => f.isAttentionProduct(n), (n) => PASS_THROUGH.has(n.opType) || n.opType === 'Softmax')?.node;
}

/** Groups a (sub)graph's weight products into attention and feed-forward blocks. */
function blocksOf(f: Dataflow, file: string): Block[] {
  const attention = new Map<OnnxNode, Extract<Block, { kind: 'attention' }>>();
  const ffn = new Map<OnnxNode, Extract<Block, { kind: 'ffn' }>>();
  const blockAt = (pv: OnnxNode) => attention.get(pv) ?? attention.set(pv, { kind: 'attention', product: pv, cross: false }).get(pv)!;
  const weights = f.nodes.filter((n) => f.isWeightProduct(n));
  for (const w of weights) {
    const reached = f.forward(w, (n) => f.isAttentionProduct(n) || f.isWeightProduct(n) || f.isResidualAdd(n), throughActivations);
    if (reached && f.isAttentionProduct(reached.node)) {
      if (reached.slot === 1 && f.fromSoftmax(reached.node.inputs[0])) {  // p v: the value
        blockAt(reached.node).v = w;
        continue;
      }
      const pv = valueProduct(f, reached.node);  // q k^T: the query (first operand) or the key (second)
      if (!pv) throw new ConvertError(file, w.name || w.outputs[0], 'reaches an attention product that no softmax-weighted sum follows');
      blockAt(pv)[reached.slot === 0 ? 'q' : 'k'] = w;
    } else if (reached && f.isWeightProduct(reached.node)) {
      ffn.set(w, { kind: 'ffn', fc1: w, fc2: reached.node });
    }
  }
  for (const w of weights) {
    const from = f.backToProduct(f.stream(w));
    if (from && f.isAttentionProduct(from) && attention.has(from)) attention.get(from)!.out = w;
  }
  for (const b of attention.values()) b.cross = !b.k || !b.q || f.stream(b.k) !== f.stream(b.q);
  const start = (b: Block) => f.order.get(b.kind === 'ffn' ? b.fc1 : (b.q ?? b.out ?? b.product))!;
  return [...attention.values(), ...ffn.values()].sort((a, b) => start(a) - start(b));
}

/** Assigns the module `name` to a product, its bias Add, and the layer norm after its residual Add. */
function assignProduct(f: Dataflow, roles: Map<OnnxNode, string>, w: OnnxNode | undefined, name: string, norm?: string): void {
  if (!w) return;
  roles.set(w, name);
  const bias = f.forward(w, (n) => n.opType === 'Add' && n.inputs.some((i) => f.initializer(i) !== undefined && f.graph.initializers.get(f.initializer(i)!)!.dims.length === 1),
    (n) => ['Cast', 'Mul', 'Reshape'].includes(n.opType));
  if (bias) roles.set(bias.node, name);
  if (norm) assignNorm(f, roles, w, norm);
}

/** The layer norm after `w`'s residual Add: LayerNormalization, or the [d_model] Mul (scale) and Add (shift) of its decomposition. */
function assignNorm(f: Dataflow, roles: Map<OnnxNode, string>, w: OnnxNode, name: string): void {
  const residual = f.forward(w, (n) => f.isResidualAdd(n));
  if (!residual) return;
  const isAffine = (n: OnnxNode, op: string) => n.opType === op && n.inputs.some((i) => {
    const init = f.initializer(i);
    return init !== undefined && f.graph.initializers.get(init)!.dims.length === 1;
  });
  const stopAt = (n: OnnxNode) => f.isWeightProduct(n) || f.isAttentionProduct(n) || f.isResidualAdd(n);
  const layerNorm = f.forward(residual.node, (n) => n.opType === 'LayerNormalization', (n) => !stopAt(n));
  if (layerNorm) return void roles.set(layerNorm.node, name);
  const scale = f.forward(residual.node, (n) => isAffine(n, 'Mul'), (n) => !stopAt(n));
  if (!scale) return;
  roles.set(scale.node, name);
  const shift = f.forward(scale.node, (n) => isAffine(n, 'Add'), () => false);
  if (shift) roles.set(shift.node, name);
}

/** HF's module of our weight `ours` (`decoder.layers.0.cross_attn.q_proj.weight` -> `model.decoder.layers.0.encoder_attn.q_proj`), by the spec's rows. */
const hfModule = (ours: string) => hfName(ours).replace(/\.weight$/, '');

/** An attention block's weights and its layer norm's scale, as layer tensors of the spec. */
const SELF_ATTENTION = { q: L.selfAttnQProjWeight, k: L.selfAttnKProjWeight, v: L.selfAttnVProjWeight, out: L.selfAttnOutProjWeight, norm: L.selfAttnLayerNormWeight };
const CROSS_ATTENTION = { q: L.crossAttnQProjWeight, k: L.crossAttnKProjWeight, v: L.crossAttnVProjWeight, out: L.crossAttnOutProjWeight, norm: L.crossAttnLayerNormWeight };

/** The expected block kinds of a side's layers, in order. */
const LAYER_PATTERN = { encoder: ['self', 'ffn'], decoder: ['self', 'cross', 'ffn'] } as const;

/** Names one (sub)graph's blocks layer by layer; returns how many layers it held. */
function nameLayers(f: Dataflow, side: 'encoder' | 'decoder', roles: Map<OnnxNode, string>, file: string): number {
  const blocks = blocksOf(f, file);
  if (blocks.length === 0) return 0;
  const pattern = LAYER_PATTERN[side];
  const kinds = blocks.map((b) => (b.kind === 'ffn' ? 'ffn' : b.cross ? 'cross' : 'self'));
  if (kinds.length % pattern.length !== 0 || kinds.some((k, i) => k !== pattern[i % pattern.length])) {
    throw new ConvertError(file, 'graph', `its sub-layers run as [${kinds.join(', ')}], not as a Marian ${side}'s layers (${pattern.join(', ')}) repeated`);
  }
  blocks.forEach((b, i) => {
    const module = (weight: string) => hfModule(layerTensor(side, Math.floor(i / pattern.length), weight));
    if (b.kind === 'ffn') {
      assignProduct(f, roles, b.fc1, module(L.fc1Weight));
      assignProduct(f, roles, b.fc2, module(L.fc2Weight), module(L.finalLayerNormWeight));
      return;
    }
    const weights = b.cross ? CROSS_ATTENTION : SELF_ATTENTION;
    for (const p of ['q', 'k', 'v'] as const) assignProduct(f, roles, b[p], module(weights[p]));
    assignProduct(f, roles, b.out, module(weights.out), module(weights.norm));
  });
  return kinds.length / pattern.length;
}

/** The embedding lookups (token table [vocab, d_model], position table [positions, d_model]) and the output layer. */
function nameEnds(f: Dataflow, side: 'encoder' | 'decoder', facts: StructureFacts, roles: Map<OnnxNode, string>): void {
  for (const n of f.nodes) {
    if (n.opType !== 'Gather' || roles.has(n)) continue;
    const table = f.initializer(n.inputs[0]);
    const dims = table === undefined ? [] : f.graph.initializers.get(table)!.dims;
    if (dims.length !== 2 || dims[1] !== facts.dModel) continue;
    if (dims[0] === facts.vocabSize) roles.set(n, hfModule(side === 'encoder' ? ours.encoderEmbedTokensWeight : ours.decoderEmbedTokensWeight));
    else if (dims[0] === facts.maxPositions) roles.set(n, `model.${side}.embed_positions`);  // HF's sinusoid table, not in our file
  }
  if (side !== 'decoder') return;
  for (const n of f.nodes) {
    if (roles.has(n) || !f.isWeightProduct(n)) continue;
    const w = f.graph.initializers.get(f.initializer(n.inputs[1])!)!;
    if (w.dims.length !== 2 || !w.dims.includes(facts.vocabSize)) continue;
    roles.set(n, hfModule(ours.lmHeadWeight));
    const bias = f.forward(n, (a) => a.opType === 'Add' && a.inputs.some((i) => f.graph.initializers.get(f.initializer(i) ?? '')?.data.length === facts.vocabSize),
      (a) => ['Cast', 'Mul'].includes(a.opType));
    if (bias) roles.set(bias.node, hfName(ours.finalLogitsBias));
  }
}

/**
 * Each node of `graph` that reads a weight, and the MarianMTModel module it belongs to
 * (`model.encoder.layers.0.self_attn.q_proj`, `model.decoder.embed_tokens`, `lm_head`, ...): products,
 * their bias Adds, layer norms' scale and shift, embedding lookups.
 * @throws ConvertError naming `file` when a (sub)graph's sub-layers do not run as a Marian layer's, or
 *   no (sub)graph holds `facts.layers` layers.
 */
export function moduleRoles(graph: OnnxGraph, side: 'encoder' | 'decoder', facts: StructureFacts, file: string): Map<OnnxNode, string> {
  const roles = new Map<OnnxNode, string>();
  let most = 0;
  for (const nodes of graph.graphs) {
    const f = new Dataflow(nodes, graph);
    const layers = nameLayers(f, side, roles, file);
    if (layers > 0 && layers !== facts.layers) {
      throw new ConvertError(file, 'graph', `computes ${layers} ${side} layers, config.json says ${facts.layers}`);
    }
    most = Math.max(most, layers);
    nameEnds(f, side, facts, roles);
  }
  if (most === 0) throw new ConvertError(file, 'graph', `holds no ${side} layer crossattn recognises (attention and feed-forward products)`);
  return roles;
}
