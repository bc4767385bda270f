/**
 * Hugging Face MarianMT folder (OPUS-MT, e.g. Helsinki-NLP/opus-mt-en-de) -> crossattn model.
 *
 * Files read: config.json (MarianConfig), model.safetensors (F32, F16 or BF16) or else pytorch_model.bin
 * (torch.save's archive: pytorch.ts), vocab.json (the source vocabulary, and the target one unless
 * share_encoder_decoder_embeddings is false, when target_vocab.json is), source.spm and target.spm (SentencePiece models that cut text into pieces;
 * vocab.json numbers the pieces: transformers tokenization_marian.py MarianTokenizer). The tensors
 * keep their values and dtype (BF16 widened to F32) under our names (marian-hf-weights.ts); the
 * function is MarianMTModel's (marian-hf-config.ts).
 *
 * Marian's target-language tokens (`>>fra<<`, in multi-target models' vocab.json) stay in the
 * vocabulary and are added to the source SentencePiece model as user-defined pieces, so that a text
 * typed as `>>fra<< Hello` reaches the encoder with the token, as MarianTokenizer sends it.
 * The SentencePiece models get an empty unk_surface, so that a generated <unk> vanishes from the text
 * as MarianTokenizer.decode(skip_special_tokens=True) drops it.
 */
import { ConvertError } from './convert-error.js';
import { sameTensor } from './files.js';
import { crossattnConfig, identify, readMarianConfig, type MarianConfigJson } from './marian-hf-config.js';
import { checkSinusoids, hfName, languageTokens, layerTensorName, readVocabJson } from './marian-hf-weights.js';
import type { ConvertedModel, ConvertOptions, Tensor } from './model-file.js';
import { readJsonFile, type ModelFiles } from './model-files.js';
import { readPytorch } from './pytorch.js';
import { readSafetensors } from './safetensors.js';
import { readSentencePieceVocab } from './sentencepiece-pieces.js';
import { withEmptyUnkSurface, withUserDefinedPieces } from './sentencepiece-model.js';
import { MODEL_TENSORS as ours } from './model-spec.generated.js';

/** Picks and renames the embeddings, output layer and bias; returns whether the output layer is tied. */
function embeddings(hf: Map<string, Tensor>, shared: boolean, file: string, out: Map<string, Tensor>): boolean {
  const take = (...names: string[]) => {
    const name = names.find((n) => hf.has(n));
    if (!name) throw new ConvertError(file, names[0], 'missing: MarianMTModel has it');
    const t = hf.get(name)!;
    names.forEach((n) => hf.delete(n));
    return t;
  };
  let decoderEmbedding: Tensor;
  if (shared) {
    decoderEmbedding = take(hfName(ours.sharedWeight), hfName(ours.encoderEmbedTokensWeight), hfName(ours.decoderEmbedTokensWeight));
    out.set(ours.sharedWeight, decoderEmbedding);
  } else {
    hf.delete(hfName(ours.sharedWeight));
    out.set(ours.encoderEmbedTokensWeight, take(hfName(ours.encoderEmbedTokensWeight)));
    decoderEmbedding = take(hfName(ours.decoderEmbedTokensWeight));
    out.set(ours.decoderEmbedTokensWeight, decoderEmbedding);
  }
  const bias = take(hfName(ours.finalLogitsBias));
  out.set(ours.finalLogitsBias, { ...bias, shape: [bias.data.length] });
  const lmHead = hf.get(hfName(ours.lmHeadWeight));
  hf.delete(hfName(ours.lmHeadWeight));
  if (!lmHead || sameTensor(lmHead, decoderEmbedding)) return true;
  out.set(ours.lmHeadWeight, lmHead);
  return false;
}

