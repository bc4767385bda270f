// The native engine of `npm run bench` (bench/run.js): the same C++ kernels as the WebAssembly
// build, compiled for SSE4.1 (the same 128-bit width). Translates one sentence per line of stdin,
// greedy, one at a time (or --batch N sentences per translate_batch call), and prints one JSON
// object: load_ms, sentence_ms [per sentence or per batch], target_tokens, translations,
// peak_memory_bytes (the process's maximum resident set). --no-shortlist scores the whole output
// layer where the model file has a lexical shortlist; --repeat-limit, --max-length-ratio and
// --max-length-offset set the TranslateOptions of those names (cpp/options.h; defaults as there).
//
//   crossattn-bench-native --model FILE [--batch N] [--no-shortlist] [--repeat-limit N] [--max-length-ratio R]
//                          [--max-length-offset N] < SOURCES
#include <sys/resource.h>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "error.h"
#include "translator.h"

namespace {

double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  std::string model_path;
  size_t batch = 0;
  bool shortlist = true, known = true;
  crossattn::TranslateOptions options;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--model" && i + 1 < argc) model_path = argv[++i];
    else if (arg == "--batch" && i + 1 < argc) batch = static_cast<size_t>(std::atoi(argv[++i]));
    else if (arg == "--no-shortlist") shortlist = false;
    else if (arg == "--repeat-limit" && i + 1 < argc) options.repeat_limit = std::atoi(argv[++i]);
    else if (arg == "--max-length-ratio" && i + 1 < argc) options.max_length_ratio = std::strtof(argv[++i], nullptr);
    else if (arg == "--max-length-offset" && i + 1 < argc) options.max_length_offset = std::atoi(argv[++i]);
    else known = false;
  }
  if (model_path.empty() || !known) {
    std::cerr << "usage: crossattn-bench-native --model FILE [--batch N] [--no-shortlist] [--repeat-limit N] "
                 "[--max-length-ratio R] [--max-length-offset N] < SOURCES\n";
    return 2;
  }
  std::vector<std::string> lines;
  for (std::string line; std::getline(std::cin, line);) lines.push_back(line);
  try {
    auto start = std::chrono::steady_clock::now();
    const auto translator = crossattn::Translator::from_file(model_path);
    const double load_ms = ms_since(start);
    options.attention = false;
    options.shortlist = shortlist;
    nlohmann::json sentence_ms = nlohmann::json::array(), translations = nlohmann::json::array();
    size_t target_tokens = 0;
    const size_t step = batch ? batch : 1;
    for (size_t i = 0; i < lines.size(); i += step) {
      const std::vector<std::string> texts(lines.begin() + i, lines.begin() + std::min(lines.size(), i + step));
      start = std::chrono::steady_clock::now();
      const auto results = batch ? translator.translate_batch(texts, options)
                                 : std::vector<crossattn::Translation>{translator.translate(texts[0], options)};
      sentence_ms.push_back(ms_since(start));
      for (const auto& r : results) {
        target_tokens += r.target_ids.size();
        translations.push_back(r.text);
      }
    }
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    std::cout << nlohmann::json{{"load_ms", load_ms},
                                {"sentence_ms", sentence_ms},
                                {"target_tokens", target_tokens},
                                {"translations", translations},
                                {"peak_memory_bytes", static_cast<int64_t>(usage.ru_maxrss) * 1024}}
                     .dump()
              << '\n';
  } catch (const crossattn::Error& e) {
    std::cerr << "crossattn-bench-native: " << crossattn::error_code_name(e.code()) << ": " << e.what() << '\n';
    return 1;
  }
  return 0;
}
