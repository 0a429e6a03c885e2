// The CPU reference backend table: host memory from mallocCheck, ops from ops_cpu.cc.
#include <stdint.h>
#include <string.h>

#include "backend.h"
#include "check.h"
#include "threadpool.h"

static void* cpu_alloc(size_t bytes, const char* file, int line) {
  void* p = malloc_check(bytes, file, line);
  memset(p, 0, bytes);
  return p;
}
static void cpu_free(void* p) { free_check(p); }
static void cpu_copy(void* dst, const void* src, size_t bytes) {
  if (bytes > 0) memcpy(dst, src, bytes);
}
// Parallel: backward zeroes ~100 MB of activation gradients per step at the benchmark config.
static void cpu_zero(void* dst, size_t bytes) {
  const int64_t chunk = 1 << 18;
  parallel_for(((int64_t)bytes + chunk - 1) / chunk, 1, [&](int64_t begin, int64_t end) {
    for (int64_t k = begin; k < end; k++) {
      size_t off = (size_t)k * chunk, n = bytes - off < (size_t)chunk ? bytes - off : (size_t)chunk;
      memset((char*)dst + off, 0, n);
    }
  });
}

static void cpu_upload_frame_rows(float* dst, const float* rows, const int* tokens, int N, int P) {
  size_t k = 0;
  for (int n = 0; n < N; n++)
    if (tokens[n] == FRAME_TOKEN) memcpy(dst + (size_t)n * P, rows + k++ * P, (size_t)P * sizeof(float));
}
static void cpu_mem_available(size_t* available, size_t* total) {
  size_t limit = kernel_memory_limit(), used = kernel_memory_in_use();
  *total = limit ? limit : SIZE_MAX;
  *available = limit ? (limit > used ? limit - used : 0) : SIZE_MAX;
}

static const KernelOps kCpuOps = {
    "cpu",
    1,  // attention keeps the weights [B,H,T,T]
    0,  // any head size
    cpu_alloc,
    cpu_free,
    cpu_copy,
    cpu_copy,
    cpu_copy,
    cpu_zero,
    cpu_upload_frame_rows,
    cpu_mem_available,
    encoder_forward_cpu,
    encoder_backward_cpu,
    frame_proj_forward_cpu,
    frame_proj_backward_cpu,
    layernorm_forward_cpu,
    layernorm_backward_cpu,
    matmul_forward_cpu,
    matmul_backward_cpu,
    attention_forward_cpu,
    attention_backward_cpu,
    attention_decode_cpu,
    gelu_forward_cpu,
    gelu_backward_cpu,
    residual_forward_cpu,
    residual_backward_cpu,
    softmax_crossentropy_forward_cpu,
    softmax_crossentropy_backward_cpu,
    argmax_rows_cpu,
    token_logprobs_cpu,
    policy_loss_cpu,
    sumsq_cpu,
    adamw_cpu,
};

const KernelOps* kernel_ops_cpu(void) { return &kCpuOps; }
