// Why a warm-up: V8 runs a WebAssembly function in baseline code (Liftoff) until it has run for a
// while, then optimizes it on a background thread (TurboFan) and switches at the function's next
// call. A translator's first load in a fresh process therefore built SentencePiece's tables in
// baseline code: general-en-de (16,000 pieces) loaded in 177 ms the first time and 60-76 ms the
// next in one Node 20 process (`node --no-wasm-dynamic-tiering`, baseline code only: 169 and 146 ms).
// prepareEngine (bindings/src/engine.ts) calls warm_up() in a scratch instance of the module it
// compiled: the optimized code belongs to the compiled module, so every later instance starts with
// it; Translator.load runs it beside the model's download or read. `node bench/engine.js crossattn
// --model models/general-en-de/general-en-de.int8.crossattn --load-only`, 7 fresh processes each:
// load median 174 ms before, 123 ms after (general-de-en 125 ms); prepareEngine 39-104 ms.
#include "warm_up.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "builtin_pb/sentencepiece_model.pb.h"
#include "model/checksum.h"
#include "tokenizer/tokenizer.h"

namespace crossattn {
namespace {

constexpr size_t kChecksumBytes = 1 << 20;
// At least every letter with and without the word boundary (SentencePiece needs one normal piece),
// at most every synthetic piece.
constexpr int kMinPieces = 3 + 2 * 26, kMaxPieces = 3 + 2 * (26 + 26 * 26 + 26 * 26 * 26);

// The i-th of a .. z, aa .. zz, aaa .. zzz (i < 18,278).
std::string stem(int i) {
  int length = 1;
  for (int count = 26; i >= count; count *= 26, ++length) i -= count;
  std::string s(length, 'a');
  for (int c = length - 1; c >= 0; --c, i /= 26) s[c] = static_cast<char>('a' + i % 26);
  return s;
}

// A unigram model of `pieces` pieces: <unk>, <s>, </s>, the 26 letters with and without the word
// boundary, then two- and three-letter pieces, scores falling, SentencePiece's identity normalizer.
std::string synthetic_spm(int pieces, std::vector<std::string>& vocab) {
  sentencepiece::ModelProto proto;
  const auto add = [&](const std::string& piece, sentencepiece::ModelProto::SentencePiece::Type type) {
    auto* p = proto.add_pieces();
    p->set_piece(piece);
    p->set_score(-static_cast<float>(vocab.size()) * 0.01f);
    p->set_type(type);
    vocab.push_back(piece);
  };
  using Piece = sentencepiece::ModelProto::SentencePiece;
  add("<unk>", Piece::UNKNOWN);
  add("<s>", Piece::CONTROL);
  add("</s>", Piece::CONTROL);
  const std::string boundary = "\xe2\x96\x81";  // U+2581
  for (int i = 0; static_cast<int>(vocab.size()) < pieces; ++i) {
    add(i % 2 ? stem(i / 2) : boundary + stem(i / 2), Piece::NORMAL);
  }
  auto* trainer = proto.mutable_trainer_spec();
  trainer->set_model_type(sentencepiece::TrainerSpec::UNIGRAM);
  trainer->set_vocab_size(pieces);
  trainer->set_unk_id(0);
  trainer->set_bos_id(1);
  trainer->set_eos_id(2);
  trainer->set_pad_id(-1);
  proto.mutable_normalizer_spec()->set_name("identity");
  return proto.SerializeAsString();
}

}  // namespace

int warm_up(int pieces) {
  std::vector<std::string> vocab;
  const std::string spm = synthetic_spm(std::clamp(pieces, kMinPieces, kMaxPieces), vocab);
  const Tokenizer tokenizer(spm, spm, vocab, 0);
  tokenizer.encode("the quick brown fox jumps over the lazy dog", Side::kSource);
  const std::vector<uint8_t> file(kChecksumBytes);  // the model file's checksum, block by block
  xxh3_64(file.data(), file.size());
  return tokenizer.vocab_size();
}

}  // namespace crossattn
