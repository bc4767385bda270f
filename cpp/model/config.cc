#include "model/config.h"

#include <algorithm>
#include <cstdint>
#include <iomanip>
#include <sstream>
#include <string_view>

#include <nlohmann/json.hpp>

#include "error.h"
#include "model/tensor_spec.generated.h"  // the config's fields (cpp/model/tensor_spec.json)

namespace crossattn {
namespace {

[[noreturn]] void fail(const std::string& what) { fail_model_format("config: " + what); }

// The narrowest attention head accepted (d_model / n_heads): trained models use 32 to 128 (Vaswani et
// al. 2017: 64; Bergamot's tiny students: 32); the tests' tiny models use 4.
constexpr int kMinHeadDim = 4;

namespace spec = tensor_spec;

std::string quoted(std::string_view name) { return "'" + std::string(name) + "'"; }

// Whether the JSON number `v` is an integer in [min, max]. nlohmann's get<int>() would wrap 2^32 + N
// to N and truncate 256.5 to 256, so a config could say one thing and load as another.
bool integer_in(const nlohmann::json& v, double min, double max) {
  if (!v.is_number_integer()) return false;
  const double x = v.is_number_unsigned() ? static_cast<double>(v.get<uint64_t>()) : static_cast<double>(v.get<int64_t>());
  return x >= min && x <= max;
}

// The range of field `f` in words, its upper end the lower of its max and its `below` field's value less one.
std::string range_words(const spec::ConfigField& f, double max) {
  const auto number = [](double x) {
    std::ostringstream s;
    s << std::setprecision(15) << x;
    return s.str();
  };
  const std::string kind = f.type == spec::FieldType::kInt ? "an integer" : "a number";
  return quoted(f.name) + " must be " + kind + " in " + number(f.min) + ".." + number(max) + (f.below.empty() ? "" : " (below " + std::string(f.below) + ")");
}

// Checks field `f` of config `j`, giving an absent field its default first (a default is checked as
// if it were given), so that every field of the spec is present and valid afterwards.
void check_field(nlohmann::json& j, const spec::ConfigField& f) {
  const std::string key(f.name);
  const bool defaulted = !j.contains(key);
  if (defaulted) {
    if (!f.default_json.empty()) j[key] = nlohmann::json::parse(f.default_json);
    else if (!f.default_from.empty()) j[key] = j.at(std::string(f.default_from));  // an earlier field: already checked
    else fail("missing " + quoted(f.name));
  }
  const nlohmann::json& v = j.at(key);
  const std::string given = v.dump() + (defaulted ? " (its default)" : "");
  switch (f.type) {
    case spec::FieldType::kInt:
    case spec::FieldType::kNumber: {
      const double max = f.below.empty() ? f.max : std::min(f.max, j.at(std::string(f.below)).get<double>() - 1);
      const bool ok = f.type == spec::FieldType::kInt ? integer_in(v, f.min, max)
                                                      : v.is_number() && v.get<double>() >= f.min && v.get<double>() <= max;
      if (!ok) fail(range_words(f, max) + ", not " + given);
      return;
    }
    case spec::FieldType::kBool:
      if (!v.is_boolean()) fail(quoted(f.name) + " must be true or false, not " + given);
      return;
    case spec::FieldType::kString:
      if (!v.is_string()) fail(quoted(f.name) + " must be a string, not " + given);
      return;
    case spec::FieldType::kEnum: {
      const std::string_view* end = f.values + f.value_count;
      if (!v.is_string() || std::find(f.values, end, v.get<std::string>()) == end) {
        std::string values;
        for (const std::string_view* x = f.values; x != end; ++x) values += (values.empty() ? "\"" : ", \"") + std::string(*x) + "\"";
        fail(quoted(f.name) + " must be one of " + values + ", not " + given);
      }
      return;
    }
  }
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
  for (const spec::ConfigField& f : spec::kConfigFields) check_field(j, f);
  // Every field of the spec is now present, of its type and in its range.
  ModelConfig c;
  c.name = j.at("name").get<std::string>();
  c.source_lang = j.at("source_lang").get<std::string>();
  c.target_lang = j.at("target_lang").get<std::string>();
  c.encoder_layers = j.at("encoder_layers").get<int>();
  c.decoder_layers = j.at("decoder_layers").get<int>();
  c.d_model = j.at("d_model").get<int>();
  c.n_heads = j.at("n_heads").get<int>();
  c.d_ff = j.at("d_ff").get<int>();
  const auto activation = j.at("activation").get<std::string>();
  c.activation = activation == "relu" ? Activation::kRelu : activation == "gelu" ? Activation::kGelu : Activation::kSwish;
  c.pre_norm = j.at("layer_norm").get<std::string>() == "pre";
  c.layer_norm_eps = j.at("layer_norm_eps").get<float>();
  c.embed_scale = j.at("embed_scale").get<bool>();
  const auto layout = j.at("sinusoidal_layout").get<std::string>();
  c.sinusoidal_layout = layout == "halves" ? SinusoidalLayout::kHalves : layout == "marian" ? SinusoidalLayout::kMarian : SinusoidalLayout::kInterleaved;
  c.max_positions = j.at("max_positions").get<int>();
  c.tied_embeddings = j.at("tied_embeddings").get<bool>();
  c.shared_vocab = j.at("shared_vocab").get<bool>();
  c.final_logits_bias = j.at("final_logits_bias").get<bool>();
  c.vocab_size = j.at("vocab_size").get<int>();
  c.pad_id = j.at("pad_id").get<int>();
  c.unk_id = j.at("unk_id").get<int>();
  c.bos_id = j.at("bos_id").get<int>();
  c.eos_id = j.at("eos_id").get<int>();
  c.decoder_start_id = j.at("decoder_start_id").get<int>();
  c.zero_decoder_start = j.at("decoder_start").get<std::string>() == "zero";
  c.source_vocab_size = j.at("source_vocab_size").get<int>();
  c.source_eos_id = j.at("source_eos_id").get<int>();
  c.source_unk_id = j.at("source_unk_id").get<int>();
  c.decoder_autoregression = j.at("decoder_autoregression").get<std::string>() == "ssru" ? DecoderAutoregression::kSsru
                                                                                          : DecoderAutoregression::kSelfAttention;
  c.alignment_layer = j.at("alignment_layer").get<int>();
  c.alignment_head = j.at("alignment_head").get<int>();
  check_consistent(c);
  return c;
}

}  // namespace crossattn
