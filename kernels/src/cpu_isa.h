// cpu_isa.h: the vectorised inner loops of the CPU backend, one implementation per instruction set.
//
// Design. The ops of ops_cpu.cc own the threading and the data layout; what dominates a training
// step (the matrix products of every linear layer and the GELU) runs through a CpuIsa table picked
// once at start-up: AVX-512, AVX2+FMA or portable C++, from the CPU's features (cpuid), or forced
// with PARAVT_CPU_ISA=avx512|avx2|portable (tests run every ISA the machine has against the plain
// loops of the reference). Each ISA is its own translation unit compiled for that instruction set
// (cpu_avx512.cc, cpu_avx2.cc), so the addon still runs on any x86-64 CPU and elsewhere.
//
// The product is the register-blocked outer-product form of BLIS / llm.c's matmul_forward:
//   C(r, j) (+)= sum_k A(r, k) * B(k, j),  A(r, k) = a[r*a_rs + k*a_ks],  B(k, j) = b[k*b_ks + j],
// a tile of MR rows x NR columns of C in registers, one broadcast of A and NR/lanes loads of B per
// k. The strides let one kernel serve the three products of a linear layer without copying A:
// out = inp @ W^T (B = W^T, packed once per call), dinp += dout @ W, dW += dout^T @ inp.
// Each element of C is one pass over k = 0..K-1 in order, whatever the tile, the block or the
// thread that computes it, so results are bit-identical for any thread count (threadpool.h).
#pragma once

#include <stdint.h>

struct GemmArgs {
  int M, N, K;
  const float* a;
  int64_t a_rs, a_ks;
  const float* b;  // B(k, j) for j = 0..N-1 contiguous
  int64_t b_ks;
  float* c;  // C(r, j) = c[r*ldc + j]
  int64_t ldc;
  const float* bias;  // NULL or [N], added to each row of the product
  int accumulate;     // 0: C = A*B + bias; 1: C = C + (A*B + bias)
};

struct CpuIsa {
  const char* name;  // "avx512", "avx2" or "portable"
  int mr, nr;        // register tile of the product: rows x columns
  // The block rows [r0, r1) x columns [c0, c1) of the product (one chunk of parallel_for).
  void (*gemm_block)(const GemmArgs* g, int r0, int r1, int c0, int c1);
  // Elementwise GELU (tanh form, GPT-2), bit-identical across ISAs: the same scalar formula
  // (isa_math.h) vectorised by the compiler, without FMA contraction (ISO C++ mode).
  void (*gelu_forward)(float* out, const float* inp, int64_t n);
  void (*gelu_backward)(float* dinp, const float* inp, const float* dout, int64_t n);
  // y[j] = x . w[j*ldw ..] (+ bias[j]) for j in [j0, j1): the product for a few rows (decoding).
  void (*gemv_rows)(float* y, const float* x, const float* w, int64_t ldw, int K, const float* bias, int j0, int j1);
  // Softmax of one row of logits; the row's max and sum of exp(x - max) for the log-sum-exp.
  void (*softmax_row)(float* p, const float* x, int V, float* maxval, float* sum);
  // One row of causal attention's softmax and its backward (isa_math.h).
  void (*softmax_causal_row)(float* w, int len, int T, float scale);
  void (*softmax_causal_row_backward)(float* dp, const float* p, int len, int T, float scale);
};

// The ISA the ops use (chosen on first call; PARAVT_CPU_ISA overrides, and asking for an ISA the
// CPU lacks falls back to the best one it has, reported by cpu_isa_note()).
const CpuIsa* cpu_isa(void);
// A specific ISA, or NULL when this build or this CPU does not have it (tests compare them all).
const CpuIsa* cpu_isa_named(const char* name);
// Why the active ISA was chosen, e.g. "avx512 (cpuid)" or "avx2 (PARAVT_CPU_ISA; no avx512)".
const char* cpu_isa_note(void);
// Forces the ISA ops use (tests); returns 0 when the CPU lacks it.
int cpu_isa_set(const char* name);

// Entry points of the ISA translation units (NULL when not compiled for this target).
const CpuIsa* cpu_isa_avx512_table(void);
const CpuIsa* cpu_isa_avx2_table(void);
const CpuIsa* cpu_isa_portable_table(void);
