/**
 * Writes a crossattn model file (docs/model-format.md) from a converted model: a safetensors
 * container whose metadata holds the config, the vocabularies, the tokenizer, the provenance and
 * the XXH3 checksum. The tensors are checked against the spec (tensor-spec.ts) first, so nothing
 * is written for a model the engine would refuse. The same layout as models/model_file.py writes.
 */
import { xxhash3 } from 'hash-wasm';
import { ConvertError } from './convert-error.js';
import { sameBytes } from './files.js';
import { checkConfig, checkTensors } from './tensor-spec.js';
import type { Dtype, ModelConfigJson, Tensor } from './model-types.js';

export type { Dtype, ModelConfigJson, Tensor } from './model-types.js';

/** The narrowest attention head the engine computes, d_model / n_heads (cpp/model/config.cc kMinHeadDim). */
export const MIN_HEAD_DIM = 4;

/** Where a converted model came from; shown by the page and `crossattn translate --json`. */
export interface Provenance {
  /** e.g. "Helsinki-NLP/opus-mt-en-de", or the input folder's name. */
  source: string;
  /** SPDX identifier when the model's metadata or the caller states it ("CC-BY-4.0", "MPL-2.0"), else "". */
  license: string;
  /** One sentence crediting the model's authors. */
  attribution: string;
  convertedFrom: 'huggingface-marian' | 'transformers.js' | 'marian';
}

/** What the user may say about a model the files do not: `crossattn convert`'s options. */
export interface ConvertOptions {
  /** config.name; default: from the input's name. */
  name?: string;
  /** Language codes (BCP 47), when the input's files do not say them. */
  sourceLang?: string;
  targetLang?: string;
  /**
   * SPDX licence identifier, source and attribution sentence to record. Without them the converter
   * records the model card's licence (model-card.ts), the input's name as the source, and no licence.
   */
  license?: string;
  source?: string;
  attribution?: string;
  /** transformers.js: read the `_quantized` ONNX files (q8) instead of the fp32 ones. */
  quantized?: boolean;
}

/** What a converter returns and writeModelFile stores. */
export interface ConvertedModel {
  config: ModelConfigJson;
  /** docs/model-format.md names; not the tokenizer tensors. */
  tensors: Map<string, Tensor>;
  /** Serialized SentencePiece ModelProtos (.model bytes); equal bytes are stored once. */
  sourceSpm: Uint8Array;
  targetSpm: Uint8Array;
  /** The target pieces by id (and the source's, when they differ); absent: the spm's own ids. */
  vocab?: string[];
  sourceVocab?: string[];
  provenance: Provenance;
  /** Extra informational keys, e.g. "quantization", "shortlist". */
  metadata?: Record<string, string>;
}

const ELEMENT_SIZE: Record<Dtype, number> = { F32: 4, I32: 4, F16: 2, I8: 1, U8: 1 };
const CHECKSUM_ZEROS = `xxh3:${'0'.repeat(16)}`;
const SOURCE_SPM = 'tokenizer.source_spm';
const TARGET_SPM = 'tokenizer.target_spm';


/**
 * The order the engine reads best (as models/model_file.py's _tensor_order): wider dtypes first, so
 * every tensor is aligned to its element size, then by name with an attention block's projections
 * as q, k, v, out, so that fused int8 projections could be read in place.
 */
function tensorOrder(tensors: Map<string, Tensor>): string[] {
  const key = (name: string) => name.replace(/\.(q|k|v|out)_proj\./, (_, p: string) => `.proj${'qkvo'.indexOf(p[0])}.`);
  return [...tensors.keys()].sort((a, b) => {
    const width = ELEMENT_SIZE[tensors.get(b)!.dtype] - ELEMENT_SIZE[tensors.get(a)!.dtype];
    return width !== 0 ? width : key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;
  });
}

/**
 * Spaces after a header of `jsonLength` bytes, followed by `wideBytes` of tensors wider than a
 * byte: the 1-byte tensors (int8 weights) then start on a 16-byte boundary of the file, where the
 * engine's int8 kernels load them (an engine allocates a file 64-byte aligned), and the wider ones on
 * a multiple of 8, or of 4 where no multiple of 8 does both (models/model_file.py header_padding
 * pads alike); where nothing does both, the header is padded to a multiple of 8.
 */
export function headerPadding(jsonLength: number, wideBytes: number): number {
  for (const step of [8, 4]) {
    for (let pad = 0; pad < 16; ++pad) {
      const start = 8 + jsonLength + pad;
      if (start % step === 0 && (start + wideBytes) % 16 === 0) return pad;
    }
  }
  return (8 - (jsonLength % 8)) % 8;
}

