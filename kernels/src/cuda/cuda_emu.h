// cuda_emu.h: runs the CUDA backend's kernels on the host, so that every machine (CI has nvcc but
// no GPU) executes and tests the same kernel source that the device runs.
//
// Design. Compiling a .cu file with g++ -DPARAVT_CUDA_EMU -x c++ makes its __global__ functions
// plain functions; LAUNCH (common.cuh) calls emu::launch, which runs the grid block after block and
// each block's threads as coroutines (ucontext) on one OS thread. A thread runs until it reaches a
// barrier: __syncthreads waits for every live thread of its block, a warp shuffle for every live
// lane of its warp (the value goes through a per-warp exchange slot). A barrier that can never be
// released (a __syncthreads inside divergent code) aborts with the kernel's name, which a GPU would
// turn into a hang. __shared__ becomes `static`: blocks run one at a time, so one copy serves every
// block, as the hardware's per-block copy would. The CUDA runtime calls the backend makes
// (cudaMalloc, cudaMemcpy, ...) are host functions over malloc with the documented semantics of the
// CUDA Runtime API reference (docs.nvidia.com/cuda/cuda-runtime-api: "Memory Management",
// "Device Management", "Error Handling").
//
// What it checks: indexing, bounds, reductions, barrier structure and numerics of every kernel.
// What it cannot: timing, and races the hardware would expose but sequential execution hides (a
// thread reading what a later thread of its block writes without a barrier in between still
// fails here; the reverse order does not). compute-sanitizer racecheck on the device covers those.
#pragma once

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <functional>

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __shared__ static
#define __launch_bounds__(...)
#define __align__(n) alignas(n)

struct dim3 {
  unsigned x, y, z;
  constexpr dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
};

// The indices of the emulated thread now running (set by the scheduler before it resumes one).
extern dim3 threadIdx, blockIdx, blockDim, gridDim;

namespace emu {
// Suspends the running thread until its block (kind 1) or warp (kind 2) has all arrived.
void wait(int kind);
// Exchange of one value through the running thread's warp: every lane writes `bytes` of v, then
// reads lane `src` (its own when src is outside the warp).
void warp_exchange(const void* v, void* out, int bytes, int src);
int lane_id();
// Runs body as grid x block threads; smem bytes of dynamic shared memory (see DYN_SMEM).
void launch(const char* name, dim3 grid, dim3 block, size_t smem, const std::function<void()>& body);
void* dynamic_smem();
}  // namespace emu

inline void __syncthreads() { emu::wait(1); }
inline void __syncwarp(unsigned = 0xffffffffu) { emu::wait(2); }

template <class T>
inline T __shfl_xor_sync(unsigned, T v, int lane_mask) {
  T out;
  emu::warp_exchange(&v, &out, sizeof(T), emu::lane_id() ^ lane_mask);
  return out;
}
template <class T>
inline T __shfl_down_sync(unsigned, T v, unsigned delta) {
  T out;
  emu::warp_exchange(&v, &out, sizeof(T), emu::lane_id() + (int)delta);
  return out;
}
template <class T>
inline T __shfl_sync(unsigned, T v, int src) {
  T out;
  emu::warp_exchange(&v, &out, sizeof(T), src);
  return out;
}

// One thread runs at a time, so a read-modify-write is atomic.
inline float atomicAdd(float* addr, float v) {
  float old = *addr;
  *addr = old + v;
  return old;
}
inline double atomicAdd(double* addr, double v) {
  double old = *addr;
  *addr = old + v;
  return old;
}

inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
// Bit casts of the CUDA Math API (reinterpret, no conversion).
inline unsigned __float_as_uint(float x) {
  unsigned u;
  memcpy(&u, &x, sizeof(u));
  return u;
}
inline float __uint_as_float(unsigned u) {
  float x;
  memcpy(&x, &u, sizeof(x));
  return x;
}
inline double rsqrt(double x) { return 1.0 / sqrt(x); }

// ---- the CUDA Runtime API subset the backend uses ----
typedef int cudaError_t;
enum {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorNoDevice = 100,
};
enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4
};
struct cudaDeviceProp {
  char name[256];
  size_t totalGlobalMem;
  int multiProcessorCount;
  int major, minor;
};

const char* cudaGetErrorString(cudaError_t err);
cudaError_t cudaGetDeviceCount(int* count);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device);
cudaError_t cudaMemGetInfo(size_t* free_bytes, size_t* total_bytes);
cudaError_t cudaMalloc(void** ptr, size_t bytes);
cudaError_t cudaFree(void* ptr);
cudaError_t cudaMemcpy(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind);
cudaError_t cudaMemset(void* dst, int value, size_t bytes);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaGetLastError(void);
