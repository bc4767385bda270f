/**
 * transformers.js folder (Xenova/opus-mt-*) -> crossattn model.
 *
 * Files read (what transformers.js 4.3.1 loads for a Seq2Seq model: src/models/session_config.js
 * `encoder_model` + `decoder_model_merged`, with `_quantized` for dtype q8): config.json (MarianConfig),
 * tokenizer.json, tokenizer_config.json (languages), onnx/encoder_model.onnx and
 * onnx/decoder_model_merged.onnx (decoder_model.onnx if there is no merged one), or their
 * `_quantized` variants with options.quantized. The weights are the graphs' initializers, mapped by
 * onnx-weights.ts; the tokenizer is rebuilt as a SentencePiece model by tokenizer-json.ts.
 *
 * fp32 folders give the same tensors as the HF folder they were exported from. q8 folders keep the
 * linear layers int8 with their per-column scales (exactly our per-row int8) and the embeddings
 * dequantized to fp32; the output layer is then int8 and no longer tied to the embedding.
 */
import { ConvertError } from './convert-error.js';
import { sameTensor } from './files.js';
import { crossattnConfig, identify, readMarianConfig, type MarianConfigJson } from './marian-hf-config.js';
import { checkSinusoids, hfName, languageTokens, layerTensorName } from './marian-hf-weights.js';
import type { ConvertedModel, ConvertOptions, Tensor } from './model-file.js';
import { readJsonFile, type ModelFiles } from './model-files.js';
import { readOnnx } from './onnx.js';
import { moduleRoles } from './onnx-structure.js';
import { onnxWeights, type OnnxWeights } from './onnx-weights.js';
import { rebuildSentencePiece } from './tokenizer-json.js';
import { MODEL_TENSORS as ours } from './model-spec.generated.js';

/** The ONNX files of the folder: `_quantized` ones with options.quantized. */
function onnxPaths(files: ModelFiles, quantized: boolean): { encoder: string; decoder: string } {
  const suffix = quantized ? '_quantized' : '';
  const merged = `onnx/decoder_model_merged${suffix}.onnx`;
  return { encoder: `onnx/encoder_model${suffix}.onnx`, decoder: files.has(merged) ? merged : `onnx/decoder_model${suffix}.onnx` };
}

function take(w: OnnxWeights, name: string, file: string): Tensor {
  const t = w.tensors.get(name);
  if (!t) throw new ConvertError(file, name, 'not found in the graph (no node of that module reads a weight)');
  w.tensors.delete(name);
  return t;
}

/** Our tensors from the two graphs' HF-named weights; returns whether embeddings are shared and the output tied. */
function assemble(enc: OnnxWeights, dec: OnnxWeights, paths: { encoder: string; decoder: string }, c: ReturnType<typeof readMarianConfig>) {
  const tensors = new Map<string, Tensor>();
  const encoderEmbedding = take(enc, hfName(ours.encoderEmbedTokensWeight), paths.encoder);
  const decoderEmbedding = take(dec, hfName(ours.decoderEmbedTokensWeight), paths.decoder);
  const shared = sameTensor(encoderEmbedding, decoderEmbedding);
  if (shared) tensors.set(ours.sharedWeight, decoderEmbedding);
  else tensors.set(ours.encoderEmbedTokensWeight, encoderEmbedding).set(ours.decoderEmbedTokensWeight, decoderEmbedding);
  const lmHead = take(dec, hfName(ours.lmHeadWeight), paths.decoder);
  const tied = sameTensor(lmHead, decoderEmbedding);
  if (!tied) {
    tensors.set(ours.lmHeadWeight, lmHead);
    const scale = dec.tensors.get(`${hfName(ours.lmHeadWeight)}_scale`);
    if (scale) tensors.set(`${ours.lmHeadWeight}_scale`, scale);
  }
  dec.tensors.delete(`${hfName(ours.lmHeadWeight)}_scale`);
  tensors.set(ours.finalLogitsBias, take(dec, hfName(ours.finalLogitsBias), paths.decoder));
  for (const [w, side, file] of [[enc, 'encoder', paths.encoder], [dec, 'decoder', paths.decoder]] as const) {
    const name = `model.${side}.embed_positions.weight`;
    const table = take(w, name, file);
    checkSinusoids(table, c.max_position_embeddings, c.d_model, file, name, w.positionTolerance);
    for (const [name, t] of w.tensors) {
      const scale = name.endsWith('_scale') ? '_scale' : '';
      const layerName = layerTensorName(name.slice(0, name.length - scale.length));
      if (!layerName || !layerName.startsWith(`${side}.`)) throw new ConvertError(file, name, 'a weight MarianMTModel does not have');
      tensors.set(layerName + scale, t);
    }
  }
  return { tensors, shared, tied };
}

