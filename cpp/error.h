// Typed errors raised by the engine. Every failure that input can cause (a damaged model file,
// text the tokenizer cannot take, a sentence longer than the model allows) is reported as an
// Error with a code, never as a crash; the Translator stays usable after any of them. An error
// about an option also carries what is wrong in fields (OptionFault), so that each front end
// (the Embind glue, the CLIs) words it with the option's name as its users spell it.
#pragma once

#include <functional>
#include <optional>
#include <stdexcept>
#include <string>

namespace crossattn {

enum class ErrorCode {
  kModelFormat,    // the model file is truncated, corrupt or inconsistent with its config
  kInvalidInput,   // text that is not valid UTF-8, or an option out of range
  kInputTooLong,   // more source tokens than the model's max_positions
  kTokenizer,      // SentencePiece refused the input or its model
  kCancelled,      // the caller cancelled a translation in progress (TokenCallback returned false)
  kLoad,           // a model file path that cannot be read: missing, not a regular file, or too large
};

/// Name of a code as the bindings expose it, e.g. "ModelFormatError".
const char* error_code_name(ErrorCode code);

/// An option value the engine refused, in parts that name options only by their neutral names
/// (option_specs(), cpp/options.h: "beam_size"), read as "<option> must be <limit>[ <other>],
/// not <value>[ (<note>)]": "beam_size must be an integer from 1 to 64, not 65", "n_best must
/// be at most beam_size, not 3".
struct OptionFault {
  std::string option;  // the option refused: "beam_size"
  std::string value;   // the value refused, as text ("65"); empty when it has no text form
  std::string limit;   // what the value must be, naming no option: "an integer from 1 to 64", "at most"
  std::string other;   // the option `limit` is relative to ("beam_size" in "at most beam_size"), or empty
  std::string note;    // why, or what else to change, naming no option: "sampling draws one hypothesis"
};

/// How a front end spells the option of a neutral name: "beam_size" -> "beamSize" or "--beam-size".
using OptionNamer = std::function<std::string(const std::string& name)>;

/// `fault` as a sentence with every option named by `name` (see OptionFault).
std::string word_fault(const OptionFault& fault, const OptionNamer& name);

class Error : public std::runtime_error {
 public:
  Error(ErrorCode code, const std::string& message) : std::runtime_error(message), code_(code) {}
  /// An error about an option (code kInvalidInput unless given): its message is the fault worded
  /// with the neutral names.
  explicit Error(OptionFault fault, ErrorCode code = ErrorCode::kInvalidInput);
  ErrorCode code() const { return code_; }
  /// The option this error refuses, when it is about one.
  const std::optional<OptionFault>& fault() const { return fault_; }

 private:
  ErrorCode code_;
  std::optional<OptionFault> fault_;
};

/// Throws Error(kModelFormat) with "invalid model file: " + what: the one way the loader reports a
/// damaged or inconsistent model file.
[[noreturn]] void fail_model_format(const std::string& what);

}  // namespace crossattn
