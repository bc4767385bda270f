/**
 * A Marian model.yml (the options of `type: transformer`, browsermt/marian-dev e88c1aa
 * src/models/transformer.h) checked against what crossattn computes, and turned into the parts of
 * the model file's config that it decides. Every option that would change the function and that the
 * engine does not compute is a ConvertError naming model.yml and the option, never a silently
 * different model.
 */
import { ConvertError, shown } from './convert-error.js';
import { MIN_HEAD_DIM } from './model-file.js';
import { fieldRange } from './tensor-spec.js';

/** What the converter needs from model.yml. */
export interface MarianArchitecture {
  encoderLayers: number;
  decoderLayers: number;
  dModel: number;
  nHeads: number;
  dFf: number;
  activation: 'relu' | 'swish';
  /** dim-vocabs: [source, target]. */
  dimVocabs: [number, number];
  decoderAutoregression: 'self-attention' | 'ssru';
  /** tied-embeddings-all or tied-embeddings-src: one matrix `Wemb` for both sides (transformer.h:659, generic.cpp:613). */
  sharedEmbedding: boolean;
  /** tied-embeddings or tied-embeddings-all: the output layer is the target embedding. */
  tiedOutput: boolean;
  /** not output-omit-bias: decoder_ff_logit_out_b is added to the logits. */
  outputBias: boolean;
  /** The `version` Marian recorded, if any. */
  version?: string;
}

type Options = Record<string, unknown>;

/** Options that must be false (or absent): each changes the function in a way the engine does not compute. */
const MUST_BE_FALSE: Record<string, string> = {
  'right-left': 'right-to-left decoding',
  'transformer-train-position-embeddings': 'learned position embeddings',
  'transformer-train-positions': 'learned position embeddings',
  'transformer-no-projection': 'attention without an output projection',
  'transformer-pool': 'pooling in place of cross-attention',
  'transformer-rnn-projection': 'a projection after the decoder RNN',
  'transformer-no-bias': 'layers without biases',
  'transformer-no-affine': 'layer norms without scale and bias',
  'ulr': 'universal lexical representations',
  'layer-normalization': 'layer-normalized RNN cells',
};

/**
 * The largest sizes a crossattn model file may declare (the spec's config fields): a larger one
 * could only fail later, after building every layer's tensor list (a fuzzed dec-depth of 2^53 ran
 * out of memory doing so).
 */
const LIMITS: Record<string, [number, number]> = {
  'enc-depth': fieldRange('encoder_layers'), 'dec-depth': fieldRange('decoder_layers'), 'dim-emb': fieldRange('d_model'),
  'transformer-heads': fieldRange('n_heads'), 'transformer-dim-ffn': fieldRange('d_ff'),
  'transformer-decoder-dim-ffn': [0, fieldRange('d_ff')[1]],  // 0: transformer-dim-ffn's
};
const MAX_VOCAB = fieldRange('vocab_size')[1];

function int(yml: Options, key: string, file: string, fallback?: number): number {
  const value = yml[key] ?? fallback;
  const [min, max] = LIMITS[key] ?? [0, Number.MAX_SAFE_INTEGER];
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new ConvertError(file, key, value === undefined ? 'missing' : `is ${JSON.stringify(value)}, not a count in ${min}..${max}`);
  }
  return value;
}

/** A string option (a YAML scalar: a number or boolean is read as its text, null as ''). */
function str(yml: Options, key: string, fallback: string, file: string): string {
  const value = yml[key] ?? fallback;
  if (value === null) return '';
  if (typeof value === 'object' || typeof value === 'function') throw new ConvertError(file, key, `is ${shown(value)}, not a string`);
  return String(value);
}

/** The letters of a transformer-*process string without 'd' (dropout, a no-op when translating). */
const ops = (yml: Options, key: string, file: string) => str(yml, key, '', file).replace(/d/g, '');

function checkNorms(yml: Options, file: string): void {
  if (ops(yml, 'transformer-preprocess', file) !== '' || ops(yml, 'transformer-postprocess', file) !== 'an') {
    throw new ConvertError(file, 'transformer-preprocess', `is '${str(yml, 'transformer-preprocess', '', file)}' with transformer-postprocess ` +
      `'${str(yml, 'transformer-postprocess', '', file)}': only post-norm ('' and 'dan') is supported; Marian's pre-norm ('n', 'da') ` +
      'computes attention keys and values from the un-normalized stream (docs/bergamot.md), which crossattn does not');
  }
  for (const key of ['transformer-postprocess-emb', 'transformer-postprocess-top']) {
    if (ops(yml, key, file) !== '') throw new ConvertError(file, key, `is '${str(yml, key, '', file)}': only '' or 'd' is supported (no extra layer norm)`);
  }
}

