/**
 * Marian's parameters (browsermt/marian-dev e88c1aa src/models/transformer.h) as the model file's
 * tensors (docs/model-format.md). Marian computes `x @ W` with W stored [in, out]; ours is
 * `x Wᵀ` with W [out, in], so a float32 W is transposed. An intgemm8 matrix, as marian-conv writes
 * it (src/tensors/cpu/expression_graph_packable.h:190-235), is already transposed to [out, in]
 * (all `*_W?` matrices but `Wemb`), int8 = round(W · quantMult) with quantMult = 127 / max|W| over
 * the whole matrix, followed by that float32 quantMult: it becomes our I8 [out, in] with every row's
 * scale 1 / quantMult, the int8 values unchanged.
 */
import { ConvertError } from './convert-error.js';
import { MarianType, type MarianItem } from './marian-binary.js';
import type { MarianArchitecture } from './marian-config.js';
import { theirRow } from './format-rows.js';
import { expectedTensors } from './tensor-spec.js';
import type { Tensor } from './model-file.js';
import { MODEL_TENSORS as ours, type ModelConfigJson } from './model-spec.generated.js';

/** How one Marian parameter is stored (the spec's rows for the format "marian", `role`). */
type Role = 'W' | 'Wt' | 'emb' | 'vector';

/** [Marian name, our name, role, our shape] for every parameter the architecture calls for. */
type Mapping = [string, string, Role, number[]];

/**
 * The config fields the architecture's tensors depend on (layers, sizes, vocabularies, what is
 * shared, tied or biased, the decoder's autoregression); the special ids are not among them.
 */
function tensorConfig(a: MarianArchitecture): ModelConfigJson {
  const [sourceVocab, vocab] = a.dimVocabs;
  return {
    encoder_layers: a.encoderLayers, decoder_layers: a.decoderLayers, d_model: a.dModel, n_heads: a.nHeads, d_ff: a.dFf,
    activation: a.activation, layer_norm: 'post', embed_scale: true, max_positions: 1,
    tied_embeddings: a.tiedOutput, shared_vocab: a.sharedEmbedding, final_logits_bias: a.outputBias,
    vocab_size: vocab, source_vocab_size: a.sharedEmbedding ? vocab : sourceVocab, pad_id: 0, unk_id: 0, bos_id: 0, eos_id: 0,
    decoder_autoregression: a.decoderAutoregression,
  };
}

/**
 * Every parameter `a` calls for, named by the spec's rows for Marian (cpp/model/tensor_spec.json
 * "formats"), without the untied output matrix (which has two names: outputMatrix).
 */
export function marianParameters(a: MarianArchitecture): Mapping[] {
  const config = tensorConfig(a);
  return expectedTensors(config)
    .filter((e) => e.optionalGroup === undefined && e.name !== ours.lmHeadWeight)
    .map((e) => {
      const [marian, row] = theirRow('marian', e.name, config);
      return [marian, e.name, row.role as Role, e.shape];
    });
}

/** The untied output layer's older name, [D, V] as Marian's other W (not in the spec's rows: they map each of ours to one name). */
const LEGACY_OUTPUT = 'decoder_ff_logit_out_W';

/** [rows, cols] transposed: out[c][r] = in[r][c]. */
function transpose<T extends Float32Array | Int8Array>(data: T, rows: number, cols: number, make: (n: number) => T): T {
  const out = make(data.length);
  for (let r = 0; r < rows; ++r) for (let c = 0; c < cols; ++c) out[c * rows + r] = data[r * cols + c];
  return out;
}

/** Marian's declared shape for our `shape` and `role`: W [in, out], Wt and Wemb [out, in], vectors [1, n] or [n]. */
function marianShape(role: Role, shape: number[]): number[] {
  return role === 'W' ? [shape[1], shape[0]] : shape;
}

