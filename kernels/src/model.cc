// The model: parameter layout, init, forward, backward, update and KV-cache decoding, all through
// the KernelOps table (see model.h for the design).
#include "model.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"

#define ALLOC(ops, bytes) (ops)->alloc((bytes), __FILE__, __LINE__)

// ---------------------------------------------------------------------------------------------
// config and layout

int model_config_valid(const ModelConfig* c, char* err, size_t n) {
  struct Limit {
    const char* name;
    int value, lo, hi;
  } limits[] = {
      {"vocabSize", c->vocab_size, 1, 1 << 22}, {"context", c->context, 1, 1 << 16},
      {"width", c->width, 1, 1 << 16},          {"layers", c->layers, 1, 1024},
      {"heads", c->heads, 1, 1 << 16},          {"frameDim", c->frame_dim, 1, 1 << 20},
  };
  for (const Limit& l : limits) {
    if (l.value < l.lo || l.value > l.hi) {
      snprintf(err, n, "%s must be an integer in [%d, %d], got %d", l.name, l.lo, l.hi, l.value);
      return 0;
    }
  }
  if (c->width % c->heads != 0) {
    snprintf(err, n, "width (%d) must be divisible by heads (%d)", c->width, c->heads);
    return 0;
  }
  return 1;
}

size_t model_layout(const ModelConfig* cfg, ParamInfo* layout) {
  int64_t V = cfg->vocab_size, T = cfg->context, C = cfg->width, L = cfg->layers, P = cfg->frame_dim;
  struct Spec {
    const char* name;
    int ndim;
    int64_t shape[3];
    int decay;
  } specs[NUM_PARAM_TENSORS] = {
      {"wte", 2, {V, C, 0}, 1},          {"wpe", 2, {T, C, 0}, 1},
      {"frame_w", 2, {C, P, 0}, 1},      {"frame_b", 1, {C, 0, 0}, 0},
      {"ln1_w", 2, {L, C, 0}, 0},        {"ln1_b", 2, {L, C, 0}, 0},
      {"qkv_w", 3, {L, 3 * C, C}, 1},    {"qkv_b", 2, {L, 3 * C, 0}, 0},
      {"attn_proj_w", 3, {L, C, C}, 1},  {"attn_proj_b", 2, {L, C, 0}, 0},
      {"ln2_w", 2, {L, C, 0}, 0},        {"ln2_b", 2, {L, C, 0}, 0},
      {"fc_w", 3, {L, 4 * C, C}, 1},     {"fc_b", 2, {L, 4 * C, 0}, 0},
      {"fc_proj_w", 3, {L, C, 4 * C}, 1}, {"fc_proj_b", 2, {L, C, 0}, 0},
      {"lnf_w", 1, {C, 0, 0}, 0},        {"lnf_b", 1, {C, 0, 0}, 0},
  };
  size_t offset = 0;
  for (int i = 0; i < NUM_PARAM_TENSORS; i++) {
    ParamInfo* p = &layout[i];
    p->name = specs[i].name;
    p->ndim = specs[i].ndim;
    p->decay = specs[i].decay;
    p->numel = 1;
    for (int d = 0; d < 3; d++) {
      p->shape[d] = specs[i].shape[d];
      if (d < p->ndim) p->numel = mulCheck(p->numel, (size_t)p->shape[d]);
    }
    p->offset = offset;
    offset += p->numel;
  }
  return offset;
}

// Allocates both AdamW moment buffers or neither.
static void ensure_moments(Model* m) {
  if (m->m != NULL) return;
  size_t bytes = m->num_params * sizeof(float);
  float* mm = (float*)ALLOC(m->ops, bytes);
  try {
    m->v = (float*)ALLOC(m->ops, bytes);
  } catch (...) {
    m->ops->free(mm);
    throw;
  }
  m->m = mm;
}

static float* param(const Model* m, int i) { return m->params + m->layout[i].offset; }
static float* grad(const Model* m, int i) { return m->grads + m->layout[i].offset; }

// ---------------------------------------------------------------------------------------------
// init

