// Every option of a translation, in one place, in C++ terms. TranslateOptions holds each default
// once, as a member initializer here or in the structs it extends (SearchOptions,
// decoding/search_options.h) and holds (AlignmentOptions, alignment/word_alignment.h).
// option_specs() describes each option: its field, its one neutral name (the field's, beam_size),
// its type and range, its default (read from a default-constructed TranslateOptions, never
// restated) and its one line of documentation, the only copy of it. Front ends spell the names
// their own way: bindings/options_json.cc parses JavaScript options (beamSize) and exports the
// table, from which tools/internals/options-table.js generates the TypeScript option types and docs/api.md's
// table; cpp/cli makes flags (--beam-size). A refused value raises Error(OptionFault) (error.h),
// which each front end words in its names.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "alignment/word_alignment.h"
#include "decoding/search_options.h"
#include "decoding/token_event.h"
#include "error.h"

namespace crossattn {

struct ModelConfig;

/// The options of Translator::translate, translate_batch, start and align: the search's
/// (SearchOptions) and the length, output and alignment options; option_specs() documents each.
struct TranslateOptions : SearchOptions {
  int max_length = 0;  // 0: the model's max_positions (Translator: floor(ratio * S + offset), capped)
  float max_length_ratio = 2.0f;
  int max_length_offset = 10;
  bool shortlist = true;  // model/shortlist.h
  bool attention = false;  // Translation::cross_attention (costs layers * heads * T * S floats)
  bool residual = false;  // Translation::residual
  /// Translation::alignment, made with these options; none: no alignment.
  std::optional<AlignmentOptions> alignment;
  /// Called with the tokens of each text as they become final (streaming), between decoder steps.
  TokenCallback on_token;
  /// Forced target prefixes (prefix decoding, as CTranslate2's translate_batch target_prefix): empty,
  /// or one target text per text of the call ("" for none). Text i's translation starts with the
  /// target SentencePiece pieces of target_prefix[i], scored by the model whatever their rank, and
  /// goes on freely (greedy or beam search). Per call, not in option_specs(). Ignored by align().
  std::vector<std::string> target_prefix;
};

enum class OptionType { kInt, kFloat, kBool, kChoice, kIntList };

/// Where an option lives: JavaScript nests the alignment options in `alignment: {...}`; the CLIs
/// offer the search and length options to `translate` and the alignment options to `align`.
enum class OptionGroup { kSearch, kLength, kOutput, kAlignment };

/// The value of one option, by its type: kInt int, kFloat float, kBool bool, kChoice the choice's
/// name (std::string), kIntList std::vector<int>.
using OptionValue = std::variant<int, float, bool, std::string, std::vector<int>>;

/// One option of TranslateOptions.
struct OptionSpec {
  std::string name;  // the field's name, the option's one neutral name: "beam_size"
  OptionGroup group;
  OptionType type;
  std::optional<double> min, max;    // bounds of kInt and kFloat values and of kIntList items
  bool min_exclusive = false;        // min itself is out of range
  std::vector<std::string> choices;  // the values of a kChoice option
  /// One line: what it does, with units; other options named in backquotes (`beam_size`), for
  /// front ends to spell (name_options).
  std::string doc;
  /// The option's value in `o` (alignment options: AlignmentOptions' default when o has none).
  std::function<OptionValue(const TranslateOptions& o)> get;
  /// Sets the option in `o` (an alignment option first gives `o` its AlignmentOptions); the value
  /// holds the option's type and passed check_value.
  std::function<void(TranslateOptions& o, const OptionValue& value)> set;
  /// The value front ends use when a person translates what they typed, a sentence at a time, where
  /// it differs from the API's default (beam_size: beam search of kSentenceBeamSize; docs/api.md,
  /// "Decoding defaults"); the page, both CLIs and the docs read it here.
  std::optional<double> sentence_default;
};

/// The beam size of a sentence a person typed (OptionSpec::sentence_default of beam_size): on FLORES
/// dev with the shipped general models, beam search of 4 gave 1.06 (en→de) and 1.22 (de→en) BLEU more
/// than greedy for 17 ms more CPU a median sentence (2026-11-27). The API's own default stays greedy,
/// for batches and throughput.
constexpr int kSentenceBeamSize = 4;

/// The table of every option, in documentation order.
const std::vector<OptionSpec>& option_specs();

/// The option named `name` ("beam_size"), or nullptr.
const OptionSpec* find_option(const std::string& name);

/// The range in words: "from 1 to 64", ">= 0", "in (0, 1]", "> 0"; "" for an unbounded option.
std::string range_text(const OptionSpec& spec);

/// What a value of `spec` must be, for OptionFault::limit: "an integer from 1 to 64", "a boolean",
/// "one of argmax, grow-diag-final-and, threshold", "a non-empty list of integers from -1024 to 1023".
std::string value_rule(const OptionSpec& spec);

/// A value as text: "65", "0.3" (a float as the shortest decimal that reads back the same), "true",
/// "argmax", "[-1, 0]".
std::string value_text(const OptionValue& value);

/// Raises Error(OptionFault{spec.name, value_text(value), value_rule(spec)}) unless `value` holds
/// the spec's type within its static range (a kFloat also finite).
void check_value(const OptionSpec& spec, const OptionValue& value);

/// Checks what needs no model: every value in range (check_value; alignment options when
/// options.alignment is set), n_best <= beam_size, sampling with beam_size 1. Raises the
/// Error(OptionFault) of the first fault.
void check_options(const TranslateOptions& options);

/// check_options(options), then against the model: max_length <= max_positions.
void check_options(const TranslateOptions& options, const ModelConfig& config);

/// `text` with every option named in backquotes (`beam_size`) spelled by `name` (no backquotes);
/// other backquoted words stay as they are.
std::string name_options(const std::string& text, const OptionNamer& name);

}  // namespace crossattn
