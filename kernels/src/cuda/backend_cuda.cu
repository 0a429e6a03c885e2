// backend_cuda.cu: the CUDA op table (backend.h): device memory and every op of ops_cuda.h.
//
// Memory is plain cudaMalloc (never managed memory: asking a device for more managed memory than
// it has can hang it), zero-filled as the table's contract says. upload/download are synchronous
// copies, so a kernel's asynchronous failure surfaces at the next download at the latest, through
// the host's fail hook: the op throws KernelError in the addon and the job fails with the reason.
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mutex>
#include <vector>

#include "common.cuh"
#include "cublas.h"
#include "matmul_precision.h"

static CudaHostHooks g_hooks;
static double* g_sumsq_partials = NULL;

[[noreturn]] static void failf(const char* fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof(msg), fmt, ap);
  va_end(ap);
  g_hooks.fail(msg);
  abort();  // fail does not return; this keeps [[noreturn]] honest if a hook ever does
}

// Errors after which the CUDA context is unusable for the rest of the process (the CUDA Runtime
// API reference marks them "the process must be terminated and relaunched"; values from CUDA
// 13.0's driver_types.h, as numbers so the host emulation compiles this too): a kernel fault
// (illegal address, misaligned address, illegal instruction, invalid PC, stack error, launch
// failure, assert) or an uncorrectable ECC error. The message says so, so that the job's failure
// tells the operator to restart the worker (training runs in a child process, which ends with it).
static bool context_lost(int err) {
  switch (err) {
    case 214:  // cudaErrorECCUncorrectable
    case 710:  // cudaErrorAssert
    case 714:  // cudaErrorHardwareStackError
    case 715:  // cudaErrorIllegalInstruction
    case 716:  // cudaErrorMisalignedAddress
    case 717:  // cudaErrorInvalidAddressSpace
    case 718:  // cudaErrorInvalidPc
    case 719:  // cudaErrorLaunchFailure
    case 700:  // cudaErrorIllegalAddress
      return true;
    default:
      return false;
  }
}

void cuda_fail(const char* file, int line, const char* what, cudaError_t err) {
  failf("%s:%d: %s: %s (CUDA error %d)%s", file, line, what, cudaGetErrorString(err), (int)err,
        // The marker text is CUDA_CONTEXT_LOST of src/device.ts (workers stop on it).
        context_lost((int)err) ? "; the CUDA context is lost: this process must restart to use the GPU again" : "");
}

void cuda_fail_message(const char* file, int line, const char* what) { failf("%s:%d: %s", file, line, what); }

double* cuda_sumsq_partials(void) { return g_sumsq_partials; }

static void* cuda_alloc(size_t bytes, const char* file, int line) {
  void* p = NULL;
  cudaError_t err = cudaMalloc(&p, bytes > 0 ? bytes : 1);
  if (err != cudaSuccess && context_lost((int)err)) cuda_fail(file, line, "cudaMalloc", err);  // not memory
  if (err != cudaSuccess) {
    cudaGetLastError();  // an allocation failure is not sticky: clear it
    size_t free_b = 0, total_b = 0;
    cudaMemGetInfo(&free_b, &total_b);
    failf("%s:%d: out of device memory: asked for %.1f MiB, %.1f MiB free of %.1f MiB (%s)", file, line,
          bytes / 1048576.0, free_b / 1048576.0, total_b / 1048576.0, cudaGetErrorString(err));
  }
  CUDA_CHECK(cudaMemset(p, 0, bytes));
  return p;
}
static void cuda_free(void* p) {
  if (p) cudaFree(p);  // no throw on the way out (model_free runs in destructors)
}
static void cuda_upload(void* dst, const void* src, size_t bytes) {
  if (bytes) CUDA_CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice));
}
static void cuda_download(void* dst, const void* src, size_t bytes) {
  if (bytes) CUDA_CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost));
}
static void cuda_copy(void* dst, const void* src, size_t bytes) {
  if (bytes) CUDA_CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToDevice));
}
static void cuda_zero(void* dst, size_t bytes) {
  if (bytes) CUDA_CHECK(cudaMemset(dst, 0, bytes));
}