function sameShape(item: MarianItem, role: Role, shape: number[]): boolean {
  const want = marianShape(role, shape);
  const got = role === 'vector' && item.shape.length === 2 && item.shape[0] === 1 ? [item.shape[1]] : item.shape;
  return got.length === want.length && got.every((n, i) => n === want[i]);
}

function floatTensor(item: MarianItem, role: Role, shape: number[]): Tensor {
  const n = shape.reduce((a, b) => a * b, 1);
  const values = new Float32Array(item.bytes.slice(0, 4 * n).buffer);
  const data = role === 'W' ? transpose(values, shape[1], shape[0], (k) => new Float32Array(k)) : values;
  return { dtype: 'F32', shape, data };
}

function int8Tensors(item: MarianItem, role: Role, shape: number[], file: string): [Tensor, Tensor] {
  const n = shape[0] * shape[1];
  if (item.bytes.length < n + 4) throw new ConvertError(file, item.name, `intgemm8 data holds ${item.bytes.length} bytes, [${item.shape}] needs ${n} and its float scale`);
  const stored = new Int8Array(item.bytes.slice(0, n).buffer);
  const quantMult = new DataView(item.bytes.buffer, item.bytes.byteOffset + n, 4).getFloat32(0, true);
  if (!(quantMult > 0) || !Number.isFinite(quantMult)) throw new ConvertError(file, item.name, `intgemm8 quantMult ${quantMult} is not a positive number`);
  // marian-conv stores W (declared [in, out]) as [out, in]: ours. A `_Wt` (declared [out, in]) it
  // transposes to [in, out]; Wemb it keeps as declared (expression_graph_packable.h:204-208).
  const data = role === 'Wt' ? transpose(stored, shape[1], shape[0], (k) => new Int8Array(k)) : stored;
  const scale = new Float32Array(shape[0]).fill(Math.fround(1 / quantMult));
  return [{ dtype: 'I8', shape, data }, { dtype: 'F32', shape: [shape[0]], data: scale }];
}

/**
 * Adds the tensor for `item` (Marian parameter, mapped as `role`) to `tensors` under `name`.
 * @throws ConvertError naming `file` and the item when its shape is not what model.yml implies or its
 *   type is not float32 or intgemm8 (intgemm8 only for matrices).
 */
export function addParameter(tensors: Map<string, Tensor>, item: MarianItem, name: string, role: Role, shape: number[], file: string): void {
  if (!sameShape(item, role, shape)) {
    throw new ConvertError(file, item.name, `has shape [${item.shape}], model.yml implies [${marianShape(role, shape)}]`);
  }
  if (item.type === MarianType.float32) {
    const bytes = 4 * shape.reduce((a, b) => a * b, 1);
    if (item.bytes.length < bytes) throw new ConvertError(file, item.name, `float32 data holds ${item.bytes.length} bytes, [${item.shape}] needs ${bytes}`);
    tensors.set(name, floatTensor(item, role, shape));
  } else if (item.type === MarianType.intgemm8 && role !== 'vector') {
    const [weight, scale] = int8Tensors(item, role, shape, file);
    tensors.set(name, weight);
    tensors.set(`${name}_scale`, scale);
  } else {
    throw new ConvertError(file, item.name, `has Marian type 0x${item.type.toString(16)}: only float32 and intgemm8 (matrices) are supported`);
  }
}

/**
 * The untied output matrix: the spec's `decoder_ff_logit_out_Wt` [V, D], or the legacy
 * `decoder_ff_logit_out_W` [D, V] (generic.cpp:244-250).
 */
export function outputMatrix(items: Map<string, MarianItem>, a: MarianArchitecture): Mapping | undefined {
  if (a.tiedOutput) return undefined;
  const shape = [a.dimVocabs[1], a.dModel];
  const [name, row] = theirRow('marian', ours.lmHeadWeight);
  if (items.has(name)) return [name, ours.lmHeadWeight, row.role as Role, shape];
  return [LEGACY_OUTPUT, ours.lmHeadWeight, 'W', shape];
}
