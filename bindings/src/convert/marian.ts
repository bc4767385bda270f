/**
 * Converts a Marian model as Bergamot and Firefox ship it (a .npz or binary .bin, float32 or
 * intgemm8, its model.yml, SentencePiece vocabularies and optional lexical shortlist) to a
 * crossattn model, computing the function Marian computes (browsermt/marian-dev e88c1aa, the
 * Marian inside @browsermt/bergamot-translator 0.4.9): post-norm, Marian's sinusoid layout and
 * layer-norm epsilon 1e-6, embeddings scaled by sqrt(d_model), the decoder started from a zero
 * vector (src/models/decoder.h:68-69), and self-attention or SSRU decoder layers. docs/bergamot.md
 * says what was read in Marian's source.
 */
import { parseYamlMapping } from './bounded-parse.js';
import { ConvertError } from './convert-error.js';
import { sameBytes } from './files.js';
import { MarianType, readMarianBinary, type MarianItem } from './marian-binary.js';
import { readMarianArchitecture, type MarianArchitecture } from './marian-config.js';
import { findMarianFiles, readMaybeGzipped, readYaml, type MarianFiles } from './marian-files.js';
import { mapMarianShortlist } from './marian-shortlist.js';
import { addParameter, marianParameters, outputMatrix } from './marian-weights.js';
import type { ConvertedModel, ConvertOptions, ModelConfigJson, Provenance, Tensor } from './model-file.js';
import type { ModelFiles } from './model-files.js';
import { readNpz } from './npz.js';
import { readSentencePieceVocab, type SentencePieceVocab } from './sentencepiece-pieces.js';
import { MODEL_TENSORS as ours } from './model-spec.generated.js';

/** The last segment of a path ('a/b/model.ende.npz' -> 'model.ende.npz'). */
const baseName = (path: string) => path.split(/[\\/]/).at(-1)!;

/** Options of the Marian converter. */
export interface MarianConvertOptions extends ConvertOptions {
  /** false: leave out the lexical shortlist even when the folder has one (default true). */
  shortlist?: boolean;
  /**
   * Let the model write `<unk>` (Marian's --allow-unk). Default false, as Marian and Bergamot decode:
   * beam_search.cpp:303 takes `<unk>` out of every step's choices, which the converted model does
   * with a logit bias of UNK_LOGIT_BIAS on `<unk>`.
   */
  allowUnk?: boolean;
}

/** Added to `<unk>`'s logit unless allowUnk: e^-1e9 is 0 in float32, so `<unk>` is never chosen nor counted. */
const UNK_LOGIT_BIAS = -1e9;

/** Positions the converted model accepts on either side (Marian's sinusoid has no limit; Bergamot splits at 512 tokens). */
const MAX_POSITIONS = 1024;
const NPY_TYPES: Record<string, number> = { '<f4': MarianType.float32, '<f2': MarianType.float16, '|i1': MarianType.int8, '<i1': MarianType.int8 };

/** The model file's items by name, from .npz (numpy arrays) or Marian's binary format. */
function readModelItems(files: MarianFiles): Map<string, MarianItem> {
  const bytes = readMaybeGzipped(files.folder, files.model), path = files.folder.display(files.model);
  const items = new Map<string, MarianItem>();
  if (/\.npz(\.gz)?$/.test(path)) {
    for (const [name, a] of readNpz(bytes, path)) items.set(name, { name, type: NPY_TYPES[a.descr] ?? -1, shape: a.shape, bytes: a.bytes });
  } else {
    for (const item of readMarianBinary(bytes, path)) items.set(item.name, item);
  }
  return items;
}

/** model.yml: the model file's `special:model.yml` item, else the .yml beside it. */
function readModelYml(items: Map<string, MarianItem>, files: MarianFiles): { yml: Record<string, unknown>; file: string } {
  const special = items.get('special:model.yml');
  const file = `${files.folder.display(files.model)}:special:model.yml`;
  if (special) {
    const yml = parseYamlMapping(new TextDecoder().decode(special.bytes).replace(/\0+$/, ''), file);
    return { yml, file };
  }
  if (!files.modelYml) throw new ConvertError(files.folder.display(files.model), 'special:model.yml', 'the model holds no model.yml and none is beside it');
  return { yml: readYaml(files.folder, files.modelYml), file: files.folder.display(files.modelYml) };
}

