/**
 * A Hugging Face tokenizer.json with a Unigram model (transformers.js's Marian tokenizers: Xenova/opus-mt-*,
 * written by transformers.js scripts/extra/marian.py generate_tokenizer_json) -> the SentencePiece
 * model that cuts text the same way, so that our engine's SentencePiece tokenizes as transformers.js does.
 *
 * What maps onto what (transformers.js src/tokenizers: normalizers, pre_tokenizers, models/Unigram):
 * - model Unigram {vocab: [[piece, score]], unk_id, byte_fallback} -> the pieces and scores (Viterbi
 *   over the same scores; both score an unknown character min_score - 10) and the unk id;
 * - normalizer Precompiled {precompiled_charsmap: base64 or null} -> NormalizerSpec.precompiled_charsmap
 *   (null, as in Xenova's Marian tokenizers: no normalization at all, name "identity");
 * - pre_tokenizer WhitespaceSplit + Metaspace {replacement "▁", add_prefix_space} -> remove_extra_whitespaces,
 *   escape_whitespaces and add_dummy_prefix (a piece never spans a space in either);
 * - added_tokens marked special -> CONTROL pieces (the unk piece UNKNOWN), `<0xNN>` pieces with
 *   byte_fallback -> BYTE, Marian's target-language tokens (`>>fra<<`) -> USER_DEFINED (matched whole,
 *   as MarianTokenizer splits them off before the Unigram model).
 */
import { ConvertError, isJsonObject, shown } from './convert-error.js';
import { checkPieceLengths } from './sentencepiece-pieces.js';
import { readJsonFile, type ModelFiles } from './model-files.js';
import { PIECE_BYTE, PIECE_CONTROL, PIECE_NORMAL, PIECE_UNKNOWN, PIECE_USER_DEFINED, writeUnigramModel, type SentencePieceEntry } from './sentencepiece-model.js';

interface Normalizer { type: string; precompiled_charsmap?: string | null; normalizers?: Normalizer[]; pattern?: { Regex?: string; String?: string }; content?: string }
interface PreTokenizer { type: string; pretokenizers?: PreTokenizer[]; replacement?: string; add_prefix_space?: boolean; prepend_scheme?: string }
interface TokenizerJson {
  added_tokens?: { id: number; content: string; special: boolean }[];
  normalizer?: Normalizer | null;
  pre_tokenizer?: PreTokenizer | null;
  model?: { type: string; vocab?: [string, number][]; unk_id?: number | null; byte_fallback?: boolean };
}

/** The bytes of base64 `text`. @throws ConvertError when it is not base64. */
function base64Bytes(text: string, file: string): Uint8Array {
  try {
    return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  } catch {
    throw new ConvertError(file, 'normalizer.precompiled_charsmap', 'is not base64');
  }
}

/** The charsmap of the normalizer (empty for none); a Replace of runs of spaces is what remove_extra_whitespaces does. */
function charsmapOf(n: Normalizer | null | undefined, file: string): Uint8Array {
  if (!n) return new Uint8Array(0);
  if (!isJsonObject(n)) throw new ConvertError(file, 'normalizer', `is ${shown(n)}, not a JSON object`);
  if (n.type === 'Precompiled' && (n.precompiled_charsmap ?? null) === null) return new Uint8Array(0);
  if (n.type === 'Precompiled' && typeof n.precompiled_charsmap === 'string') return base64Bytes(n.precompiled_charsmap, file);
  if (n.type === 'Sequence' && Array.isArray(n.normalizers) && n.normalizers.every(isJsonObject)) {
    const rest = n.normalizers.filter((x) => !(x.type === 'Replace' && x.pattern?.Regex === ' {2,}' && x.content === ' '));
    if (rest.length <= 1) return charsmapOf(rest[0], file);
  }
  throw new ConvertError(file, 'normalizer', `${shown(n.type)} is not one crossattn can express as a SentencePiece normalizer (Precompiled only)`);
}

