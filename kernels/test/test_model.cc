// Checks of the whole model: finite-difference gradients of the masked loss with respect to every
// parameter tensor, KV-cache decoding against full forwards, thread-count invariance of a full
// step, loss-mask semantics, gradient accumulation, clipping, weight decay, non-finite gradients
// and the memory limit. Exits non-zero on any mismatch.
#include <math.h>
#include <string.h>

#include <vector>

#include "../src/check.h"
#include "../src/model.h"
#include "../src/threadpool.h"
#include "test_util.h"

typedef std::vector<float> Vec;

struct Batch {
  int B, T;
  std::vector<int> inputs, targets;
  Vec mask, frames;  // frames dense [B*T, P]
  Vec slots;         // the frame slots' rows, what the model takes (slot_rows)
};

static Batch make_batch(const ModelConfig& c, int B, int T, Rng& r) {
  Batch b{B, T, std::vector<int>(B * T), std::vector<int>(B * T), Vec(B * T), Vec((size_t)B * T * c.frame_dim), Vec()};
  for (int i = 0; i < B * T; i++) {
    int t = i % T;
    bool frame = (t == 1 || t == 2) && (i / T) % 2 == 0;  // frame slots in even sequences
    b.inputs[i] = frame ? FRAME_TOKEN : r.below(c.vocab_size);
    b.targets[i] = r.below(c.vocab_size);
    b.mask[i] = t == 0 ? 0.0f : (t == 3 ? 0.5f : 1.0f);  // masked-out and weighted positions
    if (frame)
      for (int p = 0; p < c.frame_dim; p++) b.frames[(size_t)i * c.frame_dim + p] = r.range(0, 1);
  }
  b.slots = slot_rows(b.inputs.data(), b.frames.data(), (size_t)B * T, c.frame_dim);
  return b;
}

static void forward(Model* m, const Batch& b) {
  model_forward(m, b.inputs.data(), b.slots.data(), b.targets.data(), b.mask.data(), b.B, b.T);
}

// Parameters drawn wider than the GPT-2 init so that every path carries a visible gradient.
static void randomize(Model* m, Rng& r) {
  Vec p(m->num_params);
  r.fill(p, -0.3f, 0.3f);
  for (int i : {P_LN1_W, P_LN2_W, P_LNF_W})
    for (size_t k = 0; k < m->layout[i].numel; k++) p[m->layout[i].offset + k] += 1.0f;
  model_set_params(m, p.data());
}

static void check_gradients(Suite& s, Rng& r) {
  printf("full model: finite differences of the masked loss wrt every parameter tensor\n");
  ModelConfig c = {11, 6, 8, 2, 2, 5};
  Model m;
  model_init(&m, &c, 7, kernel_ops_cpu());
  randomize(&m, r);
  Batch b = make_batch(c, 2, 6, r);
  forward(&m, b);
  model_backward(&m, 0);
  Vec g(m.num_params);
  model_get_grads(&m, g.data());
  auto loss = [&] {
    forward(&m, b);
    return m.loss;
  };
  for (int i = 0; i < NUM_PARAM_TENSORS; i++) {
    const ParamInfo* p = &m.layout[i];
    s.grad_check(p->name, m.params + p->offset, p->numel, g.data() + p->offset, loss, r, 24, 3e-3, 2e-4, 1e-2);
  }
  model_free(&m);
}