function metadataOf(model: ConvertedModel, spms: { source: string; target: string }, version: string): Record<string, string> {
  const { provenance: p } = model;
  const metadata: Record<string, string> = {
    format: 'crossattn',
    format_version: '1',
    config: JSON.stringify(model.config),
    tokenizer: JSON.stringify({ type: 'sentencepiece', source_spm: spms.source, target_spm: spms.target }),
    source: p.source,
    license: p.license,
    attribution: p.attribution,
    converted_from: p.convertedFrom,
    converter: `crossattn convert ${version}`,
    ...model.metadata,
  };
  if (model.vocab) metadata.vocab = JSON.stringify(model.vocab);
  if (model.sourceVocab) metadata.source_vocab = JSON.stringify(model.sourceVocab);
  metadata.checksum = CHECKSUM_ZEROS;
  return metadata;
}

function checkModel(model: ConvertedModel): void {
  const { config, tensors } = model;
  for (const [name, t] of tensors) {
    const numel = t.shape.reduce((a, b) => a * b, 1);
    if (t.data.length !== numel) throw new ConvertError('(converted model)', name, `holds ${t.data.length} values for shape [${t.shape}]`);
  }
  const problem = checkConfig(config) ?? checkTensors(config, tensors, new Set());
  if (problem) throw new ConvertError('(converted model)', problem[0], problem[1]);
  const sourceSize = config.source_vocab_size ?? config.vocab_size;
  if (model.vocab && model.vocab.length !== config.vocab_size) {
    throw new ConvertError('(converted model)', 'vocab', `lists ${model.vocab.length} pieces, vocab_size is ${config.vocab_size}`);
  }
  if (model.sourceVocab && model.sourceVocab.length !== sourceSize) {
    throw new ConvertError('(converted model)', 'source_vocab', `lists ${model.sourceVocab.length} pieces, source_vocab_size is ${sourceSize}`);
  }
}

/**
 * The bytes of the model file: the tensors (validated against cpp/model/tensor_spec.json), the
 * tokenizer (one U8 tensor when source and target SentencePiece models are equal), the metadata and
 * its checksum (XXH3-64 of the whole file with the checksum's digits read as zeros).
 * @param version the converter's version, recorded as metadata "converter".
 * @throws ConvertError for a tensor the config does not call for, a missing one, a wrong shape or
 *   dtype, or a vocabulary whose length disagrees with the config.
 */
export async function writeModelFile(model: ConvertedModel, version: string): Promise<Uint8Array> {
  checkModel(model);
  const tensors = new Map(model.tensors);
  const shared = sameBytes(model.sourceSpm, model.targetSpm);
  tensors.set(SOURCE_SPM, { dtype: 'U8', shape: [model.sourceSpm.length], data: model.sourceSpm });
  if (!shared) tensors.set(TARGET_SPM, { dtype: 'U8', shape: [model.targetSpm.length], data: model.targetSpm });
  const header: Record<string, unknown> = {
    __metadata__: metadataOf(model, { source: SOURCE_SPM, target: shared ? SOURCE_SPM : TARGET_SPM }, version),
  };
  const order = tensorOrder(tensors);
  let offset = 0;
  for (const name of order) {
    const t = tensors.get(name)!;
    header[name] = { dtype: t.dtype, shape: t.shape, data_offsets: [offset, offset + t.data.byteLength] };
    offset += t.data.byteLength;
  }
  const encoder = new TextEncoder();
  let json = JSON.stringify(header);
  const wide = order.filter((name) => ELEMENT_SIZE[tensors.get(name)!.dtype] > 1).reduce((n, name) => n + tensors.get(name)!.data.byteLength, 0);
  json += ' '.repeat(headerPadding(encoder.encode(json).length, wide));
  const headerBytes = encoder.encode(json);
  const file = new Uint8Array(8 + headerBytes.length + offset);
  new DataView(file.buffer).setBigUint64(0, BigInt(headerBytes.length), true);
  file.set(headerBytes, 8);
  let at = 8 + headerBytes.length;
  for (const name of order) {
    const { data } = tensors.get(name)!;
    file.set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), at);
    at += data.byteLength;
  }
  const digest = await xxhash3(file);
  const where = 8 + encoder.encode(json.slice(0, json.indexOf(CHECKSUM_ZEROS))).length;  // a byte offset in the header
  file.set(encoder.encode(`xxh3:${digest}`), where);
  return file;
}
