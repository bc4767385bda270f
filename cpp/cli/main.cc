// crossattn-cli: the native command-line tool for development and benchmarks.
//
//   crossattn-cli translate --model FILE [--json] [--attention] [--alignment] [--threads N]
//                           [search and length options] [TEXT]
//
// The search and length options are those of cpp/options.h's table, as flags: --beam-size N,
// --n-best N, --sample --top-p P --seed N, ..., a boolean option as --NAME when it defaults to
// false and --no-NAME when it defaults to true (--help lists them with the library's defaults).
// Like the npm CLI, it decodes by beam search of kSentenceBeamSize unless --beam-size or --sample
// is given (docs/api.md, "Decoding defaults"; bindings/src/search.ts SENTENCE_BEAM_SIZE); the
// library's default, TranslateOptions{}, stays greedy.
//
// --threads N runs the matrix products on N threads (default 1; kernels/parallel.h): the same
// output on any number.
//
// Without TEXT, translates one sentence per line of stdin to one line of stdout. With --json, each
// line is a JSON object: text, source_tokens, target_tokens, target_ids, token_log_probs, log_prob,
// score, confidence, target_words, word_confidence (decoding/confidence.h), hypotheses (the n-best list: text, target_ids, log_prob, score), (with --attention)
// cross_attention as nested arrays [layers][heads][T][S], and (with --alignment) alignment:
// [[source word, target word], ...] with the default AlignmentOptions. Without --json and with
// --n-best N > 1, each sentence gives N lines in Moses n-best form: "LINE ||| TEXT ||| LOG_PROB ||| SCORE".
// A line of stdin or a TEXT that is not valid UTF-8 or holds a NUL byte, or that has more source
// tokens than the model's max_positions, is one error naming it; a bad line's output line stays
// empty, the others are translated, and the exit status is 1.
//
// Choosing a model by direction from a catalog (--from, --to) and translating a sentence over
// max_positions in parts are the npm CLI's (`crossattn translate`, bindings/src/cli.ts), written
// once, in TypeScript: this tool measures and checks the engine, and says so in --help.
//
// A model that cannot be loaded is one line on stderr, "crossattn-cli: LoadError: ..." (a path that is
// missing, not a regular file, or over 1 GiB, refused before any read) or "ModelFormatError: ...",
// and exit status 1.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <string>

#include <nlohmann/json.hpp>

#include "error.h"
#include "kernels/parallel.h"
#include "model/model_file.h"
#include "tokenizer/tokenizer.h"
#include "translator.h"

