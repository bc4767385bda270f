// Row-wise vector operations of the Transformer, on raw float rows, vectorized with SIMD128
// (kernels/simd128.h). None allocates. Legend: M rows, D d_model, n row length.
#pragma once

namespace crossattn {

/// The non-linearity of the feed-forward network (Vaswani et al. 2017 use relu; BERT-style and
/// Marian models gelu or swish).
enum class Activation { kRelu, kGelu, kSwish };

/// Layer normalization (Ba et al. 2016) of the rows x [M, D] (row stride ldx) into out [M, D]
/// (row stride ldo; out may be x): (x - mean) / sqrt(var + eps) * gamma + beta, with the biased
/// variance, as torch.nn.LayerNorm.
void layer_norm(const float* x, int m, int d, int ldx, const float* gamma, const float* beta, float eps, float* out,
                int ldo);

/// Numerically stable softmax of x [n] in place (subtracts the maximum first).
void softmax(float* x, int n);

/// relu, gelu (erf form, as torch.nn.functional.gelu) or swish (x * sigmoid(x)) of x [n] in place.
void activate(float* x, int n, Activation activation);

/// sum_i a[i] b[i] over n elements.
float dot(const float* a, const float* b, int n);

/// y[i] += alpha x[i] over n elements.
void axpy(float alpha, const float* x, float* y, int n);

/// y[i] += x[i] over n elements.
void add(const float* x, float* y, int n);

/// y[0, n) = x[0, n), the ranges not overlapping: a short row (an attention head's Dk floats) in
/// vector moves, where std::copy_n would call memcpy (Emscripten 3.1.6's: its checks cost more than
/// the move, 2.5% of a greedy translation for the decoder's key and value rows alone).
void copy(const float* x, float* y, int n);

/// log of sum_i exp(x[i]) over n elements, computed stably; with the index of the largest element
/// in *argmax (the first one on ties) when argmax is not null.
float log_sum_exp(const float* x, int n, int* argmax = nullptr);

/// The indices of the k largest of x[0, n) into top[0, count), largest first, the earlier index
/// first on ties, -inf never; returns count (k, or fewer when fewer than k elements are above -inf).
/// One comparison per element, four at a time where none of four beats the k-th best so far: the
/// greedy and beam decoders' selection over the vocabulary (k = 2 beam_size).
int top_k(const float* x, int n, int k, int* top);

/// out [b, a, w] = in [a, b, w] with the two leading axes swapped, e.g. per-step decoder outputs
/// [T, L*H, S] into [L*H, T, S].
void swap_leading_axes(const float* in, int a, int b, int w, float* out);

}  // namespace crossattn
