// End-to-end check of one training step against the versioned fixture (fixture.h): loads inputs
// and parameters from the file, recomputes forward, backward and one clipped AdamW step with the
// CPU reference, and compares logits, per-token losses, loss, every gradient, the gradient norm and
// the parameters after the step. Fails (exit 1) when the reference drifts.
// Usage: test_fixture [FIXTURE.bin] (default: the path given by the Makefile).
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <vector>

#include "../src/check.h"
#include "../src/model.h"
#include "../src/threadpool.h"
#include "fixture.h"
#include "test_util.h"

#ifndef FIXTURE_PATH
#define FIXTURE_PATH "fixtures/step-v1.bin"
#endif

int main(int argc, char** argv) {
  const char* path = argc > 1 ? argv[1] : FIXTURE_PATH;
  Suite s;
  FILE* f = fopenCheck(path, "rb");
  FixtureHeader h;
  freadCheck(&h, sizeof(h), 1, f);
  KERNEL_CHECK(h.magic == FIXTURE_MAGIC, "%s: bad magic 0x%08x", path, (unsigned)h.magic);
  KERNEL_CHECK(h.version == FIXTURE_VERSION, "%s: version %d, this test reads version %d", path, h.version,
               FIXTURE_VERSION);
  ModelConfig cfg = {h.vocab_size, h.context, h.width, h.layers, h.heads, h.frame_dim};
  Model m;
  model_init(&m, &cfg, 0, kernel_ops_cpu());
  KERNEL_CHECK((int32_t)m.num_params == h.num_params, "%s: %d params in the file, layout gives %zu", path,
               h.num_params, m.num_params);
  int B = h.B, T = h.T, N = B * T, V = cfg.vocab_size;
  size_t np = m.num_params;
  std::vector<int> inputs(N), targets(N);
  std::vector<float> mask(N), frames((size_t)N * cfg.frame_dim), params(np), logits((size_t)N * V), losses(N),
      grads(np), after(np);
  freadCheck(inputs.data(), sizeof(int), N, f);
  freadCheck(targets.data(), sizeof(int), N, f);
  freadCheck(mask.data(), sizeof(float), N, f);
  freadCheck(frames.data(), sizeof(float), frames.size(), f);
  freadCheck(params.data(), sizeof(float), np, f);
  freadCheck(logits.data(), sizeof(float), logits.size(), f);
  freadCheck(losses.data(), sizeof(float), N, f);
  freadCheck(grads.data(), sizeof(float), np, f);
  freadCheck(after.data(), sizeof(float), np, f);
  char extra;
  s.expect(fread(&extra, 1, 1, f) == 0, "%s: trailing bytes after the last array", path);
  fcloseCheck(f);
  printf("fixture %s: V=%d T=%d C=%d L=%d H=%d P=%d, batch %dx%d, %zu params\n", path, cfg.vocab_size, cfg.context,
         cfg.width, cfg.layers, cfg.heads, cfg.frame_dim, B, T, np);

  model_set_params(&m, params.data());
  model_forward(&m, inputs.data(), slot_rows(inputs.data(), frames.data(), N, cfg.frame_dim).data(), targets.data(),
                mask.data(), B, T);
  std::vector<float> got_logits(logits.size()), got_losses(N), got_grads(np), got_after(np);
  model_get_logits(&m, got_logits.data());
  model_get_losses(&m, got_losses.data());
  s.close("logits", got_logits.data(), logits.data(), logits.size(), 1e-5, 1e-4);
  s.close("per-token losses", got_losses.data(), losses.data(), N, 1e-5, 1e-4);
  float loss = (float)m.loss;
  s.close("loss", &loss, &h.loss, 1, 1e-5, 1e-5);
  model_backward(&m, 0);
  model_get_grads(&m, got_grads.data());
  for (int i = 0; i < NUM_PARAM_TENSORS; i++) {
    const ParamInfo* p = &m.layout[i];
    char name[64];
    snprintf(name, sizeof(name), "grad %s", p->name);
    s.close(name, got_grads.data() + p->offset, grads.data() + p->offset, p->numel, 1e-6, 1e-3);
  }
  AdamWConfig opt = {h.lr, h.beta1, h.beta2, h.eps, h.weight_decay, h.max_grad_norm};
  UpdateResult u;
  model_update(&m, &opt, &u);
  float norm = (float)u.grad_norm;
  s.close("grad norm", &norm, &h.grad_norm, 1, 1e-6, 1e-4);
  s.close("clip scale", &u.scale, &h.clip_scale, 1, 1e-6, 1e-4);
  s.expect(h.clip_scale < 1.0f, "the fixture must exercise clipping (scale %g)", (double)h.clip_scale);
  model_get_params(&m, got_after.data());
  s.close("params after AdamW", got_after.data(), after.data(), np, 1e-6, 1e-4);
  model_free(&m);
  pool_shutdown();
  return s.finish("test_fixture");
}