// The policy-gradient loss end to end: parameter gradients of model_policy_forward + model_backward
// against finite differences of the returned loss, with a proximal policy, capped behaviour weights,
// clipped tokens, the k3 KL and per-sequence aggregation; then an SFT forward after it backpropagates
// the SFT loss again.
static void check_policy_gradients(Suite& s, Rng& r) {
  printf("full model: finite differences of the policy loss (decoupled PPO + KL) wrt every parameter tensor\n");
  ModelConfig c = {11, 6, 8, 2, 2, 5};
  Model m;
  model_init(&m, &c, 9, kernel_ops_cpu());
  randomize(&m, r);
  Batch b = make_batch(c, 2, 6, r);
  int N = b.B * b.T;
  for (int i = 0; i < N; i++) b.mask[i] = b.mask[i] > 0 ? 1.0f : 0.0f;  // generated tokens only
  Vec logp(N), old(N), prox(N), ref(N), adv(N);
  model_logprobs(&m, b.inputs.data(), b.slots.data(), b.targets.data(), b.mask.data(), b.B, b.T, logp.data(), NULL);
  const float log_ratios[] = {-0.6f, -0.35f, 0.0f, 0.07f, 0.45f, -0.08f};  // >= 5% from the clip edges
  for (int i = 0; i < N; i++) {
    prox[i] = logp[i] - log_ratios[i % 6];
    old[i] = prox[i] - (i % 4 == 1 ? 2.0f : r.range(-0.4f, 0.4f));  // w = e^2 > cap 5 every 4th token
    ref[i] = logp[i] + r.range(-0.5f, 0.5f);
    adv[i] = i / b.T == 0 ? 1.3f : -0.7f;
  }
  PolicyLossConfig cfg = {{0.2f, 0.28f, 0.1f, 5.0f, KL_K3, CAP_TRUNCATE}, AGG_SEQ_MEAN_TOKEN_MEAN, 0.0};
  PolicyLossResult res;
  auto loss = [&] {
    model_policy_forward(&m, b.inputs.data(), b.slots.data(), b.targets.data(), b.mask.data(), adv.data(),
                         old.data(), prox.data(), ref.data(), &cfg, b.B, b.T, &res);
    return res.loss;
  };
  loss();
  s.expect(res.clip_fraction > 0 && res.capped_fraction > 0 && res.sequences == 2,
           "policy: the batch must exercise clipping (%g) and the cap (%g)", res.clip_fraction, res.capped_fraction);
  model_backward(&m, 0);
  Vec g(m.num_params);
  model_get_grads(&m, g.data());
  for (int i = 0; i < NUM_PARAM_TENSORS; i++) {
    const ParamInfo* p = &m.layout[i];
    char name[64];
    snprintf(name, sizeof(name), "policy %s", p->name);
    s.grad_check(name, m.params + p->offset, p->numel, g.data() + p->offset, loss, r, 16, 3e-3, 2e-4, 1e-2);
  }
  // An SFT forward after a policy forward: backward must take the SFT loss's gradient again.
  Model ref_model;
  model_init(&ref_model, &c, 9, kernel_ops_cpu());
  Vec params(m.num_params), g_sft(m.num_params), g_ref(m.num_params);
  model_get_params(&m, params.data());
  model_set_params(&ref_model, params.data());
  forward(&m, b);
  model_backward(&m, 0);
  model_get_grads(&m, g_sft.data());
  forward(&ref_model, b);
  model_backward(&ref_model, 0);
  model_get_grads(&ref_model, g_ref.data());
  s.expect(memcmp(g_sft.data(), g_ref.data(), g.size() * sizeof(float)) == 0,
           "policy: an SFT forward after a policy forward must backpropagate the SFT loss");
  model_free(&ref_model);
  model_free(&m);
}

static void check_decode(Suite& s, Rng& r) {
  printf("KV-cache decoding vs full forward (prefill 2, then 1, 1, 3)\n");
  ModelConfig c = {13, 8, 12, 2, 3, 4};
  Model m;
  model_init(&m, &c, 11, kernel_ops_cpu());
  randomize(&m, r);
  int B = 2, T = 7, V = c.vocab_size, P = c.frame_dim;
  Batch b = make_batch(c, B, T, r);
  model_forward(&m, b.inputs.data(), b.slots.data(), NULL, NULL, B, T);
  Vec full((size_t)B * T * V);
  model_get_logits(&m, full.data());
  Decoder d;
  decoder_init(&d, &m, B);
  for (int round = 0; round < 2; round++) {  // the second round checks reset()
    decoder_reset(&d);
    int pos = 0;
    for (int n : {2, 1, 1, 3}) {
      std::vector<int> tok(B * n);
      Vec fr((size_t)B * n * P), logits((size_t)B * V), ref((size_t)B * V);
      for (int bb = 0; bb < B; bb++) {
        memcpy(&tok[bb * n], &b.inputs[bb * T + pos], sizeof(int) * n);
        memcpy(&fr[(size_t)bb * n * P], &b.frames[((size_t)bb * T + pos) * P], sizeof(float) * n * P);
        memcpy(&ref[(size_t)bb * V], &full[((size_t)bb * T + pos + n - 1) * V], sizeof(float) * V);
      }
      decoder_step(&d, tok.data(), slot_rows(tok.data(), fr.data(), tok.size(), P).data(), n, logits.data());
      pos += n;
      char name[64];
      snprintf(name, sizeof(name), "decode logits at position %d", pos - 1);
      if (round == 0 || pos == T) s.close(name, logits.data(), ref.data(), logits.size(), 1e-5, 1e-5);
    }
  }
  bool threw = false;
  try {
    std::vector<int> tok(B * 2, 0);
    Vec logits((size_t)B * V);
    decoder_step(&d, tok.data(), NULL, 2, logits.data());  // 7 + 2 > context 8
  } catch (const KernelError& e) {
    threw = strstr(e.what(), "exceeds the context") != NULL;
  }
  s.expect(threw, "decoding past the context must throw");
  decoder_free(&d);
  model_free(&m);
}

