// Where a training step of the core spends its time: builds a model of the given shape, runs
// forward + backward + AdamW on a random batch through a copy of the CPU table whose every entry
// is wrapped in a timer, and prints milliseconds per op (best of --reps steps after one warm-up)
// and the step's tokens/s. A measurement tool (like llm.c's dev/), not a test: no assertions.
// With one thread it reports the thread's CPU time (robust on a shared machine), else wall time.
// Built with -DPARAVT_PROFILE_CUDA (make -C kernels/test cuda: build/test/cuda/profile_step_cuda) it
// profiles the CUDA backend instead, synchronising the device around every op (so the per-op times
// add up to more than an unsynchronised step: the launch gaps are counted in).
// Usage: profile_step [B T V C L H P threads reps]   defaults: the default checkpoint's shape,
//        batch 8 x 384 (bench/nano's trainer: mean example ~370 tokens), all threads, 3 reps.
#include <time.h>

#include <chrono>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vector>

#include "../src/backend.h"
#ifdef PARAVT_PROFILE_CUDA
#include <cuda_runtime.h>

#include "../src/check.h"
#include "../src/cuda/ops_cuda.h"
static void device_sync() { cudaDeviceSynchronize(); }
static void host_fail(const char* message) { throw KernelError(message); }
#else
static void device_sync() {}
#endif
#include "../src/model.h"
#include "../src/threadpool.h"
#include "test_util.h"

// With one thread every op runs on the calling thread, so its CPU time is the measure: unlike wall
// time it does not count the moments other processes of a busy machine held the core.
static bool g_cpu_time = false;
static double now_ms() {
  if (g_cpu_time) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
  }
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

enum { kMaxOps = 32 };
static const char* g_names[kMaxOps];
static double g_ms[kMaxOps];
static KernelOps g_base;

// Runs f() and adds its wall time to slot; returns what f returns (void or a value).
template <class F>
static auto timed(int slot, F f) {
  device_sync();
  struct Guard {
    int slot;
    double t0;
    ~Guard() {
      device_sync();
      g_ms[slot] += now_ms() - t0;
    }
  } guard{slot, now_ms()};
  return f();
}

// A captureless generic lambda converts to the entry's exact function-pointer type.
#define WRAP(slot, op)                                                                  \
  g_names[slot] = #op;                                                                  \
  ops.op = [](auto... a) { return timed(slot, [&] { return g_base.op(a...); }); };

static KernelOps timed_table() {
#ifdef PARAVT_PROFILE_CUDA
  static CudaHostHooks hooks{host_fail};
  static CudaDeviceInfo info;
  char err[512];
  const KernelOps* cuda = paravt_cuda_backend(&hooks, &info, err, sizeof(err));
  if (cuda == NULL) {
    fprintf(stderr, "profile_step_cuda: %s\n", err);
    exit(2);
  }
  printf("%s; matmul: %s\n", info.name, info.matmul);
  g_base = *cuda;
#else
  g_base = *kernel_ops_cpu();
#endif
  KernelOps ops = g_base;
  WRAP(0, zero)
  WRAP(1, encoder_forward)
  WRAP(2, encoder_backward)
  WRAP(3, frame_proj_forward)
  WRAP(4, frame_proj_backward)
  WRAP(5, layernorm_forward)
  WRAP(6, layernorm_backward)
  WRAP(7, matmul_forward)
  WRAP(8, matmul_backward)
  WRAP(9, attention_forward)
  WRAP(10, attention_backward)
  WRAP(11, gelu_forward)
  WRAP(12, gelu_backward)
  WRAP(13, residual_forward)
  WRAP(14, residual_backward)
  WRAP(15, softmax_crossentropy_forward)
  WRAP(16, softmax_crossentropy_backward)
  WRAP(17, argmax_rows)
  WRAP(18, sumsq)
  WRAP(19, adamw)
  WRAP(20, copy)
  WRAP(21, token_logprobs)
  WRAP(22, policy_loss)
  return ops;
}

int main(int argc, char** argv) {
  int v[9] = {8, 384, 1137, 128, 4, 4, 48, 0, 3};  // B T V C L H P threads reps
  for (int i = 1; i < argc && i <= 9; i++) v[i - 1] = atoi(argv[i]);
  int B = v[0], T = v[1], threads = v[7], reps = v[8];
  ModelConfig cfg = {v[2], T > 2048 ? T : 2048, v[3], v[4], v[5], v[6]};
  pool_set_threads(threads);
  g_cpu_time = pool_get_threads() == 1;
  static KernelOps ops = timed_table();
  Model m;
  model_init(&m, &cfg, 1, &ops);
  Rng r(3);
  int N = B * T;
  std::vector<int> inputs(N), targets(N);
  std::vector<float> mask(N, 1.0f), frames((size_t)N * cfg.frame_dim);
  for (int i = 0; i < N; i++) {
    bool frame = (i % T) % 40 < 8;  // 8 frame slots in every 40 positions, like an overview
    inputs[i] = frame ? FRAME_TOKEN : r.below(cfg.vocab_size);
    targets[i] = r.below(cfg.vocab_size);
    if (frame)
      for (int p = 0; p < cfg.frame_dim; p++) frames[(size_t)i * cfg.frame_dim + p] = r.range(0, 1);
  }
  std::vector<float> slots = slot_rows(inputs.data(), frames.data(), (size_t)N, cfg.frame_dim);
  AdamWConfig opt = {1e-4f, 0.9f, 0.95f, 1e-8f, 0.1f, 1.0f};
  UpdateResult u;
  std::vector<double> best(kMaxOps, 1e30);
  double best_step = 1e30, best_fwd = 0, best_bwd = 0, best_upd = 0;
  for (int rep = 0; rep <= reps; rep++) {  // rep 0 warms up
    memset(g_ms, 0, sizeof(g_ms));
    double t0 = now_ms();
    model_forward(&m, inputs.data(), slots.data(), targets.data(), mask.data(), B, T);
    double t1 = now_ms();
    model_backward(&m, 0);
    double t2 = now_ms();
    model_update(&m, &opt, &u);
    double t3 = now_ms();
    if (rep == 0 || t3 - t0 >= best_step) continue;
    best_step = t3 - t0, best_fwd = t1 - t0, best_bwd = t2 - t1, best_upd = t3 - t2;
    for (int i = 0; i < kMaxOps; i++) best[i] = g_ms[i];
  }
  printf("B=%d T=%d V=%d C=%d L=%d H=%d P=%d threads=%d: %zu params\n", B, T, cfg.vocab_size, cfg.width,
         cfg.layers, cfg.heads, cfg.frame_dim, pool_get_threads(), m.num_params);
  printf("%s, ", g_cpu_time ? "thread CPU time" : "wall time");
  printf("step %.1f ms (forward %.1f, backward %.1f, update %.1f): %.0f tokens/s\n", best_step, best_fwd, best_bwd,
         best_upd, N / best_step * 1000.0);
  for (int i = 0; i < kMaxOps; i++)
    if (g_names[i] != NULL && best[i] >= 0.05) printf("  %-30s %8.1f ms\n", g_names[i], best[i]);
  model_free(&m);
  pool_shutdown();
  return 0;
}
