// layernorm.cu: LayerNorm over C, eps 1e-5 (ops.h, "layernorm"). One warp per row; the mean and
// variance in double as in the CPU reference (a row of small variance amplifies their rounding).
#include "common.cuh"

#define ROWS_PER_BLOCK (BLOCK / 32)

__global__ void layernorm_forward_kernel(float* out, float* mean, float* rstd, const float* inp, const float* weight,
                                         const float* bias, int N, int C) {
  int lane = threadIdx.x % 32;
  int64_t n = (int64_t)blockIdx.x * ROWS_PER_BLOCK + threadIdx.x / 32;
  if (n >= N) return;  // whole warps leave together: the shuffles below see full warps
  const float* x = inp + n * C;
  double s = 0.0;
  for (int i = lane; i < C; i += 32) s += x[i];
  double md = warp_sum_d(s) / C;
  double v = 0.0;
  for (int i = lane; i < C; i += 32) {
    double d = x[i] - md;
    v += d * d;
  }
  double vd = warp_sum_d(v) / C;
  float m = (float)md, r = (float)(1.0 / sqrt(vd + 1e-5f));
  float* o = out + n * C;
  for (int i = lane; i < C; i += 32) o[i] = (r * (x[i] - m)) * weight[i] + bias[i];
  if (lane == 0) {
    mean[n] = m;
    rstd[n] = r;
  }
}

__global__ void layernorm_backward_dinp_kernel(float* dinp, const float* dout, const float* inp, const float* weight,
                                               const float* mean, const float* rstd, int N, int C) {
  int lane = threadIdx.x % 32;
  int64_t n = (int64_t)blockIdx.x * ROWS_PER_BLOCK + threadIdx.x / 32;
  if (n >= N) return;
  const float* g = dout + n * C;
  const float* x = inp + n * C;
  float m = mean[n], r = rstd[n];
  float dmean = 0.0f, dnorm_mean = 0.0f;
  for (int i = lane; i < C; i += 32) {
    float norm = (x[i] - m) * r, dnorm = weight[i] * g[i];
    dmean += dnorm;
    dnorm_mean += dnorm * norm;
  }
  dmean = warp_sum(dmean) / C;
  dnorm_mean = warp_sum(dnorm_mean) / C;
  float* d = dinp + n * C;
  for (int i = lane; i < C; i += 32) {
    float norm = (x[i] - m) * r, dnorm = weight[i] * g[i];
    d[i] += (dnorm - dmean - norm * dnorm_mean) * r;
  }
}

// dweight[c] += sum_n norm[n, c] dout[n, c], dbias[c] += sum_n dout[n, c]: a block of 32 columns x
// 8 row lanes sums COL_ROWS rows, reduces its lanes in shared memory, then adds once per column.
#define COL_ROWS 256
__global__ void layernorm_backward_params_kernel(float* dweight, float* dbias, const float* dout, const float* inp,
                                                 const float* mean, const float* rstd, int N, int C) {
  __shared__ float sw[8][33], sb[8][33];
  int c = blockIdx.x * 32 + threadIdx.x;
  int64_t n0 = (int64_t)blockIdx.y * COL_ROWS, n1 = n0 + COL_ROWS < N ? n0 + COL_ROWS : N;
  float accw = 0.0f, accb = 0.0f;
  if (c < C) {
    for (int64_t n = n0 + threadIdx.y; n < n1; n += 8) {
      float g = dout[n * C + c];
      accb += g;
      accw += (inp[n * C + c] - mean[n]) * rstd[n] * g;
    }
  }
  sw[threadIdx.y][threadIdx.x] = accw;
  sb[threadIdx.y][threadIdx.x] = accb;
  __syncthreads();
  if (threadIdx.y == 0 && c < C) {
    float w = 0.0f, b = 0.0f;
    for (int i = 0; i < 8; i++) w += sw[i][threadIdx.x], b += sb[i][threadIdx.x];
    atomicAdd(&dweight[c], w);
    atomicAdd(&dbias[c], b);
  }
}

void layernorm_forward_cuda(float* out, float* mean, float* rstd, const float* inp, const float* weight,
                            const float* bias, int N, int C) {
  LAUNCH(layernorm_forward_kernel, ceil_div(N, ROWS_PER_BLOCK), BLOCK, 0, out, mean, rstd, inp, weight, bias, N, C);
  LAUNCH_CHECK(layernorm_forward_kernel);
}

void layernorm_backward_cuda(float* dinp, float* dweight, float* dbias, const float* dout, const float* inp,
                             const float* weight, const float* mean, const float* rstd, int N, int C) {
  LAUNCH(layernorm_backward_dinp_kernel, ceil_div(N, ROWS_PER_BLOCK), BLOCK, 0, dinp, dout, inp, weight, mean, rstd,
         N, C);
  LAUNCH_CHECK(layernorm_backward_dinp_kernel);
  dim3 grid(ceil_div(C, 32), ceil_div(N, COL_ROWS)), block(32, 8);
  LAUNCH(layernorm_backward_params_kernel, grid, block, 0, dweight, dbias, dout, inp, mean, rstd, N, C);
  LAUNCH_CHECK(layernorm_backward_params_kernel);
}
