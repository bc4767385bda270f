#include "model/transformer.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include "error.h"
#include "kernels/ops.h"
#include "layers/alignment_layer.h"
#include "layers/feed_forward.h"
#include "layers/probe_records.h"
#include "layers/self_attention.h"
#include "layers/ssru.h"
#include "model/positions.h"

namespace crossattn {
namespace {

// One residual sub-layer on rows x [M, D]: x + f(LN(x)) when pre-norm, LN(x + f(x)) when post-norm
// (Vaswani et al.). `block(h)` adds f(h) to x; h is scratch [M, D] for the pre-norm input.
template <typename Block>
void residual(float* x, float* h, int m, const LayerNorm& norm, const ModelConfig& c, Block&& block) {
  const int d = c.d_model;
  if (c.pre_norm) {
    layer_norm(x, m, d, d, norm.gamma.data(), norm.beta.data(), c.layer_norm_eps, h, d);
    block(h);
  } else {
    block(x);
    layer_norm(x, m, d, d, norm.gamma.data(), norm.beta.data(), c.layer_norm_eps, x, d);
  }
}

}  // namespace

void DecoderWorkspace::reserve(int n, const ModelConfig& c) {
  if (n <= rows) return;
  rows = n;
  const size_t m = static_cast<size_t>(n);
  for (auto* buffer : {&x, &h, &q, &context}) buffer->resize(m * c.d_model);
  qkv.resize(m * 3 * c.d_model);  // also the SSRU's gates [rows, 2D]
  hidden.resize(m * c.d_ff);
  probs.resize(static_cast<size_t>(c.n_heads) * c.max_positions);
  logits.resize(m * c.vocab_size);
  positions.resize(m);
}

Transformer::Transformer(ModelConfig config, TransformerWeights weights)
    : config_(std::move(config)),
      weights_(std::move(weights)),
      sinusoids_(sinusoid_table(config_.max_positions, config_.d_model, config_.sinusoidal_layout)) {}

void Transformer::check_ids(const int* ids, int n, int vocab_size, const char* side) {
  for (int i = 0; i < n; ++i) {
    if (ids[i] < 0 || ids[i] >= vocab_size) {
      throw Error(ErrorCode::kInvalidInput, "token id " + std::to_string(ids[i]) + " is outside the " + side +
                                                " vocabulary of " + std::to_string(vocab_size) + " pieces");
    }
  }
}

void Transformer::embed(const Embedding& table, const int* ids, const int* positions, int n, float* x,
                        bool zero_at_start) const {
  const int d = config_.d_model;
  const float scale = config_.embed_scale ? std::sqrt(static_cast<float>(d)) : 1.0f;
  for (int i = 0; i < n; ++i) {
    if (zero_at_start && positions[i] == 0) {
      std::fill(x + i * d, x + (i + 1) * d, 0.0f);
    } else {
      table.lookup(ids[i], scale, x + i * d);
    }
    add(sinusoids_.data() + static_cast<size_t>(positions[i]) * d, x + i * d, d);
  }
}

Matrix Transformer::encode(const std::vector<int>& src_ids) const {
  const int s_len = static_cast<int>(src_ids.size()), d = config_.d_model, h = config_.n_heads;
  if (s_len == 0 || s_len > config_.max_positions) {
    throw Error(ErrorCode::kInputTooLong, "the source has " + std::to_string(s_len) + " tokens; this model takes 1 to " +
                                              std::to_string(config_.max_positions));
  }
  check_ids(src_ids.data(), s_len, config_.source_vocab_size, "source");
  std::vector<int> positions(s_len);
  for (int s = 0; s < s_len; ++s) positions[s] = s;
  Matrix x(s_len, d);  // [S, D]
  embed(weights_.src_embed, src_ids.data(), positions.data(), s_len, x.data());
  UninitializedVector<float> hn(static_cast<size_t>(s_len) * d), qkv(3 * hn.size()), context(hn.size()),
      hidden(static_cast<size_t>(s_len) * config_.d_ff), probs(static_cast<size_t>(h) * s_len);
  for (const auto& layer : weights_.encoder_layers) {
    residual(x.data(), hn.data(), s_len, layer.self_attention_norm, config_, [&](const float* in) {
      encoder_self_attention(in, s_len, layer.self_attention, h, qkv.data(), context.data(), probs.data(), x.data());
    });
    residual(x.data(), hn.data(), s_len, layer.ffn_norm, config_, [&](const float* in) {
      feed_forward(in, s_len, layer.ffn, config_.activation, hidden.data(), x.data());
    });
  }
  if (config_.pre_norm) {
    const LayerNorm& n = weights_.encoder_norm;
    layer_norm(x.data(), s_len, d, d, n.gamma.data(), n.beta.data(), config_.layer_norm_eps, x.data(), d);
  }
  return x;
}

DecoderState Transformer::start(const Matrix& encoder_out, int max_tgt_len) const {
  DecoderState state;
  state.d_model = config_.d_model;
  state.n_heads = config_.n_heads;
  state.src_len = static_cast<int>(encoder_out.rows());
  state.capacity = std::max(0, std::min(max_tgt_len, config_.max_positions));
  const size_t layers = weights_.decoder_layers.size(), row = 2 * static_cast<size_t>(config_.d_model);
  if (config_.decoder_autoregression == DecoderAutoregression::kSsru) {
    state.ssru_cell.assign(layers * config_.d_model, 0.0f);  // c_0 = 0 (layers/ssru.h)
  } else {
    state.self_kv.resize(layers * state.capacity * row);
  }
  auto memory = std::make_shared<UninitializedVector<float>>(layers * state.src_len * row);
  UninitializedVector<float> projected(state.src_len * row);  // [S, 2D]
  for (size_t l = 0; l < layers; ++l) {
    project_cross_attention_memory(encoder_out.data(), state.src_len, weights_.decoder_layers[l].cross_attention,
                                   config_.n_heads, projected.data(), memory->data() + l * state.src_len * row);
  }
  state.cross_kv = std::move(memory);
  return state;
}

OutputShortlist Transformer::shortlist(const std::vector<const std::vector<int>*>& sources) const {
  if (!has_shortlist()) throw Error(ErrorCode::kInvalidInput, "this model file has no lexical shortlist");
  for (const std::vector<int>* source : sources) {
    check_ids(source->data(), static_cast<int>(source->size()), config_.source_vocab_size, "source");
  }
  OutputShortlist s;
  s.ids = weights_.lexical_shortlist.candidates(sources, config_.eos_id);
  s.projection = weights_.output_projection.select_rows(s.ids);
  return s;
}

void Transformer::decode(DecoderState* const* states, const int* ids, int m, DecoderWorkspace& ws,
                         const CrossAttentionProbe* probe, const OutputShortlist* shortlist) const {
  if (m > ws.rows) throw Error(ErrorCode::kInvalidInput, "the decoder workspace holds fewer rows than fed");
  check_ids(ids, m, config_.vocab_size, "target");
  // Positions: each state's next ones, in row order; checked against capacity before anything changes.
  for (int r = 0; r < m; ++r) {
    int earlier = 0;
    for (int i = 0; i < r; ++i) earlier += states[i] == states[r];
    ws.positions[r] = states[r]->length + earlier;
    if (ws.positions[r] >= states[r]->capacity) {
      throw Error(ErrorCode::kInputTooLong, "the target would pass " + std::to_string(states[r]->capacity) + " positions");
    }
  }
  const int h = config_.n_heads, d = config_.d_model;
  float* x = ws.x.data();  // [M, D] the residual stream
  embed(weights_.target_embedding(), ids, ws.positions.data(), m, x, config_.zero_decoder_start);
  for (size_t l = 0; l < weights_.decoder_layers.size(); ++l) {
    const auto& layer = weights_.decoder_layers[l];
    const int li = static_cast<int>(l);
    residual(x, ws.h.data(), m, layer.self_attention_norm, config_, [&](const float* in) {
      if (config_.decoder_autoregression == DecoderAutoregression::kSsru) {
        ssru(in, m, layer.ssru, states, li, ws.qkv.data(), x);
      } else {
        decoder_self_attention(in, m, layer.self_attention, h, states, ws.positions.data(), li, ws.qkv.data(),
                               ws.context.data(), ws.probs.data(), x);
      }
    });
    residual(x, ws.h.data(), m, layer.cross_attention_norm, config_, [&](const float* in) {
      cross_attention(in, m, layer.cross_attention, h, states, li, ws.q.data(), ws.context.data(), ws.probs.data(),
                      probe, x);
    });
    residual(x, ws.h.data(), m, layer.ffn_norm, config_, [&](const float* in) {
      feed_forward(in, m, layer.ffn, config_.activation, ws.hidden.data(), x);
    });
  }
  if (config_.pre_norm) {
    const LayerNorm& n = weights_.decoder_norm;
    layer_norm(x, m, d, d, n.gamma.data(), n.beta.data(), config_.layer_norm_eps, x, d);
  }
  const PackedLinear& output = shortlist == nullptr ? weights_.output_projection : shortlist->projection;
  output.apply(x, m, d, ws.logits.data(), output.out(), Epilogue::kStore);  // [M, V] or [M, n]
  for (int r = 0; r < m; ++r) states[r]->length = std::max(states[r]->length, ws.positions[r] + 1);
}

void Transformer::decode(DecoderState& state, const std::vector<int>& tgt_ids, Matrix& logits, float* cross_weights,
                         float* residual, float* final_states) const {
  const int t_len = static_cast<int>(tgt_ids.size()), s_len = state.src_len, layers = config_.decoder_layers;
  if (t_len == 0) throw Error(ErrorCode::kInvalidInput, "decode needs at least one target token");
  DecoderWorkspace ws;
  ws.reserve(t_len, config_);
  std::vector<DecoderState*> states(t_len, &state);
  ProbeRecords records(layers, config_.n_heads, s_len, cross_weights != nullptr, residual != nullptr);  // row t: record t
  records.resize(t_len);
  std::vector<float*> weight_rows(t_len), residual_rows(t_len);
  std::vector<int> positions(t_len);
  for (int t = 0; t < t_len; ++t) {
    weight_rows[t] = records.attention(t);
    residual_rows[t] = records.residual(t);
    positions[t] = t;
  }
  const CrossAttentionProbe probe{cross_weights ? weight_rows.data() : nullptr, residual ? residual_rows.data() : nullptr};
  decode(states.data(), tgt_ids.data(), t_len, ws, &probe);
  logits = Eigen::Map<Matrix>(ws.logits.data(), t_len, config_.vocab_size);
  if (final_states) std::copy(ws.x.begin(), ws.x.begin() + static_cast<size_t>(t_len) * config_.d_model, final_states);
  records.gather(positions, cross_weights, residual);  // [L, H, T, S], [L, T, 3]
}

std::vector<float> Transformer::alignment_weights(const Matrix& encoder_out, const std::vector<int>& tgt_ids,
                                                  const float* final_states) const {
  if (!has_alignment_layer()) throw Error(ErrorCode::kInvalidInput, "this model file has no alignment layer");
  const int t_len = static_cast<int>(tgt_ids.size()), s_len = static_cast<int>(encoder_out.rows()), d = config_.d_model;
  check_ids(tgt_ids.data(), t_len, config_.vocab_size, "target");
  std::vector<float> embeds(static_cast<size_t>(t_len) * d), weights(static_cast<size_t>(t_len) * s_len);
  for (int t = 0; t < t_len; ++t) weights_.target_embedding().lookup(tgt_ids[t], 1.0f, embeds.data() + static_cast<size_t>(t) * d);
  alignment_attention(final_states, embeds.data(), t_len, encoder_out.data(), s_len, weights_.alignment_layer,
                      weights.data());
  return weights;
}

}  // namespace crossattn
