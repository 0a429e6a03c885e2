// gemm.cuh: the backend's own tiled fp32 product over strided views (matmul.cu), for the ops that
// are products under another name: the linear layers (matmul.cu) and the frame projection
// (encoder.cu), whose rows are only the batch's frame slots.
#pragma once

#include "common.cuh"

// C (+)= A B (+ bias), A M x K, B K x N, C M x N, each a strided view.
struct GemmView {
  int M, N, K;
  const float* A;
  int64_t a_rs, a_cs;  // A(i, k) = A[i * a_rs + k * a_cs]
  const float* B;
  int64_t b_rs, b_cs;  // B(k, j) = B[k * b_rs + j * b_cs]
  float* C;
  int64_t ldc;         // C(i, j) = C[i * ldc + j]
  const float* bias;   // [N] added to every written row, or NULL
  int accumulate;      // 1: C += A B (+ bias), 0: C = A B (+ bias)
  // Frame-slot masks (token ids, FRAME_TOKEN marks a slot), or NULL for none:
  const int* m_frames;  // only rows i with m_frames[i] == FRAME_TOKEN are written
  const int* k_frames;  // only k with k_frames[k] == FRAME_TOKEN contribute (A and B read as 0 elsewhere)
};

void gemm(const GemmView& g);
// out[c] += sum over rows n of in[n, c] (only rows with frame_rows[n] == FRAME_TOKEN unless NULL).
void column_sum(float* out, const float* in, int N, int C, const int* frame_rows);