static uint64_t splitmix64(uint64_t* s) {
  uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static double uniform01(uint64_t* s) { return ((splitmix64(s) >> 11) + 0.5) * (1.0 / 9007199254740992.0); }

static void fill_normal(float* x, size_t n, double std, uint64_t* s) {
  for (size_t i = 0; i < n; i += 2) {  // Box-Muller, two values per draw
    double r = sqrt(-2.0 * log(uniform01(s))), th = 2.0 * M_PI * uniform01(s);
    x[i] = (float)(std * r * cos(th));
    if (i + 1 < n) x[i + 1] = (float)(std * r * sin(th));
  }
}

void model_init(Model* m, const ModelConfig* cfg, uint64_t seed, const KernelOps* ops) {
  char err[256];
  KERNEL_CHECK(model_config_valid(cfg, err, sizeof(err)), "invalid model config: %s", err);
  KERNEL_CHECK(ops->max_head_size == 0 || cfg->width / cfg->heads <= ops->max_head_size,
               "invalid model config for the %s backend: head size %d (width %d / heads %d) is above its %d",
               ops->name, cfg->width / cfg->heads, cfg->width, cfg->heads, ops->max_head_size);
  memset(m, 0, sizeof(*m));
  m->cfg = *cfg;
  m->ops = ops;
  m->num_params = model_layout(cfg, m->layout);
  size_t bytes = mulCheck(m->num_params, sizeof(float));
  float* host = NULL;
  try {  // a failed allocation (memory limit) must not leak the buffers already taken
    m->params = (float*)ALLOC(ops, bytes);
    m->grads = (float*)ALLOC(ops, bytes);
    host = (float*)mallocCheck(bytes);
  } catch (...) {
    model_free(m);
    throw;
  }
  uint64_t s = seed;
  double proj_std = 0.02 / sqrt(2.0 * cfg->layers);
  for (int i = 0; i < NUM_PARAM_TENSORS; i++) {
    const ParamInfo* p = &m->layout[i];
    float* x = host + p->offset;
    if (i == P_LN1_W || i == P_LN2_W || i == P_LNF_W) {
      for (size_t k = 0; k < p->numel; k++) x[k] = 1.0f;
    } else if (!p->decay) {
      memset(x, 0, p->numel * sizeof(float));
    } else {
      fill_normal(x, p->numel, (i == P_ATTN_PROJ_W || i == P_FC_PROJ_W) ? proj_std : 0.02, &s);
    }
  }
  ops->upload(m->params, host, bytes);
  freeCheck(host);
}

static void free_io(Model* m) {
  const KernelOps* o = m->ops;
  o->free(m->inputs), o->free(m->targets), o->free(m->argmax), o->free(m->mask), o->free(m->frames);
  freeCheck(m->mask_host), freeCheck(m->losses_host), freeCheck(m->dlosses_host);
  freeCheck(m->targets_host), freeCheck(m->argmax_host);
  o->free(m->rl_mem), freeCheck(m->rl_host);
  m->rl_mem = m->rl_host = NULL;
  m->inputs = m->targets = m->argmax = m->targets_host = m->argmax_host = NULL;
  m->mask = m->frames = m->mask_host = m->losses_host = m->dlosses_host = NULL;
  m->io_cap = 0;
}

void model_free(Model* m) {
  const KernelOps* o = m->ops;
  if (o == NULL) return;
  o->free(m->params), o->free(m->grads), o->free(m->m), o->free(m->v);
  o->free(m->acts_mem), o->free(m->dacts_mem), o->free(m->att_scratch);
  free_io(m);
  memset(m, 0, sizeof(*m));
}

// ---------------------------------------------------------------------------------------------
// activations

enum { NUM_ACTS = sizeof(Activations) / sizeof(float*) };

// Sizes in floats of each activation tensor for a batch [B,T]; grads = 1 for the gradient buffer,
// which needs no attention matrix (attention_backward works in a scratch row), no LayerNorm
// statistics and no probabilities.
static void act_sizes(const Model* m, int B, int T, int grads, size_t* sz) {
  size_t V = m->cfg.vocab_size, C = m->cfg.width, L = m->cfg.layers, H = m->cfg.heads;
  size_t BT = (size_t)B * T;
  size_t BTC = mulCheck(BT, C), LBTC = mulCheck(L, BTC), LBT = mulCheck(L, BT);
  size_t att = mulCheck(mulCheck(mulCheck(L, B), H), mulCheck(T, m->ops->attention_keeps_weights ? T : 1));
  size_t BTV = mulCheck(BT, V);
  size_t s[NUM_ACTS] = {BTC,      LBTC, LBT,  LBT,  3 * LBTC, LBTC,     att,  LBTC,
                        LBTC,     LBTC, LBT,  LBT,  4 * LBTC, 4 * LBTC, LBTC, LBTC,
                        BTC,      BT,   BT,   BTV,  BTV,      BT};
  if (grads) s[2] = s[3] = s[6] = s[10] = s[11] = s[17] = s[18] = s[20] = 0;
  memcpy(sz, s, sizeof(s));
}

static void carve(Activations* a, float* mem, const size_t* sz) {
  float** ptrs = (float**)a;
  for (int i = 0; i < NUM_ACTS; i++) {
    ptrs[i] = sz[i] ? mem : NULL;
    mem += sz[i];
  }
}

static size_t total(const size_t* sz) {
  size_t t = 0;
  for (int i = 0; i < NUM_ACTS; i++) t += sz[i];
  return t;
}

// Per-token RL buffers: on the backend logp, entropy, old, prox, ref, adv, coef, dnll and the six
// PolicyLossTokens outputs; on the host logp, entropy, coef and the six outputs.
enum { RL_DEV = 14, RL_HOST = 9 };

static void ensure_io(Model* m, int B, int T) {
  size_t BT = (size_t)B * T;
  if (BT <= m->io_cap) return;
  free_io(m);
  const KernelOps* o = m->ops;
  m->inputs = (int*)ALLOC(o, BT * sizeof(int));
  m->targets = (int*)ALLOC(o, BT * sizeof(int));
  m->argmax = (int*)ALLOC(o, BT * sizeof(int));
  m->mask = (float*)ALLOC(o, BT * sizeof(float));
  m->frames = (float*)ALLOC(o, mulCheck(BT, (size_t)m->cfg.frame_dim) * sizeof(float));
  m->mask_host = (float*)mallocCheck(BT * sizeof(float));
  m->losses_host = (float*)mallocCheck(BT * sizeof(float));
  m->dlosses_host = (float*)mallocCheck(BT * sizeof(float));
  m->targets_host = (int*)mallocCheck(BT * sizeof(int));
  m->argmax_host = (int*)mallocCheck(BT * sizeof(int));
  m->rl_mem = (float*)ALLOC(o, mulCheck(BT, RL_DEV) * sizeof(float));
  m->rl_host = (float*)mallocCheck(mulCheck(BT, RL_HOST) * sizeof(float));
  m->io_cap = BT;
}

size_t model_training_bytes(const Model* m, int B, int T, int forward_only) {
  const size_t F = sizeof(float), BT = (size_t)B * T;
  size_t sz[NUM_ACTS], more = 0;
  // A buffer that grows is freed before the larger one is taken: it costs the difference.
  auto grow = [&](size_t need, size_t have) { more += need > have ? (need - have) * F : 0; };
  act_sizes(m, B, T, 0, sz);
  grow(total(sz), m->acts_cap);
  if (!forward_only) {
    act_sizes(m, B, T, 1, sz);
    grow(total(sz), m->dacts_cap);
    grow(mulCheck((size_t)B * m->cfg.heads, (size_t)T * (m->ops->attention_keeps_weights ? T : 1)), m->scratch_cap);
  }
  // ensure_io: inputs, targets, argmax, mask, frames [BT, P] and the RL buffers on the backend.
  size_t io_per_token = 4 + (size_t)m->cfg.frame_dim + RL_DEV;
  grow(BT * io_per_token, m->io_cap * io_per_token);
  if (m->ops == kernel_ops_cpu()) grow(BT * (5 + RL_HOST), m->io_cap * (5 + RL_HOST));  // host copies
  if (m->m == NULL && !forward_only) more += 2 * m->num_params * F;
  return more;
}

// ---------------------------------------------------------------------------------------------
// forward / backward

void model_forward(Model* m, const int* inputs, const float* frames, const int* targets, const float* mask, int B,
                   int T) {
  const KernelOps* o = m->ops;
  const ModelConfig* c = &m->cfg;
  KERNEL_CHECK(B >= 1 && T >= 1 && T <= c->context, "batch [%d, %d] does not fit context %d", B, T, c->context);
  m->policy = 0;
  KERNEL_CHECK((targets == NULL) == (mask == NULL), "targets and mask go together");
  int V = c->vocab_size, C = c->width, L = c->layers, H = c->heads, P = c->frame_dim;
  int N = B * T;

  m->state = 0;
  size_t sz[NUM_ACTS];
  act_sizes(m, B, T, 0, sz);
  size_t need = total(sz);
  if (need > m->acts_cap) {
    o->free(m->acts_mem);
    m->acts_mem = NULL;
    m->acts_cap = 0;
    m->acts_mem = (float*)ALLOC(o, mulCheck(need, sizeof(float)));
    m->acts_cap = need;
  }
  carve(&m->acts, m->acts_mem, sz);
  ensure_io(m, B, T);
  m->B = B, m->T = T;

  o->upload(m->inputs, inputs, (size_t)N * sizeof(int));
  m->has_frames = frames != NULL;
  if (frames) o->upload_frame_rows(m->frames, frames, inputs, N, P);

  Activations* a = &m->acts;
  o->encoder_forward(a->encoded, m->inputs, param(m, P_WTE), param(m, P_WPE), B, T, C);
  if (frames) {
    o->frame_proj_forward(a->encoded, m->inputs, m->frames, param(m, P_FRAME_W), param(m, P_FRAME_B), B, T, C, P);
  }
  size_t BTC = (size_t)N * C;
  size_t att_layer = (size_t)B * H * T * (o->attention_keeps_weights ? T : 1);  // backend.h
  for (int l = 0; l < L; l++) {
    float* residual = l == 0 ? a->encoded : a->residual3 + (l - 1) * BTC;
    float* ln1 = a->ln1 + l * BTC;
    float* ln1_mean = a->ln1_mean + (size_t)l * N;
    float* ln1_rstd = a->ln1_rstd + (size_t)l * N;
    float* qkv = a->qkv + l * 3 * BTC;
    float* atty = a->atty + l * BTC;
    float* att = a->att + l * att_layer;
    float* attproj = a->attproj + l * BTC;
    float* residual2 = a->residual2 + l * BTC;
    float* ln2 = a->ln2 + l * BTC;
    float* ln2_mean = a->ln2_mean + (size_t)l * N;
    float* ln2_rstd = a->ln2_rstd + (size_t)l * N;
    float* fch = a->fch + l * 4 * BTC;
    float* fch_gelu = a->fch_gelu + l * 4 * BTC;
    float* fcproj = a->fcproj + l * BTC;
    float* residual3 = a->residual3 + l * BTC;
    o->layernorm_forward(ln1, ln1_mean, ln1_rstd, residual, param(m, P_LN1_W) + l * C, param(m, P_LN1_B) + l * C, N, C);
    o->matmul_forward(qkv, ln1, param(m, P_QKV_W) + (size_t)l * 3 * C * C, param(m, P_QKV_B) + l * 3 * C, N, C, 3 * C);
    o->attention_forward(atty, att, qkv, B, T, C, H);
    o->matmul_forward(attproj, atty, param(m, P_ATTN_PROJ_W) + (size_t)l * C * C, param(m, P_ATTN_PROJ_B) + l * C, N,
                      C, C);
    o->residual_forward(residual2, residual, attproj, BTC);
    o->layernorm_forward(ln2, ln2_mean, ln2_rstd, residual2, param(m, P_LN2_W) + l * C, param(m, P_LN2_B) + l * C, N,
                         C);
    o->matmul_forward(fch, ln2, param(m, P_FC_W) + (size_t)l * 4 * C * C, param(m, P_FC_B) + l * 4 * C, N, C, 4 * C);
    o->gelu_forward(fch_gelu, fch, 4 * BTC);
    o->matmul_forward(fcproj, fch_gelu, param(m, P_FC_PROJ_W) + (size_t)l * 4 * C * C, param(m, P_FC_PROJ_B) + l * C,
                      N, 4 * C, C);
    o->residual_forward(residual3, residual2, fcproj, BTC);
  }
  o->layernorm_forward(a->lnf, a->lnf_mean, a->lnf_rstd, a->residual3 + (L - 1) * BTC, param(m, P_LNF_W),
                       param(m, P_LNF_B), N, C);
  o->matmul_forward(a->logits, a->lnf, param(m, P_WTE), NULL, N, C, V);
  if (targets == NULL) {
    m->state = 1;
    return;
  }

  memcpy(m->mask_host, mask, (size_t)N * sizeof(float));
  memcpy(m->targets_host, targets, (size_t)N * sizeof(int));
  o->upload(m->targets, targets, (size_t)N * sizeof(int));
  o->upload(m->mask, mask, (size_t)N * sizeof(float));
  o->softmax_crossentropy_forward(a->losses, a->probs, a->logits, m->targets, m->mask, N, V);
  o->argmax_rows(m->argmax, a->logits, N, V);
  o->download(m->losses_host, a->losses, (size_t)N * sizeof(float));
  o->download(m->argmax_host, m->argmax, (size_t)N * sizeof(int));
  double loss_sum = 0.0, mask_sum = 0.0;
  int64_t correct = 0;
  for (int i = 0; i < N; i++) {
    if (mask[i] == 0.0f) continue;
    loss_sum += (double)mask[i] * m->losses_host[i];
    mask_sum += mask[i];
    correct += m->argmax_host[i] == targets[i];
  }
  m->loss = mask_sum > 0.0 ? loss_sum / mask_sum : 0.0;
  m->mask_sum = mask_sum;
  m->correct = correct;
  m->state = 2;
}

void model_backward(Model* m, int accumulate) {
  KERNEL_CHECK(m->state == 2, "backward needs a forward with targets and mask since the last update or "
                              "parameter change");
  const KernelOps* o = m->ops;
  const ModelConfig* c = &m->cfg;
  int B = m->B, T = m->T, V = c->vocab_size, C = c->width, L = c->layers, H = c->heads, P = c->frame_dim;
  int N = B * T;
  size_t sz[NUM_ACTS];
  act_sizes(m, B, T, 1, sz);
  size_t need = total(sz);
  if (need > m->dacts_cap) {
    o->free(m->dacts_mem);
    m->dacts_mem = NULL;
    m->dacts_cap = 0;
    m->dacts_mem = (float*)ALLOC(o, mulCheck(need, sizeof(float)));
    m->dacts_cap = need;
  }
  size_t scratch = mulCheck((size_t)B * H, (size_t)T * (o->attention_keeps_weights ? T : 1));
  if (scratch > m->scratch_cap) {
    o->free(m->att_scratch);
    m->att_scratch = NULL;
    m->scratch_cap = 0;
    m->att_scratch = (float*)ALLOC(o, scratch * sizeof(float));
    m->scratch_cap = scratch;
  }
  carve(&m->dacts, m->dacts_mem, sz);
  o->zero(m->dacts_mem, need * sizeof(float));
  if (!accumulate) o->zero(m->grads, m->num_params * sizeof(float));

  if (!m->policy) {  // the policy loss wrote its dnll at forward
    for (int i = 0; i < N; i++) m->dlosses_host[i] = m->mask_sum > 0.0 ? (float)(m->mask_host[i] / m->mask_sum) : 0.0f;
  }
  Activations* a = &m->acts;
  Activations* d = &m->dacts;
  o->upload(d->losses, m->dlosses_host, (size_t)N * sizeof(float));
  o->softmax_crossentropy_backward(d->logits, d->losses, a->probs, m->targets, N, V);
  size_t BTC = (size_t)N * C;
  size_t att_layer = (size_t)B * H * T * (o->attention_keeps_weights ? T : 1);  // backend.h
  o->matmul_backward(d->lnf, grad(m, P_WTE), NULL, d->logits, a->lnf, param(m, P_WTE), N, C, V);
  o->layernorm_backward(d->residual3 + (L - 1) * BTC, grad(m, P_LNF_W), grad(m, P_LNF_B), d->lnf,
                        a->residual3 + (L - 1) * BTC, param(m, P_LNF_W), a->lnf_mean, a->lnf_rstd, N, C);
  for (int l = L - 1; l >= 0; l--) {
    float* residual = l == 0 ? a->encoded : a->residual3 + (l - 1) * BTC;
    float* dresidual = l == 0 ? d->encoded : d->residual3 + (l - 1) * BTC;
    size_t lN = (size_t)l * N;
    o->residual_backward(d->residual2 + l * BTC, d->fcproj + l * BTC, d->residual3 + l * BTC, BTC);
    o->matmul_backward(d->fch_gelu + l * 4 * BTC, grad(m, P_FC_PROJ_W) + (size_t)l * 4 * C * C,
                       grad(m, P_FC_PROJ_B) + l * C, d->fcproj + l * BTC, a->fch_gelu + l * 4 * BTC,
                       param(m, P_FC_PROJ_W) + (size_t)l * 4 * C * C, N, 4 * C, C);
    o->gelu_backward(d->fch + l * 4 * BTC, a->fch + l * 4 * BTC, d->fch_gelu + l * 4 * BTC, 4 * BTC);
    o->matmul_backward(d->ln2 + l * BTC, grad(m, P_FC_W) + (size_t)l * 4 * C * C, grad(m, P_FC_B) + l * 4 * C,
                       d->fch + l * 4 * BTC, a->ln2 + l * BTC, param(m, P_FC_W) + (size_t)l * 4 * C * C, N, C, 4 * C);
    o->layernorm_backward(d->residual2 + l * BTC, grad(m, P_LN2_W) + l * C, grad(m, P_LN2_B) + l * C, d->ln2 + l * BTC,
                          a->residual2 + l * BTC, param(m, P_LN2_W) + l * C, a->ln2_mean + lN, a->ln2_rstd + lN, N, C);
    o->residual_backward(dresidual, d->attproj + l * BTC, d->residual2 + l * BTC, BTC);
    o->matmul_backward(d->atty + l * BTC, grad(m, P_ATTN_PROJ_W) + (size_t)l * C * C, grad(m, P_ATTN_PROJ_B) + l * C,
                       d->attproj + l * BTC, a->atty + l * BTC, param(m, P_ATTN_PROJ_W) + (size_t)l * C * C, N, C, C);
    o->attention_backward(d->qkv + l * 3 * BTC, m->att_scratch, d->atty + l * BTC, a->qkv + l * 3 * BTC,
                          a->att + l * att_layer, B, T, C, H);
    o->matmul_backward(d->ln1 + l * BTC, grad(m, P_QKV_W) + (size_t)l * 3 * C * C, grad(m, P_QKV_B) + l * 3 * C,
                       d->qkv + l * 3 * BTC, a->ln1 + l * BTC, param(m, P_QKV_W) + (size_t)l * 3 * C * C, N, C, 3 * C);
    o->layernorm_backward(dresidual, grad(m, P_LN1_W) + l * C, grad(m, P_LN1_B) + l * C, d->ln1 + l * BTC, residual,
                          param(m, P_LN1_W) + l * C, a->ln1_mean + lN, a->ln1_rstd + lN, N, C);
  }
  o->encoder_backward(grad(m, P_WTE), grad(m, P_WPE), d->encoded, m->inputs, B, T, C);
  if (m->has_frames) {
    o->frame_proj_backward(NULL, grad(m, P_FRAME_W), grad(m, P_FRAME_B), d->encoded, m->inputs, m->frames,
                           param(m, P_FRAME_W), B, T, C, P);
  }
}

// ---------------------------------------------------------------------------------------------
// policy gradient (SPEC §3)

void model_logprobs(Model* m, const int* inputs, const float* frames, const int* targets, const float* mask, int B,
                    int T, float* logp, float* entropy) {
  model_forward(m, inputs, frames, NULL, NULL, B, T);  // logits; state 1: nothing to backward
  const KernelOps* o = m->ops;
  size_t N = (size_t)B * T;
  float* d_logp = m->rl_mem;
  float* d_ent = m->rl_mem + N;
  o->upload(m->targets, targets, N * sizeof(int));
  o->upload(m->mask, mask, N * sizeof(float));
  o->token_logprobs(d_logp, entropy ? d_ent : NULL, m->acts.probs, m->acts.logits, m->targets, m->mask, (int)N,
                    m->cfg.vocab_size);
  o->download(logp, d_logp, N * sizeof(float));
  if (entropy) o->download(entropy, d_ent, N * sizeof(float));
}

void model_policy_forward(Model* m, const int* inputs, const float* frames, const int* targets, const float* mask,
                          const float* adv, const float* old_logp, const float* prox_logp, const float* ref_logp,
                          const PolicyLossConfig* cfg, int B, int T, PolicyLossResult* out) {
  const PolicyLossParams* prm = &cfg->params;
  KERNEL_CHECK(prm->kl_coef <= 0.0f || ref_logp != NULL, "policy loss: kl_coef > 0 needs reference log-probs");
  KERNEL_CHECK(cfg->aggregation >= AGG_TOKEN_MEAN && cfg->aggregation <= AGG_SEQ_MEAN_TOKEN_SUM,
               "policy loss: unknown aggregation %d", cfg->aggregation);
  size_t N = (size_t)B * T;
  ensure_io(m, B, T);  // rl_host is read below before model_logprobs' forward would allocate it
  float* h_logp = m->rl_host;
  float* h_ent = h_logp + N;
  float* h_coef = h_ent + N;
  float* h_tok = h_coef + N;  // pg, kl, ratio, behav_weight, clipped, capped
  model_logprobs(m, inputs, frames, targets, mask, B, T, h_logp, h_ent);

  // Aggregation weights: token-mean mask/sum(mask); seq-mean-token-mean mask/(seq sum * nseq);
  // seq-mean-token-sum mask/nseq. Sequences without a masked-in token do not count.
  double mask_sum = 0.0;
  int nseq = 0;
  for (int b = 0; b < B; b++) {
    double s = 0.0;
    for (int t = 0; t < T; t++) s += mask[(size_t)b * T + t];
    mask_sum += s;
    nseq += s > 0.0;
  }
  for (int b = 0; b < B; b++) {
    double s = 0.0;
    for (int t = 0; t < T; t++) s += mask[(size_t)b * T + t];
    for (int t = 0; t < T; t++) {
      size_t i = (size_t)b * T + t;
      double c = 0.0;
      if (mask[i] != 0.0f) {
        if (cfg->aggregation == AGG_TOKEN_MEAN) {
          c = mask[i] / (cfg->denominator > 0.0 ? cfg->denominator : mask_sum);
        } else {
          double ns = cfg->denominator > 0.0 ? cfg->denominator : nseq;
          c = cfg->aggregation == AGG_SEQ_MEAN_TOKEN_MEAN ? mask[i] / (s * ns) : mask[i] / ns;
        }
      }
      h_coef[i] = (float)c;
    }
  }

  const KernelOps* o = m->ops;
  float* d = m->rl_mem;  // logp, entropy, old, prox, ref, adv, coef, dnll, then the six token outputs
  float *d_logp = d, *d_old = d + 2 * N, *d_prox = d + 3 * N, *d_ref = d + 4 * N, *d_adv = d + 5 * N,
        *d_coef = d + 6 * N, *d_dnll = d + 7 * N, *d_tok = d + 8 * N;
  o->upload(d_old, old_logp, N * sizeof(float));
  if (prox_logp) o->upload(d_prox, prox_logp, N * sizeof(float));
  if (ref_logp) o->upload(d_ref, ref_logp, N * sizeof(float));
  o->upload(d_adv, adv, N * sizeof(float));
  o->upload(d_coef, h_coef, N * sizeof(float));
  PolicyLossTokens tok = {d_tok, d_tok + N, d_tok + 2 * N, d_tok + 3 * N, d_tok + 4 * N, d_tok + 5 * N};
  o->policy_loss(&tok, d_dnll, d_logp, d_old, prox_logp ? d_prox : NULL, ref_logp ? d_ref : NULL, d_adv, d_coef, prm,
                 (int)N);
  o->download(h_tok, d_tok, 6 * N * sizeof(float));
  o->download(m->dlosses_host, d_dnll, N * sizeof(float));

  const float *pg = h_tok, *kl = h_tok + N, *ratio = h_tok + 2 * N, *w = h_tok + 3 * N, *clipped = h_tok + 4 * N,
              *capped = h_tok + 5 * N;
  PolicyLossResult r = {};
  for (size_t i = 0; i < N; i++) {
    m->losses_host[i] = pg[i] + prm->kl_coef * kl[i];
    m->mask_host[i] = mask[i];
    if (mask[i] == 0.0f) continue;
    double mi = mask[i], c = h_coef[i];
    r.pg_loss += c * pg[i];
    r.kl += c * kl[i];
    r.ratio_mean += mi * ratio[i];
    r.clip_fraction += mi * clipped[i];
    // k3 of the current policy against the base (proximal, else behaviour) policy: r - 1 - log r.
    double lr = (double)h_logp[i] - (double)(prox_logp ? prox_logp[i] : old_logp[i]);
    r.approx_kl += mi * (exp(lr) - 1.0 - lr);
    r.entropy += mi * h_ent[i];
    r.behav_weight_mean += mi * w[i];
    r.capped_fraction += mi * capped[i];
  }
  if (mask_sum > 0.0) {
    double* means[] = {&r.ratio_mean, &r.clip_fraction, &r.approx_kl, &r.entropy, &r.behav_weight_mean,
                       &r.capped_fraction};
    for (double* x : means) *x /= mask_sum;
  }
  r.loss = r.pg_loss + prm->kl_coef * r.kl;
  r.tokens = mask_sum;
  r.sequences = nseq;
  *out = r;
  m->loss = r.loss;
  m->mask_sum = mask_sum;
  m->correct = 0;
  m->policy = 1;
  m->state = 2;
}

// ---------------------------------------------------------------------------------------------
// update

void model_update(Model* m, const AdamWConfig* opt, UpdateResult* out) {
  const KernelOps* o = m->ops;
  double sumsq[NUM_PARAM_TENSORS], total_sq = 0.0;
  for (int i = 0; i < NUM_PARAM_TENSORS; i++) {
    sumsq[i] = o->sumsq(grad(m, i), (int64_t)m->layout[i].numel);
    total_sq += sumsq[i];
  }
  if (!isfinite(total_sq)) {
    for (int i = 0; i < NUM_PARAM_TENSORS; i++) {
      if (isfinite(sumsq[i])) continue;
      const ParamInfo* p = &m->layout[i];
      float* host = (float*)mallocCheck(p->numel * sizeof(float));
      o->download(host, grad(m, i), p->numel * sizeof(float));
      size_t k = 0;
      while (k < p->numel && isfinite(host[k])) k++;
      float bad = k < p->numel ? host[k] : NAN;
      freeCheck(host);
      const char* what = isnan(bad) ? "NaN" : (bad > 0 ? "Infinity" : "-Infinity");
      kernel_fail(__FILE__, __LINE__, "non-finite gradient %s[%zu] = %s (step %d); parameters not updated", p->name,
                  k, what, m->step + 1);
    }
    kernel_fail(__FILE__, __LINE__, "gradient norm overflows (step %d); parameters not updated", m->step + 1);
  }
  double norm = sqrt(total_sq);
  float scale = 1.0f;
  if (opt->max_grad_norm > 0.0f) {
    double coef = opt->max_grad_norm / (norm + 1e-6);  // torch.nn.utils.clip_grad_norm_
    if (coef < 1.0) scale = (float)coef;
  }
  ensure_moments(m);
  m->step++;
  for (int i = 0; i < NUM_PARAM_TENSORS; i++) {
    const ParamInfo* p = &m->layout[i];
    o->adamw(m->params + p->offset, m->grads + p->offset, m->m + p->offset, m->v + p->offset, (int64_t)p->numel,
             opt->lr, opt->beta1, opt->beta2, opt->eps, p->decay ? opt->weight_decay : 0.0f, scale, m->step);
  }
  m->state = 0;  // the saved activations no longer match the parameters
  out->grad_norm = norm;
  out->scale = scale;
  out->step = m->step;
}

void model_get_params(const Model* m, float* dst) { m->ops->download(dst, m->params, m->num_params * sizeof(float)); }
void model_set_params(Model* m, const float* src) {
  m->ops->upload(m->params, src, m->num_params * sizeof(float));
  m->state = 0;
}
void model_get_grads(const Model* m, float* dst) { m->ops->download(dst, m->grads, m->num_params * sizeof(float)); }
void model_get_logits(const Model* m, float* dst) {
  KERNEL_CHECK(m->state != 0, "no forward since the last parameter change");
  m->ops->download(dst, m->acts.logits, (size_t)m->B * m->T * m->cfg.vocab_size * sizeof(float));
}
void model_get_losses(const Model* m, float* dst) {
  KERNEL_CHECK(m->state == 2, "no forward with targets since the last parameter change");
  memcpy(dst, m->losses_host, (size_t)m->B * m->T * sizeof(float));
}

void model_get_moments(Model* m, float* m_dst, float* v_dst) {
  size_t bytes = m->num_params * sizeof(float);
  if (m->m == NULL) {
    memset(m_dst, 0, bytes);
    memset(v_dst, 0, bytes);
    return;
  }
  m->ops->download(m_dst, m->m, bytes);
  m->ops->download(v_dst, m->v, bytes);
}

void model_set_moments(Model* m, const float* m_src, const float* v_src, int step) {
  KERNEL_CHECK(step >= 0, "optimizer step must be >= 0, got %d", step);
  size_t bytes = m->num_params * sizeof(float);
  ensure_moments(m);
  m->ops->upload(m->m, m_src, bytes);
  m->ops->upload(m->v, v_src, bytes);
  m->step = step;
}

// ---------------------------------------------------------------------------------------------
// decoding

static void decoder_free_step_buffers(Decoder* d) {
  const KernelOps* o = d->ops;
  float** bufs[] = {&d->x, &d->x2, &d->ln, &d->mean, &d->rstd, &d->qkv, &d->atty, &d->tmp, &d->fch, &d->fchg,
                    &d->scratch, &d->frames};
  for (float** b : bufs) {
    o->free(*b);
    *b = NULL;
  }
  o->free(d->tokens);
  d->tokens = NULL;
  d->n_cap = 0;
}

static void decoder_ensure(Decoder* d, int n) {
  if (n <= d->n_cap) return;
  decoder_free_step_buffers(d);
  const KernelOps* o = d->model->ops;
  const ModelConfig* c = &d->model->cfg;
  size_t Bn = (size_t)d->B * n, F = sizeof(float);
  size_t BnC = mulCheck(Bn, (size_t)c->width) * F;
  d->x = (float*)ALLOC(o, BnC);
  d->x2 = (float*)ALLOC(o, BnC);
  d->ln = (float*)ALLOC(o, BnC);
  d->atty = (float*)ALLOC(o, BnC);
  d->tmp = (float*)ALLOC(o, BnC);
  d->qkv = (float*)ALLOC(o, 3 * BnC);
  d->fch = (float*)ALLOC(o, 4 * BnC);
  d->fchg = (float*)ALLOC(o, 4 * BnC);
  d->mean = (float*)ALLOC(o, Bn * F);
  d->rstd = (float*)ALLOC(o, Bn * F);
  d->scratch = (float*)ALLOC(o, mulCheck(mulCheck(Bn, (size_t)c->heads), (size_t)c->context) * F);
  d->frames = (float*)ALLOC(o, mulCheck(Bn, (size_t)c->frame_dim) * F);
  d->tokens = (int*)ALLOC(o, Bn * sizeof(int));
  d->n_cap = n;
}

void decoder_init(Decoder* d, Model* model, int B) {
  const ModelConfig* c = &model->cfg;
  KERNEL_CHECK(B >= 1, "decoder batch size must be >= 1, got %d", B);
  memset(d, 0, sizeof(*d));
  d->model = model;
  d->ops = model->ops;
  d->B = B;
  const KernelOps* o = model->ops;
  try {
    size_t cache = mulCheck(mulCheck(mulCheck((size_t)c->layers, (size_t)B), (size_t)c->context),
                            (size_t)c->width * sizeof(float));
    d->kcache = (float*)ALLOC(o, cache);
    d->vcache = (float*)ALLOC(o, cache);
    d->last = (float*)ALLOC(o, (size_t)B * c->width * sizeof(float));
    d->lastln = (float*)ALLOC(o, (size_t)B * c->width * sizeof(float));
    d->logits = (float*)ALLOC(o, mulCheck((size_t)B, (size_t)c->vocab_size) * sizeof(float));
  } catch (...) {
    decoder_free(d);
    throw;
  }
}

void decoder_free(Decoder* d) {
  if (d->ops == NULL) return;
  const KernelOps* o = d->ops;
  decoder_free_step_buffers(d);
  o->free(d->kcache), o->free(d->vcache), o->free(d->last), o->free(d->lastln), o->free(d->logits);
  memset(d, 0, sizeof(*d));
}

void decoder_reset(Decoder* d) { d->pos = 0; }

void decoder_step(Decoder* d, const int* tokens, const float* frames, int n, float* logits) {
  Model* m = d->model;
  const KernelOps* o = m->ops;
  const ModelConfig* c = &m->cfg;
  int B = d->B, V = c->vocab_size, C = c->width, L = c->layers, H = c->heads, P = c->frame_dim, maxT = c->context;
  KERNEL_CHECK(n >= 1 && d->pos + n <= maxT, "decoding %d positions at position %d exceeds the context of %d", n,
               d->pos, maxT);
  decoder_ensure(d, n);
  int N = B * n;
  size_t NC = (size_t)N * C, cache_l = (size_t)B * maxT * C;
  o->upload(d->tokens, tokens, (size_t)N * sizeof(int));
  o->encoder_forward(d->x, d->tokens, param(m, P_WTE), param(m, P_WPE) + (size_t)d->pos * C, B, n, C);
  if (frames) {
    o->upload_frame_rows(d->frames, frames, tokens, N, P);
    o->frame_proj_forward(d->x, d->tokens, d->frames, param(m, P_FRAME_W), param(m, P_FRAME_B), B, n, C, P);
  }
  for (int l = 0; l < L; l++) {
    o->layernorm_forward(d->ln, d->mean, d->rstd, d->x, param(m, P_LN1_W) + l * C, param(m, P_LN1_B) + l * C, N, C);
    o->matmul_forward(d->qkv, d->ln, param(m, P_QKV_W) + (size_t)l * 3 * C * C, param(m, P_QKV_B) + l * 3 * C, N, C,
                      3 * C);
    o->attention_decode(d->atty, d->kcache + l * cache_l, d->vcache + l * cache_l, d->scratch, d->qkv, B, n, d->pos,
                        maxT, C, H);
    o->matmul_forward(d->tmp, d->atty, param(m, P_ATTN_PROJ_W) + (size_t)l * C * C, param(m, P_ATTN_PROJ_B) + l * C,
                      N, C, C);
    o->residual_forward(d->x2, d->x, d->tmp, NC);
    o->layernorm_forward(d->ln, d->mean, d->rstd, d->x2, param(m, P_LN2_W) + l * C, param(m, P_LN2_B) + l * C, N, C);
    o->matmul_forward(d->fch, d->ln, param(m, P_FC_W) + (size_t)l * 4 * C * C, param(m, P_FC_B) + l * 4 * C, N, C,
                      4 * C);
    o->gelu_forward(d->fchg, d->fch, 4 * NC);
    o->matmul_forward(d->tmp, d->fchg, param(m, P_FC_PROJ_W) + (size_t)l * 4 * C * C, param(m, P_FC_PROJ_B) + l * C,
                      N, 4 * C, C);
    o->residual_forward(d->x, d->x2, d->tmp, NC);
  }
  for (int b = 0; b < B; b++) o->copy(d->last + (size_t)b * C, d->x + ((size_t)b * n + n - 1) * C, C * sizeof(float));
  o->layernorm_forward(d->lastln, d->mean, d->rstd, d->last, param(m, P_LNF_W), param(m, P_LNF_B), B, C);
  o->matmul_forward(d->logits, d->lastln, param(m, P_WTE), NULL, B, C, V);
  o->download(logits, d->logits, (size_t)B * V * sizeof(float));
  d->pos += n;
}
