// Writes test/fixtures/step-v1.bin (format in fixture.h): a tiny model with frame slots and a
// partial loss mask, initialised from a fixed seed, one forward, backward and clipped AdamW step
// with the CPU reference. Usage: gen_fixture OUT.bin. Regenerate only on purpose: the fixture is
// what catches drift of the reference.
#include <stdio.h>
#include <string.h>

#include <vector>

#include "../src/check.h"
#include "../src/model.h"
#include "../src/threadpool.h"
#include "fixture.h"
#include "test_util.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s OUT.bin\n", argv[0]);
    return 2;
  }
  const uint64_t seed = 20260001;
  ModelConfig cfg = {48, 12, 16, 2, 2, 12};  // V T C L H P
  int B = 2, T = 10;
  Model m;
  model_init(&m, &cfg, seed, kernel_ops_cpu());
  Rng r(seed + 1);
  int N = B * T, P = cfg.frame_dim;
  std::vector<int> inputs(N), targets(N);
  std::vector<float> mask(N), frames((size_t)N * P, 0.0f);
  for (int i = 0; i < N; i++) {
    int t = i % T;
    bool frame = t == 2 || t == 3 || t == 6;  // two frame slots, then one more after text
    inputs[i] = frame ? FRAME_TOKEN : r.below(cfg.vocab_size);
    targets[i] = r.below(cfg.vocab_size);
    mask[i] = (t >= 4 && !frame) ? 1.0f : 0.0f;  // loss on the "answer" part only
    if (frame)
      for (int p = 0; p < P; p++) frames[(size_t)i * P + p] = r.range(0, 1);
  }
  FixtureHeader h;
  memset(&h, 0, sizeof(h));
  h.magic = FIXTURE_MAGIC;
  h.version = FIXTURE_VERSION;
  h.vocab_size = cfg.vocab_size, h.context = cfg.context, h.width = cfg.width;
  h.layers = cfg.layers, h.heads = cfg.heads, h.frame_dim = cfg.frame_dim;
  h.B = B, h.T = T, h.num_params = (int32_t)m.num_params, h.seed = (int32_t)seed;
  AdamWConfig opt = {1e-2f, 0.9f, 0.95f, 1e-6f, 0.1f, 0.5f};
  h.lr = opt.lr, h.beta1 = opt.beta1, h.beta2 = opt.beta2, h.eps = opt.eps;
  h.weight_decay = opt.weight_decay, h.max_grad_norm = opt.max_grad_norm;

  size_t np = m.num_params;
  std::vector<float> params(np), logits((size_t)N * cfg.vocab_size), losses(N), grads(np), after(np);
  model_get_params(&m, params.data());
  model_forward(&m, inputs.data(), slot_rows(inputs.data(), frames.data(), N, P).data(), targets.data(), mask.data(), B,
                T);
  model_get_logits(&m, logits.data());
  model_get_losses(&m, losses.data());
  model_backward(&m, 0);
  model_get_grads(&m, grads.data());
  UpdateResult u;
  model_update(&m, &opt, &u);
  model_get_params(&m, after.data());
  h.loss = (float)m.loss, h.grad_norm = (float)u.grad_norm, h.clip_scale = u.scale, h.mask_sum = (float)m.mask_sum;

  FILE* f = fopenCheck(argv[1], "wb");
  fwriteCheck(&h, sizeof(h), 1, f);
  fwriteCheck(inputs.data(), sizeof(int), N, f);
  fwriteCheck(targets.data(), sizeof(int), N, f);
  fwriteCheck(mask.data(), sizeof(float), N, f);
  fwriteCheck(frames.data(), sizeof(float), frames.size(), f);
  fwriteCheck(params.data(), sizeof(float), np, f);
  fwriteCheck(logits.data(), sizeof(float), logits.size(), f);
  fwriteCheck(losses.data(), sizeof(float), N, f);
  fwriteCheck(grads.data(), sizeof(float), np, f);
  fwriteCheck(after.data(), sizeof(float), np, f);
  long bytes = ftell(f);
  fcloseCheck(f);
  printf("wrote %s: %ld bytes, %zu params, loss %.6f, grad norm %.6f, clip scale %.6f\n", argv[1], bytes, np,
         (double)h.loss, (double)h.grad_norm, (double)h.clip_scale);
  model_free(&m);
  pool_shutdown();
  return 0;
}
