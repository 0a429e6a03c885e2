// The CUDA core's side of the device benchmark (scripts/device-check.sh, issue 39 item 5), on the
// same shapes and batch layout as bench/kernels/torch_step.py, each the best of `reps` after a
// warm-up: an SFT step (forward + backward + clipped AdamW), an RL step (the rollout's
// log-probabilities, then the decoupled PPO loss with token-mean aggregation and kl 0, backward,
// clipped AdamW: torch_step.py --rl), and greedy decoding tokens/s at batch 1, 8 and 64 (32-token
// prompt, 128 new tokens, logits to the host each step). Prints one JSON line.
// A measurement tool, not a test. Usage: bench_cuda B T V C L H P reps
#include <stdio.h>
#include <stdlib.h>

#include <chrono>
#include <vector>

#include "../src/backend.h"
#include "../src/check.h"
#include "../src/cuda/ops_cuda.h"
#include "../src/model.h"
#include "test_util.h"

static double now_ms() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
static void host_fail(const char* message) { throw KernelError(message); }

int main(int argc, char** argv) {
  int v[8] = {8, 512, 1137, 128, 4, 4, 48, 5};
  for (int i = 1; i < argc && i <= 8; i++) v[i - 1] = atoi(argv[i]);
  int B = v[0], T = v[1], reps = v[7];
  ModelConfig cfg = {v[2], T > 2048 ? T : 2048, v[3], v[4], v[5], v[6]};
  CudaHostHooks hooks{host_fail};
  CudaDeviceInfo info;
  char err[512];
  const KernelOps* ops = paravt_cuda_backend(&hooks, &info, err, sizeof(err));
  if (!ops) {
    fprintf(stderr, "bench_cuda: %s\n", err);
    return 2;
  }
  Model m;
  model_init(&m, &cfg, 1, ops);
  Rng r(3);
  int N = B * T;
  std::vector<int> inputs(N), targets(N);
  std::vector<float> mask(N, 1.0f), frames((size_t)N * cfg.frame_dim);
  for (int i = 0; i < N; i++) {
    bool frame = (i % T) % 40 < 8;  // 8 frame slots in every 40 positions, as torch_step.py
    inputs[i] = frame ? FRAME_TOKEN : r.below(cfg.vocab_size);
    targets[i] = r.below(cfg.vocab_size);
    if (frame)
      for (int p = 0; p < cfg.frame_dim; p++) frames[(size_t)i * cfg.frame_dim + p] = r.range(0, 1);
  }
  std::vector<float> slots = slot_rows(inputs.data(), frames.data(), (size_t)N, cfg.frame_dim);
  AdamWConfig opt = {1e-4f, 0.9f, 0.95f, 1e-8f, 0.1f, 1.0f};
  UpdateResult u;
  double best = 1e30, fwd = 0, bwd = 0, upd = 0;
  float probe;
  for (int rep = 0; rep <= reps; rep++) {
    double t0 = now_ms();
    model_forward(&m, inputs.data(), slots.data(), targets.data(), mask.data(), B, T);  // downloads: synchronous
    double t1 = now_ms();
    model_backward(&m, 0);
    ops->download(&probe, m.grads, sizeof(float));  // waits for the backward kernels
    double t2 = now_ms();
    model_update(&m, &opt, &u);
    ops->download(&probe, m.params, sizeof(float));
    double t3 = now_ms();
    if (rep > 0 && t3 - t0 < best) best = t3 - t0, fwd = t1 - t0, bwd = t2 - t1, upd = t3 - t2;
  }
  // The RL step: one advantage per sequence, the same clip as torch_step.py (CLIP_LOW, CLIP_HIGH).
  std::vector<float> adv(N), old_logp(N);
  for (int b = 0; b < B; b++) {
    float a = r.range(-1, 1);
    for (int t = 0; t < T; t++) adv[(size_t)b * T + t] = a;
  }
  PolicyLossConfig pc{{0.2f, 0.28f, 0.0f, 2.0f, KL_K3, CAP_TRUNCATE}, AGG_TOKEN_MEAN, 0.0};
  PolicyLossResult pr;
  double rl_best = 1e30;
  for (int rep = 0; rep <= reps; rep++) {
    double t0 = now_ms();
    model_logprobs(&m, inputs.data(), slots.data(), targets.data(), mask.data(), B, T, old_logp.data(), NULL);
    model_policy_forward(&m, inputs.data(), slots.data(), targets.data(), mask.data(), adv.data(), old_logp.data(),
                         NULL, NULL, &pc, B, T, &pr);
    model_backward(&m, 0);
    model_update(&m, &opt, &u);
    ops->download(&probe, m.params, sizeof(float));
    double ms = now_ms() - t0;
    if (rep > 0 && ms < rl_best) rl_best = ms;
  }
  printf("{\"engine\":\"cuda core\",\"matmul\":\"%s\",\"device\":\"%s\",\"params\":%zu,\"B\":%d,\"T\":%d,\"step_ms\":%.3f,"
         "\"forward_ms\":%.3f,\"backward_ms\":%.3f,\"update_ms\":%.3f,\"tokens_per_s\":%.1f,\"rl_step_ms\":%.3f,"
         "\"decode\":{",
         info.matmul, info.name, m.num_params, B, T, best, fwd, bwd, upd, N / best * 1000.0, rl_best);
  fflush(stdout);
  const int prompt = 32, gen = 128;
  int first = 1;
  for (int db : {1, 8, 64}) {
    Decoder d;
    decoder_init(&d, &m, db);
    std::vector<int> toks((size_t)db * prompt), next(db);
    for (size_t i = 0; i < toks.size(); i++) toks[i] = (int)((i * 37) % cfg.vocab_size);
    std::vector<float> logits((size_t)db * cfg.vocab_size);
    double t0 = now_ms();
    decoder_step(&d, toks.data(), NULL, prompt, logits.data());
    for (int k = 0; k < gen; k++) {
      for (int b = 0; b < db; b++) {
        const float* row = logits.data() + (size_t)b * cfg.vocab_size;
        int bi = 0;
        for (int i = 1; i < cfg.vocab_size; i++) bi = row[i] > row[bi] ? i : bi;
        next[b] = bi;
      }
      decoder_step(&d, next.data(), NULL, 1, logits.data());
    }
    double ms = now_ms() - t0;
    printf("%s\"%d\":%.1f", first ? "" : ",", db, db * (gen + 1) / ms * 1000.0);
    first = 0;
    decoder_free(&d);
  }
  printf("}}\n");
  model_free(&m);
  return 0;
}
