/**
 * Maps Marian's binary lexical shortlist (`lex.50.50.ende.s2t.bin`, browsermt/marian-dev e88c1aa
 * src/data/shortlist.h:164-229 and src/data/shortlist.cpp:147-311) to the model file's
 * `shortlist.frequent/offsets/targets` tensors (docs/model-format.md, "Lexical shortlist").
 *
 * File layout (shortlist.cpp:164-201): a header of six uint64 { magic 0xF11A48D5013417F5;
 * checksum; firstNum; bestNum; wordToOffsetSize; shortListsSize }, then wordToOffset
 * (uint64 × wordToOffsetSize, source id → start) and shortLists (uint32 × shortListsSize, target ids
 * ascending within each source id). Bergamot scores, for a sentence (shortlist.cpp:259-311): the
 * target ids below firstNum, each source id's list, and with one shared vocabulary the source ids
 * themselves; then it pads the set with the next unselected ids above firstNum up to a multiple of 8
 * (for intgemm), which our format cannot say and which only adds candidates.
 */
import { ConvertError } from './convert-error.js';
import type { Tensor } from './model-file.js';

const MAGIC = 0xf11a48d5013417f5n;
const HEADER_BYTES = 48;

/** The shortlist tensors and the one-line description recorded as metadata "shortlist". */
export interface MappedShortlist {
  tensors: Map<string, Tensor>;
  description: string;
}

/**
 * Marian's checksum (src/common/hash.h hashMem with boost's hash_combine and std::hash<uint64_t>,
 * the identity on the 64-bit Linux builds that write these files) of the uint64 words after magic
 * and checksum.
 */
function marianChecksum(bytes: Uint8Array): bigint {
  const words = Math.floor((bytes.length - 16) / 8);
  const aligned = new BigUint64Array(bytes.slice(16, 16 + 8 * words).buffer);
  let seed = 0n;
  for (const v of aligned) {
    seed = BigInt.asUintN(64, seed ^ BigInt.asUintN(64, v + 0x9e3779b9n + (seed << 6n) + (seed >> 2n)));
  }
  return seed;
}

/**
 * The shortlist of a Marian binary lex file, as our tensors.
 * @param sourceVocabSize, targetVocabSize the model's; `eosId` the target `</s>`, always scored.
 * @param sharedVocab one vocabulary on both sides: each source id also lists itself (as Bergamot
 *   does when source and target vocabularies are the same object, translation_model.cpp:34).
 * @throws ConvertError for a bad magic or checksum, a file whose size disagrees with its header,
 *   an offset table that is not [sourceVocabSize + 1] rising to the list length, or a target id
 *   outside the vocabulary.
 */
export function mapMarianShortlist(bytes: Uint8Array, file: string, sourceVocabSize: number, targetVocabSize: number,
  eosId: number, sharedVocab: boolean): MappedShortlist {
  if (bytes.length < HEADER_BYTES) throw new ConvertError(file, 'header', `truncated: ${bytes.length} bytes, the header alone is 48`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const field = (i: number) => view.getBigUint64(8 * i, true);
  if (field(0) !== MAGIC) throw new ConvertError(file, 'magic', 'not a binary Marian shortlist (a text lex file must be converted with marian-conv --shortlist first)');
  const [firstNum, bestNum, offsetCount, listLength] = [2, 3, 4, 5].map((i) => Number(field(i)));
  const expected = HEADER_BYTES + 8 * offsetCount + 4 * listLength;
  if (expected !== bytes.length) throw new ConvertError(file, 'size', `the header says ${expected} bytes, the file has ${bytes.length} (truncated?)`);
  if (marianChecksum(bytes) !== field(1)) throw new ConvertError(file, 'checksum', 'does not match the contents: the file is damaged');
  if (offsetCount !== sourceVocabSize + 1) {
    throw new ConvertError(file, 'wordToOffsetSize', `is ${offsetCount}, the source vocabulary has ${sourceVocabSize} pieces (+1)`);
  }
  const wordToOffset = new BigUint64Array(bytes.slice(HEADER_BYTES, HEADER_BYTES + 8 * offsetCount).buffer);
  const lists = new Uint32Array(bytes.slice(HEADER_BYTES + 8 * offsetCount).buffer);
  const offsets = new Int32Array(offsetCount);
  const targets: number[] = [];
  for (let s = 0; s < sourceVocabSize; ++s) {
    const begin = Number(wordToOffset[s]), end = Number(wordToOffset[s + 1]);
    if (begin > end || end > listLength) throw new ConvertError(file, 'wordToOffset', `entry ${s} + 1 (${end}) is out of order or past ${listLength}`);
    offsets[s] = targets.length;
    let self = sharedVocab && s < targetVocabSize;
    for (let j = begin; j < end; ++j) {
      if (lists[j] >= targetVocabSize) throw new ConvertError(file, 'shortLists', `target id ${lists[j]} is outside the vocabulary of ${targetVocabSize}`);
      if (lists[j] === s) self = false;
      targets.push(lists[j]);
    }
    if (self) targets.push(s);
  }
  offsets[sourceVocabSize] = targets.length;
  const frequentIds = Array.from({ length: Math.min(firstNum, targetVocabSize) }, (_, i) => i);
  if (eosId >= frequentIds.length) frequentIds.push(eosId);
  const frequent = Int32Array.from(frequentIds);
  const tensors = new Map<string, Tensor>([
    ['shortlist.frequent', { dtype: 'I32', shape: [frequent.length], data: frequent }],
    ['shortlist.offsets', { dtype: 'I32', shape: [offsets.length], data: offsets }],
    ['shortlist.targets', { dtype: 'I32', shape: [targets.length], data: Int32Array.from(targets) }],
  ]);
  const description = `Marian binary shortlist ${file.split('/').pop()}: firstNum ${firstNum}, bestNum ${bestNum}` +
    `${sharedVocab ? ', each source piece also listing itself (shared vocabulary)' : ''}; ids ascending within each list`;
  return { tensors, description };
}
