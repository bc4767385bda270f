// Every option of a translation, in one place. TranslateOptions holds each default once, as a member
// initializer here or in the structs it extends (SearchOptions, decoding/search_options.h) and holds
// (AlignmentOptions, alignment/word_alignment.h). option_specs() describes each option to the code
// that exposes it: its names (C++ snake_case, JavaScript camelCase, command line --kebab-case), its
// type and range, its default (read from a default-constructed TranslateOptions, never restated)
// and one line of documentation. The Embind glue parses JavaScript options with options_from_json,
// the TypeScript wrapper and both CLIs take their checks and flags from the table, and a test checks
// the options table of docs/api.md against it.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "alignment/word_alignment.h"
#include "decoding/search_options.h"

namespace crossattn {

struct ModelConfig;

/// The target tokens of one text that became final during a decoding step (streaming): with greedy
/// decoding each token as it is produced, with beam search the prefix every hypothesis that can
/// still win agrees on (BeamSearch::settled).
struct TokenEvent {
  int index = 0;                    // the text's position in the batch
  std::vector<std::string> tokens;  // pieces settled since this text's previous event, eos included
  std::string text;                 // the detokenized target settled so far
};

/// Receives TokenEvents while a translation runs; returning false cancels it (Error(kCancelled)).
using TokenCallback = std::function<bool(const TokenEvent&)>;

/// The options of Translator::translate, translate_batch, start and align: the search's
/// (SearchOptions: beam_size, n_best, length_penalty, early_stopping, repeat_limit, sampling), and:
struct TranslateOptions : SearchOptions {
  /// Most target tokens per sentence, eos included: floor(max_length_ratio * S + max_length_offset)
  /// for S source tokens (eos included), at least 1 and at most max_length (0 means max_positions).
  int max_length = 0;
  float max_length_ratio = 2.0f;
  int max_length_offset = 10;
  /// Score only the model's lexical shortlist of target pieces (model/shortlist.h) when its file
  /// has one: faster decoding; false scores the whole vocabulary.
  bool shortlist = true;
  /// Return the cross-attention weights of the best hypothesis (costs layers * heads * T * S floats).
  bool attention = false;
  /// Return Translation::residual, the statistics of each cross-attention residual connection.
  bool residual = false;
  /// Return Translation::alignment, word alignments made with these options.
  std::optional<AlignmentOptions> alignment;
  /// Called with the tokens of each text as they become final (streaming), between decoder steps.
  TokenCallback on_token;
  /// Forced target prefixes (prefix decoding, as CTranslate2's translate_batch target_prefix): empty,
  /// or one target text per text of the call ("" for none). Text i's translation starts with the
  /// target SentencePiece pieces of target_prefix[i], scored by the model whatever their rank, and
  /// goes on freely (greedy or beam search). Per call, not in option_specs(); JavaScript
  /// `targetPrefix` (options_from_json). Ignored by align().
  std::vector<std::string> target_prefix;
};

enum class OptionType { kInt, kFloat, kBool, kChoice, kIntList };

/// Where an option lives: JavaScript nests the alignment options in `alignment: {...}`; the CLIs
/// offer the search and length options to `translate` and the alignment options to `align`.
enum class OptionGroup { kSearch, kLength, kOutput, kAlignment };

/// One option as the bindings and CLIs see it.
struct OptionSpec {
  std::string name;     // the C++ field: "beam_size"
  std::string js_name;  // its JavaScript name: "beamSize"
  std::string flag;     // its command-line flag without dashes: "beam-size"
  OptionGroup group;
  OptionType type;
  std::optional<double> min, max;    // bounds of kInt and kFloat values
  bool min_exclusive = false;        // min itself is out of range
  std::vector<std::string> choices;  // the values of a kChoice option
  std::string doc;                   // one line: what it does, with units
  /// The option's value in `o` as JSON (kIntList: an array; kChoice: a string).
  std::function<nlohmann::json(const TranslateOptions& o)> get;
  /// Sets the option in `o` to a value that check_value accepted.
  std::function<void(TranslateOptions& o, const nlohmann::json& value)> set;
};

/// The table of every option, in documentation order.
const std::vector<OptionSpec>& option_specs();

/// The table as JSON, for JavaScript: [{name, jsName, flag, group, type, min?, max?, minExclusive,
/// choices?, doc, default}], the defaults read from TranslateOptions{} and AlignmentOptions{}.
nlohmann::json option_specs_json();

/// Empty if `value` is a valid value of `spec` (type and static range); else why not, naming the
/// option as `shown` ("beamSize must be an integer from 1 to 64").
std::string check_value(const OptionSpec& spec, const nlohmann::json& value, const std::string& shown);

/// TranslateOptions from a JSON object keyed by JavaScript names: {"beamSize": 4, "alignment":
/// {"layers": [-1], "method": "argmax"}}. Absent keys keep their defaults; "alignment" absent or
/// null means no alignment, an object (even {}) asks for one; "targetPrefix", an array of strings
/// or null, sets target_prefix; unknown keys are ignored. Raises
/// Error(kInvalidInput) naming the first bad option by its JavaScript name.
TranslateOptions options_from_json(const nlohmann::json& object);

/// `message` with every C++ option name in it (beam_size) replaced by its JavaScript name
/// (beamSize), for errors raised to JavaScript callers.
std::string with_js_names(const std::string& message);

/// Checks everything option_specs() cannot see alone against the model: every value in range,
/// n_best <= beam_size, sampling with beam_size 1, max_length <= max_positions. Raises
/// Error(kInvalidInput) naming the option by its C++ name.
void check_options(const TranslateOptions& options, const ModelConfig& config);

}  // namespace crossattn