/** Our tensors from HF's state dict; every tensor must be used. */
function tensorsOf(hf: Map<string, Tensor>, c: ReturnType<typeof readMarianConfig>, file: string): { tensors: Map<string, Tensor>; tied: boolean } {
  const tensors = new Map<string, Tensor>();
  const shared = c.share_encoder_decoder_embeddings !== false;
  const tied = embeddings(hf, shared, file, tensors);
  if (tied && c.tie_word_embeddings === false) throw new ConvertError(file, hfName(ours.lmHeadWeight), 'missing, and tie_word_embeddings is false');
  for (const side of ['encoder', 'decoder']) {
    const name = `model.${side}.embed_positions.weight`;
    const table = hf.get(name);
    if (table) checkSinusoids(table, c.max_position_embeddings, c.d_model, file, name, 1e-3);
    hf.delete(name);
  }
  for (const [name, t] of hf) {
    const layerName = layerTensorName(name);
    if (!layerName) throw new ConvertError(file, name, 'a tensor MarianMTModel does not have; crossattn does not know what it computes');
    tensors.set(layerName, t);
  }
  return { tensors, tied };
}

/** Each embedding has one row per piece of its vocabulary. */
function checkRows(tensors: Map<string, Tensor>, pairs: [string, string[], string][], file: string): void {
  for (const [name, vocab, vocabFile] of pairs) {
    const rows = tensors.get(name)!.shape[0];
    if (rows !== vocab.length) throw new ConvertError(file, `model.${name}`, `has ${rows} rows, ${vocabFile} lists ${vocab.length} pieces`);
  }
}

/** The folder's weights: model.safetensors, else pytorch_model.bin (torch.save's zip of pickle, pytorch.ts). */
function readWeights(files: ModelFiles): { path: string; tensors: Map<string, Tensor> } {
  const safetensorsPath = files.display('model.safetensors'), pytorchPath = files.display('pytorch_model.bin');
  if (files.has('model.safetensors')) return { path: safetensorsPath, tensors: readSafetensors(files.bytes('model.safetensors'), safetensorsPath).tensors };
  if (files.has('pytorch_model.bin')) return { path: pytorchPath, tensors: readPytorch(files.bytes('pytorch_model.bin'), pytorchPath) };
  throw new ConvertError(safetensorsPath, 'file', 'missing: the folder needs it, or pytorch_model.bin');
}

/**
 * Converts the MarianMT folder `files`.
 * @throws ConvertError naming the file and field: a missing file, another model_type or architecture,
 *   vocabulary sizes that disagree with config.json or the weights, a tensor MarianMTModel lacks or one that is missing.
 */
export async function convertHuggingFace(files: ModelFiles, options: ConvertOptions): Promise<ConvertedModel> {
  const configPath = files.display('config.json');
  const c = readMarianConfig(readJsonFile<MarianConfigJson>(files, 'config.json', 'config'), configPath);
  const { path: weightsPath, tensors: hfTensors } = readWeights(files);
  const shared = c.share_encoder_decoder_embeddings !== false;
  const vocab = readVocabJson(files, 'vocab.json');
  const targetVocab = shared ? vocab : readVocabJson(files, 'target_vocab.json');
  const { tensors, tied } = tensorsOf(hfTensors, c, weightsPath);
  checkRows(tensors, shared ? [[ours.sharedWeight, vocab, 'vocab.json']] : [[ours.encoderEmbedTokensWeight, vocab, 'vocab.json'],
    [ours.decoderEmbedTokensWeight, targetVocab, 'target_vocab.json']], weightsPath);
  const tokenizerConfig = files.has('tokenizer_config.json') ? readJsonFile<object>(files, 'tokenizer_config.json', 'tokenizer_config') : {};
  const ident = identify(files, options, tokenizerConfig, 'huggingface-marian');
  const config = crossattnConfig(c, { targetVocab, sourceVocab: shared ? undefined : vocab, tied }, configPath, ident);
  const sourceSpmPath = files.display('source.spm'), targetSpmPath = files.display('target.spm');
  const sourceSpm = files.bytes('source.spm'), targetSpm = files.bytes('target.spm');
  const known = readSentencePieceVocab(sourceSpm, sourceSpmPath);
  readSentencePieceVocab(targetSpm, targetSpmPath);
  const tags = languageTokens(vocab).filter((p) => known.id(p) === undefined);
  return {
    config, tensors,
    sourceSpm: withUserDefinedPieces(withEmptyUnkSurface(sourceSpm), tags), targetSpm: withEmptyUnkSurface(targetSpm),
    vocab: targetVocab, sourceVocab: shared ? undefined : vocab,
    provenance: ident.provenance,
    metadata: tags.length ? { language_tokens: JSON.stringify(tags) } : undefined,
  };
}
