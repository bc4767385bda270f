#include "model/config.h"

#include <cstdint>

#include <nlohmann/json.hpp>

#include "error.h"

namespace crossattn {
namespace {

[[noreturn]] void fail(const std::string& what) { fail_model_format("config: " + what); }

// Limits of the config's integers: far above any model of ours or OPUS-MT's, low enough that no
// product of them overflows the engine's sizes.
constexpr int64_t kMaxLayers = 64, kMaxDModel = 1 << 14, kMaxHeads = 256, kMaxDff = 1 << 16;
constexpr int64_t kMaxVocab = 1 << 20, kMaxPositions = 1 << 16;
// The narrowest attention head accepted (d_model / n_heads): trained models use 32 to 128 (Vaswani et
// al. 2017: 64; Bergamot's tiny students: 32); the tests' tiny models use 4.
constexpr int kMinHeadDim = 4;

template <typename T>
T get(const nlohmann::json& j, const char* key) {
  if (!j.contains(key)) fail(std::string("missing '") + key + "'");
  try {
    return j.at(key).get<T>();
  } catch (const nlohmann::json::exception&) {
    fail(std::string("'") + key + "' has the wrong type");
  }
}

template <typename T>
T get_or(const nlohmann::json& j, const char* key, T fallback) {
  return j.contains(key) ? get<T>(j, key) : fallback;
}

// The integer `key`, which must be a JSON integer in [min, max]. nlohmann's get<int>() would wrap
// 2^32 + N to N and truncate 256.5 to 256, so a config could say one thing and load as another.
int get_int(const nlohmann::json& j, const char* key, int64_t min, int64_t max) {
  if (!j.contains(key)) fail(std::string("missing '") + key + "'");
  const nlohmann::json& v = j.at(key);
  const auto range = [&] { return "'" + std::string(key) + "' must be an integer in " + std::to_string(min) + ".." + std::to_string(max); };
  if (!v.is_number_integer()) fail(range() + ", not " + v.dump());
  bool in_range;
  if (v.is_number_unsigned()) {  // a non-negative JSON integer, up to 2^64 - 1
    const uint64_t u = v.get<uint64_t>();
    in_range = max >= 0 && u <= static_cast<uint64_t>(max) && static_cast<int64_t>(u) >= min;
  } else {
    const int64_t n = v.get<int64_t>();
    in_range = n >= min && n <= max;
  }
  if (!in_range) fail(range() + ", not " + v.dump());
  return static_cast<int>(v.get<int64_t>());
}

int get_int_or(const nlohmann::json& j, const char* key, int64_t min, int64_t max, int fallback) {
  return j.contains(key) ? get_int(j, key, min, max) : fallback;
}

// What no single field can say: the fields of `c` agree with each other (heads divide d_model and are
// wide enough, sinusoids fit d_model, shared vocabularies are one size, the alignment head exists).
void check_consistent(const ModelConfig& c) {
  if (c.d_model % c.n_heads != 0) fail("d_model " + std::to_string(c.d_model) + " is not a multiple of n_heads " + std::to_string(c.n_heads));
  // Every attention projection is [d_model, d_model] whatever the head count, so the tensors cannot
  // tell 4 heads from 8: what can be checked is that each head is at least kMinHeadDim wide.
  if (c.d_model / c.n_heads < kMinHeadDim) {
    fail("n_heads " + std::to_string(c.n_heads) + " leaves heads of " + std::to_string(c.d_model / c.n_heads) +
         " dimensions (d_model / n_heads); at least " + std::to_string(kMinHeadDim) + " are needed");
  }
  if (c.d_model % 2 != 0) fail("sinusoidal positions need an even d_model");
  if (c.sinusoidal_layout == SinusoidalLayout::kMarian && c.d_model < 4) fail("Marian's sinusoids need d_model >= 4");
  if (c.shared_vocab && c.source_vocab_size != c.vocab_size) {
    fail("source_vocab_size " + std::to_string(c.source_vocab_size) + " differs from vocab_size " +
         std::to_string(c.vocab_size) + ", but shared_vocab says the two sides share one embedding matrix");
  }
  const bool no_alignment_head = c.alignment_layer == -1 && c.alignment_head == -1;
  if (!no_alignment_head && (c.alignment_layer < 0 || c.alignment_layer >= c.decoder_layers || c.alignment_head < 0 ||
                             c.alignment_head >= c.n_heads)) {
    fail("alignment_layer and alignment_head must both be absent or name a decoder layer and head");
  }
}

}  // namespace

ModelConfig ModelConfig::from_json(const std::string& json_text) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(json_text);
  } catch (const nlohmann::json::exception& e) {
    fail(std::string("not JSON (") + e.what() + ")");
  }
  if (!j.is_object()) fail("not a JSON object");
  ModelConfig c;
  c.name = get_or<std::string>(j, "name", "");
  c.source_lang = get_or<std::string>(j, "source_lang", "");
  c.target_lang = get_or<std::string>(j, "target_lang", "");
  c.encoder_layers = get_int(j, "encoder_layers", 1, kMaxLayers);
  c.decoder_layers = get_int(j, "decoder_layers", 1, kMaxLayers);
  c.d_model = get_int(j, "d_model", 1, kMaxDModel);
  c.n_heads = get_int(j, "n_heads", 1, kMaxHeads);
  c.d_ff = get_int(j, "d_ff", 1, kMaxDff);
  const auto activation = get<std::string>(j, "activation");
  if (activation == "relu") c.activation = Activation::kRelu;
  else if (activation == "gelu") c.activation = Activation::kGelu;
  else if (activation == "swish" || activation == "silu") c.activation = Activation::kSwish;
  else fail("unknown activation '" + activation + "'");
  const auto layer_norm = get<std::string>(j, "layer_norm");
  if (layer_norm != "pre" && layer_norm != "post") fail("layer_norm must be 'pre' or 'post'");
  c.pre_norm = layer_norm == "pre";
  // Read as double: a value past float's range must not silently become infinity.
  const double layer_norm_eps = get_or<double>(j, "layer_norm_eps", 1e-5);
  if (!(layer_norm_eps >= 1e-30 && layer_norm_eps <= 0.1)) fail("layer_norm_eps must be a small positive number, in [1e-30, 0.1]");
  c.layer_norm_eps = static_cast<float>(layer_norm_eps);
  c.embed_scale = get<bool>(j, "embed_scale");
  if (get_or<std::string>(j, "positional_encoding", "sinusoidal") != "sinusoidal") {
    fail("only sinusoidal positional_encoding is supported");
  }
  const auto layout = get_or<std::string>(j, "sinusoidal_layout", "interleaved");
  if (layout == "interleaved") c.sinusoidal_layout = SinusoidalLayout::kInterleaved;
  else if (layout == "halves") c.sinusoidal_layout = SinusoidalLayout::kHalves;
  else if (layout == "marian") c.sinusoidal_layout = SinusoidalLayout::kMarian;
  else fail("unknown sinusoidal_layout '" + layout + "'");
  c.max_positions = get_int(j, "max_positions", 1, kMaxPositions);
  c.tied_embeddings = get<bool>(j, "tied_embeddings");
  c.shared_vocab = get<bool>(j, "shared_vocab");
  c.final_logits_bias = get_or<bool>(j, "final_logits_bias", false);
  c.vocab_size = get_int(j, "vocab_size", 1, kMaxVocab);
  const int last_id = c.vocab_size - 1;  // special ids are target ids, in [0, vocab_size)
  c.pad_id = get_int(j, "pad_id", 0, last_id);
  c.unk_id = get_int(j, "unk_id", 0, last_id);
  c.bos_id = get_int(j, "bos_id", 0, last_id);
  c.eos_id = get_int(j, "eos_id", 0, last_id);
  c.decoder_start_id = get_int_or(j, "decoder_start_id", 0, last_id, c.bos_id);
  const auto decoder_start = get_or<std::string>(j, "decoder_start", "token");
  if (decoder_start != "token" && decoder_start != "zero") fail("decoder_start must be \"token\" or \"zero\"");
  c.zero_decoder_start = decoder_start == "zero";
  c.source_vocab_size = get_int_or(j, "source_vocab_size", 1, kMaxVocab, c.vocab_size);
  const int last_source_id = c.source_vocab_size - 1;
  c.source_eos_id = get_int_or(j, "source_eos_id", 0, last_source_id, c.eos_id);
  c.source_unk_id = get_int_or(j, "source_unk_id", 0, last_source_id, c.unk_id);
  if (c.source_eos_id > last_source_id || c.source_unk_id > last_source_id) {  // the defaults, eos_id and unk_id
    fail("source_eos_id and source_unk_id (by default eos_id and unk_id) must lie in [0, source_vocab_size)");
  }
  const auto autoregression = get_or<std::string>(j, "decoder_autoregression", "self-attention");
  if (autoregression == "self-attention") c.decoder_autoregression = DecoderAutoregression::kSelfAttention;
  else if (autoregression == "ssru") c.decoder_autoregression = DecoderAutoregression::kSsru;
  else fail("decoder_autoregression must be \"self-attention\" or \"ssru\", not '" + autoregression + "'");
  c.alignment_layer = get_int_or(j, "alignment_layer", -1, c.decoder_layers - 1, -1);
  c.alignment_head = get_int_or(j, "alignment_head", -1, c.n_heads - 1, -1);
  check_consistent(c);
  return c;
}

}  // namespace crossattn