namespace {

// The flag of an option of the table (cpp/options.h): --beam-size for beam_size.
std::string flag(const std::string& name) {
  std::string out = "--" + name;
  std::replace(out.begin(), out.end(), '_', '-');
  return out;
}

// Whether the table's option `o` is one of `translate` (search and length options).
bool translate_option(const crossattn::OptionSpec& o) {
  return o.group == crossattn::OptionGroup::kSearch || o.group == crossattn::OptionGroup::kLength;
}

// What the flag of option `o` does, for the help (as the npm CLI words it, bindings/src/cli.ts):
// a --no-FLAG says what turning the option off does (its doc's "; false ..." clause) and then what
// happens without the flag; a --FLAG of a boolean that is off by default says so; any other its doc,
// range and default as this CLI applies it (beam search of kSentenceBeamSize for --beam-size).
std::string flag_help(const crossattn::OptionSpec& o, const crossattn::OptionValue& fallback) {
  const std::string doc = crossattn::name_options(o.doc, flag);
  if (o.type == crossattn::OptionType::kBool) {
    if (!std::get<bool>(fallback)) return doc + "; off by default";
    const std::size_t cut = doc.find("; false ");
    if (cut == std::string::npos) return "turns off: " + doc;
    return doc.substr(cut + 8) + "; without it (the default): " + doc.substr(0, cut);
  }
  const std::string range = crossattn::range_text(o);
  const std::string value = o.name == "beam_size" ? std::to_string(crossattn::kSentenceBeamSize) + " (beam search; 1 with --sample; the API's default is 1)"
                                                  : crossattn::value_text(fallback);
  return doc + (range.empty() ? "" : " (" + range + ")") + "; default " + value;
}

// The translate options of the table, each with its flag and what it does.
std::string option_help() {
  std::string out;
  for (const crossattn::OptionSpec& o : crossattn::option_specs()) {
    if (!translate_option(o)) continue;
    const crossattn::OptionValue fallback = o.get(crossattn::TranslateOptions{});
    const bool is_bool = o.type == crossattn::OptionType::kBool;
    const bool negated = is_bool && std::get<bool>(fallback);
    out += "  " + (negated ? "--no-" + flag(o.name).substr(2) : flag(o.name)) + (is_bool ? "" : " X") + "\n      " +
           flag_help(o, fallback) + "\n";
  }
  return out;
}

int usage() {
  std::cerr << "usage: crossattn-cli translate --model FILE [--json] [--attention] [--alignment] [--threads N]\n"
               "                               [OPTIONS] [TEXT]\n"
               "A sentence over the model's max_positions source tokens is refused (InputTooLongError); the npm\n"
               "CLI, `crossattn translate`, translates it in parts and picks models by --from and --to.\n"
            << option_help();
  return 2;
}

// The value of option `o` written as `text` on the command line (an int or a float; the translate
// options hold no lists or choices). Raises Error(OptionFault) naming the text for one that is no
// number or out of the table's range.
crossattn::OptionValue parse_value(const crossattn::OptionSpec& o, const std::string& text) {
  const crossattn::OptionFault fault{o.name, "'" + text + "'", crossattn::value_rule(o), "", ""};
  size_t used = 0;
  crossattn::OptionValue value;
  try {
    if (o.type == crossattn::OptionType::kInt) value = std::stoi(text, &used);
    else value = std::stof(text, &used);
  } catch (const std::exception&) {  // no number, or out of int's or float's range
    throw crossattn::Error(fault);
  }
  if (used != text.size()) throw crossattn::Error(fault);
  try {
    crossattn::check_value(o, value);
  } catch (const crossattn::Error&) {
    throw crossattn::Error(fault);
  }
  return value;
}

// Sets the table option whose flag `arg` is (--beam-size, --sample, --no-early-stopping), taking its
// value from argv[i + 1] unless it is a boolean. Returns false if `arg` names no such option; raises
// Error for a bad or missing value.
bool set_option(const std::string& arg, int argc, char** argv, int& i, crossattn::TranslateOptions& options) {
  for (const crossattn::OptionSpec& o : crossattn::option_specs()) {
    if (!translate_option(o)) continue;
    const std::string name = flag(o.name);
    if (o.type == crossattn::OptionType::kBool && (arg == name || arg == "--no-" + name.substr(2))) {
      o.set(options, arg == name);
    } else if (o.type != crossattn::OptionType::kBool && arg == name) {
      if (i + 1 >= argc) throw crossattn::Error(crossattn::ErrorCode::kInvalidInput, arg + " needs a value");
      o.set(options, parse_value(o, argv[++i]));
    } else {
      continue;
    }
    return true;
  }
  return false;
}

// The CLI translates a sentence at a time: beam search of kSentenceBeamSize (wider if --n-best asks
// for more) unless argv gives --beam-size or options.sample is set (docs/api.md, "Decoding defaults").
void use_sentence_beam(int argc, char** argv, crossattn::TranslateOptions& options) {
  const bool beam_given = std::find(argv + 2, argv + argc, std::string("--beam-size")) != argv + argc;
  if (!beam_given && !options.sample) options.beam_size = std::max(crossattn::kSentenceBeamSize, options.n_best);
}

// An error as this CLI words it: an option named by its flag.
std::string message(const crossattn::Error& e) {
  return e.fault() ? crossattn::word_fault(*e.fault(), flag) : e.what();
}

nlohmann::json to_json(const crossattn::Translation& r) {
  nlohmann::json j = {{"text", r.text},
                      {"source_tokens", r.source_tokens},
                      {"target_tokens", r.target_tokens},
                      {"target_ids", r.target_ids},
                      {"token_log_probs", r.token_log_probs},
                      {"log_prob", r.log_prob},
                      {"score", r.score},
                      {"confidence", r.confidence},
                      {"target_words", r.target_words},
                      {"word_confidence", r.word_confidence}};
  nlohmann::json hypotheses = nlohmann::json::array();
  for (const auto& h : r.hypotheses) {
    hypotheses.push_back({{"text", h.text}, {"target_ids", h.target_ids}, {"log_prob", h.log_prob}, {"score", h.score}});
  }
  j["hypotheses"] = std::move(hypotheses);
  if (!r.cross_attention.empty()) {
    const size_t t_len = r.target_ids.size(), s_len = r.source_ids.size();
    nlohmann::json layers = nlohmann::json::array();
    for (int l = 0; l < r.layers; ++l) {
      nlohmann::json heads = nlohmann::json::array();
      for (int h = 0; h < r.heads; ++h) {
        nlohmann::json rows = nlohmann::json::array();
        for (size_t t = 0; t < t_len; ++t) {
          const float* row = r.cross_attention.data() + ((static_cast<size_t>(l) * r.heads + h) * t_len + t) * s_len;
          rows.push_back(std::vector<float>(row, row + s_len));
        }
        heads.push_back(std::move(rows));
      }
      layers.push_back(std::move(heads));
    }
    j["cross_attention"] = std::move(layers);
  }
  if (r.alignment) j["alignment"] = r.alignment->links;
  return j;
}

// The command line of `translate`.
struct Args {
  std::string model_path, text;
  bool json = false, have_text = false;
  int threads = 1;
  crossattn::TranslateOptions options;
};

// Reads argv into `a`; returns 0, or the exit status after the usage (2) or one line naming a bad
// option (2; its value and how the options go together are checked before any model loads).
int parse_args(int argc, char** argv, Args& a) {
  if (argc < 2 || std::string(argv[1]) != "translate") return usage();
  a.options.attention = false;
  try {
    for (int i = 2; i < argc; ++i) {
      const std::string arg = argv[i];
      if (arg == "--model" && i + 1 < argc) a.model_path = argv[++i];
      else if (arg == "--threads" && i + 1 < argc) a.threads = std::atoi(argv[++i]);
      else if (arg == "--json") a.json = true;
      else if (arg == "--attention") a.options.attention = true;
      else if (arg == "--alignment") a.options.alignment = crossattn::AlignmentOptions{};
      else if (set_option(arg, argc, argv, i, a.options)) continue;
      else if (arg.rfind("--", 0) == 0) return usage();
      else a.text = arg, a.have_text = true;
    }
    use_sentence_beam(argc, argv, a.options);
    crossattn::check_options(a.options);
  } catch (const crossattn::Error& e) {
    std::cerr << "crossattn-cli: " << message(e) << '\n';
    return 2;
  }
  if (a.model_path.empty()) return usage();
  if (a.threads < 1 || a.threads > crossattn::kMaxThreads) return usage();
  return 0;
}

// Why `bytes` are not text (the rule of bindings/src/well-formed.ts: a NUL byte, binary input, or
// invalid UTF-8), or "" when they are.
std::string not_text(const std::string& bytes) {
  const size_t nul = bytes.find('\0');
  if (nul != std::string::npos) return "holds a NUL byte (at byte " + std::to_string(nul) + "): binary input, not text";
  return crossattn::is_valid_utf8(bytes) ? "" : "is not valid UTF-8";
}

const std::string kInvalid = std::string("crossattn-cli: ") + crossattn::error_code_name(crossattn::ErrorCode::kInvalidInput) + ": ";

// Translates each line of `in` by `emit`, which counts `line_number`. A line that is not text, or
// that the engine refuses as longer than the model's max_positions, is one line on stderr naming it
// and an empty output line; the other lines are translated. Returns the exit status: 1 after a bad
// line, else 0. Other errors propagate.
int translate_lines(std::istream& in, const std::function<void(const std::string&)>& emit, long& line_number) {
  long bad_lines = 0;
  for (std::string line; std::getline(in, line);) {
    std::string problem = not_text(line);
    if (problem.empty()) {
      try {
        emit(line);
        continue;
      } catch (const crossattn::Error& e) {
        if (e.code() != crossattn::ErrorCode::kInputTooLong) throw;
        std::cerr << "crossattn-cli: " << crossattn::error_code_name(e.code()) << ": line " << line_number + 1
                  << " of stdin: " << message(e) << "; the npm CLI (crossattn translate) translates it in parts\n";
      }
    } else {
      std::cerr << kInvalid << "line " << line_number + 1 << " of stdin " << problem << '\n';
    }
    std::cout << '\n';
    ++line_number, ++bad_lines;
  }
  return bad_lines > 0 ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  Args args;
  if (const int status = parse_args(argc, argv, args)) return status;
  auto& [model_path, text, json, have_text, threads, options] = args;
  crossattn::set_thread_count(threads);
  try {
    const auto start = std::chrono::steady_clock::now();
    // The file type and size first (model/model_file.h): a FIFO, a folder or a file over 1 GiB is a
    // LoadError at once, before any read.
    crossattn::ModelFileBytes file = crossattn::read_model_file(model_path);
    const auto translator = crossattn::Translator::from_owned_bytes(std::move(file.bytes), file.size);
    const double load_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (std::getenv("CROSSATTN_VERBOSE")) std::cerr << "loaded " << model_path << " in " << load_ms << " ms\n";
    long line_number = 0;
    auto emit = [&](const std::string& line) {
      const auto r = translator.translate(line, options);
      if (json) {
        std::cout << to_json(r).dump() << '\n';
      } else if (options.n_best == 1) {
        std::cout << r.text << '\n';
      } else {
        for (const auto& h : r.hypotheses) {
          std::cout << line_number << " ||| " << h.text << " ||| " << h.log_prob << " ||| " << h.score << '\n';
        }
      }
      ++line_number;
    };
    if (!have_text) return translate_lines(std::cin, emit, line_number);
    if (const std::string problem = not_text(text); !problem.empty()) {
      std::cerr << kInvalid << "the TEXT argument " << problem << '\n';
      return 1;
    }
    emit(text);
  } catch (const crossattn::Error& e) {
    std::cerr << "crossattn-cli: " << crossattn::error_code_name(e.code()) << ": " << message(e) << '\n';
    return 1;
  }
  return 0;
}
