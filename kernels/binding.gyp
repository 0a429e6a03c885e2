{
  # The N-API addon of the compute core: the CPU reference (always) and the binding.
  # C++ exceptions are ON (NAPI_CPP_EXCEPTIONS + NODE_ADDON_API_CPP_EXCEPTIONS_ALL): the core reports
  # failures as KernelError (check.h) and node-addon-api turns any escaping std::exception into a
  # JS Error instead of aborting the process. Built by scripts/build.mjs. The CUDA backend is not in
  # this target: build.mjs builds it with nvcc as libparavt_cuda.so beside the addon, which loads
  # it at run time (src/backend_select.cc).
  "targets": [
    {
      "target_name": "paravt_kernels",
      "sources": [
        "src/addon.cc",
        "src/backend_cpu.cc",
        "src/backend_select.cc",
        "src/check.cc",
        "src/cpu_avx2.cc",
        "src/cpu_avx512.cc",
        "src/cpu_isa.cc",
        "src/cpu_portable.cc",
        "src/model.cc",
        "src/ops_cpu.cc",
        "src/threadpool.cc"
      ],
      "include_dirs": ["<!(node -p \"require('node-addon-api').include_dir\")"],
      "defines": ["NAPI_VERSION=8", "NAPI_CPP_EXCEPTIONS", "NODE_ADDON_API_CPP_EXCEPTIONS_ALL"],
      "cflags!": ["-fno-exceptions"],
      "cflags_cc!": ["-fno-exceptions", "-fno-rtti", "-std=gnu++17", "-std=gnu++20"],
      "cflags": ["-O3", "-ffp-contract=off"],
      "cflags_cc": ["-std=c++17", "-pthread", "-fexceptions", "-Wall", "-Wextra"],
      "ldflags": ["-pthread"],
      "libraries": ["-ldl"],
      "xcode_settings": {
        "GCC_ENABLE_CPP_EXCEPTIONS": "YES",
        "CLANG_CXX_LANGUAGE_STANDARD": "c++17",
        "GCC_OPTIMIZATION_LEVEL": "3",
        "OTHER_CPLUSPLUSFLAGS": ["-pthread"]
      },
      "msvs_settings": {"VCCLCompilerTool": {"ExceptionHandling": 1, "AdditionalOptions": ["/std:c++17"]}}
    }
  ]
}
