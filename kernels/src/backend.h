// backend.h: the per-op dispatch table through which the model reaches every kernel.
//
// Design. KernelOps is a struct of function pointers: memory entries (alloc, free, upload,
// download, copy, zero) and one entry per op of ops.h with the same signature. The model
// (model.cc) calls ops only through the table it was created with, never a *_cpu function
// directly, and keeps every parameter, gradient, optimizer and activation buffer in memory from
// the table's alloc. kernel_ops_cpu() is the reference table and, for now, the only backend.
//
// How a CUDA backend slots in: a backend_cuda.cu defines kernels with these signatures and a
// function that starts from a copy of the CPU table and replaces the entries it implements (all
// of them, or op by op while porting). Its alloc returns managed memory (cudaMallocManaged), so an
// op still on the CPU reads the same pointers; upload/download become cudaMemcpy. Each CUDA op is
// accepted only after it matches the CPU entry within tolerance on the tests of kernels/test, and
// kernel_ops_active() picks the CUDA table when the build found nvcc and a device is present.
// Callers (model.cc, the addon, TypeScript) do not change.
#pragma once

#include <stddef.h>

#include "ops.h"

struct KernelOps {
  const char* name;
  void* (*alloc)(size_t bytes, const char* file, int line);  // zero-filled, counted by the memory limit
  void (*free)(void* ptr);
  void (*upload)(void* dst, const void* host_src, size_t bytes);
  void (*download)(void* host_dst, const void* src, size_t bytes);
  void (*copy)(void* dst, const void* src, size_t bytes);
  void (*zero)(void* dst, size_t bytes);

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
// The table new models use: the CPU reference until a GPU backend is built in and selected.
const KernelOps* kernel_ops_active(void);
