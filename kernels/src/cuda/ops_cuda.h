// ops_cuda.h: the CUDA version of every op of ops.h, same signatures and semantics (ops.h is the
// specification), plus the entry point of the backend. Pointers are device memory, except the
// host-side structs (PolicyLossTokens, PolicyLossParams), which the op reads on the host.
// Ops run on the default stream in call order; none synchronises except sumsq (it returns a host
// double). Gradients accumulate (+=) as on the CPU; sums over rows of different blocks use
// atomicAdd, so their rounding may differ from run to run within float precision.
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "../backend.h"
#include "../ops.h"

void encoder_forward_cuda(float* out, const int* inp, const float* wte, const float* wpe, int B, int T, int C);
void encoder_backward_cuda(float* dwte, float* dwpe, const float* dout, const int* inp, int B, int T, int C);
void frame_proj_forward_cuda(float* out, const int* inp, const float* feat, const float* w, const float* bias, int B,
                             int T, int C, int P);
void frame_proj_backward_cuda(float* dfeat, float* dw, float* dbias, const float* dout, const int* inp,
                              const float* feat, const float* w, int B, int T, int C, int P);
void layernorm_forward_cuda(float* out, float* mean, float* rstd, const float* inp, const float* weight,
                            const float* bias, int N, int C);
void layernorm_backward_cuda(float* dinp, float* dweight, float* dbias, const float* dout, const float* inp,
                             const float* weight, const float* mean, const float* rstd, int N, int C);
void matmul_forward_cuda(float* out, const float* inp, const float* weight, const float* bias, int N, int IC, int OC);
void matmul_backward_cuda(float* dinp, float* dweight, float* dbias, const float* dout, const float* inp,
                          const float* weight, int N, int IC, int OC);
void attention_forward_cuda(float* out, float* att, const float* qkv, int B, int T, int C, int H);
void attention_backward_cuda(float* dqkv, float* scratch, const float* dout, const float* qkv, const float* att,
                             int B, int T, int C, int H);
void attention_decode_cuda(float* out, float* kcache, float* vcache, float* scratch, const float* qkv, int B, int n,
                           int pos, int maxT, int C, int H);
void gelu_forward_cuda(float* out, const float* inp, int64_t N);
void gelu_backward_cuda(float* dinp, const float* inp, const float* dout, int64_t N);
void residual_forward_cuda(float* out, const float* a, const float* b, int64_t N);
void residual_backward_cuda(float* da, float* db, const float* dout, int64_t N);
void softmax_crossentropy_forward_cuda(float* losses, float* probs, const float* logits, const int* targets,
                                       const float* mask, int N, int V);
void softmax_crossentropy_backward_cuda(float* dlogits, const float* dlosses, const float* probs, const int* targets,
                                        int N, int V);
void argmax_rows_cuda(int* out, const float* x, int N, int V);
void token_logprobs_cuda(float* logp, float* entropy, float* probs, const float* logits, const int* targets,
                         const float* mask, int N, int V);
void policy_loss_cuda(const PolicyLossTokens* out, float* dnll, const float* logp, const float* old_logp,
                      const float* prox_logp, const float* ref_logp, const float* adv, const float* coef,
                      const PolicyLossParams* params, int N);
double sumsq_cuda(const float* x, int64_t n);
void adamw_cuda(float* params, const float* grads, float* m, float* v, int64_t n, float lr, float beta1, float beta2,
                float eps, float weight_decay, float grad_scale, int t);

// ---- the backend ----
// What the host process lends the backend: how to fail (throws KernelError in the addon and the
// test binaries; the backend may live in a separately loaded library, so it cannot throw the
// host's exception type itself).
struct CudaHostHooks {
  void (*fail)(const char* message);  // must not return (it throws)
};
// The device the backend runs on (filled by paravt_cuda_backend).
struct CudaDeviceInfo {
  char name[256];
  size_t total_bytes, free_bytes;
  int multiprocessors, major, minor;
  int emulated;  // 1: the host emulation of cuda_emu.h
  char matmul[320];  // the linear layers' path (cublas.h cublas_load): cuBLAS or the own kernel, and why
};
extern "C" {
// The CUDA op table, or NULL with the reason in err when there is no usable device (the driver is
// missing, no device, or a device this build has no code for).
const KernelOps* paravt_cuda_backend(const CudaHostHooks* hooks, CudaDeviceInfo* info, char* err, size_t err_len);
}
