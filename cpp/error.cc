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

void fail_model_format(const std::string& what) {
  throw Error(ErrorCode::kModelFormat, "invalid model file: " + what);
}

}  // namespace crossattn
