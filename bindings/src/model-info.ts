/**
 * What a model file says about itself: its architecture (ModelConfig, as the engine reads the
 * config), and for people its name and direction and where it came from (the optional provenance
 * metadata of docs/model-format.md, which `crossattn convert` writes: source, license,
 * attribution, converted_from, converter).
 */

/** A loaded model's name, direction and provenance (Translator.info). Absent keys: the file has none. */
export interface ModelInfo {
  /** The config's `name`, e.g. 'opus-mt-en-fr'. */
  name: string;
  /** The config's `source_lang` and `target_lang` (BCP-47 codes, e.g. 'en', 'pt-BR'). */
  sourceLang: string;
  targetLang: string;
  /** Metadata `source`: where the model came from, e.g. 'Helsinki-NLP/opus-mt-en-fr'. */
  source?: string;
  /** Metadata `license`: an SPDX id when known, e.g. 'CC-BY-4.0'. */
  license?: string;
  /** Metadata `attribution`: one sentence for users. */
  attribution?: string;
  /** Metadata `converted_from`: 'huggingface-marian', 'transformers.js' or 'marian'. */
  convertedFrom?: string;
  /** Metadata `converter`: the tool that wrote the file, e.g. 'crossattn convert 0.2.0'. */
  converter?: string;
}

// Metadata key of the model file -> field of ModelInfo.
const PROVENANCE = [['source', 'source'], ['license', 'license'], ['attribution', 'attribution'],
  ['converted_from', 'convertedFrom'], ['converter', 'converter']] as const;

/**
 * The `__metadata__` map of a safetensors header: `file` holds at least the first 8 + N bytes of a
 * model file (a little-endian u64 N, then N bytes of JSON; docs/model-format.md). Non-string
 * values are left out. Call it on a file the engine has loaded, which has checked the header.
 * @throws Error naming the field when the bytes are not a safetensors header.
 */
export function readMetadata(file: Uint8Array): Record<string, string> {
  if (file.length < 8) throw new Error('model file: header: fewer than 8 bytes');
  const length = Number(new DataView(file.buffer, file.byteOffset, 8).getBigUint64(0, true));
  if (8 + length > file.length) throw new Error('model file: header: its length exceeds the file');
  const header = JSON.parse(new TextDecoder().decode(file.slice(8, 8 + length)))  // a copy: a shared heap cannot be decoded as { __metadata__?: Record<string, unknown> };
  return Object.fromEntries(Object.entries(header.__metadata__ ?? {}).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
}

/** ModelInfo from a model's config (name and languages) and its file's metadata (readMetadata). */
export function modelInfo(config: { name: string; sourceLang: string; targetLang: string },
                          metadata: Record<string, string>): ModelInfo {
  const info: ModelInfo = { name: config.name, sourceLang: config.sourceLang, targetLang: config.targetLang };
  for (const [key, field] of PROVENANCE) if (metadata[key] !== undefined) info[field] = metadata[key];
  return info;
}

/** The architecture of the loaded model (docs/model-format.md). */
export interface ModelConfig {
  name: string;
  sourceLang: string;
  targetLang: string;
  encoderLayers: number;
  decoderLayers: number;
  dModel: number;
  nHeads: number;
  dFf: number;
  vocabSize: number;
  /** The source vocabulary's size: vocabSize unless the model's source side has its own. */
  sourceVocabSize: number;
  /** What carries the decoder's history: masked self-attention, or the SSRU of Bergamot's students. */
  decoderAutoregression: 'self-attention' | 'ssru';
  maxPositions: number;
  /**
   * The cross-attention head trained to align (guided alignment, docs/alignment.md), which word
   * alignments read by default; absent when the model has none.
   */
  alignmentHead?: { layer: number; head: number };
  /**
   * Whether the model file has a word alignment layer (docs/alignment.md), which word alignments
   * read when the options name no layers, heads or shift; it takes precedence over alignmentHead.
   */
  alignmentLayer: boolean;
}
