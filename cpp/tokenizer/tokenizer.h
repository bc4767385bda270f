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
  /// vocab: the model's pieces, id = index, or empty for the target model's own pieces and ids
  /// (no copy of them: SentencePiece's tables serve both lookups). Raises Error(kTokenizer) if
  /// SentencePiece rejects a model, Error(kModelFormat) if the vocabulary has duplicate pieces.
  Tokenizer(const std::string& source_spm, const std::string& target_spm, std::vector<std::string> vocab,
            int unk_id);
  ~Tokenizer();
  Tokenizer(Tokenizer&&) noexcept;

  /// Pieces and words of `text` under the side's model; each piece is mapped to a word by the byte
  /// offsets SentencePiece keeps into the original text. Raises Error(kInvalidInput) if text is not
  /// UTF-8, Error(kTokenizer) if SentencePiece fails.
  Encoding encode(const std::string& text, Side side) const;
  /// Ids of pieces under the vocabulary; a piece it lacks becomes unk_id.
  std::vector<int> to_ids(const std::vector<std::string>& pieces) const;
  /// The piece of an id, e.g. "▁Hund"; Error(kInvalidInput) if out of range.
  const std::string& piece(int id) const;
  /// Detokenized text of target pieces (special pieces such as </s> must be removed first).
  std::string decode_pieces(const std::vector<std::string>& pieces) const;

  int vocab_size() const;

 private:
  // One processor for both sides when the file holds one joint model (loading one costs ~40% of a
  // model's load time).
  std::shared_ptr<const sentencepiece::SentencePieceProcessor> source_, target_;
  std::vector<std::string> vocab_;                     // empty: target_'s pieces
  std::unordered_map<std::string, int> piece_to_id_;  // of vocab_
  int unk_id_;
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
