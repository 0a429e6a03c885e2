// matmul.cu: the linear layers' products (ops.h, "matmul") through one tiled fp32 product over
// strided views, C (+)= A B (+ bias), the CUDA counterpart of the CPU's GemmArgs (cpu_isa.h).
//
// Why not cuBLAS: the machines that build and test this code (CI) have nvcc and cudart but no
// cuBLAS, and the host emulation (cuda_emu.h) can only run kernels we write. A 64x64 tile with a
// 4x4 register block per thread in fp32 keeps the parity with the CPU reference exact in kind (no
// TF32); the device benchmark says what it costs against cuBLAS (PyTorch uses it).
#include "common.cuh"

struct GemmView {
  int M, N, K;
  const float* A;
  int64_t a_rs, a_cs;  // A(i, k) = A[i * a_rs + k * a_cs]
  const float* B;
  int64_t b_rs, b_cs;  // B(k, j) = B[k * b_rs + j * b_cs]
  float* C;
  int64_t ldc;         // C(i, j) = C[i * ldc + j]
  const float* bias;   // [N] or NULL
  int accumulate;      // 1: C += A B, 0: C = A B (+ bias)
};

#define TILE 64
#define TK 16

__global__ void __launch_bounds__(256) gemm_kernel(GemmView g) {
  __shared__ float As[TK][TILE + 1];
  __shared__ float Bs[TK][TILE + 1];
  int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  int m0 = blockIdx.y * TILE, n0 = blockIdx.x * TILE;
  float acc[4][4];
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++) acc[i][j] = 0.0f;
  // Load order follows the contiguous dimension of each view, so a warp reads consecutive floats.
  bool a_k_fast = g.a_cs == 1, b_n_fast = g.b_cs == 1;
  for (int k0 = 0; k0 < g.K; k0 += TK) {
    for (int e = threadIdx.x; e < TILE * TK; e += 256) {
      int mm = a_k_fast ? e / TK : e % TILE, kk = a_k_fast ? e % TK : e / TILE;
      int m = m0 + mm, k = k0 + kk;
      As[kk][mm] = (m < g.M && k < g.K) ? g.A[m * g.a_rs + k * g.a_cs] : 0.0f;
      int nn = b_n_fast ? e % TILE : e / TK, kb = b_n_fast ? e / TILE : e % TK;
      int n = n0 + nn, k2 = k0 + kb;
      Bs[kb][nn] = (n < g.N && k2 < g.K) ? g.B[k2 * g.b_rs + n * g.b_cs] : 0.0f;
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
    if (m >= g.M) continue;
    for (int j = 0; j < 4; j++) {
      int n = n0 + tx + 16 * j;
      if (n >= g.N) continue;
      float* c = g.C + m * g.ldc + n;
      float v = acc[i][j];
      if (g.accumulate) v += *c;
      else if (g.bias) v += g.bias[n];
      *c = v;
    }
  }
}

static void gemm(const GemmView& g) {
  dim3 grid(ceil_div(g.N, TILE), ceil_div(g.M, TILE));
  LAUNCH(gemm_kernel, grid, 256, 0, g);
  LAUNCH_CHECK(gemm_kernel);
}

// dbias[o] += sum_n dout[n, o]: 32 columns x 8 row lanes per block, COL_ROWS rows, one atomicAdd
// per column and block.
#define COL_ROWS 256
__global__ void column_sum_kernel(float* out, const float* in, int N, int C) {
  __shared__ float part[8][33];
  int c = blockIdx.x * 32 + threadIdx.x;
  int64_t n0 = (int64_t)blockIdx.y * COL_ROWS, n1 = n0 + COL_ROWS < N ? n0 + COL_ROWS : N;
  float acc = 0.0f;
  if (c < C)
    for (int64_t n = n0 + threadIdx.y; n < n1; n += 8) acc += in[n * C + c];
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
    gemv_kernel(float* out, const float* inp, const float* w, const float* bias, int N, int IC, int OC) {
  int lane = threadIdx.x % 32;
  int j = blockIdx.x * GEMV_WARPS + threadIdx.x / 32;
  if (j >= OC) return;  // whole warps
  const float* wj = w + (int64_t)j * IC;
  float acc[GEMV_MAX_ROWS];
UNROLL
  for (int n = 0; n < GEMV_MAX_ROWS; n++) acc[n] = 0.0f;
  for (int k = lane; k < IC; k += 32) {
    float wk = wj[k];
UNROLL
    for (int n = 0; n < GEMV_MAX_ROWS; n++)
      if (n < N) acc[n] += wk * inp[(int64_t)n * IC + k];
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
    LAUNCH(gemv_kernel, ceil_div(OC, GEMV_WARPS), GEMV_WARPS * 32, 0, out, inp, weight, bias, N, IC, OC);
    LAUNCH_CHECK(gemv_kernel);
    return;
  }
  // out = inp @ W^T: B(k, j) = W[j, k].
  gemm(GemmView{N, OC, IC, inp, IC, 1, weight, 1, IC, out, OC, bias, 0});
}

void matmul_backward_cuda(float* dinp, float* dweight, float* dbias, const float* dout, const float* inp,
                          const float* weight, int N, int IC, int OC) {
  // dinp[N, IC] += dout[N, OC] @ W[OC, IC]
  gemm(GemmView{N, IC, OC, dout, OC, 1, weight, IC, 1, dinp, IC, NULL, 1});
  // dW[OC, IC] += dout^T @ inp: A(o, n) = dout[n, o]; k runs over the N rows.
  gemm(GemmView{OC, IC, N, dout, 1, OC, inp, IC, 1, dweight, IC, NULL, 1});
  if (dbias == NULL) return;
  dim3 grid(ceil_div(OC, 32), ceil_div(N, COL_ROWS)), block(32, 8);
  LAUNCH(column_sum_kernel, grid, block, 0, dbias, dout, N, OC);
  LAUNCH_CHECK(column_sum_kernel);
}
