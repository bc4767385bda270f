// A guard against a word written twice in a row ("an an anna.schmidt@…", "earlier earlier",
// "das das"), which the shipped models write at every beam size where the source repeats no word:
// 73 of 997 FLORES dev outputs of general-en-de, greedy (tools/internals/word-repeats.js). The repetition
// guard (repetition_guard.h) lets a span occur up to repeat_limit times in a row, since a run of two
// is often right at the token level ("0" "0" of 100); a word twice in a row, where the source has
// none, is an error of the model.
//
// Words are SentencePiece's: a piece that begins with "▁" (U+2581) begins a word. Two words are the
// same when their pieces are, up to ASCII case and up to punctuation pieces at the end ("Die",
// "die,"), so that "Management Management" and "berichtete, berichtete" count as a repeat.
// Rule: a token may not make the target's last word the same as the word before it. A token that
// begins a word may not copy a one-piece word before it ("▁an" after "▁an", or after "▁An" ","); a
// token inside a word may not complete a copy of the word before it ("sion" of "▁Ver" "sion" after
// "▁Ver" "sion"). The translator applies the guard only to a sentence whose source repeats no word
// in this sense (repeats_word), so that "very very" may still become "sehr sehr". Every token of the
// same spelling up to case is forbidden together.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "decoding/token_selection.h"

namespace crossattn {

/// Longest word the guard compares, in pieces.
inline constexpr int kMaxWordPieces = 16;

/// What the guard reads of a vocabulary's pieces.
class WordPieces {
 public:
  /// pieces: the vocabulary's pieces by id.
  explicit WordPieces(const std::vector<std::string>& pieces);
  /// pieces: the vocabulary's pieces by id, as views that need to live only as long as the call
  /// (the tokenizer's own strings: no piece is copied).
  explicit WordPieces(const std::vector<std::string_view>& pieces);
  /// Whether piece id begins a word ("▁..."); false for an id outside the vocabulary.
  bool starts(int id) const { return valid(id) && starts_[id]; }
  /// Whether piece id is punctuation inside a word: no "▁", only ASCII punctuation (",", ".", ")").
  bool punctuation(int id) const { return valid(id) && punctuation_[id]; }
  /// The smallest id whose piece is piece id's up to ASCII case; id itself outside the vocabulary.
  int key(int id) const { return valid(id) ? key_[id] : id; }
  /// The next id after `id` (ascending) whose piece is the same up to ASCII case, or -1: with key(id)
  /// as the first, every id spelled alike, without allocating in the search.
  int next_alike(int id) const { return valid(id) ? next_alike_[id] : -1; }

 private:
  bool valid(int id) const { return id >= 0 && id < static_cast<int>(key_.size()); }
  std::vector<char> starts_, punctuation_;
  std::vector<int> key_;
  std::vector<int> next_alike_;  // the next id of the same key, or -1: a list per key
};

/// Whether ids [n] (without eos) hold the same word twice in a row, as the guard compares words.
bool repeats_word(const std::vector<int>& ids, const WordPieces& pieces);

/// The guard as BeamSearch applies it to one sentence: a TokenConstraint.
class WordRepeatGuard final : public TokenConstraint {
 public:
  /// pieces: WordPieces of the target vocabulary.
  explicit WordRepeatGuard(std::shared_ptr<const WordPieces> pieces) : pieces_(std::move(pieces)) {}
  int history() const override { return 2 * kMaxWordPieces; }
  void forbid(const int* tail, int n, std::vector<int>& banned) const override;

 private:
  std::shared_ptr<const WordPieces> pieces_;
};

}  // namespace crossattn
