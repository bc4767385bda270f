/**
 * Writes serialized SentencePiece models (ModelProto, google/sentencepiece src/sentencepiece_model.proto)
 * with protobufjs's wire writer. The fields written (numbers from that file):
 *   ModelProto      1 pieces (repeated SentencePiece), 2 trainer_spec, 3 normalizer_spec
 *   SentencePiece   1 piece (string), 2 score (float), 3 type (1 NORMAL, 2 UNKNOWN, 3 CONTROL,
 *                   4 USER_DEFINED, 6 BYTE)
 *   TrainerSpec     3 model_type (1 UNIGRAM), 4 vocab_size, 35 byte_fallback, 40 unk_id, 41 bos_id,
 *                   42 eos_id, 43 pad_id, 44 unk_surface (what decoding writes for <unk>; default " ⁇ ")
 *   NormalizerSpec  1 name, 2 precompiled_charsmap (bytes), 3 add_dummy_prefix, 4 remove_extra_whitespaces,
 *                   5 escape_whitespaces
 */
import protobuf from 'protobufjs/minimal.js';

export const PIECE_NORMAL = 1, PIECE_UNKNOWN = 2, PIECE_CONTROL = 3, PIECE_USER_DEFINED = 4, PIECE_BYTE = 6;

/** One entry of ModelProto.pieces. */
export interface SentencePieceEntry { piece: string; score: number; type: number }

/** What a Unigram SentencePiece model needs beyond its pieces. */
export interface UnigramSpec {
  unkId: number; bosId: number; eosId: number; padId: number; byteFallback: boolean;
  /** NormalizerSpec: the charsmap (empty: no normalization, name "identity"). */
  precompiledCharsmap: Uint8Array;
  addDummyPrefix: boolean; removeExtraWhitespaces: boolean;
}

function writePiece(w: protobuf.Writer, p: SentencePieceEntry): void {
  w.uint32((1 << 3) | 2).fork();
  w.uint32((1 << 3) | 2).string(p.piece);
  w.uint32((2 << 3) | 5).float(p.score);
  w.uint32((3 << 3) | 0).int32(p.type);
  w.ldelim();
}

/** The bytes of a Unigram SentencePiece model (a `.model` file) with `pieces` (id = index). */
export function writeUnigramModel(pieces: SentencePieceEntry[], spec: UnigramSpec): Uint8Array {
  const w = protobuf.Writer.create();
  for (const p of pieces) writePiece(w, p);
  w.uint32((2 << 3) | 2).fork();  // trainer_spec
  w.uint32((3 << 3) | 0).int32(1);  // UNIGRAM
  w.uint32((4 << 3) | 0).int32(pieces.length);
  w.uint32((35 << 3) | 0).bool(spec.byteFallback);
  w.uint32((40 << 3) | 0).int32(spec.unkId);
  w.uint32((41 << 3) | 0).int32(spec.bosId);
  w.uint32((42 << 3) | 0).int32(spec.eosId);
  w.uint32((43 << 3) | 0).int32(spec.padId);
  w.uint32((44 << 3) | 2).string('');  // <unk> decodes to nothing, as the reference engines' skip_special_tokens
  w.ldelim();
  w.uint32((3 << 3) | 2).fork();  // normalizer_spec
  w.uint32((1 << 3) | 2).string(spec.precompiledCharsmap.length ? 'nmt_nfkc' : 'identity');
  if (spec.precompiledCharsmap.length) w.uint32((2 << 3) | 2).bytes(spec.precompiledCharsmap);
  w.uint32((3 << 3) | 0).bool(spec.addDummyPrefix);
  w.uint32((4 << 3) | 0).bool(spec.removeExtraWhitespaces);
  w.uint32((5 << 3) | 0).bool(true);
  w.ldelim();
  return w.finish();
}

/**
 * `spm` with `pieces` appended as USER_DEFINED pieces, which SentencePiece matches whole wherever
 * they occur in the text (Marian's `>>fra<<` target-language tokens). Protobuf merges a repeated
 * field's entries across the message, so appending entries of field 1 appends pieces.
 */
export function withUserDefinedPieces(spm: Uint8Array, pieces: string[]): Uint8Array {
  if (pieces.length === 0) return spm;
  const w = protobuf.Writer.create();
  for (const piece of pieces) writePiece(w, { piece, score: 0, type: PIECE_USER_DEFINED });
  const tail = w.finish();
  const out = new Uint8Array(spm.length + tail.length);
  out.set(spm, 0);
  out.set(tail, spm.length);
  return out;
}

/**
 * `spm` with TrainerSpec.unk_surface set to "" (protobuf merges a second trainer_spec into the first):
 * an <unk> the decoder writes then detokenizes to nothing, as MarianTokenizer.decode and transformers.js
 * do with skip_special_tokens (the translation pipelines' setting), instead of SentencePiece's " ⁇ ".
 */
export function withEmptyUnkSurface(spm: Uint8Array): Uint8Array {
  const w = protobuf.Writer.create();
  w.uint32((2 << 3) | 2).fork().uint32((44 << 3) | 2).string('').ldelim();
  const tail = w.finish();
  const out = new Uint8Array(spm.length + tail.length);
  out.set(spm, 0);
  out.set(tail, spm.length);
  return out;
}
