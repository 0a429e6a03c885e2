// cpu_avx2.cc: the CpuIsa table for AVX2 + FMA: 8 lanes, vmaskmov for the last columns. Compiled
// for AVX2 by the target pragma below (GCC, x86-64 only); cpu_isa.cc calls it only when cpuid
// reports AVX2 and FMA.
#include "cpu_isa.h"

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#pragma GCC push_options
#pragma GCC target("avx2,fma")
#include <immintrin.h>

#include "isa_math.h"

namespace isa_avx2 {

struct V {
  typedef __m256 t;
  typedef __m256i mask;
  static const int W = 8;
  static inline mask lanes(int n) {
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  }
  static inline t load(const float* p) { return _mm256_loadu_ps(p); }
  static inline t loadm(const float* p, mask m) { return _mm256_maskload_ps(p, m); }
  static inline void store(float* p, t x) { _mm256_storeu_ps(p, x); }
  static inline void storem(float* p, mask m, t x) { _mm256_maskstore_ps(p, m, x); }
  static inline t zero() { return _mm256_setzero_ps(); }
  static inline t set1(float x) { return _mm256_set1_ps(x); }
  static inline t add(t a, t b) { return _mm256_add_ps(a, b); }
  static inline t fma(t a, t b, t c) { return _mm256_fmadd_ps(a, b, c); }
  static inline float hsum(t x) {  // halves added pairwise: 8 -> 4 -> 2 -> 1
    __m128 q = _mm_add_ps(_mm256_castps256_ps128(x), _mm256_extractf128_ps(x, 1));
    q = _mm_add_ps(q, _mm_movehl_ps(q, q));
    q = _mm_add_ss(q, _mm_shuffle_ps(q, q, 1));
    return _mm_cvtss_f32(q);
  }
};
// 6 x 16 (BLIS' Haswell kernel): 12 accumulators + 2 loads of B + 1 broadcast of the 16 ymm.
static const int MR = 6;
static const int NV = 2;

#include "cpu_gemm.inc"

static const CpuIsa kTable = {"avx2", MR, NR, gemm_block, gelu_forward, gelu_backward, gemv_rows, softmax_row,
                                softmax_causal_row, softmax_causal_row_backward};

}  // namespace isa_avx2

#pragma GCC pop_options
const CpuIsa* cpu_isa_avx2_table(void) { return &isa_avx2::kTable; }
#else
const CpuIsa* cpu_isa_avx2_table(void) { return nullptr; }
#endif
