// cublas.h: the run-time loaded cuBLAS of cublas.cu, for matmul.cu.
#pragma once

#include <stddef.h>

// Loads libcublas once (later calls return the first answer) and describes the matmul path in
// `description`: "cuBLAS x.y.z (library), fp32" or "own fp32 tiles (why not cuBLAS)".
bool cublas_load(char* description, size_t len);
// Whether matmul.cu should call cublas_sgemm: loaded and not turned off by cublas_enable(false).
bool cublas_active(void);
// Tests switch between cuBLAS and the own kernel to check both against the CPU reference.
void cublas_enable(bool on);
// C = op(A) op(B) + beta C, column-major (cuBLAS's convention; matmul.cu maps the row-major views),
// fp32 operands and result, computed in the given matmul precision (matmul_precision.h).
void cublas_sgemm(bool trans_a, bool trans_b, int m, int n, int k, const float* A, int lda, const float* B, int ldb,
                  float beta, float* C, int ldc, int precision);