static void check_threads_and_semantics(Suite& s, Rng& r) {
  printf("full step: thread-count invariance, mask, accumulation, clipping, weight decay\n");
  ModelConfig c = {17, 9, 16, 2, 4, 6};
  Model m;
  model_init(&m, &c, 3, kernel_ops_cpu());
  Batch b = make_batch(c, 3, 9, r);
  size_t np = m.num_params;
  Vec g1(np), g3(np);
  ops_set_chunk_work(64);  // small chunks: the tiny model still splits across threads
  pool_set_threads(1);
  forward(&m, b);
  double loss1 = m.loss;
  model_backward(&m, 0);
  model_get_grads(&m, g1.data());
  pool_set_threads(3);
  forward(&m, b);
  model_backward(&m, 0);
  model_get_grads(&m, g3.data());
  pool_set_threads(0);
  ops_set_chunk_work(0);
  s.expect(loss1 == m.loss && memcmp(g1.data(), g3.data(), np * sizeof(float)) == 0,
           "loss or gradients differ between 1 and 3 threads");

  // Loss is the mask-weighted mean of the per-token losses.
  Vec losses(b.B * b.T);
  model_get_losses(&m, losses.data());
  double num = 0, den = 0;
  for (size_t i = 0; i < losses.size(); i++) num += (double)b.mask[i] * losses[i], den += b.mask[i];
  s.expect(fabs(num / den - m.loss) < 1e-9 && m.mask_sum == den, "loss %g is not the masked mean %g", m.loss,
           num / den);
  s.expect(losses[0] == 0.0f, "a masked-out position must have loss 0");

  // Accumulation: two backwards of the same batch give twice the gradient.
  model_backward(&m, 1);
  Vec g2(np);
  model_get_grads(&m, g2.data());
  Vec twice(np);
  for (size_t i = 0; i < np; i++) twice[i] = 2 * g3[i];
  s.close("accumulated gradients", g2.data(), twice.data(), np, 1e-7, 1e-6);

  // Clipping: scale = max / (norm + 1e-6) and the first moment sees the scaled gradient.
  forward(&m, b);
  model_backward(&m, 0);
  double norm = sqrt(kernel_ops_cpu()->sumsq(m.grads, (int64_t)np));
  AdamWConfig opt = {1e-3f, 0.9f, 0.95f, 1e-8f, 0.0f, (float)(norm / 2)};
  UpdateResult u;
  model_update(&m, &opt, &u);
  s.expect(fabs(u.grad_norm - norm) < 1e-9 * norm && fabs(u.scale - opt.max_grad_norm / (norm + 1e-6)) < 1e-6,
           "clipping: norm %g (expected %g), scale %g", u.grad_norm, norm, (double)u.scale);
  Vec mm(np), vv(np), mref(np);
  model_get_moments(&m, mm.data(), vv.data());
  for (size_t i = 0; i < np; i++) mref[i] = (1 - opt.beta1) * u.scale * g3[i];
  s.close("first moment after a clipped step", mm.data(), mref.data(), np, 1e-9, 1e-5);
  s.expect(u.step == 1 && m.state == 0, "update must count the step and invalidate the forward");
  bool threw = false;
  try {
    model_backward(&m, 0);
  } catch (const KernelError&) {
    threw = true;
  }
  s.expect(threw, "backward after an update must throw");

  // Weight decay: with zero gradients only decayed tensors move, by lr * wd * p.
  Vec mask0(b.mask.size(), 0.0f);
  model_forward(&m, b.inputs.data(), b.slots.data(), b.targets.data(), mask0.data(), b.B, b.T);
  s.expect(m.loss == 0.0 && m.mask_sum == 0.0, "an all-zero mask must give loss 0");
  model_backward(&m, 0);
  Vec before(np), after(np), zero(np, 0.0f), m0(np);
  model_get_grads(&m, g1.data());
  s.close("gradients of an all-zero mask", g1.data(), zero.data(), np, 0, 0);
  model_get_params(&m, before.data());
  model_set_moments(&m, zero.data(), zero.data(), 0);
  AdamWConfig wd = {0.1f, 0.9f, 0.95f, 1e-8f, 0.5f, 0.0f};
  model_update(&m, &wd, &u);
  model_get_params(&m, after.data());
  Vec expect = before;
  for (int i = 0; i < NUM_PARAM_TENSORS; i++) {
    const ParamInfo* p = &m.layout[i];
    if (!p->decay) continue;
    for (size_t k = p->offset; k < p->offset + p->numel; k++) {
      expect[k] = before[k] - wd.lr * wd.weight_decay * before[k];
    }
  }
  s.close("decoupled weight decay (decay tensors only)", after.data(), expect.data(), np, 1e-8, 1e-6);
  model_free(&m);
}

