// Embind glue: exposes crossattn::Translator to JavaScript. No globals; every object belongs to the
// JS handle that created it (freed by .delete(), which the TypeScript wrapper's dispose() calls).
// Errors never cross the boundary as C++ exceptions: each call returns {error: {name, message}}
// instead, which the wrapper turns into typed JS errors, and the translator stays usable.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <new>

#include "error.h"
#include "translator.h"

namespace {

using emscripten::val;

val error_value(const char* name, const std::string& message) {
  val error = val::object();
  error.set("name", name);
  error.set("message", message);
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
    return error_value(crossattn::error_code_name(e.code()), e.what());
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

class WasmTranslator {
 public:
  explicit WasmTranslator(crossattn::Translator translator) : translator_(std::move(translator)) {}

  /// {text, sourceTokens, targetTokens, sourceIds, targetIds, logProb, layers, heads,
  ///  crossAttention: Float32Array [layers * heads * T * S] or null} or {error}.
  val translate(const std::string& text, int max_length, bool attention) const {
    return guarded([&] { return to_value(translator_.translate(text, options(max_length, attention)), attention); });
  }

  /// {results: [one object as translate() returns per text]} or {error}, for an array of strings,
  /// decoded together as one batch (Translator::translate_batch).
  val translate_batch(const val& texts, int max_length, bool attention) const {
    return guarded([&] {
      const auto results =
          translator_.translate_batch(emscripten::vecFromJSArray<std::string>(texts), options(max_length, attention));
      val array = val::array();
      for (size_t i = 0; i < results.size(); ++i) array.set(i, to_value(results[i], attention));
      val out = val::object();
      out.set("results", array);
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
    out.set("maxPositions", c.max_positions);
    return out;
  }

 private:
  static crossattn::TranslateOptions options(int max_length, bool attention) {
    crossattn::TranslateOptions o;
    o.max_length = max_length;
    o.attention = attention;
    return o;
  }

  static val to_value(const crossattn::Translation& r, bool attention) {
    val out = val::object();
    out.set("text", r.text);
    out.set("sourceTokens", to_array(r.source_tokens));
    out.set("targetTokens", to_array(r.target_tokens));
    out.set("sourceIds", to_array(r.source_ids));
    out.set("targetIds", to_array(r.target_ids));
    out.set("logProb", r.log_prob);
    out.set("layers", r.layers);
    out.set("heads", r.heads);
    // slice() copies out of the wasm heap, so the result survives later heap growth.
    out.set("crossAttention",
            attention ? val(emscripten::typed_memory_view(r.cross_attention.size(), r.cross_attention.data()))
                            .call<val>("slice")
                      : val::null());
    return out;
  }

  crossattn::Translator translator_;
};

/// {translator: WasmTranslator} or {error} from the bytes of a model file (a Uint8Array).
val load_translator(const val& bytes) {
  return guarded([&] {
    // One TypedArray.set into the heap: a memcpy, where an element-wise conversion would cost
    // hundreds of milliseconds for a model.
    std::vector<uint8_t> data(bytes["length"].as<size_t>());
    val(emscripten::typed_memory_view(data.size(), data.data())).call<void>("set", bytes);
    val out = val::object();
    out.set("translator", val(WasmTranslator(crossattn::Translator::from_bytes(data.data(), data.size()))));
    return out;
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(crossattn) {
  emscripten::class_<WasmTranslator>("WasmTranslator")
      .function("translate", &WasmTranslator::translate)
      .function("translateBatch", &WasmTranslator::translate_batch)
      .function("config", &WasmTranslator::config);
  emscripten::function("loadTranslator", &load_translator);
}