function checkUnsupported(yml: Options, file: string): void {
  for (const [key, what] of Object.entries(MUST_BE_FALSE)) {
    if (yml[key] === true) throw new ConvertError(file, key, `is true: ${what} is not supported`);
  }
  if (int(yml, 'lemma-dim-emb', file, 0) !== 0) throw new ConvertError(file, 'lemma-dim-emb', 'factored vocabularies are not supported');
  const tiedLayers = yml['transformer-tied-layers'];
  if (Array.isArray(tiedLayers) && tiedLayers.length > 0) throw new ConvertError(file, 'transformer-tied-layers', 'layers sharing weights are not supported');
  const inputTypes = yml['input-types'];
  if (Array.isArray(inputTypes) && inputTypes.length > 0) throw new ConvertError(file, 'input-types', 'extra input streams are not supported');
  if (int(yml, 'transformer-ffn-depth', file, 2) !== 2) throw new ConvertError(file, 'transformer-ffn-depth', 'only 2 (two feed-forward matrices) is supported');
  if (![0, 2].includes(int(yml, 'transformer-decoder-ffn-depth', file, 0))) {
    throw new ConvertError(file, 'transformer-decoder-ffn-depth', 'only 0 or 2 (two feed-forward matrices) is supported');
  }
  const dFf = int(yml, 'transformer-dim-ffn', file);
  const decoderFf = int(yml, 'transformer-decoder-dim-ffn', file, 0);
  if (decoderFf !== 0 && decoderFf !== dFf) {
    throw new ConvertError(file, 'transformer-decoder-dim-ffn', `is ${decoderFf}: a decoder feed-forward width other than transformer-dim-ffn (${dFf}) is not supported`);
  }
}

function decoderKind(yml: Options, file: string): 'self-attention' | 'ssru' {
  const autoreg = str(yml, 'transformer-decoder-autoreg', 'self-attention', file);
  if (autoreg === 'self-attention') return 'self-attention';
  if (autoreg === 'rnn') {
    const cell = str(yml, 'dec-cell', 'gru', file);
    if (cell !== 'ssru') throw new ConvertError(file, 'dec-cell', `is '${cell}': of the decoder RNN cells only 'ssru' is supported`);
    return 'ssru';
  }
  throw new ConvertError(file, 'transformer-decoder-autoreg', `is '${autoreg}': only 'self-attention' and 'rnn' (with dec-cell: ssru) are supported`);
}

/**
 * The architecture model.yml describes.
 * @param yml the parsed model.yml; `file` names it in errors.
 * @throws ConvertError for another model type, a missing or bad size, pre-norm, a gelu activation
 *   (Marian's is x·σ(1.702x), not the erf form), average attention, an RNN cell other than SSRU, or
 *   any option in MUST_BE_FALSE set.
 */
export function readMarianArchitecture(yml: Options, file: string): MarianArchitecture {
  if (yml.type !== 'transformer') throw new ConvertError(file, 'type', `is ${JSON.stringify(yml.type)}: only 'transformer' is supported`);
  checkNorms(yml, file);
  checkUnsupported(yml, file);
  const activation = str(yml, 'transformer-ffn-activation', 'swish', file);
  if (activation !== 'relu' && activation !== 'swish') {
    throw new ConvertError(file, 'transformer-ffn-activation', `is '${activation}': only relu and swish are supported (Marian's gelu is x·sigmoid(1.702x))`);
  }
  const dimVocabs = yml['dim-vocabs'];
  if (!Array.isArray(dimVocabs) || dimVocabs.length !== 2 || !dimVocabs.every((v) => Number.isInteger(v) && v > 0 && v <= MAX_VOCAB)) {
    throw new ConvertError(file, 'dim-vocabs', `is ${JSON.stringify(dimVocabs)}: expected [source size, target size], each in 1..${MAX_VOCAB}`);
  }
  const dModel = int(yml, 'dim-emb', file), nHeads = int(yml, 'transformer-heads', file);
  if (nHeads === 0 || dModel % nHeads !== 0) throw new ConvertError(file, 'transformer-heads', `${nHeads} heads do not divide dim-emb ${dModel}`);
  if (dModel / nHeads < MIN_HEAD_DIM) throw new ConvertError(file, 'transformer-heads', `${nHeads} heads over dim-emb ${dModel} are ${dModel / nHeads} wide; the engine needs at least ${MIN_HEAD_DIM}`);
  const tiedAll = yml['tied-embeddings-all'] === true;
  return {
    encoderLayers: int(yml, 'enc-depth', file),
    decoderLayers: int(yml, 'dec-depth', file),
    dModel,
    nHeads,
    dFf: int(yml, 'transformer-dim-ffn', file),
    activation,
    dimVocabs: [dimVocabs[0], dimVocabs[1]],
    decoderAutoregression: decoderKind(yml, file),
    sharedEmbedding: tiedAll || yml['tied-embeddings-src'] === true,
    tiedOutput: tiedAll || yml['tied-embeddings'] === true,
    outputBias: yml['output-omit-bias'] !== true,
    version: typeof yml.version === 'string' ? yml.version : undefined,
  };
}
