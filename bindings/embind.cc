// Embind glue: exposes crossattn::Translator to JavaScript. No globals; every object belongs to the
// JS handle that created it (freed by .delete(), which the TypeScript wrapper's dispose() calls).
// Errors never cross the boundary as C++ exceptions: each call returns {error: {name, message,
// fault?}} instead, which the wrapper turns into typed JS errors, and the translator stays usable.
// An error about an option (Error::fault) is worded here with JavaScript's names (options_json.h)
// and carries its fields as `fault` ({option, value, limit, other?, note?}) for the CLI to word
// with its flags.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <memory>
#include <new>

#include <nlohmann/json.hpp>

#include "error.h"
#include "kernels/parallel.h"
#include "options.h"
#include "options_json.h"
#include "result_value.h"
#include "translator.h"
#include "warm_up.h"

namespace {

using emscripten::val;

val error_value(const char* name, const std::string& message, const val& fault = val::undefined()) {
  val error = val::object();
  error.set("name", name);
  error.set("message", message);
  if (!fault.isUndefined()) error.set("fault", fault);
  val result = val::object();
  result.set("error", error);
  return result;
}

// Runs `body`, turning engine errors and allocation failures into error values.
template <typename Body>
val guarded(Body&& body) {
  try {
    return body();
  } catch (const crossattn::Error& e) {
    if (!e.fault()) return error_value(crossattn::error_code_name(e.code()), e.what());
    return error_value(crossattn::error_code_name(e.code()), crossattn::word_fault(*e.fault(), crossattn::js_option_name),
                       val::global("JSON").call<val>("parse", crossattn::fault_json(*e.fault()).dump()));
  } catch (const std::bad_alloc&) {
    return error_value("OutOfMemoryError", "the WebAssembly heap is exhausted");
  } catch (const std::exception& e) {
    return error_value("Error", e.what());
  }
}

template <typename T>
val to_array(const std::vector<T>& items) {
  val array = val::array();
  for (size_t i = 0; i < items.size(); ++i) array.set(i, items[i]);
  return array;
}

// The JSON value of the text the wrapper sends.
nlohmann::json parse_json(const std::string& text) {
  nlohmann::json value = nlohmann::json::parse(text, nullptr, false);
  if (value.is_discarded()) throw crossattn::Error(crossattn::ErrorCode::kInvalidInput, "options are not valid JSON");
  return value;
}

// TranslateOptions from the JSON text the wrapper sends: {beamSize?, nBest?, ..., alignment?: {...} | null}
// (options_json.h).
crossattn::TranslateOptions parse(const std::string& options_json) {
  return crossattn::options_from_json(parse_json(options_json));
}

// The WordAlignment of an alignment_value (weights as a Float32Array or array).
crossattn::WordAlignment word_alignment(const val& v) {
  crossattn::WordAlignment a;
  a.src_len = v["srcLen"].as<int>();
  a.tgt_len = v["tgtLen"].as<int>();
  a.weights = emscripten::convertJSArrayToNumberVector<float>(v["weights"]);
  return a;
}

// {results: [translation_value of each]}.
val results_value(const std::vector<crossattn::Translation>& results) {
  val array = val::array();
  for (size_t i = 0; i < results.size(); ++i) array.set(i, crossattn_bindings::translation_value(results[i]));
  val out = val::object();
  out.set("results", array);
  return out;
}

// A translation in progress (crossattn::TranslationJob) as JavaScript sees it.
class WasmJob {
 public:
  explicit WasmJob(crossattn::TranslationJob job) : job_(std::move(job)) {}

  /// {events: [{index, tokens, text}], done} after one decoder step (TranslationJob::step), or {error}.
  val step() {
    return guarded([&] {
      const auto events = job_.step();
      val array = val::array();
      for (size_t i = 0; i < events.size(); ++i) {
        val e = val::object();
        e.set("index", events[i].index);
        e.set("tokens", to_array(events[i].tokens));
        e.set("text", events[i].text);
        array.set(i, e);
      }
      val out = val::object();
      out.set("events", array);
      out.set("done", job_.done());
      return out;
    });
  }

  /// {results: [one object per text, as WasmTranslator.translate returns]} or {error}.
  val finish() {
    return guarded([&] { return results_value(job_.finish()); });
  }

