// backend.h: the per-op dispatch table through which the model reaches every kernel.
//
// Design. KernelOps is a struct of function pointers: memory entries (alloc, free, upload,
// download, copy, zero) and one entry per op of ops.h with the same signature. The model
// (model.cc) calls ops only through the table it was created with, never a *_cpu function
// directly, and keeps every parameter, gradient, optimizer and activation buffer in memory from
// the table's alloc. kernel_ops_cpu() is the reference table and, for now, the only backend.
//
// The CUDA backend (src/cuda/backend_cuda.cu) fills the same table with device memory (cudaMalloc)
// and a kernel per op; test/test_cuda.cc holds each entry to the CPU one. It is a separate library
// loaded at run time (backend_select.cc), so callers (model.cc, the addon, TypeScript) do not
// change and a machine without CUDA runs the same addon.
#pragma once

#include <stddef.h>

#include "ops.h"

struct KernelOps {
  const char* name;
  // 1: attention_forward keeps the softmax weights, att [B,H,T,T], and attention_backward needs a
  // [B,H,T,T] scratch (the CPU reference). 0: a fused backend keeps one float per query row
  // (att [B,H,T], its log-sum-exp) and needs a [B,H,T] scratch; the model sizes both from this.
  int attention_keeps_weights;
  // The largest head size (width / heads) its attention kernels take; 0 = any.
  int max_head_size;
  void* (*alloc)(size_t bytes, const char* file, int line);  // zero-filled, counted by the memory limit
  void (*free)(void* ptr);
  void (*upload)(void* dst, const void* host_src, size_t bytes);
  void (*download)(void* host_dst, const void* src, size_t bytes);
  void (*copy)(void* dst, const void* src, size_t bytes);
  void (*zero)(void* dst, size_t bytes);
  // The frame slots' feature rows to their positions: host_rows holds one row of P floats per
  // n with host_tokens[n] == FRAME_TOKEN, in order, and row k goes to row n of dst [N, P]; other
  // rows of dst keep what they held (every op reads features at frame slots only). The default
  // checkpoint has P = 7,776 and most positions are text: the caller builds and the backend
  // copies only the slots' rows.
  void (*upload_frame_rows)(float* dst, const float* host_rows, const int* host_tokens, int N, int P);
  // Memory this table can still allocate, and its total: the process budget for the CPU
  // (SIZE_MAX for both when no limit is set), the device's free and total memory for CUDA.
  void (*mem_available)(size_t* available, size_t* total);

  decltype(&encoder_forward_cpu) encoder_forward;
  decltype(&encoder_backward_cpu) encoder_backward;
  decltype(&frame_proj_forward_cpu) frame_proj_forward;
  decltype(&frame_proj_backward_cpu) frame_proj_backward;
  decltype(&layernorm_forward_cpu) layernorm_forward;
  decltype(&layernorm_backward_cpu) layernorm_backward;
  decltype(&matmul_forward_cpu) matmul_forward;
  decltype(&matmul_backward_cpu) matmul_backward;
  decltype(&attention_forward_cpu) attention_forward;
  decltype(&attention_backward_cpu) attention_backward;
  decltype(&attention_decode_cpu) attention_decode;
  decltype(&gelu_forward_cpu) gelu_forward;
  decltype(&gelu_backward_cpu) gelu_backward;
  decltype(&residual_forward_cpu) residual_forward;
  decltype(&residual_backward_cpu) residual_backward;
  decltype(&softmax_crossentropy_forward_cpu) softmax_crossentropy_forward;
  decltype(&softmax_crossentropy_backward_cpu) softmax_crossentropy_backward;
  decltype(&argmax_rows_cpu) argmax_rows;
  decltype(&token_logprobs_cpu) token_logprobs;
  decltype(&policy_loss_cpu) policy_loss;
  decltype(&sumsq_cpu) sumsq;
  decltype(&adamw_cpu) adamw;
};

// The CPU reference table.
const KernelOps* kernel_ops_cpu(void);
// The table new models use (backend_select.cc): the CPU reference unless kernel_ops_use("cuda").
const KernelOps* kernel_ops_active(void);
// Selects the table for models created from now on: "cpu" or "cuda"; throws KernelError with the
// reason when the CUDA backend is not available (no library, no driver, no device).
void kernel_ops_use(const char* name);
struct CudaDeviceInfo;
// Loads the CUDA backend once (libparavt_cuda.so next to this binary, or PARAVT_CUDA_LIBRARY) and
// returns its table, or NULL with *reason saying what is missing.
const KernelOps* cuda_backend_probe(const CudaDeviceInfo** info, const char** reason);
