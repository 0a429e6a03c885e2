// cpu_avx512.cc: the CpuIsa table for AVX-512 (F + VL + DQ): 16 lanes, masked loads for the last
// columns. Compiled for AVX-512 by the target pragma below (GCC, x86-64 only), so the rest of the
// addon stays baseline x86-64; cpu_isa.cc calls it only when cpuid reports AVX-512F.
#include "cpu_isa.h"

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#pragma GCC push_options
#pragma GCC target("avx512f,avx512vl,avx512dq,avx2,fma")
#include <immintrin.h>

#include "isa_math.h"

namespace isa_avx512 {

struct V {
  typedef __m512 t;
  typedef __mmask16 mask;
  static const int W = 16;
  static inline mask lanes(int n) { return (mask)(n >= 16 ? 0xFFFF : (1u << n) - 1); }
  static inline t load(const float* p) { return _mm512_loadu_ps(p); }
  static inline t loadm(const float* p, mask m) { return _mm512_maskz_loadu_ps(m, p); }
  static inline void store(float* p, t x) { _mm512_storeu_ps(p, x); }
  static inline void storem(float* p, mask m, t x) { _mm512_mask_storeu_ps(p, m, x); }
  static inline t zero() { return _mm512_setzero_ps(); }
  static inline t set1(float x) { return _mm512_set1_ps(x); }
  static inline t add(t a, t b) { return _mm512_add_ps(a, b); }
  static inline t fma(t a, t b, t c) { return _mm512_fmadd_ps(a, b, c); }
  static inline float hsum(t x) {  // halves added pairwise: 16 -> 8 -> 4 -> 2 -> 1
    __m256 h = _mm256_add_ps(_mm512_extractf32x8_ps(x, 0), _mm512_extractf32x8_ps(x, 1));
    __m128 q = _mm_add_ps(_mm256_castps256_ps128(h), _mm256_extractf128_ps(h, 1));
    q = _mm_add_ps(q, _mm_movehl_ps(q, q));
    q = _mm_add_ss(q, _mm_shuffle_ps(q, q, 1));
    return _mm_cvtss_f32(q);
  }
};
// 12 x 32: 24 accumulators + 2 loads of B + 1 broadcast of the 32 zmm registers.
static const int MR = 12;
static const int NV = 2;

#include "cpu_gemm.inc"

static const CpuIsa kTable = {"avx512", MR, NR, gemm_block, gelu_forward, gelu_backward, gemv_rows, softmax_row,
                                softmax_causal_row, softmax_causal_row_backward};

}  // namespace isa_avx512

#pragma GCC pop_options
const CpuIsa* cpu_isa_avx512_table(void) { return &isa_avx512::kTable; }
#else
const CpuIsa* cpu_isa_avx512_table(void) { return nullptr; }
#endif