function readVocab(files: MarianFiles, file: string, expected: number, side: string, ymlFile: string): { bytes: Uint8Array; vocab: SentencePieceVocab } {
  const bytes = readMaybeGzipped(files.folder, file), path = files.folder.display(file);
  const vocab = readSentencePieceVocab(bytes, path);
  if (vocab.pieces.length !== expected) {
    throw new ConvertError(path, 'pieces', `has ${vocab.pieces.length} pieces, ${ymlFile} dim-vocabs says ${expected} for the ${side}`);
  }
  if (vocab.id('</s>') === undefined) throw new ConvertError(path, 'pieces', "has no '</s>' piece, which Marian ends every sentence with");
  return { bytes, vocab };
}

/** The weight tensors; every item must be used (special items and activation scales aside). */
function weightTensors(items: Map<string, MarianItem>, a: MarianArchitecture, file: string): Map<string, Tensor> {
  const tensors = new Map<string, Tensor>();
  const mappings = marianParameters(a);
  const output = outputMatrix(items, a);
  if (output) mappings.push(output);
  for (const [marian, name, role, shape] of mappings) {
    const item = items.get(marian);
    if (!item) throw new ConvertError(file, marian, 'missing: model.yml calls for it');
    addParameter(tensors, item, name, role, shape, file);
  }
  const used = new Set(mappings.map((m) => m[0]));
  for (const name of items.keys()) {
    if (!used.has(name) && !name.startsWith('special:') && !name.endsWith('_QuantMultA')) {
      throw new ConvertError(file, name, 'is not a parameter of the architecture model.yml describes');
    }
  }
  return tensors;
}

/** The pair Firefox's names carry: model.ende.intgemm.alphas.bin, or a folder named ende: ["en", "de"]. */
function languagesFromNames(files: MarianFiles): [string, string] | undefined {
  const m = /^(?:model|vocab|srcvocab|trgvocab)\.([a-z]{2})([a-z]{2})\./.exec(baseName(files.model)) ??
    /^([a-z]{2})([a-z]{2})$/.exec(files.folder.name);
  return m ? [m[1], m[2]] : undefined;
}

// Provenance only from the caller (a catalog's record of the files: their source and licence), never
// from file names: a folder of model.ende.intgemm.alphas.bin is not Mozilla's because of its names.
function provenance(files: MarianFiles, options: ConvertOptions): Provenance {
  const source = options.source ?? files.folder.name;
  const license = options.license ?? '';
  return {
    source,
    license,
    attribution: options.attribution ?? `Marian model ${source}${license ? `, ${license}` : ''}, converted by crossattn.`,
    convertedFrom: 'marian',
  };
}

function buildConfig(a: MarianArchitecture, source: SentencePieceVocab, target: SentencePieceVocab, files: MarianFiles,
  options: ConvertOptions, sameSpm: boolean): ModelConfigJson {
  const langs = languagesFromNames(files);
  const sourceLang = options.sourceLang ?? langs?.[0];
  const targetLang = options.targetLang ?? langs?.[1];
  if (!sourceLang || !targetLang) {
    throw new ConvertError(files.folder.display(files.model), sourceLang ? 'target_lang' : 'source_lang', 'the file names do not say the languages: give them (crossattn convert --from L --to L)');
  }
  const eos = target.id('</s>')!;
  const config: ModelConfigJson = {
    name: options.name ?? files.folder.name,
    source_lang: sourceLang, target_lang: targetLang,
    encoder_layers: a.encoderLayers, decoder_layers: a.decoderLayers, d_model: a.dModel, n_heads: a.nHeads, d_ff: a.dFf,
    activation: a.activation, layer_norm: 'post', layer_norm_eps: 1e-6, embed_scale: true,
    positional_encoding: 'sinusoidal', sinusoidal_layout: 'marian', max_positions: MAX_POSITIONS,
    tied_embeddings: a.tiedOutput, shared_vocab: a.sharedEmbedding, final_logits_bias: a.outputBias,
    vocab_size: target.pieces.length, pad_id: target.id('<pad>') ?? eos, unk_id: target.unkId,
    bos_id: target.id('<s>') ?? eos, eos_id: eos, decoder_start_id: eos, decoder_start: 'zero',
    decoder_autoregression: a.decoderAutoregression,
  };
  if (!sameSpm) {
    Object.assign(config, { source_vocab_size: source.pieces.length, source_eos_id: source.id('</s>')!, source_unk_id: source.unkId });
  }
  return config;
}

