// cpu_portable.cc: the CpuIsa table in plain C++ for any CPU (ARM, x86-64 without AVX2, other
// compilers): the same tile code over one-lane "vectors" (the compiler vectorises what it can for
// the baseline target) and a * b + c without contraction instead of FMA.
#include "cpu_isa.h"
#include "isa_math.h"

namespace isa_portable {

struct V {
  typedef float t;
  typedef bool mask;
  static const int W = 1;
  static inline mask lanes(int n) { return n > 0; }
  static inline t load(const float* p) { return *p; }
  static inline t loadm(const float* p, mask m) { return m ? *p : 0.0f; }
  static inline void store(float* p, t x) { *p = x; }
  static inline void storem(float* p, mask m, t x) {
    if (m) *p = x;
  }
  static inline t zero() { return 0.0f; }
  static inline t set1(float x) { return x; }
  static inline t add(t a, t b) { return a + b; }
  static inline t fma(t a, t b, t c) { return a * b + c; }
  static inline float hsum(t x) { return x; }
};
static const int MR = 4;
static const int NV = 8;

#include "cpu_gemm.inc"

static const CpuIsa kTable = {"portable", MR, NR, gemm_block, gelu_forward, gelu_backward, gemv_rows, softmax_row,
                                softmax_causal_row, softmax_causal_row_backward};

}  // namespace isa_portable

const CpuIsa* cpu_isa_portable_table(void) { return &isa_portable::kTable; }
