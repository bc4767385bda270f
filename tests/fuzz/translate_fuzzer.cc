// libFuzzer harness: any bytes as text and options through tokenize -> translate -> align, with the
// model named by CROSSATTN_FUZZ_MODEL (docs/reliability.md). The first 4 bytes choose the options
// (beam size or sampling, max length, alignment method, attention), the rest is the text; the output is then
// force-aligned back. Only crossattn::Error may come out.
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>

#include "error.h"
#include "translator.h"

namespace {

const crossattn::Translator& translator() {
  static const std::unique_ptr<crossattn::Translator> t = [] {
    const char* path = std::getenv("CROSSATTN_FUZZ_MODEL");
    if (path == nullptr) std::abort();  // the harness needs a model
    return std::make_unique<crossattn::Translator>(crossattn::Translator::from_file(path));
  }();
  return *t;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 4) return 0;
  crossattn::TranslateOptions options;
  options.beam_size = 1 + data[0] % 4;
  options.n_best = 1 + data[1] % options.beam_size;
  options.max_length = 1 + data[2] % 16;
  options.attention = data[3] & 1;
  crossattn::AlignmentOptions alignment;
  alignment.method = static_cast<crossattn::AlignmentMethod>((data[3] >> 1) % 3);
  alignment.shift = data[3] & 8;
  if (data[3] & 16) options.alignment = alignment;
  if (data[3] & 32) {  // sampling: one hypothesis, top-k, nucleus and temperature from the same bytes
    options.beam_size = options.n_best = 1;
    options.sample = true;
    options.top_k = data[1] % 8;
    options.top_p = static_cast<float>(1 + data[2] % 10) / 10.0f;
    options.temperature = 0.25f + static_cast<float>(data[0] % 8) * 0.25f;
    options.seed = data[2];
  }
  const std::string text(reinterpret_cast<const char*>(data) + 4, size - 4);
  try {
    const auto result = translator().translate(text, options);
    translator().align(text, result.text, options);
  } catch (const crossattn::Error&) {
  }
  return 0;
}
