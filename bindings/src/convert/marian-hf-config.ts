/**
 * Hugging Face's MarianConfig (config.json of an OPUS-MT model, as transformers'
 * src/transformers/models/marian/configuration_marian.py defines it and convert_marian_to_pytorch.py
 * fills it) -> the crossattn config, for both the MarianMT folder and the transformers.js folder
 * (which carries the same config.json). The function is modeling_marian.py's MarianMTModel:
 * post-norm layers (MarianEncoderLayer: attention, add, self_attn_layer_norm; feed-forward, add,
 * final_layer_norm), torch.nn.LayerNorm's eps 1e-5, embeddings times sqrt(d_model) when
 * scale_embedding, MarianSinusoidalPositionalEmbedding (sin in the first half, cos in the second,
 * frequencies 10000^(-2i/d_model): our "halves"), the decoder started from decoder_start_token_id's
 * embedding (pad, whose row OPUS-MT conversions leave zero), logits plus final_logits_bias.
 */
import { ConvertError, isJsonObject, shown } from './convert-error.js';
import { MIN_HEAD_DIM } from './model-file.js';
import type { ConvertOptions, ModelConfigJson, Provenance } from './model-file.js';
import type { ModelFiles } from './model-files.js';
import { cardLicense } from './model-card.js';
import { fieldRange } from './tensor-spec.js';

/** The fields of config.json this converter reads (MarianConfig's names). */
export interface MarianConfigJson {
  model_type?: string; architectures?: string[];
  d_model?: number; encoder_layers?: number; decoder_layers?: number;
  encoder_attention_heads?: number; decoder_attention_heads?: number; encoder_ffn_dim?: number; decoder_ffn_dim?: number;
  activation_function?: string; scale_embedding?: boolean; max_position_embeddings?: number;
  normalize_before?: boolean; normalize_embedding?: boolean; add_final_layer_norm?: boolean;
  static_position_embeddings?: boolean;
  vocab_size?: number; decoder_vocab_size?: number | null; share_encoder_decoder_embeddings?: boolean;
  tie_word_embeddings?: boolean;
  pad_token_id?: number; eos_token_id?: number; bos_token_id?: number; decoder_start_token_id?: number;
}

const ACTIVATIONS: Record<string, ModelConfigJson['activation']> = { swish: 'swish', silu: 'swish', relu: 'relu', gelu: 'gelu' };

/** MarianConfig's defaults (configuration_marian.py __init__) for the fields OPUS-MT configs may leave out. */
const DEFAULTS = { d_model: 1024, encoder_layers: 12, decoder_layers: 12, encoder_attention_heads: 16, decoder_attention_heads: 16,
  encoder_ffn_dim: 4096, decoder_ffn_dim: 4096, activation_function: 'gelu', scale_embedding: false, max_position_embeddings: 1024,
  vocab_size: 58101, share_encoder_decoder_embeddings: true, pad_token_id: 58100, eos_token_id: 0, tie_word_embeddings: true };

/** The largest sizes a crossattn model file may declare (the spec's config fields), by MarianConfig's names. */
const LIMITS = {
  d_model: fieldRange('d_model')[1], encoder_layers: fieldRange('encoder_layers')[1], decoder_layers: fieldRange('decoder_layers')[1],
  encoder_attention_heads: fieldRange('n_heads')[1], encoder_ffn_dim: fieldRange('d_ff')[1],
  max_position_embeddings: fieldRange('max_positions')[1], vocab_size: fieldRange('vocab_size')[1],
};

function positiveInt(value: unknown, file: string, field: keyof typeof LIMITS): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0 || value > LIMITS[field]) {
    throw new ConvertError(file, field, `must be an integer in 1..${LIMITS[field]}, is ${shown(value)}`);
  }
  return value;
}

/**
 * Checks that config.json describes a MarianMTModel crossattn computes and returns its fields with
 * MarianConfig's defaults filled in.
 * @throws ConvertError naming config.json and the field: another model_type or architecture, a
 *   pre-norm or embedding-norm variant, an activation crossattn lacks, encoder and decoder sizes that differ.
 */