/**
 * Converts the transformers.js folder `files` (fp32, or q8 with options.quantized).
 * @throws ConvertError naming the file and field: a missing file, another model_type or architecture,
 *   separate vocabularies (tokenizer.json holds one), vocabulary sizes that disagree, a tokenizer
 *   SentencePiece cannot express, a weight the graph lacks.
 */
export async function convertTransformersJs(files: ModelFiles, options: ConvertOptions): Promise<ConvertedModel> {
  const configPath = files.display('config.json');
  const c = readMarianConfig(readJsonFile<MarianConfigJson>(files, 'config.json', 'config'), configPath);
  if (c.share_encoder_decoder_embeddings === false) {
    throw new ConvertError(configPath, 'share_encoder_decoder_embeddings', 'is false, and tokenizer.json holds one vocabulary: convert the Hugging Face folder (vocab.json, target_vocab.json) instead');
  }
  const tokenizerPath = files.display('tokenizer.json');
  const { vocab, spm } = rebuildSentencePiece(files, 'tokenizer.json');
  const inFolder = onnxPaths(files, options.quantized === true);
  const paths = { encoder: files.display(inFolder.encoder), decoder: files.display(inFolder.decoder) };
  const encoderGraph = readOnnx(files, inFolder.encoder), decoderGraph = readOnnx(files, inFolder.decoder);
  const facts = (layers: number) => ({ layers, dModel: c.d_model, vocabSize: c.vocab_size, maxPositions: c.max_position_embeddings });
  const enc = onnxWeights(encoderGraph, paths.encoder, moduleRoles(encoderGraph, 'encoder', facts(c.encoder_layers), paths.encoder));
  const dec = onnxWeights(decoderGraph, paths.decoder, moduleRoles(decoderGraph, 'decoder', facts(c.decoder_layers), paths.decoder));
  const { tensors, shared, tied } = assemble(enc, dec, paths, c);
  const embedding = tensors.get(shared ? ours.sharedWeight : ours.decoderEmbedTokensWeight)!;
  if (embedding.shape[0] !== vocab.length) {
    throw new ConvertError(tokenizerPath, 'model.vocab', `lists ${vocab.length} pieces, the embedding has ${embedding.shape[0]} rows`);
  }
  const tokenizerConfig = files.has('tokenizer_config.json') ? readJsonFile<object>(files, 'tokenizer_config.json', 'tokenizer_config') : {};
  const ident = identify(files, options, tokenizerConfig, 'transformers.js');
  const config = crossattnConfig(c, { targetVocab: vocab, tied }, configPath, ident);
  config.shared_vocab = shared;
  if (!shared) Object.assign(config, { source_vocab_size: vocab.length, source_eos_id: config.eos_id, source_unk_id: config.unk_id });
  const tags = languageTokens(vocab);
  const int8 = enc.int8 + dec.int8;
  return {
    config, tensors,
    sourceSpm: spm, targetSpm: spm,
    vocab, sourceVocab: shared ? undefined : vocab,
    provenance: ident.provenance,
    metadata: {
      ...(tags.length ? { language_tokens: JSON.stringify(tags) } : {}),
      ...(int8 ? { quantization: `transformers.js q8: ${int8} linear layers int8 (per output feature scales, as onnxruntime quantized them); embeddings dequantized to fp32` } : {}),
    },
  };
}
