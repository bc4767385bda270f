#include "layers/attention.h"

#include <algorithm>
#include <cmath>

#include "kernels/ops.h"

namespace crossattn {

void attend(const Matrix& q, const Eigen::Ref<const Matrix>& k, const Eigen::Ref<const Matrix>& v, int n_heads,
            int causal_offset, Matrix& context, float* weights) {
  const Eigen::Index t_len = q.rows(), s_len = k.rows(), d_k = q.cols() / n_heads;
  context.resize(t_len, q.cols());
  Matrix scores(t_len, s_len);  // [T, S] for one head
  for (int h = 0; h < n_heads; ++h) {
    scores.noalias() = q.middleCols(h * d_k, d_k) * k.middleCols(h * d_k, d_k).transpose();
    if (causal_offset >= 0) {
      // Row t sees key rows 0 .. t + causal_offset; the rest get exactly zero weight.
      for (Eigen::Index t = 0; t < t_len; ++t) {
        const Eigen::Index visible = std::min<Eigen::Index>(s_len, t + causal_offset + 1);
        softmax_rows(scores.block(t, 0, 1, visible));
        scores.row(t).tail(s_len - visible).setZero();
      }
    } else {
      softmax_rows(scores);
    }
    context.middleCols(h * d_k, d_k).noalias() = scores * v.middleCols(h * d_k, d_k);
    if (weights != nullptr) {
      Eigen::Map<Matrix>(weights + h * t_len * s_len, t_len, s_len) = scores;
    }
  }
}

void encoder_self_attention(const Matrix& x, const AttentionWeights& w, int n_heads, Matrix& out) {
  Matrix q, k, v, context;
  linear(x, w.q_proj, q);  // [S, D]
  linear(x, w.k_proj, k);  // [S, D]
  linear(x, w.v_proj, v);  // [S, D]
  q *= 1.0f / std::sqrt(static_cast<float>(x.cols() / n_heads));
  attend(q, k, v, n_heads, -1, context, nullptr);
  linear(context, w.out_proj, out);
}

void KVCache::reset(int max_len, int d_model) {
  keys.resize(max_len, d_model);
  values.resize(max_len, d_model);
  length = 0;
}

void decoder_self_attention(const Matrix& x, const AttentionWeights& w, int n_heads, KVCache& cache, Matrix& out) {
  const Eigen::Index t_new = x.rows();
  Matrix q, k, v, context;
  linear(x, w.q_proj, q);  // [T, D]
  linear(x, w.k_proj, k);  // [T, D]
  linear(x, w.v_proj, v);  // [T, D]
  q *= 1.0f / std::sqrt(static_cast<float>(x.cols() / n_heads));
  cache.keys.middleRows(cache.length, t_new) = k;
  cache.values.middleRows(cache.length, t_new) = v;
  const int past = cache.length;
  cache.length += static_cast<int>(t_new);
  attend(q, cache.keys.topRows(cache.length), cache.values.topRows(cache.length), n_heads, past, context, nullptr);
  linear(context, w.out_proj, out);
}

}  // namespace crossattn