export function readMarianConfig(raw: MarianConfigJson, file: string): Required<Pick<MarianConfigJson, keyof typeof DEFAULTS>> & MarianConfigJson {
  if (!isJsonObject(raw as unknown)) throw new ConvertError(file, 'config', `is ${shown(raw)}, not a JSON object`);
  if (raw.model_type !== 'marian') throw new ConvertError(file, 'model_type', `is ${JSON.stringify(raw.model_type)}; crossattn converts "marian" (MarianMTModel) only`);
  if (raw.architectures !== undefined && !(Array.isArray(raw.architectures) && raw.architectures.includes('MarianMTModel'))) {
    throw new ConvertError(file, 'architectures', `is ${JSON.stringify(raw.architectures)}; crossattn converts MarianMTModel only`);
  }
  const c = { ...DEFAULTS, ...raw };
  if (c.normalize_before) throw new ConvertError(file, 'normalize_before', 'is true: a pre-norm model, which MarianMTModel does not compute');
  if (c.normalize_embedding) throw new ConvertError(file, 'normalize_embedding', 'is true: an embedding layer norm, which MarianMTModel does not compute');
  if (c.add_final_layer_norm) throw new ConvertError(file, 'add_final_layer_norm', 'is true, which MarianMTModel does not compute');
  if (c.static_position_embeddings === false) throw new ConvertError(file, 'static_position_embeddings', 'is false: learned positions, which crossattn lacks');
  if (typeof c.activation_function !== 'string' || !Object.hasOwn(ACTIVATIONS, c.activation_function)) {
    throw new ConvertError(file, 'activation_function', `is ${JSON.stringify(c.activation_function)}; crossattn computes swish (silu), relu and gelu`);
  }
  for (const [a, b] of [['encoder_attention_heads', 'decoder_attention_heads'], ['encoder_ffn_dim', 'decoder_ffn_dim']] as const) {
    if (c[a] !== c[b]) throw new ConvertError(file, b, `is ${shown(c[b])} but ${a} is ${shown(c[a])}; crossattn needs them equal`);
  }
  for (const f of ['d_model', 'encoder_layers', 'decoder_layers', 'encoder_attention_heads', 'encoder_ffn_dim', 'max_position_embeddings', 'vocab_size'] as const) {
    positiveInt(c[f], file, f);
  }
  if (c.d_model % c.encoder_attention_heads !== 0) throw new ConvertError(file, 'd_model', `${c.d_model} is not a multiple of ${c.encoder_attention_heads} heads`);
  if (c.d_model / c.encoder_attention_heads < MIN_HEAD_DIM) {
    throw new ConvertError(file, 'encoder_attention_heads', `${c.encoder_attention_heads} heads over d_model ${c.d_model} are ${c.d_model / c.encoder_attention_heads} wide; the engine needs at least ${MIN_HEAD_DIM}`);
  }
  return c;
}

/** The language pair of an OPUS-MT name such as "opus-mt-en-de" or "opus-mt-tc-big-en-fr". */
export function languagesOfName(name: string): { sourceLang: string; targetLang: string } | undefined {
  const m = /opus-mt-(?:tc-(?:big|base)-)?([A-Za-z_]+)-([A-Za-z_]+)$/.exec(name);
  return m ? { sourceLang: m[1], targetLang: m[2] } : undefined;
}

/**
 * The name, languages and provenance of a converted OPUS-MT folder: options first, then the folder's
 * name (opus-mt-SRC-TGT), then tokenizer_config.json's source_lang/target_lang. The source is the
 * caller's (a Hub id) or the folder's name; the licence the caller's or the model card's (cardLicense).
 * @throws ConvertError when no language pair can be found.
 */
export function identify(files: ModelFiles, options: ConvertOptions, tokenizerConfig: { source_lang?: string; target_lang?: string },
  convertedFrom: Provenance['convertedFrom']): { name: string; sourceLang: string; targetLang: string; provenance: Provenance } {
  // The folder's name, or the OPUS-MT name in a Hugging Face cache path (models--Helsinki-NLP--opus-mt-en-fr/snapshots/HASH).
  const segments = [...files.root.split(/[\\/]+/), files.name].filter(Boolean);
  const opusSegment = segments.reverse().find((s) => s.includes('opus-mt-'));
  const name = options.name ?? (opusSegment ? opusSegment.slice(opusSegment.indexOf('opus-mt-')) : files.name);
  const fromName = languagesOfName(name);
  // tokenizer_config.json is any JSON: only a string value names a language.
  const fromConfig = (key: 'source_lang' | 'target_lang') => {
    const value: unknown = isJsonObject(tokenizerConfig) ? tokenizerConfig[key] : undefined;
    return typeof value === 'string' ? value : undefined;
  };
  const sourceLang = options.sourceLang ?? fromName?.sourceLang ?? fromConfig('source_lang');
  const targetLang = options.targetLang ?? fromName?.targetLang ?? fromConfig('target_lang');
  if (!sourceLang || !targetLang) {
    throw new ConvertError(files.root, 'source_lang', 'the languages are not in the folder name (opus-mt-SRC-TGT) nor tokenizer_config.json: give --from and --to');
  }
  // Provenance only from what says so: the caller's options (a Hub id) and the model card's licence.
  // A Hugging Face cache path names its repository: models--Helsinki-NLP--opus-mt-en-fr.
  const cached = segments.map((s) => /^models--(.+?)--(.+)$/.exec(s)).find((m) => m);
  const source = options.source ?? (cached ? `${cached[1]}/${cached[2]}` : name);
  const license = options.license ?? cardLicense(files) ?? '';
  const opus = /(?:^|\/)(?:Helsinki-NLP|Xenova)\/opus-mt-/.test(source);
  const provenance: Provenance = {
    source,
    license,
    attribution: options.attribution ?? (opus ? `OPUS-MT model by the Language Technology Research Group at the University of Helsinki (Tiedemann and Thottingal 2020)${license ? `, ${license}` : ''}.`
      : `Converted from ${source}.`),
    convertedFrom,
  };
  return { name, sourceLang, targetLang, provenance };
}

