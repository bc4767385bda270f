/**
 * The pieces of a serialized SentencePiece model (a `.spm` / `.model` file: the ModelProto of
 * google/sentencepiece src/sentencepiece_model.proto), read with protobufjs's wire reader:
 * ModelProto field 1 is the repeated SentencePiece { 1: piece (string), 2: score (float),
 * 3: type (enum: 1 NORMAL, 2 UNKNOWN, 3 CONTROL, 4 USER_DEFINED, 5 UNUSED, 6 BYTE) }; a piece's id
 * is its index.
 */
import protobuf from 'protobufjs/minimal.js';
import { ConvertError } from './convert-error.js';

const TYPE_UNKNOWN = 2;

/** A SentencePiece model's vocabulary. */
export interface SentencePieceVocab {
  /** The pieces by id. */
  pieces: string[];
  /** The id of the UNKNOWN piece (`<unk>`). */
  unkId: number;
  /** The id of `piece`, or undefined. */
  id(piece: string): number | undefined;
}

function readPiece(reader: protobuf.Reader, end: number): { piece: string; type: number } {
  let piece = '', type = 1;
  while (reader.pos < end) {
    const tag = reader.uint32();
    if (tag >>> 3 === 1) piece = reader.string();
    else if (tag >>> 3 === 3) type = reader.int32();
    else reader.skipType(tag & 7);
  }
  return { piece, type };
}

/**
 * The longest piece a vocabulary may hold, in UTF-16 code units. SentencePiece trains pieces of 16
 * characters at most by default; the engine's tokenizer overflowed its stack on a piece of 20 MB.
 */
export const MAX_PIECE_LENGTH = 1024;

/** @throws ConvertError naming `field[i]` for the first piece longer than MAX_PIECE_LENGTH. */
export function checkPieceLengths(pieces: readonly string[], file: string, field: string): void {
  const long = pieces.findIndex((p) => p.length > MAX_PIECE_LENGTH);
  if (long >= 0) throw new ConvertError(file, `${field}[${long}]`, `a piece of ${pieces[long].length} characters, over the ${MAX_PIECE_LENGTH} any vocabulary has`);
}

/**
 * The pieces of the SentencePiece model in `bytes`.
 * @throws ConvertError naming `file` when it is not a SentencePiece model (unreadable protobuf, no
 *   pieces, or no UNKNOWN piece).
 */
export function readSentencePieceVocab(bytes: Uint8Array, file: string): SentencePieceVocab {
  const pieces: string[] = [];
  let unkId = -1;
  try {
    const reader = protobuf.Reader.create(bytes);
    while (reader.pos < reader.len) {
      const tag = reader.uint32();
      if (tag >>> 3 === 1 && (tag & 7) === 2) {
        const length = reader.uint32();
        const { piece, type } = readPiece(reader, reader.pos + length);
        if (type === TYPE_UNKNOWN && unkId < 0) unkId = pieces.length;
        pieces.push(piece);
      } else {
        reader.skipType(tag & 7);
      }
    }
  } catch (e) {
    throw new ConvertError(file, 'pieces', `not a SentencePiece model (${e instanceof Error ? e.message : String(e)})`);
  }
  if (pieces.length === 0) throw new ConvertError(file, 'pieces', 'not a SentencePiece model: it lists no pieces');
  checkPieceLengths(pieces, file, 'pieces');
  if (unkId < 0) throw new ConvertError(file, 'pieces', 'the SentencePiece model has no unknown piece');
  const ids = new Map<string, number>();
  pieces.forEach((p, i) => { if (!ids.has(p)) ids.set(p, i); });
  return { pieces, unkId, id: (piece) => ids.get(piece) };
}
