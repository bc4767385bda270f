#include "model/transformer.h"

#include <cmath>
#include <string>

#include "error.h"
#include "kernels/ops.h"
#include "layers/feed_forward.h"

namespace crossattn {
namespace {

// One residual sub-layer: x + f(LN(x)) when pre-norm, LN(x + f(x)) when post-norm (Vaswani et al.).
template <typename Block>
void residual(Matrix& x, const LayerNorm& norm, const ModelConfig& c, Block&& block) {
  Matrix out;
  if (c.pre_norm) {
    Matrix h = x;
    layer_norm(h, norm, c.layer_norm_eps);
    block(h, out);
    x += out;
  } else {
    block(x, out);
    x += out;
    layer_norm(x, norm, c.layer_norm_eps);
  }
}

}  // namespace

Transformer::Transformer(ModelConfig config, TransformerWeights weights)
    : config_(std::move(config)), weights_(std::move(weights)) {}

Matrix Transformer::embed(const Matrix& table, const std::vector<int>& ids, int first_position) const {
  Matrix x(static_cast<Eigen::Index>(ids.size()), config_.d_model);  // [L, D]
  const float scale = config_.embed_scale ? std::sqrt(static_cast<float>(config_.d_model)) : 1.0f;
  for (size_t i = 0; i < ids.size(); ++i) {
    if (ids[i] < 0 || ids[i] >= config_.vocab_size) {
      throw Error(ErrorCode::kInvalidInput, "token id " + std::to_string(ids[i]) + " is outside the vocabulary");
    }
    x.row(static_cast<Eigen::Index>(i)) = table.row(ids[i]) * scale;
  }
  add_sinusoidal_positions(x, first_position, config_.sinusoidal_layout);
  return x;
}

Matrix Transformer::encode(const std::vector<int>& src_ids) const {
  if (src_ids.empty() || static_cast<int>(src_ids.size()) > config_.max_positions) {
    throw Error(ErrorCode::kInputTooLong, "the source has " + std::to_string(src_ids.size()) +
                                              " tokens; this model takes 1 to " +
                                              std::to_string(config_.max_positions));
  }
  const int h = config_.n_heads;
  Matrix x = embed(weights_.src_embed, src_ids, 0);  // [S, D]
  for (const auto& layer : weights_.encoder_layers) {
    residual(x, layer.self_attention_norm, config_,
             [&](const Matrix& in, Matrix& out) { encoder_self_attention(in, layer.self_attention, h, out); });
    residual(x, layer.ffn_norm, config_,
             [&](const Matrix& in, Matrix& out) { feed_forward(in, layer.ffn, config_.activation, out); });
  }
  if (config_.pre_norm) layer_norm(x, weights_.encoder_norm, config_.layer_norm_eps);
  return x;
}

DecoderState Transformer::start(const Matrix& encoder_out, int max_tgt_len) const {
  DecoderState state;
  state.src_len = static_cast<int>(encoder_out.rows());
  const int capacity = std::min(max_tgt_len, config_.max_positions);
  for (const auto& layer : weights_.decoder_layers) {
    state.self_attention.emplace_back();
    state.self_attention.back().reset(capacity, config_.d_model);
    state.cross_attention.push_back(project_cross_attention_memory(encoder_out, layer.cross_attention));
  }
  return state;
}

void Transformer::decode(DecoderState& state, const std::vector<int>& tgt_ids, Matrix& logits,
                         float* cross_weights) const {
  const int t_len = static_cast<int>(tgt_ids.size()), first = state.position();
  if (t_len == 0) throw Error(ErrorCode::kInvalidInput, "decode needs at least one target token");
  if (first + t_len > state.self_attention.front().keys.rows()) {
    throw Error(ErrorCode::kInputTooLong, "the target would pass " +
                                              std::to_string(state.self_attention.front().keys.rows()) +
                                              " positions");
  }
  const int h = config_.n_heads;
  const size_t layer_stride = static_cast<size_t>(h) * t_len * state.src_len;  // one layer of [H, T, S]
  Matrix y = embed(weights_.target_embedding(), tgt_ids, first);  // [T, D]
  for (size_t l = 0; l < weights_.decoder_layers.size(); ++l) {
    const auto& layer = weights_.decoder_layers[l];
    residual(y, layer.self_attention_norm, config_, [&](const Matrix& in, Matrix& out) {
      decoder_self_attention(in, layer.self_attention, h, state.self_attention[l], out);
    });
    float* weights = cross_weights ? cross_weights + l * layer_stride : nullptr;
    residual(y, layer.cross_attention_norm, config_, [&](const Matrix& in, Matrix& out) {
      cross_attention(in, layer.cross_attention, state.cross_attention[l], h, out, weights);
    });
    residual(y, layer.ffn_norm, config_,
             [&](const Matrix& in, Matrix& out) { feed_forward(in, layer.ffn, config_.activation, out); });
  }
  if (config_.pre_norm) layer_norm(y, weights_.decoder_norm, config_.layer_norm_eps);
  logits.noalias() = y * weights_.output_projection().transpose();  // [T, V]
  if (weights_.final_logits_bias.size()) logits.rowwise() += weights_.final_logits_bias;
}

}  // namespace crossattn