// upload_frame_rows: the caller's rows (already only the slots') in one copy to a device staging
// buffer, with each row's position, then a kernel that puts each row in its place. The staging
// buffer grows to the largest batch and lives with the process; a mutex keeps two host threads
// (two models) from using it at once.
__global__ void scatter_rows_kernel(float* dst, const float* rows, const int* where, int F, int P) {
  int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= (int64_t)F * P) return;
  int64_t f = idx / P;
  dst[(int64_t)where[f] * P + idx % P] = rows[idx];
}
static std::mutex g_stage_mutex;
static unsigned char* g_stage_dev = NULL;
static size_t g_stage_bytes = 0;
static void cuda_upload_frame_rows(float* dst, const float* rows, const int* tokens, int N, int P) {
  std::vector<int> where;
  for (int n = 0; n < N; n++)
    if (tokens[n] == FRAME_TOKEN) where.push_back(n);
  int F = (int)where.size();
  if (F == 0) return;
  std::lock_guard<std::mutex> lock(g_stage_mutex);
  size_t where_bytes = ((size_t)F * sizeof(int) + 15) / 16 * 16, bytes = where_bytes + (size_t)F * P * sizeof(float);
  if (bytes > g_stage_bytes) {
    if (g_stage_dev) cudaFree(g_stage_dev);
    g_stage_dev = NULL;
    g_stage_bytes = 0;
    size_t grown = bytes + bytes / 2;
    g_stage_dev = (unsigned char*)cuda_alloc(grown, __FILE__, __LINE__);
    g_stage_bytes = grown;
  }
  CUDA_CHECK(cudaMemcpy(g_stage_dev, where.data(), (size_t)F * sizeof(int), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(g_stage_dev + where_bytes, rows, (size_t)F * P * sizeof(float), cudaMemcpyHostToDevice));
  LAUNCH(scatter_rows_kernel, ceil_div((int64_t)F * P, BLOCK), BLOCK, 0, dst, (const float*)(g_stage_dev + where_bytes),
         (const int*)g_stage_dev, F, P);
  LAUNCH_CHECK(scatter_rows_kernel);
}

static void cuda_mem_available(size_t* available, size_t* total) {
  *available = *total = 0;
  CUDA_CHECK(cudaMemGetInfo(available, total));
}

static const KernelOps kCudaOps = {
    "cuda",
    0,    // fused attention: one log-sum-exp per query row (attention.cu)
    128,  // attention.cu: kernels instantiated for head sizes up to 128 (attn_dim)
    cuda_alloc,
    cuda_free,
    cuda_upload,
    cuda_download,
    cuda_copy,
    cuda_zero,
    cuda_upload_frame_rows,
    cuda_mem_available,
    encoder_forward_cuda,
    encoder_backward_cuda,
    frame_proj_forward_cuda,
    frame_proj_backward_cuda,
    layernorm_forward_cuda,
    layernorm_backward_cuda,
    matmul_forward_cuda,
    matmul_backward_cuda,
    attention_forward_cuda,
    attention_backward_cuda,
    attention_decode_cuda,
    gelu_forward_cuda,
    gelu_backward_cuda,
    residual_forward_cuda,
    residual_backward_cuda,
    softmax_crossentropy_forward_cuda,
    softmax_crossentropy_backward_cuda,
    argmax_rows_cuda,
    token_logprobs_cuda,
    policy_loss_cuda,
    sumsq_cuda,
    adamw_cuda,
};

// Code in this build: sm_90 machine code and compute_90 PTX (scripts/build.mjs), so a device of
// compute capability 9.0 or newer can run it; older ones cannot load the kernels.
static const int kMinMajor = 9;

extern "C" const KernelOps* paravt_cuda_backend(const CudaHostHooks* hooks, CudaDeviceInfo* info, char* err,
                                                size_t err_len) {
  g_hooks = *hooks;
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count == 0) {
    snprintf(err, err_len, "no CUDA device: %s", e != cudaSuccess ? cudaGetErrorString(e) : "the driver sees none");
    cudaGetLastError();
    return NULL;
  }
  cudaDeviceProp prop;
  if ((e = cudaSetDevice(0)) != cudaSuccess || (e = cudaGetDeviceProperties(&prop, 0)) != cudaSuccess) {
    snprintf(err, err_len, "CUDA device 0 is not usable: %s", cudaGetErrorString(e));
    return NULL;
  }
  if (prop.major < kMinMajor) {
    snprintf(err, err_len, "CUDA device %s has compute capability %d.%d; this build has code for 9.0 and newer",
             prop.name, prop.major, prop.minor);
    return NULL;
  }
  memset(info, 0, sizeof(*info));
  snprintf(info->name, sizeof(info->name), "%s", prop.name);
  info->multiprocessors = prop.multiProcessorCount;
  info->major = prop.major;
  info->minor = prop.minor;
  cudaMemGetInfo(&info->free_bytes, &info->total_bytes);
#ifdef PARAVT_CUDA_EMU
  info->emulated = 1;
#endif
  // The products' precision (matmul_precision.h), once per process.
  const char* precision = getenv("PARAVT_MATMUL_PRECISION");
  int parsed = precision && *precision ? matmul_precision_parse(precision) : MATMUL_FP32;
  if (parsed < 0) {
    snprintf(err, err_len, "PARAVT_MATMUL_PRECISION=%.40s: expected fp32, tf32 or bf16", precision);
    return NULL;
  }
  matmul_set_precision(parsed);
  char library[256];
  cublas_load(library, sizeof(library));
  snprintf(info->matmul, sizeof(info->matmul), "%s; %s", library,
           parsed == MATMUL_FP32   ? "fp32"
           : parsed == MATMUL_TF32 ? "tf32 operands, fp32 accumulate"
                                   : "bf16 operands, fp32 accumulate (fp32 master weights)");
  if (g_sumsq_partials == NULL) {
    if ((e = cudaMalloc((void**)&g_sumsq_partials, 256 * sizeof(double))) != cudaSuccess) {
      snprintf(err, err_len, "CUDA device %s: first allocation failed: %s", prop.name, cudaGetErrorString(e));
      return NULL;
    }
  }
  return &kCudaOps;
}
