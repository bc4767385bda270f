// Typed errors raised by the engine. Every failure that input can cause (a damaged model file,
// text the tokenizer cannot take, a sentence longer than the model allows) is reported as an
// Error with a code, never as a crash; the Translator stays usable after any of them.
#pragma once

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

class Error : public std::runtime_error {
 public:
  Error(ErrorCode code, const std::string& message) : std::runtime_error(message), code_(code) {}
  ErrorCode code() const { return code_; }

 private:
  ErrorCode code_;
};

/// Throws Error(kModelFormat) with "invalid model file: " + what: the one way the loader reports a
/// damaged or inconsistent model file.
[[noreturn]] void fail_model_format(const std::string& what);

}  // namespace crossattn
