// matmul_precision.h: the precision of the backend's products (the linear layers, the frame
// projection and the tied output head; attention, norms and the loss stay fp32 throughout).
//
//   fp32 (default)  fp32 operands and accumulator: the CPU reference's arithmetic, parity <= 1e-4.
//   tf32            operands rounded to TF32 (10 mantissa bits) on the tensor cores, fp32 accumulator.
//   bf16            operands rounded to bfloat16 (7 mantissa bits), fp32 accumulator: the bf16
//                   mixed-precision mode. Parameters, gradients, AdamW state and activations stay
//                   fp32 (the fp32 master weights); only the products' inputs are rounded.
// Chosen once per process by PARAVT_MATMUL_PRECISION=fp32|tf32|bf16 (backend_cuda.cu); cuBLAS
// computes tf32/bf16 with CUBLAS_COMPUTE_32F_FAST_TF32/_16BF, the own kernels round each operand
// as they load it (round to nearest even), so the host emulation has the same arithmetic.
#pragma once

enum { MATMUL_FP32 = 0, MATMUL_TF32 = 1, MATMUL_BF16 = 2 };

int matmul_precision(void);
void matmul_set_precision(int precision);
// "fp32", "tf32", "bf16"; -1 for any other name.
int matmul_precision_parse(const char* name);
const char* matmul_precision_name(int precision);
