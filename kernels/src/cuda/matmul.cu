// matmul.cu: the linear layers' products (ops.h, "matmul"): cuBLAS where a libcublas loads at run
// time (cublas.cu), else one tiled fp32 product over strided views of our own, C (+)= A B (+ bias),
// the CUDA counterpart of the CPU's GemmArgs (cpu_isa.h). Decoding's few rows (N <= 8) always take
// the warp-per-channel gemv below: reading W once is the whole cost there.
//
// The own kernel exists because the machines that build and test this code (CI) have nvcc and
// cudart but no cuBLAS, and the host emulation (cuda_emu.h) can only run kernels we write: a 64x64
// tile with a 4x4 register block per thread in fp32 (no TF32, like the CPU reference). Products
// with few output tiles and a long k (the weight gradients: k = B*T rows) split k over the grid's
// z and add their partial sums atomically, so the grid fills the device.
#include <string.h>

#include "cublas.h"
#include "gemm.cuh"
#include "matmul_precision.h"

static int g_precision = MATMUL_FP32;
int matmul_precision(void) { return g_precision; }
void matmul_set_precision(int precision) { g_precision = precision; }
int matmul_precision_parse(const char* name) {
  return strcmp(name, "fp32") == 0 ? MATMUL_FP32 : strcmp(name, "tf32") == 0 ? MATMUL_TF32
                                               : strcmp(name, "bf16") == 0   ? MATMUL_BF16
                                                                             : -1;
}
const char* matmul_precision_name(int precision) {
  return precision == MATMUL_BF16 ? "bf16" : precision == MATMUL_TF32 ? "tf32" : "fp32";
}

// An operand as the tensor cores take it in the precision's format: the mantissa rounded to
// nearest even at 7 (bf16) or 10 (tf32) bits, the exponent unchanged; Inf and NaN pass through.
__device__ __forceinline__ float round_operand(float x, int precision) {
  if (precision == MATMUL_FP32) return x;
  unsigned u = __float_as_uint(x);
  if ((u & 0x7f800000u) == 0x7f800000u) return x;
  int drop = precision == MATMUL_BF16 ? 16 : 13;
  u += ((1u << (drop - 1)) - 1u) + ((u >> drop) & 1u);
  return __uint_as_float(u & ~((1u << drop) - 1u));
}

#define TILE 64
#define TK 16

__global__ void __launch_bounds__(256) gemm_kernel(GemmView g, int precision) {
  __shared__ float As[TK][TILE + 1];
  __shared__ float Bs[TK][TILE + 1];
  int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  int m0 = blockIdx.y * TILE, n0 = blockIdx.x * TILE;
  float acc[4][4];
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++) acc[i][j] = 0.0f;
  // Load order follows the contiguous dimension of each view, so a warp reads consecutive floats.
  bool a_k_fast = g.a_cs == 1, b_n_fast = g.b_cs == 1;
  // This block's share of k (split-k: gridDim.z > 1 only when accumulating; whole TK steps).
  int k_steps = (g.K + TK - 1) / TK, k_per = (k_steps + (int)gridDim.z - 1) / (int)gridDim.z * TK;
  int k_begin = blockIdx.z * k_per, k_end = k_begin + k_per < g.K ? k_begin + k_per : g.K;
  for (int k0 = k_begin; k0 < k_end; k0 += TK) {
    for (int e = threadIdx.x; e < TILE * TK; e += 256) {
      int mm = a_k_fast ? e / TK : e % TILE, kk = a_k_fast ? e % TK : e / TILE;
      int m = m0 + mm, k = k0 + kk;
      bool ka = k < k_end && (g.k_frames == NULL || g.k_frames[k] == FRAME_TOKEN);
      As[kk][mm] = (m < g.M && ka) ? round_operand(g.A[m * g.a_rs + k * g.a_cs], precision) : 0.0f;
      int nn = b_n_fast ? e % TILE : e / TK, kb = b_n_fast ? e / TILE : e % TK;
      int n = n0 + nn, k2 = k0 + kb;
      bool kb_ok = k2 < k_end && (g.k_frames == NULL || g.k_frames[k2] == FRAME_TOKEN);
      Bs[kb][nn] = (n < g.N && kb_ok) ? round_operand(g.B[k2 * g.b_rs + n * g.b_cs], precision) : 0.0f;
    }
    __syncthreads();
    for (int kk = 0; kk < TK; kk++) {
      float a[4], b[4];
      for (int i = 0; i < 4; i++) a[i] = As[kk][ty + 16 * i];
      for (int j = 0; j < 4; j++) b[j] = Bs[kk][tx + 16 * j];
      for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) acc[i][j] += a[i] * b[j];
    }
    __syncthreads();
  }
  for (int i = 0; i < 4; i++) {
    int m = m0 + ty + 16 * i;
    if (m >= g.M || (g.m_frames != NULL && g.m_frames[m] != FRAME_TOKEN)) continue;
    for (int j = 0; j < 4; j++) {
      int n = n0 + tx + 16 * j;
      if (n >= g.N) continue;
      float* c = g.C + m * g.ldc + n;
      float v = acc[i][j];
      if (g.bias != NULL && blockIdx.z == 0) v += g.bias[n];
      if (gridDim.z > 1) atomicAdd(c, v);
      else if (g.accumulate) *c += v;
      else *c = v;
    }
  }
}

