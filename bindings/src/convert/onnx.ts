/**
 * Reads the graph of an ONNX model file with protobufjs and a minimal schema written from
 * onnx/onnx.proto (github.com/onnx/onnx, onnx/onnx.proto; field numbers as there): the nodes (with
 * the nodes of If/Loop subgraphs, which optimum's merged decoders hold) and the initializers.
 */
import protobuf from 'protobufjs/light.js';
import { ConvertError } from './convert-error.js';
import type { ModelFiles } from './model-files.js';

const SCHEMA = {
  nested: {
    ModelProto: { fields: { ir_version: { type: 'int64', id: 1 }, graph: { type: 'GraphProto', id: 7 } } },
    GraphProto: {
      fields: {
        node: { rule: 'repeated', type: 'NodeProto', id: 1 },
        name: { type: 'string', id: 2 },
        initializer: { rule: 'repeated', type: 'TensorProto', id: 5 },
      },
    },
    NodeProto: {
      fields: {
        input: { rule: 'repeated', type: 'string', id: 1 },
        output: { rule: 'repeated', type: 'string', id: 2 },
        name: { type: 'string', id: 3 },
        op_type: { type: 'string', id: 4 },
        attribute: { rule: 'repeated', type: 'AttributeProto', id: 5 },
      },
    },
    AttributeProto: {
      fields: {
        name: { type: 'string', id: 1 },
        i: { type: 'int64', id: 3 },
        g: { type: 'GraphProto', id: 6 },
        ints: { rule: 'repeated', type: 'int64', id: 8 },
        graphs: { rule: 'repeated', type: 'GraphProto', id: 11 },
      },
    },
    TensorProto: {
      fields: {
        dims: { rule: 'repeated', type: 'int64', id: 1 },
        data_type: { type: 'int32', id: 2 },
        float_data: { rule: 'repeated', type: 'float', id: 4 },
        int32_data: { rule: 'repeated', type: 'int32', id: 5 },
        int64_data: { rule: 'repeated', type: 'int64', id: 7 },
        name: { type: 'string', id: 8 },
        raw_data: { type: 'bytes', id: 9 },
        data_location: { type: 'int32', id: 14 },
      },
    },
  },
};

/** TensorProto.DataType values read here. */
const FLOAT = 1, UINT8 = 2, INT8 = 3, INT32 = 6, INT64 = 7;

/** An initializer's values: float32, uint8, int8 or int32 (int64 narrowed). */
export interface OnnxTensor { name: string; dims: number[]; data: Float32Array | Uint8Array | Int8Array | Int32Array }

/** A node: its op, name and the names of its inputs and outputs; `attributes` holds integer ones. */
export interface OnnxNode { name: string; opType: string; inputs: string[]; outputs: string[]; attributes: Map<string, number | number[]> }

/**
 * The graph: every node (subgraphs' included, in order), each (sub)graph's own nodes in order (the
 * main graph first, then the branches of If nodes and the bodies of loops), and the initializers by name.
 */
export interface OnnxGraph { nodes: OnnxNode[]; graphs: OnnxNode[][]; initializers: Map<string, OnnxTensor> }

type Long = number | { toNumber(): number };
const num = (x: Long): number => (typeof x === 'number' ? x : x.toNumber());

interface RawTensor { name: string; dims: Long[]; data_type: number; float_data: number[]; int32_data: number[]; int64_data: Long[]; raw_data: Uint8Array; data_location: number }
interface RawNode { name: string; op_type: string; input: string[]; output: string[]; attribute: { name: string; i?: Long; ints: Long[]; g?: RawGraph; graphs: RawGraph[] }[] }
interface RawGraph { node: RawNode[]; initializer: RawTensor[] }

/** Bytes per element of the data types read here. */
const ELEMENT_SIZE: Record<number, number> = { [FLOAT]: 4, [UINT8]: 1, [INT8]: 1, [INT32]: 4, [INT64]: 8 };

function tensorOf(t: RawTensor, file: string): OnnxTensor | undefined {
  const dims = t.dims.map(num);
  if (t.data_location === 1) throw new ConvertError(file, t.name, 'is stored in an external data file, which crossattn does not read');
  const size = ELEMENT_SIZE[t.data_type];
  if (size === undefined) return undefined;  // other dtypes (e.g. bool, float16 constants) are not weights read here
  const raw = t.raw_data && t.raw_data.length ? new Uint8Array(t.raw_data) : undefined;  // an aligned copy
  const listed = t.data_type === FLOAT ? t.float_data : t.data_type === INT64 ? t.int64_data : t.int32_data;
  const stored = raw ? raw.length / size : listed.length;
  // A damaged file's dims may be negative, huge, or disagree with the data: each is refused here, before a reader loops over them.
  if (!dims.every((d) => Number.isSafeInteger(d) && d >= 0) || dims.reduce((a, b) => a * b, 1) !== stored) {
    throw new ConvertError(file, t.name, `dims [${dims}] do not hold the ${Number.isInteger(stored) ? stored : `${raw!.length} bytes of`} values stored`);
  }
  switch (t.data_type) {
    case FLOAT: return { name: t.name, dims, data: raw ? new Float32Array(raw.buffer) : Float32Array.from(t.float_data) };
    case UINT8: return { name: t.name, dims, data: raw ?? Uint8Array.from(t.int32_data) };
    case INT8: return { name: t.name, dims, data: raw ? new Int8Array(raw.buffer) : Int8Array.from(t.int32_data) };
    case INT32: return { name: t.name, dims, data: raw ? new Int32Array(raw.buffer) : Int32Array.from(t.int32_data) };
    case INT64: {
      const values = raw ? Array.from(new BigInt64Array(raw.buffer), Number) : t.int64_data.map(num);
      return { name: t.name, dims, data: Int32Array.from(values) };
    }
    default: return undefined;
  }
}

function collect(g: RawGraph, file: string, out: OnnxGraph): void {
  const own: OnnxNode[] = [];
  out.graphs.push(own);
  for (const t of g.initializer) {
    const tensor = tensorOf(t, file);
    if (tensor) out.initializers.set(tensor.name, tensor);
  }
  for (const n of g.node) {
    const attributes = new Map<string, number | number[]>();
    for (const a of n.attribute) {
      if (a.g) collect(a.g, file, out);
      for (const sub of a.graphs ?? []) collect(sub, file, out);
      attributes.set(a.name, a.ints && a.ints.length ? a.ints.map(num) : num(a.i ?? 0));
    }
    const node = { name: n.name, opType: n.op_type, inputs: n.input, outputs: n.output, attributes };
    own.push(node);
    out.nodes.push(node);
  }
}

/**
 * The graph of the ONNX model `file` of `files`.
 * @throws ConvertError naming the file when it is missing, not an ONNX model, or keeps weights in external data.
 */
export function readOnnx(files: ModelFiles, file: string): OnnxGraph {
  const path = files.display(file);
  const bytes = files.bytes(file);
  let model: { graph?: RawGraph };
  try {
    model = protobuf.Root.fromJSON(SCHEMA).lookupType('ModelProto').decode(bytes) as unknown as { graph?: RawGraph };
  } catch (e) {
    throw new ConvertError(path, 'graph', `not an ONNX model (${e instanceof Error ? e.message : String(e)})`);
  }
  if (!model.graph) throw new ConvertError(path, 'graph', 'not an ONNX model: it has no graph');
  const graph: OnnxGraph = { nodes: [], graphs: [], initializers: new Map() };
  collect(model.graph, path, graph);
  return graph;
}
