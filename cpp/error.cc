#include "error.h"

namespace crossattn {

const char* error_code_name(ErrorCode code) {
  switch (code) {
    case ErrorCode::kModelFormat: return "ModelFormatError";
    case ErrorCode::kInvalidInput: return "InvalidInputError";
    case ErrorCode::kInputTooLong: return "InputTooLongError";
    case ErrorCode::kTokenizer: return "TokenizerError";
    case ErrorCode::kCancelled: return "CancelledError";
    case ErrorCode::kLoad: return "LoadError";
  }
  return "Error";
}

std::string word_fault(const OptionFault& f, const OptionNamer& name) {
  std::string out = name(f.option) + " must be " + f.limit;
  if (!f.other.empty()) out += " " + name(f.other);
  if (!f.value.empty()) out += ", not " + f.value;
  if (!f.note.empty()) out += " (" + f.note + ")";
  return out;
}

Error::Error(OptionFault fault, ErrorCode code)
    : std::runtime_error(word_fault(fault, [](const std::string& n) { return n; })), code_(code), fault_(std::move(fault)) {}

void fail_model_format(const std::string& what) {
  throw Error(ErrorCode::kModelFormat, "invalid model file: " + what);
}

}  // namespace crossattn