 private:
  crossattn::TranslationJob job_;
};

class WasmTranslator {
 public:
  explicit WasmTranslator(crossattn::Translator translator) : translator_(std::move(translator)) {}

  /// A translation as JavaScript sees it (result_value.h, translation_value: every field of
  /// cpp/translation.h's table by its camelCase name), the unit of translate_batch, align and
  /// WasmJob::finish. `options` is the JSON text of the engine's options (parse above).
  ///
  /// translate_batch: {results: [one translation per text]} or {error}, for an array of strings,
  /// decoded together as one batch (Translator::translate_batch); a single text is a batch of one.
  val translate_batch(const val& texts, const std::string& options) const {
    return guarded([&] {
      return results_value(translator_.translate_batch(emscripten::vecFromJSArray<std::string>(texts), parse(options)));
    });
  }

  /// {job: WasmJob} or {error}: a batch translation that JavaScript advances one decoder step at a
  /// time (Translator::start), so that it can stream tokens and yield to its event loop (to see a
  /// cancellation) between steps. The job keeps the model alive; free it with .delete().
  val start(const val& texts, const std::string& options) const {
    return guarded([&] {
      val out = val::object();
      out.set("job", val(WasmJob(translator_.start(emscripten::vecFromJSArray<std::string>(texts), parse(options)))));
      return out;
    });
  }

  /// Forced alignment of target to source (Translator::align): an object as translate() returns.
  val align(const std::string& source, const std::string& target, const std::string& options) const {
    return guarded([&] { return crossattn_bindings::translation_value(translator_.align(source, target, parse(options))); });
  }

  /// symmetrize (alignment/word_alignment.h) of two alignment objects as align() returns them, this
  /// model's and the reverse model's, linked by the JSON text of alignment options {method?,
  /// threshold?} (AlignmentOptions' defaults): {srcLen, tgtLen, weights, links} or {error}.
  val symmetrize(const val& forward, const val& backward, const std::string& alignment_json) const {
    return guarded([&] {
      const crossattn::AlignmentOptions o = crossattn::alignment_options_from_json(parse_json(alignment_json));
      return crossattn_bindings::alignment_value(crossattn::symmetrize(word_alignment(forward), word_alignment(backward), o.method, o.threshold));
    });
  }

  /// {length} or {error}: the source tokens the encoder would take for `text`, its pieces plus eos
  /// (Translator::source_length), for the long-input splitter (bindings/src/long-input.ts).
  val source_length(const std::string& text) const {
    return guarded([&] {
      val out = val::object();
      out.set("length", translator_.source_length(text));
      return out;
    });
  }

  /// The model config as a plain object.
  val config() const {
    const crossattn::ModelConfig& c = translator_.config();
    val out = val::object();
    out.set("name", c.name);
    out.set("sourceLang", c.source_lang);
    out.set("targetLang", c.target_lang);
    out.set("encoderLayers", c.encoder_layers);
    out.set("decoderLayers", c.decoder_layers);
    out.set("dModel", c.d_model);
    out.set("nHeads", c.n_heads);
    out.set("dFf", c.d_ff);
    out.set("vocabSize", c.vocab_size);
    out.set("sourceVocabSize", c.source_vocab_size);
    out.set("decoderAutoregression",
            std::string(c.decoder_autoregression == crossattn::DecoderAutoregression::kSsru ? "ssru" : "self-attention"));
    out.set("maxPositions", c.max_positions);
    if (c.alignment_head >= 0) {
      val head = val::object();
      head.set("layer", c.alignment_layer);
      head.set("head", c.alignment_head);
      out.set("alignmentHead", head);
    }
    out.set("alignmentLayer", translator_.has_alignment_layer());
    return out;
  }

