// model.h: the ParaVT-nano transformer composed from the ops of backend.h.
//
// Design. A GPT-2 style decoder (pre-LayerNorm blocks, causal multi-head attention, GELU MLP of
// width 4C, final LayerNorm, output head tied to the token embedding) whose input positions are
// either text tokens or frame slots. A frame slot has token id FRAME_TOKEN (-1) and a P-float
// thumbnail feature; its embedding is frame_w @ feature + frame_b. Every position then adds its
// learned positional embedding, so the timestamp tokens that precede a frame are ordinary tokens.
// Layout and execution follow llm.c's train_gpt2.c: all parameters in ONE contiguous float buffer
// (tensor order, shapes and offsets in model_layout(), which the addon exports so checkpoints can
// name every tensor), gradients and AdamW moments in buffers of the same layout, activations of the
// last forward kept for backward in one buffer carved per call. The loss is softmax cross-entropy
// weighted by a per-token mask: loss = sum(mask * token_loss) / sum(mask), so only masked-in
// positions (e.g. assistant tokens) count. A Decoder holds a KV cache for B sequences and runs the
// same ops incrementally; its logits equal those of a full forward over the same prefix.
// Calls on one Model (and its Decoders) must not overlap; the addon serialises them.
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "backend.h"

struct ModelConfig {
  int vocab_size;  // V, token ids 0..V-1
  int context;     // T, the longest sequence (positional table size, KV cache length)
  int width;       // C
  int layers;      // L
  int heads;       // H, C % H == 0
  int frame_dim;   // P, floats per frame feature
};

enum {
  P_WTE,           // [V, C] token embedding, also the output head (tied)
  P_WPE,           // [T, C] positional embedding
  P_FRAME_W,       // [C, P] frame projection
  P_FRAME_B,       // [C]
  P_LN1_W,         // [L, C]
  P_LN1_B,         // [L, C]
  P_QKV_W,         // [L, 3C, C]  rows: q (C) | k (C) | v (C), heads contiguous within each
  P_QKV_B,         // [L, 3C]
  P_ATTN_PROJ_W,   // [L, C, C]
  P_ATTN_PROJ_B,   // [L, C]
  P_LN2_W,         // [L, C]
  P_LN2_B,         // [L, C]
  P_FC_W,          // [L, 4C, C]
  P_FC_B,          // [L, 4C]
  P_FC_PROJ_W,     // [L, C, 4C]
  P_FC_PROJ_B,     // [L, C]
  P_LNF_W,         // [C]
  P_LNF_B,         // [C]
  NUM_PARAM_TENSORS
};

struct ParamInfo {
  const char* name;
  int ndim;
  int64_t shape[3];
  size_t offset;  // in floats from the start of the parameter buffer
  size_t numel;
  int decay;  // 1: AdamW weight decay applies (matrices and embeddings), 0: biases and norms
};

// Writes an explanation into err and returns 0 if the config is invalid.
int model_config_valid(const ModelConfig* cfg, char* err, size_t err_len);
// Fills layout[NUM_PARAM_TENSORS]; returns the total number of parameters.
size_t model_layout(const ModelConfig* cfg, ParamInfo* layout);

struct Activations {
  float *encoded, *ln1, *ln1_mean, *ln1_rstd, *qkv, *atty, *att, *attproj, *residual2, *ln2, *ln2_mean, *ln2_rstd,
      *fch, *fch_gelu, *fcproj, *residual3, *lnf, *lnf_mean, *lnf_rstd, *logits, *probs, *losses;
};

struct Model {
  ModelConfig cfg;
  const KernelOps* ops;
  ParamInfo layout[NUM_PARAM_TENSORS];
  size_t num_params;
  float* params;
  float* grads;
  float* m;  // AdamW moments, allocated by the first update
  float* v;
  int step;  // AdamW steps taken
  // The last forward. state: 0 none, 1 without targets, 2 with targets (backward possible).
  int state, B, T, has_frames;
  double loss, mask_sum;
  int64_t correct;
  size_t acts_cap, dacts_cap, scratch_cap, io_cap;
  float *acts_mem, *dacts_mem, *att_scratch;
  Activations acts, dacts;
  int *inputs, *targets, *argmax;  // backend buffers [B*T]
  float *mask, *frames;            // backend buffers [B*T], [B*T*P]
  float *mask_host, *losses_host, *dlosses_host;
  int *targets_host, *argmax_host;
  // Policy-gradient (RL) buffers, sized like io_cap: backend [RL_DEV * BT] and host [RL_HOST * BT].
  int policy;  // 1: the last forward was model_policy_forward (backward uses its dnll)
  float *rl_mem, *rl_host;
};

