#include "model/config.h"

#include <nlohmann/json.hpp>

#include "error.h"

namespace crossattn {
namespace {

[[noreturn]] void fail(const std::string& what) { fail_model_format("config: " + what); }

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
  c.encoder_layers = get<int>(j, "encoder_layers");
  c.decoder_layers = get<int>(j, "decoder_layers");
  c.d_model = get<int>(j, "d_model");
  c.n_heads = get<int>(j, "n_heads");
  c.d_ff = get<int>(j, "d_ff");
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
  c.max_positions = get<int>(j, "max_positions");
  c.tied_embeddings = get<bool>(j, "tied_embeddings");
  c.shared_vocab = get<bool>(j, "shared_vocab");
  c.final_logits_bias = get_or<bool>(j, "final_logits_bias", false);
  c.vocab_size = get<int>(j, "vocab_size");
  c.pad_id = get<int>(j, "pad_id");
  c.unk_id = get<int>(j, "unk_id");
  c.bos_id = get<int>(j, "bos_id");
  c.eos_id = get<int>(j, "eos_id");
  c.decoder_start_id = get_or<int>(j, "decoder_start_id", c.bos_id);
  const auto decoder_start = get_or<std::string>(j, "decoder_start", "token");
  if (decoder_start != "token" && decoder_start != "zero") fail("decoder_start must be \"token\" or \"zero\"");
  c.zero_decoder_start = decoder_start == "zero";
  c.source_vocab_size = get_or<int>(j, "source_vocab_size", c.vocab_size);
  c.source_eos_id = get_or<int>(j, "source_eos_id", c.eos_id);
  c.source_unk_id = get_or<int>(j, "source_unk_id", c.unk_id);
  const auto autoregression = get_or<std::string>(j, "decoder_autoregression", "self-attention");
  if (autoregression == "self-attention") c.decoder_autoregression = DecoderAutoregression::kSelfAttention;
  else if (autoregression == "ssru") c.decoder_autoregression = DecoderAutoregression::kSsru;
  else fail("decoder_autoregression must be \"self-attention\" or \"ssru\", not '" + autoregression + "'");
  c.alignment_layer = get_or<int>(j, "alignment_layer", -1);
  c.alignment_head = get_or<int>(j, "alignment_head", -1);

  auto positive = [](int v, int limit) { return v > 0 && v <= limit; };
  if (!positive(c.encoder_layers, 64) || !positive(c.decoder_layers, 64)) fail("layer counts must be in 1..64");
  if (!positive(c.d_model, 1 << 14) || !positive(c.n_heads, 256) || c.d_model % c.n_heads != 0) {
    fail("d_model must be a positive multiple of n_heads");
  }
  if (c.d_model % 2 != 0) fail("sinusoidal positions need an even d_model");
  if (c.sinusoidal_layout == SinusoidalLayout::kMarian && c.d_model < 4) fail("Marian's sinusoids need d_model >= 4");
  if (!positive(c.d_ff, 1 << 16) || !positive(c.vocab_size, 1 << 20) || !positive(c.max_positions, 1 << 16)) {
    fail("d_ff, vocab_size and max_positions must be positive and plausible");
  }
  for (int id : {c.pad_id, c.unk_id, c.bos_id, c.eos_id, c.decoder_start_id}) {
    if (id < 0 || id >= c.vocab_size) fail("special token ids must lie in [0, vocab_size)");
  }
  if (!positive(c.source_vocab_size, 1 << 20)) fail("source_vocab_size must be positive and plausible");
  if (c.shared_vocab && c.source_vocab_size != c.vocab_size) {
    fail("source_vocab_size " + std::to_string(c.source_vocab_size) + " differs from vocab_size " +
         std::to_string(c.vocab_size) + ", but shared_vocab says the two sides share one embedding matrix");
  }
  for (int id : {c.source_eos_id, c.source_unk_id}) {
    if (id < 0 || id >= c.source_vocab_size) fail("source_eos_id and source_unk_id must lie in [0, source_vocab_size)");
  }
  const bool no_alignment_head = c.alignment_layer == -1 && c.alignment_head == -1;
  if (!no_alignment_head && (c.alignment_layer < 0 || c.alignment_layer >= c.decoder_layers || c.alignment_head < 0 ||
                             c.alignment_head >= c.n_heads)) {
    fail("alignment_layer and alignment_head must both be absent or name a decoder layer and head");
  }
  return c;
}

}  // namespace crossattn
