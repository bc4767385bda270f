#include "tokenizer/tokenizer.h"

#include <sentencepiece_processor.h>

#include <algorithm>
#include <regex>

#include "error.h"
#include "tokenizer/spm_check.h"

namespace crossattn {
namespace {

// SentencePiece's message without the source location it prepends ("/build/.../normalizer.cc(286)
// [condition] "): a user is told what is wrong with their model, not where the library was built.
std::string spm_message(const sentencepiece::util::Status& status) {
  static const std::regex location(R"([^ ]*\.(cc|h)\(\d+\) (\[[^\]]*\] )?)");
  return std::regex_replace(status.ToString(), location, "");
}

std::unique_ptr<sentencepiece::SentencePieceProcessor> load_spm(const std::string& bytes, const char* side) {
  check_spm_model(bytes);  // SentencePiece would read damaged normalization rules out of bounds
  auto processor = std::make_unique<sentencepiece::SentencePieceProcessor>();
  const auto status = processor->LoadFromSerializedProto(bytes);
  if (!status.ok()) {
    throw Error(ErrorCode::kTokenizer, std::string("cannot load the ") + side + " SentencePiece model: " +
                                           spm_message(status));
  }
  return processor;
}

// Whitespace, and the other C0 control characters and DEL: a NUL or an escape character in pasted
// text separates words as a space does, and is never a word or a token of its own.
bool is_space(char c) {
  const auto u = static_cast<unsigned char>(c);
  return u <= 0x20 || u == 0x7f;
}

const std::string kWordBoundary = "\xe2\x96\x81";  // U+2581, SentencePiece's visible space

// [begin, end) byte offsets of the whitespace-separated words of text.
std::vector<std::pair<size_t, size_t>> word_spans(const std::string& text) {
  std::vector<std::pair<size_t, size_t>> spans;
  for (size_t i = 0; i < text.size();) {
    if (is_space(text[i])) {
      ++i;
      continue;
    }
    size_t end = i;
    while (end < text.size() && !is_space(text[end])) ++end;
    spans.emplace_back(i, end);
    i = end;
  }
  return spans;
}

std::vector<std::string> words_at(const std::string& text, const std::vector<std::pair<size_t, size_t>>& spans) {
  std::vector<std::string> words;
  for (const auto& [begin, end] : spans) words.push_back(text.substr(begin, end - begin));
  return words;
}

}  // namespace

std::vector<std::string> split_words(const std::string& text) { return words_at(text, word_spans(text)); }

std::vector<int> words_of_pieces(const std::vector<std::string>& pieces, int words) {
  std::vector<int> word_of_piece;
  word_of_piece.reserve(pieces.size());
  int word = -1;
  for (const auto& p : pieces) {
    if (p.compare(0, kWordBoundary.size(), kWordBoundary) == 0 || word < 0) ++word;
    word_of_piece.push_back(words == 0 ? -1 : std::clamp(word, 0, words - 1));
  }
  return word_of_piece;
}

bool is_valid_utf8(const std::string& text) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  const size_t n = text.size();
  for (size_t i = 0; i < n;) {
    const unsigned char c = s[i];
    size_t len;
    uint32_t cp;
    if (c < 0x80) {
      ++i;
      continue;
    } else if ((c & 0xE0) == 0xC0) {
      len = 2, cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      len = 3, cp = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      len = 4, cp = c & 0x07;
    } else {
      return false;
    }
    if (i + len > n) return false;
    for (size_t k = 1; k < len; ++k) {
      if ((s[i + k] & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (s[i + k] & 0x3F);
    }
    static const uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < kMin[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += len;
  }
  return true;
}

std::shared_ptr<const Tokenizer::Vocabulary> Tokenizer::make_vocabulary(
    std::shared_ptr<const sentencepiece::SentencePieceProcessor> spm, std::vector<std::string> pieces) {
  auto v = std::make_shared<Vocabulary>();
  v->spm = std::move(spm);
  v->pieces = std::move(pieces);
  v->ids.reserve(v->pieces.size());
  for (size_t i = 0; i < v->pieces.size(); ++i) {
    if (!v->ids.emplace(v->pieces[i], static_cast<int>(i)).second) {
      throw Error(ErrorCode::kModelFormat, "invalid model file: the vocabulary lists '" + v->pieces[i] + "' twice");
    }
  }
  return v;
}

Tokenizer::Tokenizer(const std::string& source_spm, const std::string& target_spm, std::vector<std::string> vocab,
                     int unk_id, std::vector<std::string> source_vocab, int source_unk_id)
    : source_(load_spm(source_spm, "source")),
      target_(target_spm == source_spm ? source_ : load_spm(target_spm, "target")),
      unk_id_(unk_id),
      source_unk_id_(source_unk_id < 0 ? unk_id : source_unk_id) {
  // The source side's ids: source_vocab, else vocab, else the source model's own (the contract of
  // docs/model-format.md); the two sides share one table whenever they read the same numbering.
  const bool own_ids = source_vocab.empty() && vocab.empty();
  target_vocab_ = make_vocabulary(target_, std::move(vocab));
  if (!source_vocab.empty()) {
    source_vocab_ = make_vocabulary(source_, std::move(source_vocab));
  } else if (!own_ids || source_ == target_) {
    source_vocab_ = target_vocab_;
  } else {
    source_vocab_ = make_vocabulary(source_, {});
  }
}

Tokenizer::~Tokenizer() = default;
Tokenizer::Tokenizer(Tokenizer&&) noexcept = default;

size_t Tokenizer::language_token_length(const std::string& text) const {
  if (text.compare(0, 2, ">>") != 0) return 0;
  const size_t close = text.find("<<", 2);
  if (close == std::string::npos || close == 2) return 0;
  const size_t end = close + 2;
  const std::string token = text.substr(0, end);
  if (std::any_of(token.begin(), token.end(), is_space)) return 0;
  const Vocabulary& v = vocabulary(Side::kSource);
  const bool known = v.pieces.empty() ? v.spm->PieceToId(token) != v.spm->unk_id() : v.ids.count(token) > 0;
  return known ? end : 0;
}

Encoding Tokenizer::encode(const std::string& text, Side side) const {
  if (!is_valid_utf8(text)) throw Error(ErrorCode::kInvalidInput, "the text is not valid UTF-8");
  sentencepiece::ImmutableSentencePieceText spt;
  const auto& processor = side == Side::kSource ? *source_ : *target_;
  std::string spaced = text;  // control characters as spaces, byte for byte, so offsets still match text
  std::replace_if(spaced.begin(), spaced.end(), is_space, ' ');
  // A leading target-language token of a multi-target OPUS-MT model (">>fra<< ...") is a piece of its
  // own, not passed through SentencePiece (which would put a lone "▁" before it), as MarianTokenizer
  // splits it off (transformers tokenization_marian.py, _tokenize; transformers.js MarianTokenizer).
  const size_t language_token = side == Side::kSource ? language_token_length(text) : 0;
  std::fill_n(spaced.begin(), language_token, ' ');
  const auto status = processor.Encode(spaced, spt.mutable_proto());
  if (!status.ok()) throw Error(ErrorCode::kTokenizer, "SentencePiece cannot encode the text: " + spm_message(status));
  Encoding out;
  const auto spans = word_spans(text);
  out.words = words_at(text, spans);
  for (size_t k = 0; k < spt.pieces_size(); ++k) {
    const auto piece = spt.pieces(static_cast<int>(k));
    // The first non-space byte the piece covers; a piece of bare whitespace belongs to the next word.
    size_t at = piece.begin();
    while (at < piece.end() && at < text.size() && is_space(text[at])) ++at;
    const auto next = std::upper_bound(spans.begin(), spans.end(), at, [](size_t a, const auto& span) { return a < span.first; });
    const int word = static_cast<int>(next - spans.begin()) - 1;
    out.pieces.push_back(piece.piece());
    out.word_of_piece.push_back(out.words.empty() ? -1 : std::max(0, word));
  }
  if (language_token > 0) {
    out.pieces.insert(out.pieces.begin(), text.substr(0, language_token));
    out.word_of_piece.insert(out.word_of_piece.begin(), 0);
  }
  return out;
}

std::vector<int> Tokenizer::to_ids(const std::vector<std::string>& pieces, Side side) const {
  const Vocabulary& v = vocabulary(side);
  const int unk_id = side == Side::kSource ? source_unk_id_ : unk_id_;
  std::vector<int> ids;
  ids.reserve(pieces.size());
  for (const auto& p : pieces) {
    if (v.pieces.empty()) {
      const int id = v.spm->PieceToId(p);  // SentencePiece's unk for a piece it lacks
      ids.push_back(id == v.spm->unk_id() && p != v.spm->IdToPiece(id) ? unk_id : id);
      continue;
    }
    auto it = v.ids.find(p);
    ids.push_back(it == v.ids.end() ? unk_id : it->second);
  }
  return ids;
}

int Tokenizer::vocab_size(Side side) const {
  const Vocabulary& v = vocabulary(side);
  return v.pieces.empty() ? v.spm->GetPieceSize() : static_cast<int>(v.pieces.size());
}

const std::string& Tokenizer::piece(int id, Side side) const {
  if (id < 0 || id >= vocab_size(side)) throw Error(ErrorCode::kInvalidInput, "token id out of range");
  const Vocabulary& v = vocabulary(side);
  return v.pieces.empty() ? v.spm->IdToPiece(id) : v.pieces[static_cast<size_t>(id)];
}

std::string Tokenizer::decode_pieces(const std::vector<std::string>& pieces) const {
  std::string text;
  const auto status = target_->Decode(pieces, &text);
  if (!status.ok()) throw Error(ErrorCode::kTokenizer, "SentencePiece cannot decode: " + spm_message(status));
  return text;
}

}  // namespace crossattn