/** Marian's default --allow-unk false (beam_search.cpp:303): `<unk>` can never be chosen. */
function suppressUnk(tensors: Map<string, Tensor>, config: ModelConfigJson): void {
  let bias = tensors.get(ours.finalLogitsBias);
  if (!bias) {
    bias = { dtype: 'F32', shape: [config.vocab_size], data: new Float32Array(config.vocab_size) };
    tensors.set(ours.finalLogitsBias, bias);
    config.final_logits_bias = true;
  }
  (bias.data as Float32Array)[config.unk_id] += UNK_LOGIT_BIAS;
}


function quantizationNote(items: Map<string, MarianItem>): string | undefined {
  if (![...items.values()].some((i) => i.type === MarianType.intgemm8)) return undefined;
  const alphas = [...items.keys()].some((n) => n.endsWith('_QuantMultA'));
  return 'intgemm8 (marian-conv): the int8 values kept, one scale per matrix (1/quantMult) on every row; ' +
    'crossattn quantizes activations per row at run time' +
    (alphas ? " (the file's fixed activation scales, *_QuantMultA for Bergamot's int8shiftAlphaAll, are not used)" : '');
}

/**
 * Converts the Marian model in `folder`: the file `model` there (a .npz or .bin, possibly gzipped),
 * or the one model file the folder holds (marian-files.ts says how its files are found).
 * @throws ConvertError (one line naming the file and field) for a missing file, a model.yml option
 *   crossattn does not compute (marian-config.ts), a missing or misshapen parameter, vocabulary
 *   sizes that disagree with dim-vocabs or the embeddings, or a truncated or damaged file.
 */
export async function convertMarian(folder: ModelFiles, model: string | undefined, options: MarianConvertOptions): Promise<ConvertedModel> {
  const files = findMarianFiles(folder, model, options.shortlist ?? true);
  const items = readModelItems(files);
  const { yml, file: ymlFile } = readModelYml(items, files);
  const arch = readMarianArchitecture(yml, ymlFile);
  const source = readVocab(files, files.sourceVocab, arch.dimVocabs[0], 'source', ymlFile);
  const target = files.targetVocab === files.sourceVocab ? source : readVocab(files, files.targetVocab, arch.dimVocabs[1], 'target', ymlFile);
  const sharedVocab = sameBytes(source.bytes, target.bytes);
  if (arch.sharedEmbedding && !sharedVocab && source.vocab.pieces.length !== target.vocab.pieces.length) {
    throw new ConvertError(ymlFile, 'tied-embeddings-all', `one embedding for a source vocabulary of ${source.vocab.pieces.length} and a target one of ${target.vocab.pieces.length} pieces`);
  }
  const tensors = weightTensors(items, arch, files.folder.display(files.model));
  const config = buildConfig(arch, source.vocab, target.vocab, files, options, sharedVocab);
  const metadata: Record<string, string> = {};
  const quantization = quantizationNote(items);
  if (quantization) metadata.quantization = quantization;
  if (arch.version) metadata.marian_version = arch.version;
  if (!options.allowUnk) {
    suppressUnk(tensors, config);
    metadata.unk = `'<unk>' (id ${config.unk_id}) is never written, as Marian decodes without --allow-unk: its logit bias is ${UNK_LOGIT_BIAS}`;
  }
  if (files.shortlist) {
    const shortlist = mapMarianShortlist(readMaybeGzipped(folder, files.shortlist), folder.display(files.shortlist), source.vocab.pieces.length,
      target.vocab.pieces.length, config.eos_id, sharedVocab);
    for (const [name, t] of shortlist.tensors) tensors.set(name, t);
    metadata.shortlist = shortlist.description;
  }
  return {
    config, tensors, sourceSpm: source.bytes, targetSpm: target.bytes,
    provenance: provenance(files, options), metadata,
  };
}

