// common.cuh: what every CUDA file of the backend shares: the launch macro (device or host
// emulation), error checks, and warp/block reductions.
//
// Build modes. nvcc compiles these files for the device (sm_90 + PTX, scripts/build.mjs). With
// -DPARAVT_CUDA_EMU, g++ compiles the very same source for the host through cuda_emu.h, so every
// machine runs the kernels in the C++ tests (test/test_cuda.cc). Kernels therefore use only what
// cuda_emu.h provides: launches go through LAUNCH, dynamic shared memory through DYN_SMEM.
#pragma once

#include <stdint.h>

#ifdef PARAVT_CUDA_EMU
#include "cuda_emu.h"
#define LAUNCH(kernel, grid, block, smem, ...) \
  emu::launch(#kernel, dim3(grid), dim3(block), (smem), [&] { kernel(__VA_ARGS__); })
#define DYN_SMEM(T, name) T* name = (T*)emu::dynamic_smem()
#define UNROLL
#else
#define UNROLL _Pragma("unroll")
#include <cuda_runtime.h>
#define LAUNCH(kernel, grid, block, smem, ...) kernel<<<(grid), (block), (smem)>>>(__VA_ARGS__)
#define DYN_SMEM(T, name)                                  \
  extern __shared__ __align__(16) unsigned char name##_raw[]; \
  T* name = (T*)name##_raw
#endif

#include "ops_cuda.h"

// A CUDA call that failed or a launch that was refused ends the op through the host's fail hook
// (backend_cuda.cu): a KernelError in the process, a failed job in the worker, never an abort.
void cuda_fail(const char* file, int line, const char* what, cudaError_t err);
// The same for a failure that is no CUDA runtime error (a cuBLAS status, say): `what` is the reason.
void cuda_fail_message(const char* file, int line, const char* what);
#define CUDA_CHECK(call)                                              \
  do {                                                                \
    cudaError_t err_ = (call);                                        \
    if (err_ != cudaSuccess) cuda_fail(__FILE__, __LINE__, #call, err_); \
  } while (0)
// After a launch: a bad configuration is reported at once (no device synchronisation).
#define LAUNCH_CHECK(name) CUDA_CHECK(cudaGetLastError())

static inline int ceil_div(int64_t a, int64_t b) { return (int)((a + b - 1) / b); }

// Threads of the 1-D launches; a multiple of 32 (the reductions below assume whole warps).
#define BLOCK 256

__device__ __forceinline__ float warp_sum(float v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}
__device__ __forceinline__ double warp_sum_d(double v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}
__device__ __forceinline__ float warp_max(float v) {
  for (int o = 16; o > 0; o >>= 1) {
    float u = __shfl_xor_sync(0xffffffffu, v, o);
    v = u > v ? u : v;
  }
  return v;
}

// Block-wide reductions of a 1-D block (blockDim.x a multiple of 32): every thread gets the result.
// The leading barrier lets a kernel call one reduction after another safely.
__device__ __forceinline__ float block_sum(float v) {
  __shared__ float partial[32];
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = blockDim.x / 32;
  v = warp_sum(v);
  __syncthreads();
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  return warp_sum(lane < warps ? partial[lane] : 0.0f);
}
__device__ __forceinline__ double block_sum_d(double v) {
  __shared__ double partial_d[32];
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = blockDim.x / 32;
  v = warp_sum_d(v);
  __syncthreads();
  if (lane == 0) partial_d[warp] = v;
  __syncthreads();
  return warp_sum_d(lane < warps ? partial_d[lane] : 0.0);
}
__device__ __forceinline__ float block_max(float v) {
  __shared__ float partial_m[32];
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = blockDim.x / 32;
  v = warp_max(v);
  __syncthreads();
  if (lane == 0) partial_m[warp] = v;
  __syncthreads();
  return warp_max(lane < warps ? partial_m[lane] : -INFINITY);
}

// exp of a softmax argument as the CPU reference computes it (isa_math.h): clamped at -87 so the
// sum never meets a denormal, with NaN passing through (a comparison with NaN is false).
__device__ __forceinline__ float softmax_exp(float d) { return expf(d < -87.0f ? -87.0f : d); }
