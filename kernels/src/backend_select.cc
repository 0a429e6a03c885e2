// backend_select.cc: which op table new models get, and the CUDA backend loaded at run time.
//
// Design. The addon is always a CPU build (node-gyp, no nvcc needed). Where nvcc was found at
// build time, scripts/build.mjs also builds the CUDA backend as its own library,
// libparavt_cuda.so, next to the addon; cuda_backend_probe() dlopens it (or PARAVT_CUDA_LIBRARY)
// and asks it for a device. So one addon serves every machine: without the library, the driver or
// a device, the probe says exactly which of those is missing and the CPU core stays in use.
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <string>

#include "backend.h"
#include "check.h"
#include "cuda/ops_cuda.h"

static const KernelOps* g_active = nullptr;
static bool g_probed = false;
static const KernelOps* g_cuda = nullptr;
static CudaDeviceInfo g_cuda_info;
static std::string g_cuda_reason;

const KernelOps* kernel_ops_active(void) { return g_active ? g_active : kernel_ops_cpu(); }

[[noreturn]] static void host_fail(const char* message) { throw KernelError(message); }

// The directory of the binary this function lives in (the addon, or a test binary).
static std::string own_directory() {
  Dl_info info;
  if (dladdr((void*)&own_directory, &info) == 0 || info.dli_fname == nullptr) return ".";
  std::string path = info.dli_fname;
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

const KernelOps* cuda_backend_probe(const CudaDeviceInfo** info, const char** reason) {
  if (!g_probed) {
    g_probed = true;
    const char* env = getenv("PARAVT_CUDA_LIBRARY");
    std::string lib = env && *env ? env : own_directory() + "/libparavt_cuda.so";
    void* handle = dlopen(lib.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
      const char* e = dlerror();
      g_cuda_reason = std::string("this build has no CUDA backend (") + (e ? e : lib.c_str()) +
                      "; it is built where nvcc is found: node kernels/scripts/build.mjs)";
    } else {
      typedef const KernelOps* (*Entry)(const CudaHostHooks*, CudaDeviceInfo*, char*, size_t);
      Entry entry = (Entry)dlsym(handle, "paravt_cuda_backend");
      if (entry == nullptr) {
        g_cuda_reason = lib + " has no paravt_cuda_backend entry";
      } else {
        CudaHostHooks hooks{host_fail};
        char err[512] = "";
        g_cuda = entry(&hooks, &g_cuda_info, err, sizeof(err));
        if (g_cuda == nullptr) g_cuda_reason = err;
      }
    }
  }
  if (info) *info = g_cuda ? &g_cuda_info : nullptr;
  if (reason) *reason = g_cuda ? nullptr : g_cuda_reason.c_str();
  return g_cuda;
}

void kernel_ops_use(const char* name) {
  if (strcmp(name, "cpu") == 0) {
    g_active = kernel_ops_cpu();
    return;
  }
  KERNEL_CHECK(strcmp(name, "cuda") == 0, "unknown backend '%s' (cpu or cuda)", name);
  const char* reason = nullptr;
  const KernelOps* ops = cuda_backend_probe(nullptr, &reason);
  KERNEL_CHECK(ops != nullptr, "the CUDA backend is not available: %s", reason);
  g_active = ops;
}
