// The public C++ API: load a model file, translate text, get tokens, score and cross-attention.
//
//   auto translator = crossattn::Translator::from_file("models/multi30k-en-de/multi30k-en-de.crossattn");
//   auto result = translator.translate("A dog runs.", {});
//   // result.text, result.source_tokens [S], result.target_tokens [T],
//   // result.cross_attention [layers, heads, T, S] with every row summing to 1.
//   crossattn::TranslateOptions beam;
//   beam.beam_size = 5;
//   beam.n_best = 3;  // result.hypotheses: 3 ScoredHypothesis, best first
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/config.h"
#include "model/safetensors.h"
#include "options.h"
#include "translation.h"

namespace crossattn {

class Tokenizer;
class WordPieces;
class Transformer;
struct ModelFile;

/// A batch translation in progress, advanced one decoder step at a time, so that a caller can
/// stream its tokens, interleave other work between steps, or abandon it (Translator::start). It
/// shares the model with its Translator and stays valid if the Translator is destroyed.
class TranslationJob {
 public:
  TranslationJob(TranslationJob&&) noexcept;
  TranslationJob& operator=(TranslationJob&&) noexcept;
  ~TranslationJob();

  /// True when every text is decoded.
  bool done() const;
  /// Runs one decoder step over every text still decoding (no-op when done()); returns the tokens
  /// it settled, in text order. Raises Error(kInvalidInput) when called after finish().
  std::vector<TokenEvent> step();
  /// The translations, in order, as Translator::translate_batch returns them; call once, when done().
  /// Raises Error(kInvalidInput) before then.
  std::vector<Translation> finish();

 private:
  friend class Translator;
  struct State;
  explicit TranslationJob(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

class Translator {
 public:
  /// Loads a model from the `size` bytes of a model file at `bytes`, which it only reads and does not
  /// keep (ModelFile::parse). Raises Error(kModelFormat) or Error(kTokenizer) for a damaged file.
  static Translator from_bytes(const FileBytes& bytes, size_t size);
  /// The same from bytes the caller gives up: the translator converts int8 weights where they lie
  /// and keeps the bytes (ModelFile::parse_owned; docs/model-format.md, "int8 kernel layout").
  static Translator from_owned_bytes(OwnedFileBytes bytes, size_t size);
  /// from_owned_bytes on a copy of `size` bytes at `data`, which need not outlive the call.
  static Translator from_bytes(const uint8_t* data, size_t size);
  /// The same from a file, read by read_model_file (model/model_file.h): Error(kLoad) for a path that
  /// is missing, not a regular file (a FIFO, a folder) or over 1 GiB, before anything is read.
  static Translator from_file(const std::string& path);

  Translator(Translator&&) noexcept;
  Translator& operator=(Translator&&) noexcept;
  ~Translator();

  /// Translates one sentence: greedy decoding by default, beam search with options.beam_size > 1.
  /// Empty or whitespace-only text gives an empty Translation. Raises Error(kInvalidInput) for text
  /// that is not UTF-8 or a bad option, Error(kInputTooLong) for more source tokens than
  /// max_positions, and Error(kCancelled) when options.on_token returns false. Thread-compatible:
  /// const and free of shared mutable state, so one Translator may serve several threads.
  Translation translate(const std::string& text, const TranslateOptions& options) const;

  /// Translates several sentences together: each is encoded alone, then all decode as one batch
  /// (BeamSearch), which multiplies the weights by [hypotheses, D] matrices instead of vectors.
  /// Results are in order and identical to translating each text alone, bit for bit, with or
  /// without the lexical shortlist (each text is searched over its own candidates). With
  /// options.target_prefix, each translation starts with its text's prefix (prefix decoding,
  /// decoding/beam_search.h; the prefix counts toward max_length, which grows to hold it and eos),
  /// its token_log_probs the model's log-probabilities of the forced pieces. Errors as translate(),
  /// and Error(kInvalidInput) for prefixes that do not match the texts one to one; the message
  /// names the offending text's index, and nothing is translated then.
  std::vector<Translation> translate_batch(const std::vector<std::string>& texts, const TranslateOptions& options) const;

  /// Starts translating `texts` and returns before the first decoder step: the caller advances the
  /// job with step() (options.on_token is not called; step() returns the events). Encodes every
  /// text; errors as translate_batch().
  TranslationJob start(const std::vector<std::string>& texts, const TranslateOptions& options) const;

  /// Forced alignment: feeds `target` (tokenized with the target model) to the decoder instead of
  /// generating it, and returns the Translation that would have produced it: target_tokens are its
  /// pieces plus eos, log_prob the model's log-probability of them (nats), with cross-attention,
  /// residual statistics and word alignments as requested in options (max_length is ignored).
  /// Empty source gives an empty Translation. Errors as translate(), and Error(kInputTooLong) for
  /// a target of more than max_positions - 1 tokens.
  Translation align(const std::string& source, const std::string& target, const TranslateOptions& options) const;

  /// The number of source tokens the encoder would take for `text`: its SentencePiece pieces plus
  /// eos (0 for empty or whitespace-only text), to compare with config().max_positions before
  /// translating (long-input splitting, cli/long_input.h and bindings/src/long-input.ts). Raises
  /// Error(kInvalidInput) if text is not UTF-8.
  int source_length(const std::string& text) const;

  const ModelConfig& config() const;

  /// Whether the model file has a word alignment layer (layers/alignment_layer.h), which alignments
  /// read when the options name no layer, head or Shift-Att.
  bool has_alignment_layer() const;

 private:
  Translator(std::shared_ptr<const Transformer> model, std::shared_ptr<const Tokenizer> tokenizer);
  // The translator of a parsed file, its tokenizer's vocabularies checked against the config.
  static Translator from_model_file(ModelFile file);

  std::shared_ptr<const Transformer> model_;  // shared with running TranslationJobs
  std::shared_ptr<const Tokenizer> tokenizer_;
  // Each vocabulary's pieces as the word repeat guard reads them (word_repeat_guard.h).
  std::shared_ptr<const WordPieces> source_words_, target_words_;
};

}  // namespace crossattn
