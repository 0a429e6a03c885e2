// cublas.cu: cuBLAS for the linear layers' products, loaded at run time when a libcublas is there.
//
// Why dlopen and not a link: the machines that build this backend (dev machines, CI) have nvcc and
// cudart but no cuBLAS, while every GPU machine with PyTorch or a CUDA toolkit has one. So we declare
// the five entry points we call, with the signatures of cublas_api.h (CUDA 12/13, "_v2" names), and
// look them up in the first library that loads: $PARAVT_CUBLAS, then libcublas.so.13 and .so.12 on
// the loader's path. Without one, matmul.cu uses its own tiled kernel and says so (CudaDeviceInfo).
// PARAVT_CUBLAS=0 turns cuBLAS off (the device check measures both).
//
// Precision: cublasGemmEx on fp32 matrices with the compute type of the matmul precision
// (matmul_precision.h): CUBLAS_COMPUTE_32F is plain fp32 (no TF32), like the CPU reference;
// _FAST_TF32 and _FAST_16BF let the tensor cores take TF32 or bf16 operands with an fp32
// accumulator, which is what PyTorch selects for set_float32_matmul_precision("high"/"medium").
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.cuh"
#include "cublas.h"
#include "matmul_precision.h"

#ifndef PARAVT_CUDA_EMU
namespace {

// cublas_api.h: cublasStatus_t is an enum with CUBLAS_STATUS_SUCCESS = 0; cublasOperation_t has
// CUBLAS_OP_N = 0, CUBLAS_OP_T = 1; cublasHandle_t is an opaque pointer.
typedef int cublas_status;
typedef void* cublas_handle;
typedef cublas_status (*create_fn)(cublas_handle*);
typedef cublas_status (*get_version_fn)(cublas_handle, int*);
typedef cublas_status (*set_stream_fn)(cublas_handle, cudaStream_t);
// cublasGemmEx(handle, transa, transb, m, n, k, alpha, A, Atype, lda, B, Btype, ldb, beta, C, Ctype,
// ldc, computeType, algo): cudaDataType_t CUDA_R_32F (library_types.h, which cuda_runtime.h
// includes); cublasComputeType_t CUBLAS_COMPUTE_32F = 68, _32F_FAST_TF32 = 77, _32F_FAST_16BF = 75;
// cublasGemmAlgo_t CUBLAS_GEMM_DEFAULT = -1 (cublas_api.h, CUDA 12 and 13).
typedef cublas_status (*gemm_ex_fn)(cublas_handle, int, int, int, int, int, const void*, const void*, int, int,
                                    const void*, int, int, const void*, void*, int, int, int, int);
enum { COMPUTE_32F = 68, COMPUTE_32F_FAST_TF32 = 77, COMPUTE_32F_FAST_16BF = 75, GEMM_DEFAULT = -1 };

struct Library {
  int state = 0;  // 0: not tried, 1: loaded, -1: none (reason in `why`)
  void* so = NULL;
  create_fn create = NULL;
  get_version_fn get_version = NULL;
  set_stream_fn set_stream = NULL;
  gemm_ex_fn gemm_ex = NULL;
  int version = 0;
  char path[200] = "";
  char why[256] = "";
  bool enabled = true;
};
Library g_lib;

// One handle per host thread: a handle's workspace must not be used by two threads at once.
thread_local cublas_handle t_handle = NULL;

bool load(Library& L) {
  const char* env = getenv("PARAVT_CUBLAS");
  if (env != NULL && strcmp(env, "0") == 0) {
    snprintf(L.why, sizeof(L.why), "PARAVT_CUBLAS=0");
    return false;
  }
  const char* candidates[] = {env, "libcublas.so.13", "libcublas.so.12"};
  char errors[256] = "";
  for (const char* name : candidates) {
    if (name == NULL || !*name) continue;
    L.so = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (L.so != NULL) {
      snprintf(L.path, sizeof(L.path), "%s", name);
      break;
    }
    if (!errors[0]) snprintf(errors, sizeof(errors), "%s", dlerror());
  }
  if (L.so == NULL) {
    snprintf(L.why, sizeof(L.why), "no libcublas (%.200s)", errors);
    return false;
  }
  L.create = (create_fn)dlsym(L.so, "cublasCreate_v2");
  L.get_version = (get_version_fn)dlsym(L.so, "cublasGetVersion_v2");
  L.set_stream = (set_stream_fn)dlsym(L.so, "cublasSetStream_v2");
  L.gemm_ex = (gemm_ex_fn)dlsym(L.so, "cublasGemmEx");
  if (!L.create || !L.get_version || !L.set_stream || !L.gemm_ex) {
    snprintf(L.why, sizeof(L.why), "%.150s lacks cublasCreate_v2/GetVersion_v2/SetStream_v2/GemmEx", L.path);
    return false;
  }
  cublas_handle h = NULL;
  cublas_status s = L.create(&h);
  if (s != 0) {
    snprintf(L.why, sizeof(L.why), "%.150s: cublasCreate_v2 failed (status %d)", L.path, s);
    return false;
  }
  L.get_version(h, &L.version);
  t_handle = h;
  return true;
}

}  // namespace