// Allocates and initialises parameters from seed (GPT-2 init: N(0, 0.02) for matrices and
// embeddings, N(0, 0.02/sqrt(2L)) for the two residual projections, zero biases, unit norms).
void model_init(Model* model, const ModelConfig* cfg, uint64_t seed, const KernelOps* ops);
void model_free(Model* model);
// Host inputs [B,T]; frames: one row of P features per frame slot (FRAME_TOKEN in inputs), in
// position order ([F,P] for F slots; NULL if there are none). The backend keeps them as [B,T,P].
// targets and mask NULL: logits only. Otherwise sets loss, mask_sum and correct (argmax == target
// at masked-in positions). T <= cfg.context.
void model_forward(Model* model, const int* inputs, const float* frames, const int* targets, const float* mask, int B,
                   int T);
// Bytes a training step at [B,T] would still allocate on the model's backend (activations, their
// gradients, attention scratch, batch buffers, and the AdamW moments before the first update;
// host buffers too on the CPU backend, whose budget holds both): compare with mem_available before
// training, so a config that cannot fit is refused with numbers instead of failing mid-step.
// forward_only: what a forward without backward would take (log-probabilities of a frozen
// reference model): activations and batch buffers only.
size_t model_training_bytes(const Model* model, int B, int T, int forward_only);
// Gradients of the last forward's loss; accumulate = 0 zeroes the gradient buffer first.
void model_backward(Model* model, int accumulate);

// ---- policy gradient (RL), SPEC §3; formulas in ops.h (policy_loss_cpu) and the README ----
enum { AGG_TOKEN_MEAN = 0, AGG_SEQ_MEAN_TOKEN_MEAN = 1, AGG_SEQ_MEAN_TOKEN_SUM = 2 };
struct PolicyLossConfig {
  PolicyLossParams params;
  int aggregation;     // AGG_*
  double denominator;  // > 0 replaces sum(mask) (token-mean) or the number of sequences (seq-mean-*)
};
// Diagnostics are mask-weighted means over the tokens with mask > 0 (whatever the aggregation).
struct PolicyLossResult {
  double loss;       // pg_loss + kl_coef * kl
  double pg_loss;    // the aggregated clipped surrogate
  double kl;         // the aggregated KL estimate to the reference (0 when kl_coef == 0)
  double ratio_mean, clip_fraction, approx_kl, entropy, behav_weight_mean, capped_fraction;
  double tokens;     // sum(mask)
  int sequences;     // sequences with at least one masked-in token
};
// Per-token log-probabilities of targets (the next tokens) under the current parameters: a forward
// without loss. logp [B*T] (0 where mask == 0), entropy [B*T] or NULL. Leaves no loss for backward.
void model_logprobs(Model* model, const int* inputs, const float* frames, const int* targets, const float* mask,
                    int B, int T, float* logp, float* entropy);
// Forward of the decoupled PPO loss (host inputs [B*T]; prox_logp NULL = no proximal policy, ref_logp
// may be NULL when kl_coef == 0). model_backward then accumulates its gradient like the SFT loss's.
void model_policy_forward(Model* model, const int* inputs, const float* frames, const int* targets,
                          const float* mask, const float* adv, const float* old_logp, const float* prox_logp,
                          const float* ref_logp, const PolicyLossConfig* cfg, int B, int T, PolicyLossResult* out);

struct AdamWConfig {
  float lr, beta1, beta2, eps, weight_decay;
  float max_grad_norm;  // <= 0: no clipping
};
struct UpdateResult {
  double grad_norm;  // before clipping
  float scale;       // clipping factor applied to the gradients (1 = none)
  int step;
};
// Global-norm clipping then one AdamW step. Throws (without touching parameters) if a gradient is
// not finite, naming the tensor and the index.
void model_update(Model* model, const AdamWConfig* opt, UpdateResult* out);

// Host copies of the buffers (num_params floats) and of the last forward's outputs.
void model_get_params(const Model* model, float* dst);
void model_set_params(Model* model, const float* src);
void model_get_grads(const Model* model, float* dst);
void model_get_logits(const Model* model, float* dst);  // [B,T,V]
void model_get_losses(const Model* model, float* dst);  // [B,T], 0 at masked-out positions
// AdamW state for checkpoints: moments (num_params floats each, zero before the first step) and step.
void model_get_moments(Model* model, float* m_dst, float* v_dst);
void model_set_moments(Model* model, const float* m_src, const float* v_src, int step);

struct Decoder {
  Model* model;
  const KernelOps* ops;  // the model's table, kept so freeing never touches the model
  int B, pos, n_cap;
  float *kcache, *vcache;  // [L, B, T, C]
  float *x, *x2, *ln, *mean, *rstd, *qkv, *atty, *tmp, *fch, *fchg, *scratch, *frames;
  int* tokens;
  float *last, *lastln, *logits;
};

void decoder_init(Decoder* dec, Model* model, int B);
void decoder_free(Decoder* dec);
void decoder_reset(Decoder* dec);
// Appends n positions to each of the B sequences (tokens [B,n]; frames: the slots' rows as in
// model_forward, or NULL) and
// writes the logits of the last new position, [B,V], to the host buffer logits. pos + n <= T.
void decoder_step(Decoder* dec, const int* tokens, const float* frames, int n, float* logits);
