// Text <-> token ids through SentencePiece (Kudo & Richardson 2018), with the model's own vocabulary
// mapping pieces to ids (for our models the two agree; Marian models number pieces differently).
#pragma once

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace sentencepiece {
class SentencePieceProcessor;
}

namespace crossattn {

/// A text cut into SentencePiece pieces and into words, where a word is a whitespace-separated
/// token of the text as given (the unit of Pharaoh-format word alignments). Control characters
/// (U+0000 to U+001F, U+007F) count as whitespace.
struct Encoding {
  std::vector<std::string> pieces;  // [P]
  std::vector<int> word_of_piece;   // [P] index into words of the word each piece came from
  std::vector<std::string> words;   // [W]
};

/// Which of the model's two SentencePiece models (for a shared vocabulary they may be the same).
enum class Side { kSource, kTarget };

class Tokenizer {
 public:
  /// source_spm / target_spm: serialized SentencePiece models (the bytes of a .model file);
  /// vocab: the target pieces, id = index, or empty for the target model's own pieces and ids
  /// (no copy of them: SentencePiece's tables serve both lookups); source_vocab: the source pieces,
  /// or empty. The source side numbers its pieces by source_vocab, else by vocab, else by the
  /// source model's own ids (docs/model-format.md, "Vocabularies"). unk_id / source_unk_id: the id
  /// of a piece the side's vocabulary lacks (source_unk_id -1: unk_id). Raises Error(kTokenizer)
  /// if SentencePiece rejects a model, Error(kModelFormat) if a vocabulary has duplicate pieces.
  Tokenizer(const std::string& source_spm, const std::string& target_spm, std::vector<std::string> vocab,
            int unk_id, std::vector<std::string> source_vocab = {}, int source_unk_id = -1);
  ~Tokenizer();
  Tokenizer(Tokenizer&&) noexcept;

  /// Pieces and words of `text` under the side's model; each piece is mapped to a word by the byte
  /// offsets SentencePiece keeps into the original text. On the source side a leading target-language
  /// token that the source vocabulary has (">>fra<<", multi-target OPUS-MT models) is one piece of its
  /// own, as MarianTokenizer cuts it. Raises Error(kInvalidInput) if text is not
  /// UTF-8, Error(kTokenizer) if SentencePiece fails.
  Encoding encode(const std::string& text, Side side) const;
  /// Ids of pieces under the side's vocabulary; a piece it lacks becomes that side's unk id.
  std::vector<int> to_ids(const std::vector<std::string>& pieces, Side side = Side::kTarget) const;
  /// The piece of an id of the side, e.g. "▁Hund"; Error(kInvalidInput) if out of range.
  const std::string& piece(int id, Side side = Side::kTarget) const;
  /// Detokenized text of target pieces (special pieces such as </s> must be removed first).
  std::string decode_pieces(const std::vector<std::string>& pieces) const;

  /// The number of pieces of the side's vocabulary.
  int vocab_size(Side side = Side::kTarget) const;

 private:
  /// One side's piece <-> id table: a vocabulary's pieces, or (pieces empty) the SentencePiece
  /// model's own.
  struct Vocabulary {
    std::shared_ptr<const sentencepiece::SentencePieceProcessor> spm;
    std::vector<std::string> pieces;
    std::unordered_map<std::string, int> ids;  // of pieces
  };
  static std::shared_ptr<const Vocabulary> make_vocabulary(
      std::shared_ptr<const sentencepiece::SentencePieceProcessor> spm, std::vector<std::string> pieces);
  const Vocabulary& vocabulary(Side side) const { return side == Side::kSource ? *source_vocab_ : *target_vocab_; }
  // Bytes of a ">>xx<<" token at the start of `text` that the source vocabulary has, else 0.
  size_t language_token_length(const std::string& text) const;

  // One processor for both sides when the file holds one joint model (loading one costs ~40% of a
  // model's load time), and one table for both sides when they share a vocabulary.
  std::shared_ptr<const sentencepiece::SentencePieceProcessor> source_, target_;
  std::shared_ptr<const Vocabulary> source_vocab_, target_vocab_;
  int unk_id_, source_unk_id_;
};

/// The whitespace-separated words of `text` (ASCII whitespace).
std::vector<std::string> split_words(const std::string& text);

/// word_of_piece [P] for pieces that spell a text as SentencePiece detokenizes it: a piece that
/// starts with U+2581 "▁" starts a new word. Indices are clamped to [0, words - 1]
/// (-1 when words is 0).
std::vector<int> words_of_pieces(const std::vector<std::string>& pieces, int words);

/// True if `text` is well-formed UTF-8 (no overlong forms, surrogates or values past U+10FFFF).
bool is_valid_utf8(const std::string& text);

}  // namespace crossattn
