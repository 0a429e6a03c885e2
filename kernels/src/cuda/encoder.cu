// encoder.cu: token and positional embeddings, and the frame projection (ops.h, "embeddings").
#include "common.cuh"

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

// out[bt, c] += bias[c] + w[c, :] . feat[bt, :] at frame slots; one thread per (position, channel).
__global__ void frame_proj_forward_kernel(float* out, const int* inp, const float* feat, const float* w,
                                          const float* bias, int N, int C, int P) {
  int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= (int64_t)N * C) return;
  int64_t bt = idx / C;
  if (inp[bt] != FRAME_TOKEN) return;
  int c = (int)(idx % C);
  const float* f = feat + bt * P;
  const float* wc = w + (int64_t)c * P;
  float s = 0.0f;
  for (int p = 0; p < P; p++) s += wc[p] * f[p];
  out[idx] += bias[c] + s;
}

// dw[c, p] += sum over frame slots of dout[bt, c] feat[bt, p], and dbias[c] (thread p == 0 of the
// row): one thread per (c, p), the slots in order. Frame slots are few (a handful per sequence).
__global__ void frame_proj_backward_w_kernel(float* dw, float* dbias, const float* dout, const int* inp,
                                             const float* feat, int N, int C, int P) {
  int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= (int64_t)C * P) return;
  int c = (int)(idx / P), p = (int)(idx % P);
  float sw = 0.0f, sb = 0.0f;
  for (int64_t bt = 0; bt < N; bt++) {
    if (inp[bt] != FRAME_TOKEN) continue;
    float g = dout[bt * C + c];
    sw += g * feat[bt * P + p];
    sb += g;
  }
  dw[idx] += sw;
  if (p == 0) dbias[c] += sb;
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

void frame_proj_forward_cuda(float* out, const int* inp, const float* feat, const float* w, const float* bias, int B,
                             int T, int C, int P) {
  int N = B * T;
  LAUNCH(frame_proj_forward_kernel, ceil_div((int64_t)N * C, BLOCK), BLOCK, 0, out, inp, feat, w, bias, N, C, P);
  LAUNCH_CHECK(frame_proj_forward_kernel);
}

void frame_proj_backward_cuda(float* dfeat, float* dw, float* dbias, const float* dout, const int* inp,
                              const float* feat, const float* w, int B, int T, int C, int P) {
  int N = B * T;
  LAUNCH(frame_proj_backward_w_kernel, ceil_div((int64_t)C * P, BLOCK), BLOCK, 0, dw, dbias, dout, inp, feat, N, C,
         P);
  LAUNCH_CHECK(frame_proj_backward_w_kernel);
  if (dfeat == NULL) return;
  LAUNCH(frame_proj_backward_feat_kernel, ceil_div((int64_t)N * P, BLOCK), BLOCK, 0, dfeat, dout, inp, w, N, C, P);
  LAUNCH_CHECK(frame_proj_backward_feat_kernel);
}