static void check_failures(Suite& s) {
  printf("non-finite gradients, memory limit, invalid config\n");
  ModelConfig c = {9, 4, 8, 1, 2, 3};
  Model m;
  model_init(&m, &c, 5, kernel_ops_cpu());
  Rng r(99);
  Batch b = make_batch(c, 1, 4, r);
  m.params[m.layout[P_FC_B].offset] = NAN;
  forward(&m, b);
  model_backward(&m, 0);
  Vec before(m.num_params), after(m.num_params);
  model_get_params(&m, before.data());
  AdamWConfig opt = {1e-3f, 0.9f, 0.95f, 1e-8f, 0.0f, 1.0f};
  UpdateResult u;
  const char* msg = "";
  std::string keep;
  try {
    model_update(&m, &opt, &u);
  } catch (const KernelError& e) {
    keep = e.what();
    msg = keep.c_str();
  }
  model_get_params(&m, after.data());
  s.expect(strstr(msg, "non-finite gradient wte[") != NULL && strstr(msg, "step 1") != NULL,
           "non-finite gradient message: '%s'", msg);
  s.expect(memcmp(before.data(), after.data(), before.size() * sizeof(float)) == 0 && m.step == 0,
           "a rejected update must leave the parameters alone");
  model_free(&m);

  kernel_set_memory_limit(kernel_memory_in_use() + (1 << 20));
  ModelConfig big = {1000, 64, 256, 2, 4, 16};  // ~1.9M params: 7.6 MB > 1 MB
  keep.clear();
  try {
    model_init(&m, &big, 1, kernel_ops_cpu());
  } catch (const KernelError& e) {
    keep = e.what();
  }
  kernel_set_memory_limit(0);
  s.expect(keep.find("model.cc:") != std::string::npos && keep.find("exceeds the memory limit") != std::string::npos,
           "memory limit message: '%s'", keep.c_str());
  s.expect(kernel_memory_in_use() == 0, "memory in use after failures: %zu bytes", kernel_memory_in_use());

  ModelConfig odd = {9, 4, 10, 1, 3, 3};
  keep.clear();
  try {
    model_init(&m, &odd, 1, kernel_ops_cpu());
  } catch (const KernelError& e) {
    keep = e.what();
  }
  s.expect(keep.find("width (10) must be divisible by heads (3)") != std::string::npos, "config message: '%s'",
           keep.c_str());
}

static void check_init(Suite& s) {
  printf("initialisation\n");
  ModelConfig c = {256, 32, 64, 4, 4, 8};
  Model a, b;
  model_init(&a, &c, 42, kernel_ops_cpu());
  model_init(&b, &c, 42, kernel_ops_cpu());
  s.expect(memcmp(a.params, b.params, a.num_params * sizeof(float)) == 0, "init must be deterministic in the seed");
  const ParamInfo* wte = &a.layout[P_WTE];
  double ss = 0;
  for (size_t k = 0; k < wte->numel; k++) ss += (double)a.params[wte->offset + k] * a.params[wte->offset + k];
  double std = sqrt(ss / wte->numel);
  s.expect(fabs(std - 0.02) < 0.001, "wte std %g, expected 0.02", std);
  s.expect(a.params[a.layout[P_LNF_W].offset] == 1.0f && a.params[a.layout[P_QKV_B].offset] == 0.0f,
           "norm weights start at 1 and biases at 0");
  size_t expect = 256 * 64 + 32 * 64 + 64 * 8 + 64 + 4 * (12 * 64 * 64 + 13 * 64) + 2 * 64;
  s.expect(a.num_params == expect, "num_params %zu, expected %zu", a.num_params, expect);
  model_free(&a);
  model_free(&b);
}

int main() {
  Suite s;
  Rng r(4321);
  check_gradients(s, r);
  check_policy_gradients(s, r);
  check_decode(s, r);
  check_threads_and_semantics(s, r);
  check_failures(s);
  check_init(s);
  pool_shutdown();
  return s.finish("test_model");
}