/** add_dummy_prefix and remove_extra_whitespaces of the pre-tokenizer. */
function whitespaceOf(p: PreTokenizer | null | undefined, file: string): { addDummyPrefix: boolean; removeExtraWhitespaces: boolean } {
  const parts = p?.type === 'Sequence' ? p.pretokenizers ?? [] : p ? [p] : [];
  if (!Array.isArray(parts) || !parts.every(isJsonObject)) throw new ConvertError(file, 'pre_tokenizer', `is ${shown(p)}, not a pre-tokenizer or a Sequence of them`);
  const metaspace = parts.find((x) => x.type === 'Metaspace');
  const others = parts.filter((x) => x.type !== 'Metaspace' && x.type !== 'WhitespaceSplit');
  if (!metaspace || others.length || (metaspace.replacement ?? '\u2581') !== '\u2581') {
    throw new ConvertError(file, 'pre_tokenizer', 'must be Metaspace ("▁"), optionally after WhitespaceSplit, as SentencePiece splits text');
  }
  const addDummyPrefix = metaspace.add_prefix_space === undefined ? (metaspace.prepend_scheme ?? 'always') !== 'never' : metaspace.add_prefix_space === true;
  return { addDummyPrefix, removeExtraWhitespaces: parts.some((x) => x.type === 'WhitespaceSplit') };
}

/** The vocabulary and SentencePiece model of a tokenizer.json. */
export interface RebuiltTokenizer { vocab: string[]; spm: Uint8Array }

/**
 * Reads the tokenizer.json `file` of `files` and writes its SentencePiece model.
 * @throws ConvertError naming the file and the field: not JSON, a model other than Unigram, no unk
 *   piece, a normalizer or pre-tokenizer SentencePiece cannot express.
 */
export function rebuildSentencePiece(files: ModelFiles, file: string): RebuiltTokenizer {
  const path = files.display(file);
  const json = readJsonFile<TokenizerJson>(files, file, 'tokenizer');
  if (!isJsonObject(json as unknown)) throw new ConvertError(path, 'tokenizer', `is ${shown(json)}, not a JSON object`);
  const model = json.model;
  if (!isJsonObject(model as unknown) || model?.type !== 'Unigram' || !Array.isArray(model.vocab)) {
    throw new ConvertError(path, 'model.type', `is ${shown(model?.type)}; crossattn reads Unigram (SentencePiece) tokenizers only`);
  }
  const bad = model.vocab.findIndex((e) => !(Array.isArray(e) && typeof e[0] === 'string' && typeof e[1] === 'number' && Number.isFinite(e[1])));
  if (bad >= 0) throw new ConvertError(path, `model.vocab[${bad}]`, `is ${shown(model.vocab[bad])}, not a [piece, score] pair`);
  const vocab = model.vocab.map(([piece]) => piece);
  checkPieceLengths(vocab, path, 'model.vocab');
  const unkId = model.unk_id ?? -1;
  if (!(Number.isInteger(unkId) && unkId >= 0 && unkId < vocab.length)) throw new ConvertError(path, 'model.unk_id', `is ${shown(model.unk_id)}; SentencePiece needs an unknown piece`);
  const added = json.added_tokens ?? [];
  if (!Array.isArray(added) || !added.every(isJsonObject)) throw new ConvertError(path, 'added_tokens', `is ${shown(added)}, not a list of tokens`);
  const special = new Set(added.filter((t) => t.special === true).map((t) => t.content));
  const byteFallback = model.byte_fallback === true;
  const pieces: SentencePieceEntry[] = model.vocab.map(([piece, score], id) => ({
    piece, score,
    type: id === unkId ? PIECE_UNKNOWN : special.has(piece) ? PIECE_CONTROL : byteFallback && /^<0x[0-9A-F]{2}>$/.test(piece) ? PIECE_BYTE
      : /^>>[^\s<>]+<<$/.test(piece) ? PIECE_USER_DEFINED : PIECE_NORMAL,
  }));
  const spm = writeUnigramModel(pieces, {
    unkId, bosId: vocab.indexOf('<s>'), eosId: vocab.indexOf('</s>'), padId: vocab.indexOf('<pad>'), byteFallback,
    precompiledCharsmap: charsmapOf(json.normalizer, path), ...whitespaceOf(json.pre_tokenizer, path),
  });
  return { vocab, spm };
}
