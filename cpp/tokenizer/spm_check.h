// Checks a serialized SentencePiece model (ModelProto) before SentencePiece reads it. SentencePiece
// 0.1.97 trusts the normalization rules it carries: a precompiled_charsmap whose double-array trie
// points outside itself, or whose replacement strings run past their blob, is read out of bounds on
// the first text normalized (a segfault natively, garbage silently in wasm; the reliability issue,
// and google/sentencepiece#1272). We walk the protobuf wire format to each NormalizerSpec
// (normalizer_spec = 3, denormalizer_spec = 5; precompiled_charsmap = 2 inside) and check the blob
// as Normalizer::DecodePrecompiledCharsMap and Darts::DoubleArray::commonPrefixSearch will read it:
//   blob       = uint32 trie_size (little endian) | trie [trie_size bytes, 4-byte units] | strings
//   every node unit i (value units, bit 31 set, are never walked through) may lead to units
//   (i ^ offset(i)) ^ c for any byte c: that block of 256 units must lie inside the trie;
//   a leaf's value is an offset into strings, which must end in NUL so every string ends inside.
#pragma once

#include <string>

namespace crossattn {

/// Raises Error(kTokenizer) naming what is damaged if `spm_bytes` is not a well-formed protobuf or
/// one of its normalization rule blobs would be read out of bounds; returns quietly otherwise.
void check_spm_model(const std::string& spm_bytes);

}  // namespace crossattn