// Blocks that keep an H100/H200 (132 multiprocessors) busy: below this, an accumulating product
// splits k, each share at least SPLIT_MIN_K long so the atomics stay a small part of the work.
#define FILL_BLOCKS 264
#define SPLIT_MIN_K 256

void gemm(const GemmView& g) {
  dim3 grid(ceil_div(g.N, TILE), ceil_div(g.M, TILE), 1);
  int tiles = (int)(grid.x * grid.y);
  if (g.accumulate && tiles < FILL_BLOCKS && g.K >= 2 * SPLIT_MIN_K) {
    int by_fill = ceil_div(FILL_BLOCKS, tiles), by_k = g.K / SPLIT_MIN_K;
    grid.z = by_fill < by_k ? by_fill : by_k;
  }
  LAUNCH(gemm_kernel, grid, 256, 0, g, g_precision);
  LAUNCH_CHECK(gemm_kernel);
}

// out[n, :] = bias, the starting value of cuBLAS's C += inp W^T (beta = 1).
__global__ void bias_rows_kernel(float* out, const float* bias, int N, int OC) {
  int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < (int64_t)N * OC) out[idx] = bias[idx % OC];
}

// dbias[o] += sum_n dout[n, o]: 32 columns x 8 row lanes per block, COL_ROWS rows, one atomicAdd
// per column and block.
#define COL_ROWS 256
__global__ void column_sum_kernel(float* out, const float* in, int N, int C, const int* frame_rows) {
  __shared__ float part[8][33];
  int c = blockIdx.x * 32 + threadIdx.x;
  int64_t n0 = (int64_t)blockIdx.y * COL_ROWS, n1 = n0 + COL_ROWS < N ? n0 + COL_ROWS : N;
  float acc = 0.0f;
  if (c < C)
    for (int64_t n = n0 + threadIdx.y; n < n1; n += 8)
      if (frame_rows == NULL || frame_rows[n] == FRAME_TOKEN) acc += in[n * C + c];
  part[threadIdx.y][threadIdx.x] = acc;
  __syncthreads();
  if (threadIdx.y == 0 && c < C) {
    float s = 0.0f;
    for (int i = 0; i < 8; i++) s += part[i][threadIdx.x];
    atomicAdd(&out[c], s);
  }
}