/** Sizes and ids the converter finds in the weights and vocabularies, which config.json must agree with. */
export interface MarianVocabFacts { targetVocab: string[]; sourceVocab?: string[]; tied: boolean }

/**
 * The crossattn config of a MarianMTModel.
 * @throws ConvertError naming `file` when config.json's vocabulary sizes or special ids disagree
 *   with the vocabularies.
 */
export function crossattnConfig(c: ReturnType<typeof readMarianConfig>, facts: MarianVocabFacts, file: string,
  ident: { name: string; sourceLang: string; targetLang: string }): ModelConfigJson {
  const { targetVocab, sourceVocab } = facts;
  const shared = c.share_encoder_decoder_embeddings !== false;
  const targetSize = shared ? c.vocab_size : (c.decoder_vocab_size ?? c.vocab_size);
  if (targetVocab.length !== targetSize) {
    throw new ConvertError(file, shared ? 'vocab_size' : 'decoder_vocab_size', `is ${shown(targetSize)} but the target vocabulary lists ${targetVocab.length} pieces`);
  }
  if (sourceVocab && sourceVocab.length !== c.vocab_size) {
    throw new ConvertError(file, 'vocab_size', `is ${shown(c.vocab_size)} but the source vocabulary (vocab.json) lists ${sourceVocab.length} pieces`);
  }
  const special = (vocab: string[], piece: string, field: string) => {
    const id = vocab.indexOf(piece);
    if (id < 0) throw new ConvertError(file, field, `the vocabulary has no ${piece}`);
    return id;
  };
  const inRange = (id: number, field: string) => {
    if (!Number.isInteger(id) || id < 0 || id >= targetSize) throw new ConvertError(file, field, `is ${shown(id)}, outside the target vocabulary [0, ${targetSize})`);
    return id;
  };
  const config: ModelConfigJson = {
    name: ident.name, source_lang: ident.sourceLang, target_lang: ident.targetLang,
    encoder_layers: c.encoder_layers, decoder_layers: c.decoder_layers, d_model: c.d_model,
    n_heads: c.encoder_attention_heads, d_ff: c.encoder_ffn_dim, activation: ACTIVATIONS[c.activation_function],
    layer_norm: 'post', layer_norm_eps: 1e-5, embed_scale: c.scale_embedding === true,
    positional_encoding: 'sinusoidal', sinusoidal_layout: 'halves', max_positions: c.max_position_embeddings,
    tied_embeddings: facts.tied, shared_vocab: shared, final_logits_bias: true,
    vocab_size: targetSize, pad_id: inRange(c.pad_token_id, 'pad_token_id'), unk_id: special(targetVocab, '<unk>', 'unk_token'),
    bos_id: inRange(c.bos_token_id ?? c.eos_token_id, 'bos_token_id'), eos_id: inRange(c.eos_token_id, 'eos_token_id'),
    decoder_start_id: inRange(c.decoder_start_token_id ?? c.pad_token_id, 'decoder_start_token_id'), decoder_start: 'token',
  };
  if (sourceVocab) {
    config.source_vocab_size = sourceVocab.length;
    config.source_eos_id = special(sourceVocab, '</s>', 'eos_token');
    config.source_unk_id = special(sourceVocab, '<unk>', 'unk_token');
  }
  return config;
}