bool cublas_load(char* description, size_t len) {
  if (g_lib.state == 0) g_lib.state = load(g_lib) ? 1 : -1;
  if (g_lib.state == 1)
    snprintf(description, len, "cuBLAS %d.%d.%d (%s)", g_lib.version / 10000, g_lib.version / 100 % 100,
             g_lib.version % 100, g_lib.path);
  else
    snprintf(description, len, "own tiles (%s)", g_lib.why);
  return g_lib.state == 1;
}

bool cublas_active(void) { return g_lib.state == 1 && g_lib.enabled; }

void cublas_enable(bool on) { g_lib.enabled = on; }

void cublas_sgemm(bool trans_a, bool trans_b, int m, int n, int k, const float* A, int lda, const float* B, int ldb,
                  float beta, float* C, int ldc, int precision) {
  if (t_handle == NULL) {
    cublas_status s = g_lib.create(&t_handle);
    if (s != 0) {
      t_handle = NULL;
      char what[96];
      snprintf(what, sizeof(what), "cublasCreate_v2 for a new host thread returned status %d", s);
      cuda_fail_message(__FILE__, __LINE__, what);
    }
  }
  const float one = 1.0f;
  // The legacy default stream, where every kernel of this backend runs (ops_cuda.h).
  g_lib.set_stream(t_handle, 0);
  int compute = precision == MATMUL_BF16   ? COMPUTE_32F_FAST_16BF
                : precision == MATMUL_TF32 ? COMPUTE_32F_FAST_TF32
                                           : COMPUTE_32F;
  cublas_status s = g_lib.gemm_ex(t_handle, trans_a ? 1 : 0, trans_b ? 1 : 0, m, n, k, &one, A, (int)CUDA_R_32F, lda, B,
                                  (int)CUDA_R_32F, ldb, &beta, C, (int)CUDA_R_32F, ldc, compute, GEMM_DEFAULT);
  if (s != 0) {
    char what[160];
    snprintf(what, sizeof(what), "cublasGemmEx m=%d n=%d k=%d (compute type %d) returned status %d", m, n, k, compute,
             s);
    cuda_fail_message(__FILE__, __LINE__, what);
  }
}

#else  // the host emulation runs only kernels we write

bool cublas_load(char* description, size_t len) {
  snprintf(description, len, "own tiles (host emulation)");
  return false;
}
bool cublas_active(void) { return false; }
void cublas_enable(bool) {}
void cublas_sgemm(bool, bool, int, int, int, const float*, int, const float*, int, float, float*, int, int) {
  cuda_fail_message(__FILE__, __LINE__, "cublas_sgemm called in the host emulation");
}
#endif
