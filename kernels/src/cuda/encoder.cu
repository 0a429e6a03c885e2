// encoder.cu: token and positional embeddings, and the frame projection (ops.h, "embeddings").
#include "common.cuh"
#include "gemm.cuh"

// One thread per (position, channel).
__global__ void encoder_forward_kernel(float* out, const int* inp, const float* wte, const float* wpe, int B, int T,
                                       int C) {
  int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= (int64_t)B * T * C) return;
  int64_t bt = idx / C;
  int c = (int)(idx % C), t = (int)(bt % T), tok = inp[bt];
  float p = wpe[(int64_t)t * C + c];
  out[idx] = tok == FRAME_TOKEN ? p : wte[(int64_t)tok * C + c] + p;
}

// dwte is a scatter (a token can repeat in a batch): atomicAdd. dwpe[t] sums the batch in order.
__global__ void encoder_backward_wte_kernel(float* dwte, const float* dout, const int* inp, int B, int T, int C) {
  int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= (int64_t)B * T * C) return;
  int tok = inp[idx / C];
  if (tok != FRAME_TOKEN) atomicAdd(&dwte[(int64_t)tok * C + idx % C], dout[idx]);
}
__global__ void encoder_backward_wpe_kernel(float* dwpe, const float* dout, int B, int T, int C) {
  int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= (int64_t)T * C) return;
  float s = 0.0f;
  for (int b = 0; b < B; b++) s += dout[(int64_t)b * T * C + idx];
  dwpe[idx] += s;
}

void encoder_forward_cuda(float* out, const int* inp, const float* wte, const float* wpe, int B, int T, int C) {
  int64_t n = (int64_t)B * T * C;
  LAUNCH(encoder_forward_kernel, ceil_div(n, BLOCK), BLOCK, 0, out, inp, wte, wpe, B, T, C);
  LAUNCH_CHECK(encoder_forward_kernel);
}

void encoder_backward_cuda(float* dwte, float* dwpe, const float* dout, const int* inp, int B, int T, int C) {
  int64_t n = (int64_t)B * T * C;
  LAUNCH(encoder_backward_wte_kernel, ceil_div(n, BLOCK), BLOCK, 0, dwte, dout, inp, B, T, C);
  LAUNCH_CHECK(encoder_backward_wte_kernel);
  LAUNCH(encoder_backward_wpe_kernel, ceil_div((int64_t)T * C, BLOCK), BLOCK, 0, dwpe, dout, B, T, C);
  LAUNCH_CHECK(encoder_backward_wpe_kernel);
}

__global__ void frame_proj_backward_feat_kernel(float* dfeat, const float* dout, const int* inp, const float* w,
                                                int N, int C, int P) {
  int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= (int64_t)N * P) return;
  int64_t bt = idx / P;
  if (inp[bt] != FRAME_TOKEN) return;
  int p = (int)(idx % P);
  float s = 0.0f;
  for (int c = 0; c < C; c++) s += dout[bt * C + c] * w[(int64_t)c * P + p];
  dfeat[idx] += s;
}

// The frame projection is a product with frame-slot masks (gemm.cuh): the default checkpoint's
// P = 7,776 features per slot make it one of the step's larger products.
// out[bt, :] += feat[bt, :] w^T + bias at frame slots (rows bt of the product; the others unwritten).
void frame_proj_forward_cuda(float* out, const int* inp, const float* feat, const float* w, const float* bias, int B,
                             int T, int C, int P) {
  int N = B * T;
  gemm(GemmView{N, C, P, feat, P, 1, w, 1, P, out, C, bias, 1, inp, NULL});
}

void frame_proj_backward_cuda(float* dfeat, float* dw, float* dbias, const float* dout, const int* inp,
                              const float* feat, const float* w, int B, int T, int C, int P) {
  int N = B * T;
  // dw[c, p] += sum over frame slots bt of dout[bt, c] feat[bt, p]: k runs over the slots only.
  gemm(GemmView{C, P, N, dout, 1, C, feat, P, 1, dw, P, NULL, 1, NULL, inp});
  column_sum(dbias, dout, N, C, inp);
  if (dfeat == NULL) return;
  LAUNCH(frame_proj_backward_feat_kernel, ceil_div((int64_t)N * P, BLOCK), BLOCK, 0, dfeat, dout, inp, w, N, C, P);
  LAUNCH_CHECK(frame_proj_backward_feat_kernel);
}
