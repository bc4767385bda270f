// libFuzzer harness: any bytes as a model file (docs/reliability.md). Loading must end in a
// Translator or a crossattn::Error, and a loaded model must translate a short sentence or raise a
// crossattn::Error: never crash, hang or touch memory it does not own (ASan, UBSan).
//   build/fuzz/tests/fuzz/model_file_fuzzer CORPUS_DIR -max_total_time=60
#include <cstdint>

#include "error.h"
#include "translator.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    const auto translator = crossattn::Translator::from_bytes(data, size);
    crossattn::TranslateOptions options;
    options.max_length = 8;
    translator.translate("A dog runs.", options);
  } catch (const crossattn::Error&) {
  }
  return 0;
}
