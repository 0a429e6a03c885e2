// pointwise.cu: GELU, residual, the global-norm sum of squares and AdamW (ops.h, "pointwise" and
// "optimizer"). Formulas are the CPU reference's, term for term.
#include "common.cuh"

#define GELU_SCALING_FACTOR 0.7978845608028654f  // sqrt(2 / pi), as isa_math.h

__global__ void gelu_forward_kernel(float* out, const float* inp, int64_t N) {
  int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N) return;
  float x = inp[i];
  float cube = 0.044715f * x * x * x;
  out[i] = 0.5f * x * (1.0f + tanhf(GELU_SCALING_FACTOR * (x + cube)));
}

__global__ void gelu_backward_kernel(float* dinp, const float* inp, const float* dout, int64_t N) {
  int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N) return;
  float x = inp[i];
  float th = tanhf(GELU_SCALING_FACTOR * (x + 0.044715f * x * x * x));
  float sech2 = 1.0f - th * th;
  float local = 0.5f * (1.0f + th) + x * 0.5f * sech2 * GELU_SCALING_FACTOR * (1.0f + 3.0f * 0.044715f * x * x);
  dinp[i] += local * dout[i];
}

__global__ void residual_forward_kernel(float* out, const float* a, const float* b, int64_t N) {
  int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) out[i] = a[i] + b[i];
}

__global__ void residual_backward_kernel(float* da, float* db, const float* dout, int64_t N) {
  int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N) return;
  da[i] += dout[i];
  db[i] += dout[i];
}

void gelu_forward_cuda(float* out, const float* inp, int64_t N) {
  LAUNCH(gelu_forward_kernel, ceil_div(N, BLOCK), BLOCK, 0, out, inp, N);
  LAUNCH_CHECK(gelu_forward_kernel);
}
void gelu_backward_cuda(float* dinp, const float* inp, const float* dout, int64_t N) {
  LAUNCH(gelu_backward_kernel, ceil_div(N, BLOCK), BLOCK, 0, dinp, inp, dout, N);
  LAUNCH_CHECK(gelu_backward_kernel);
}
void residual_forward_cuda(float* out, const float* a, const float* b, int64_t N) {
  LAUNCH(residual_forward_kernel, ceil_div(N, BLOCK), BLOCK, 0, out, a, b, N);
  LAUNCH_CHECK(residual_forward_kernel);
}
void residual_backward_cuda(float* da, float* db, const float* dout, int64_t N) {
  LAUNCH(residual_backward_kernel, ceil_div(N, BLOCK), BLOCK, 0, da, db, dout, N);
  LAUNCH_CHECK(residual_backward_kernel);
}

// ---- optimizer ----

// Sum of squares in double: each block writes one partial (grid-stride over the vector), the host
// adds the partials in order. The block count depends on n only, so the result does too.
#define SUMSQ_BLOCKS 256
__global__ void sumsq_kernel(double* partial, const float* x, int64_t n) {
  double s = 0.0;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
    s += (double)x[i] * (double)x[i];
  s = block_sum_d(s);
  if (threadIdx.x == 0) partial[blockIdx.x] = s;
}

double* cuda_sumsq_partials(void);  // backend_cuda.cu: SUMSQ_BLOCKS doubles of device memory

double sumsq_cuda(const float* x, int64_t n) {
  int blocks = ceil_div(n, BLOCK);
  if (blocks > SUMSQ_BLOCKS) blocks = SUMSQ_BLOCKS;
  if (blocks < 1) blocks = 1;
  double* partial = cuda_sumsq_partials();
  LAUNCH(sumsq_kernel, blocks, BLOCK, 0, partial, x, n);
  LAUNCH_CHECK(sumsq_kernel);
  double host[SUMSQ_BLOCKS];
  CUDA_CHECK(cudaMemcpy(host, partial, blocks * sizeof(double), cudaMemcpyDeviceToHost));
  double total = 0.0;
  for (int i = 0; i < blocks; i++) total += host[i];
  return total;
}

__global__ void adamw_kernel(float* params, const float* grads, float* m, float* v, int64_t n, float lr, float beta1,
                             float beta2, float eps, float weight_decay, float grad_scale, float bc1, float bc2) {
  int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float g = grads[i] * grad_scale;
  float mi = beta1 * m[i] + (1.0f - beta1) * g;
  float vi = beta2 * v[i] + (1.0f - beta2) * g * g;
  float mhat = mi / bc1, vhat = vi / bc2;
  m[i] = mi;
  v[i] = vi;
  params[i] -= lr * (mhat / (sqrtf(vhat) + eps) + weight_decay * params[i]);
}

void adamw_cuda(float* params, const float* grads, float* m, float* v, int64_t n, float lr, float beta1, float beta2,
                float eps, float weight_decay, float grad_scale, int t) {
  // Bias corrections on the host with the same powf as adamw_cpu.
  float bc1 = 1.0f - powf(beta1, (float)t), bc2 = 1.0f - powf(beta2, (float)t);
  LAUNCH(adamw_kernel, ceil_div(n, BLOCK), BLOCK, 0, params, grads, m, v, n, lr, beta1, beta2, eps, weight_decay,
         grad_scale, bc1, bc2);
  LAUNCH_CHECK(adamw_kernel);
}