 private:
  crossattn::Translator translator_;
};

/// The option table (cpp/options.h, option_specs_json) as JSON text: every option's names, type,
/// range, default and doc, for the wrapper and tools/internals/options-table.js.
std::string option_specs() { return crossattn::option_specs_json().dump(); }

/// {} or {error}: the options of the JSON text `options_json` checked as far as they can be without
/// a model (check_options: each value in range, n_best <= beam_size, sampling with beam_size 1),
/// and with max_positions > 0 against a model of that many positions, for the CLI to refuse a
/// command line before it translates.
val check_options(const std::string& options_json, int max_positions) {
  return guarded([&] {
    const crossattn::TranslateOptions options = parse(options_json);
    if (max_positions <= 0) {
      crossattn::check_options(options);
    } else {
      crossattn::ModelConfig config;
      config.max_positions = max_positions;
      crossattn::check_options(options, config);
    }
    return val::object();
  });
}

/// Asks for `n` threads for the matrix products of this instance (caller included; clamped to
/// [1, 8] and to the threads the build can start: 1 in crossattn.wasm, up to 1 + its Worker pool
/// in crossattn-mt.wasm). Results are bit for bit the same on any number. @return the count in use.
int set_thread_count(int n) { return crossattn::set_thread_count(n); }

/// Storage in the wasm heap for a model file, which JS writes through view() as the file arrives
/// (no JS-side copy of the whole file), then hands to loadTranslator.
class WasmFileBuffer {
 public:
  explicit WasmFileBuffer(size_t size) : bytes_(crossattn::allocate_file_bytes(size)), size_(size) {}
  /// A Uint8Array over the buffer's `size` bytes; take it anew after anything that may grow the heap.
  val view() const { return val(emscripten::typed_memory_view(size_, bytes_.get())); }
  const std::shared_ptr<uint8_t>& bytes() const { return bytes_; }
  size_t size() const { return size_; }

 private:
  std::shared_ptr<uint8_t> bytes_;  // left uninitialised: every byte is written before it is read
  size_t size_;
};

/// {buffer: WasmFileBuffer} or {error}: InvalidInputError for a size outside [0, 2^32 - 1], OutOfMemoryError
/// when the heap cannot hold `size` bytes.
val allocate_file_buffer(double size) {
  return guarded([&] {
    if (!(size >= 0 && size <= 4294967295.0)) throw crossattn::Error(crossattn::ErrorCode::kInvalidInput, "a file buffer needs 0 to 2^32 - 1 bytes");
    val out = val::object();
    out.set("buffer", WasmFileBuffer(static_cast<size_t>(size)));
    return out;
  });
}

/// {translator: WasmTranslator} or {error} from the first `size` bytes of `buffer`, a model file.
/// The translator keeps the buffer's bytes, as the int8 weights of a file in the kernel layout are
/// multiplied where they lie (docs/model-format.md); the JS handle to the buffer may be deleted.
val load_translator(const WasmFileBuffer& buffer, double size) {
  return guarded([&] {
    if (!(size >= 0 && size <= static_cast<double>(buffer.size()))) {
      throw crossattn::Error(crossattn::ErrorCode::kInvalidInput, "the model's size exceeds its buffer");
    }
    val out = val::object();
    out.set("translator", val(WasmTranslator(crossattn::Translator::from_owned_bytes(buffer.bytes(), static_cast<size_t>(size)))));
    return out;
  });
}

// prepareEngine's warm-up (warm_up.h): {pieces} or {error}.
val warm_up_engine(int pieces) {
  return guarded([pieces] {
    val out = val::object();
    out.set("pieces", crossattn::warm_up(pieces));
    return out;
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(crossattn) {
  emscripten::class_<WasmTranslator>("WasmTranslator")
      .function("translateBatch", &WasmTranslator::translate_batch)
      .function("align", &WasmTranslator::align)
      .function("start", &WasmTranslator::start)
      .function("symmetrize", &WasmTranslator::symmetrize)
      .function("sourceLength", &WasmTranslator::source_length)
      .function("config", &WasmTranslator::config);
  emscripten::class_<WasmJob>("WasmJob").function("step", &WasmJob::step).function("finish", &WasmJob::finish);
  emscripten::class_<WasmFileBuffer>("WasmFileBuffer").function("view", &WasmFileBuffer::view);
  emscripten::function("allocateFileBuffer", &allocate_file_buffer);
  emscripten::function("loadTranslator", &load_translator);
  emscripten::function("optionSpecs", &option_specs);
  emscripten::function("checkOptions", &check_options);
  emscripten::function("resultFields", &crossattn_bindings::result_fields);
  emscripten::function("setThreadCount", &set_thread_count);
  emscripten::function("warmUp", &warm_up_engine);
}
