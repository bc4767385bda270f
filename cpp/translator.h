// The public C++ API: load a model file, translate text, get tokens, score and cross-attention.
//
//   auto translator = crossattn::Translator::from_file("models/multi30k-en-de.crossattn");
//   auto result = translator.translate("A dog runs.", {});
//   // result.text, result.source_tokens [S], result.target_tokens [T],
//   // result.cross_attention [layers, heads, T, S] with every row summing to 1.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "alignment/word_alignment.h"
#include "model/config.h"

namespace crossattn {

class Tokenizer;
class Transformer;

struct TranslateOptions {
  /// Most target tokens to generate, eos included; 0 means 2 * src_len + 10. At most max_positions.
  int max_length = 0;
  /// Return the cross-attention weights (costs memory: layers * heads * T * S floats).
  bool attention = true;
  /// Return Translation::residual, the statistics of each cross-attention residual connection.
  bool residual = false;
  /// Return Translation::alignment, word alignments made with these options.
  std::optional<AlignmentOptions> alignment;
};

struct Translation {
  std::string text;                         // detokenized target
  std::vector<std::string> source_tokens;   // [S] SentencePiece pieces fed to the encoder, eos last
  std::vector<std::string> target_tokens;   // [T] generated pieces, eos last unless max_length cut it
  std::vector<int> source_ids, target_ids;  // [S], [T]
  int layers = 0, heads = 0;
  std::vector<float> cross_attention;  // [layers, heads, T, S] row-major; empty unless requested
  float log_prob = 0.0f;               // sum of log p over target_ids (nats)
  /// Whitespace-separated words of the source text and of the target text, and the word of each
  /// token ([S] and [T], -1 for eos): the units of `alignment`.
  std::vector<std::string> source_words, target_words;
  std::vector<int> source_word_of_token, target_word_of_token;
  /// [layers, T, 3] when requested: for decoder layer l and target position t, the L2 norm of the
  /// residual input x, the norm of the cross-attention update u = W_O context + b_O added to it,
  /// and cos(x, u) (layers/cross_attention.h).
  std::vector<float> residual;
  std::optional<WordAlignment> alignment;  // when requested
};

class Translator {
 public:
  /// Loads a model from the bytes of a model file; they need not outlive the call. Raises Error(kModelFormat) or
  /// Error(kTokenizer) for a damaged file.
  static Translator from_bytes(const uint8_t* data, size_t size);
  static Translator from_file(const std::string& path);

  Translator(Translator&&) noexcept;
  Translator& operator=(Translator&&) noexcept;
  ~Translator();

  /// Translates one sentence with greedy decoding. Empty or whitespace-only text gives an empty
  /// Translation. Raises Error(kInvalidInput) for text that is not UTF-8 or a bad option, and
  /// Error(kInputTooLong) for more source tokens than max_positions. Thread-compatible: const and
  /// free of shared mutable state, so one Translator may serve several threads.
  Translation translate(const std::string& text, const TranslateOptions& options) const;

  /// Translates several sentences together: each is encoded alone, then all decode as one batch
  /// (greedy_search), which multiplies the weights by [sentences, D] matrices instead of vectors.
  /// Results are in order and identical to translating each text alone. Errors as translate(); the
  /// message names the offending text's index, and nothing is translated then.
  std::vector<Translation> translate_batch(const std::vector<std::string>& texts, const TranslateOptions& options) const;

  /// Forced alignment: feeds `target` (tokenized with the target model) to the decoder instead of
  /// generating it, and returns the Translation that would have produced it: target_tokens are its
  /// pieces plus eos, log_prob the model's log-probability of them (nats), with cross-attention,
  /// residual statistics and word alignments as requested in options (max_length is ignored).
  /// Empty source gives an empty Translation. Errors as translate(), and Error(kInputTooLong) for
  /// a target of more than max_positions - 1 tokens.
  Translation align(const std::string& source, const std::string& target, const TranslateOptions& options) const;

  const ModelConfig& config() const;

 private:
  Translator(std::unique_ptr<Transformer> model, std::unique_ptr<Tokenizer> tokenizer);

  std::unique_ptr<Transformer> model_;
  std::unique_ptr<Tokenizer> tokenizer_;
};

}  // namespace crossattn
