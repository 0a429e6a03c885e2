// gelu_math.h: GELU (tanh form) with a branch-free tanh the compiler vectorises. Included by each
// ISA translation unit (cpu_isa.h), so the loops compile to that unit's vector width; without
// -ffast-math and in ISO C++ mode (no FMA contraction) every width gives the same bits.
//
// Why not tanhf: glibc's tanhf is a scalar call (~7 ns per element here), which made GELU a
// tenth of a training step. tanh_branchless follows Cephes' tanhf: for |x| < 0.625 its odd
// polynomial, else 1 - 2 / (exp(2|x|) + 1) with Cephes' expf (range reduction by ln 2 in two
// parts, degree-5 polynomial, 2^n by exponent bits). Max error against tanh in double: 2.4e-7
// absolute over [-10, 10] (test_ops "gelu: vectorised tanh"), below the 1e-5 the fixture allows.
#pragma once

#include <math.h>
#include <stdint.h>
#include <string.h>

#define GELU_SCALING_FACTOR 0.7978845608028654f  // sqrt(2 / pi)

static inline float exp_cephes(float x) {  // x in [-88, 88]
  // n = round(x / ln 2) by the 1.5 * 2^23 trick (exact in float arithmetic, no rounding call).
  const float shift = 12582912.0f;
  float fx = (x * 1.44269504088896341f + shift) - shift;
  float r = x - fx * 0.693359375f;
  r = r + fx * 2.12194440e-4f;
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  float y = p * (r * r) + r + 1.0f;
  int32_t bits = ((int32_t)fx + 127) << 23;
  float pow2;
  memcpy(&pow2, &bits, sizeof(pow2));
  return y * pow2;
}

static inline float tanh_branchless(float x) {
  float ax = x < 0.0f ? -x : x;
  float z = x * x;
  float small = ((((-5.70498872745e-3f * z + 2.06390887954e-2f) * z - 5.37397155531e-2f) * z + 1.33314422036e-1f) * z -
                 3.33332819422e-1f) *
                    z * x +
                x;
  // tanh(9) rounds to 1 in float; the clamp keeps exp finite. Every comparison here is written so
  // that a NaN input stays NaN (a NaN compares false): non-finite values must reach the checks of
  // model.cc instead of turning into numbers.
  float clamped = ax > 9.0f ? 9.0f : ax;
  float big = 1.0f - 2.0f / (exp_cephes(2.0f * clamped) + 1.0f);
  big = x < 0.0f ? -big : big;
  return ax < 0.625f ? small : big;
}

static inline void gelu_forward_loop(float* __restrict__ out, const float* __restrict__ inp, int64_t n) {
  for (int64_t i = 0; i < n; i++) {
    float x = inp[i];
    float cube = 0.044715f * x * x * x;
    out[i] = 0.5f * x * (1.0f + tanh_branchless(GELU_SCALING_FACTOR * (x + cube)));
  }
}

static inline void gelu_backward_loop(float* __restrict__ dinp, const float* __restrict__ inp,
                                      const float* __restrict__ dout, int64_t n) {
  for (int64_t i = 0; i < n; i++) {
    float x = inp[i];
    float arg = GELU_SCALING_FACTOR * (x + 0.044715f * x * x * x);
    float th = tanh_branchless(arg);
    float sech2 = 1.0f - th * th;
    float local = 0.5f * (1.0f + th) + x * 0.5f * sech2 * GELU_SCALING_FACTOR * (1.0f + 3.0f * 0.044715f * x * x);
    dinp[i] += local * dout[i];
  }
}

// Softmax of one row of logits (cross-entropy, token log-probabilities): p = softmax(x) over V;
// returns the row's max in *maxval and sum_i exp(x_i - max) in *sum (for the log-sum-exp).
static inline void softmax_row_loop(float* __restrict__ p, const float* __restrict__ x, int V, float* maxval,
                                    float* sum) {
  float mx = -INFINITY;
  for (int i = 0; i < V; i++) mx = x[i] > mx ? x[i] : mx;
  for (int i = 0; i < V; i++) {
    float d = x[i] - mx;
    p[i] = exp_cephes(d < -87.0f ? -87.0f : d);  // NaN (from inf - inf or a NaN logit) stays NaN
  }
  float acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  int j = 0;
  for (; j + 8 <= V; j += 8)
    for (int i = 0; i < 8; i++) acc[i] += p[j + i];
  float s = ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
  for (; j < V; j++) s += p[j];
  float inv = 1.0f / s;
  for (int i = 0; i < V; i++) p[i] *= inv;
  *maxval = mx;
  *sum = s;
}

// Attention rows (ops.h: causal softmax over columns 0..len-1 of a row of T).
// Forward: w[0..len) holds q.k_j; becomes softmax(w * scale); w[len..T) = 0.
static inline void softmax_causal_row_loop(float* __restrict__ w, int len, int T, float scale) {
  float mx = -INFINITY;
  for (int j = 0; j < len; j++) {
    float s = w[j] * scale;
    w[j] = s;
    mx = s > mx ? s : mx;
  }
  for (int j = 0; j < len; j++) {
    float d = w[j] - mx;
    w[j] = exp_cephes(d < -87.0f ? -87.0f : d);  // exp(-87) ~ 1.6e-38: as good as 0 in the sum; NaN stays
  }
  float acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};  // 8 partial sums in a fixed order, as dot() in ops_cpu.cc
  int j = 0;
  for (; j + 8 <= len; j += 8)
    for (int i = 0; i < 8; i++) acc[i] += w[j + i];
  float sum = ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
  for (; j < len; j++) sum += w[j];
  float inv = 1.0f / sum;
  for (int i = 0; i < len; i++) w[i] *= inv;
  for (int i = len; i < T; i++) w[i] = 0.0f;
}

// Backward: dp[0..len) holds d(loss)/d(att[t, j]) and p the softmax weights; dp becomes the
// gradient of the pre-softmax scores, p * (dp - sum_j p dp) * scale; dp[len..T) = 0.
static inline void softmax_causal_row_backward_loop(float* __restrict__ dp, const float* __restrict__ p, int len,
                                                    int T, float scale) {
  float acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  int j = 0;
  for (; j + 8 <= len; j += 8)
    for (int i = 0; i < 8; i++) acc[i] += p[j + i] * dp[j + i];
  float s = ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
  for (; j < len; j++) s += p[j] * dp[j];
  for (int i = 0; i < len; i++) dp[i] = p[i] * (dp[i] - s) * scale;
  for (int i = len; i < T; i++) dp[i] = 0.0f;
}