// Decoding multiplies a few rows (one position per sequence) by each weight matrix: a product
// bound by reading W once. A warp per output channel j reads W's row j with coalesced loads and
// keeps one partial sum per input row; a 64-row tile would leave most of its threads idle.
#define GEMV_MAX_ROWS 8
#define GEMV_WARPS 8
__global__ void __launch_bounds__(GEMV_WARPS * 32)
    gemv_kernel(float* out, const float* inp, const float* w, const float* bias, int N, int IC, int OC, int precision) {
  int lane = threadIdx.x % 32;
  int j = blockIdx.x * GEMV_WARPS + threadIdx.x / 32;
  if (j >= OC) return;  // whole warps
  const float* wj = w + (int64_t)j * IC;
  float acc[GEMV_MAX_ROWS];
UNROLL
  for (int n = 0; n < GEMV_MAX_ROWS; n++) acc[n] = 0.0f;
  for (int k = lane; k < IC; k += 32) {
    float wk = round_operand(wj[k], precision);
UNROLL
    for (int n = 0; n < GEMV_MAX_ROWS; n++)
      if (n < N) acc[n] += wk * round_operand(inp[(int64_t)n * IC + k], precision);
  }
UNROLL
  for (int n = 0; n < GEMV_MAX_ROWS; n++) {
    if (n >= N) break;  // N is the same for the whole warp
    float s = warp_sum(acc[n]);
    if (lane == 0) out[(int64_t)n * OC + j] = s + (bias ? bias[j] : 0.0f);
  }
}

void matmul_forward_cuda(float* out, const float* inp, const float* weight, const float* bias, int N, int IC, int OC) {
  if (N <= GEMV_MAX_ROWS) {
    LAUNCH(gemv_kernel, ceil_div(OC, GEMV_WARPS), GEMV_WARPS * 32, 0, out, inp, weight, bias, N, IC, OC,
           g_precision);
    LAUNCH_CHECK(gemv_kernel);
    return;
  }
  if (cublas_active()) {
    // Row-major out[N,OC] = inp[N,IC] W[OC,IC]^T is column-major out^T (OC x N) = W^T inp^T, where
    // the column-major views of W and inp are IC x OC and IC x N: op(A) = T, op(B) = N.
    if (bias) {
      LAUNCH(bias_rows_kernel, ceil_div((int64_t)N * OC, BLOCK), BLOCK, 0, out, bias, N, OC);
      LAUNCH_CHECK(bias_rows_kernel);
    }
    cublas_sgemm(true, false, OC, N, IC, weight, IC, inp, IC, bias ? 1.0f : 0.0f, out, OC, g_precision);
    return;
  }
  // out = inp @ W^T: B(k, j) = W[j, k].
  gemm(GemmView{N, OC, IC, inp, IC, 1, weight, 1, IC, out, OC, bias, 0, NULL, NULL});
}

void matmul_backward_cuda(float* dinp, float* dweight, float* dbias, const float* dout, const float* inp,
                          const float* weight, int N, int IC, int OC) {
  if (cublas_active()) {
    // Column-major: dinp^T (IC x N) += W^T (IC x OC, W's own view) dout^T (OC x N, dout's view);
    // dW^T (IC x OC) += inp^T (IC x N, inp's view) dout (dout's view OC x N, transposed).
    cublas_sgemm(false, false, IC, N, OC, weight, IC, dout, OC, 1.0f, dinp, IC, g_precision);
    cublas_sgemm(false, true, IC, OC, N, inp, IC, dout, OC, 1.0f, dweight, IC, g_precision);
  } else {
    // dinp[N, IC] += dout[N, OC] @ W[OC, IC]
    gemm(GemmView{N, IC, OC, dout, OC, 1, weight, IC, 1, dinp, IC, NULL, 1, NULL, NULL});
    // dW[OC, IC] += dout^T @ inp: A(o, n) = dout[n, o]; k runs over the N rows.
    gemm(GemmView{OC, IC, N, dout, 1, OC, inp, IC, 1, dweight, IC, NULL, 1, NULL, NULL});
  }
  if (dbias != NULL) column_sum(dbias, dout, N, OC, NULL);
}

void column_sum(float* out, const float* in, int N, int C, const int* frame_rows) {
  dim3 grid(ceil_div(C, 32), ceil_div(N, COL_ROWS)), block(32, 8);
  LAUNCH(column_sum_kernel, grid, block, 0, out, in, N, C, frame_rows);
  LAUNCH_CHECK(column_sum_kernel);
}
