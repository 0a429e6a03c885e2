// ops.h: the CPU reference of every op of the model, forward and backward.
//
// Design. These plain loops are the specification of the compute core (llm.c's habit): a GPU
// version of an op is correct when it matches the op here within tolerance, and the tests check
// each op here against finite differences. Conventions, all row-major fp32:
//   - N rows of C channels; a batch is B sequences of T positions (N = B*T); the residual stream
//     is [B,T,C]; a linear layer's weight is [OC, IC] (PyTorch nn.Linear), out = inp @ W^T + bias.
//   - Backward functions ACCUMULATE (+=) into their gradient outputs, as in llm.c: the residual
//     stream sums gradients from several branches, and gradient accumulation over micro-batches
//     is free. Callers zero the buffers first. Buffers named scratch are overwritten.
//   - Token id FRAME_TOKEN (-1) marks a frame slot: its embedding comes from the frame projection
//     of a P-float thumbnail feature instead of the token table.
//   - Every op is multi-threaded through parallel_for with each output element owned by exactly
//     one chunk and summed in a fixed order, so results do not depend on the thread count.
//   - No op allocates, throws or checks arguments: callers (model.cc, addon.cc) validate first.
#pragma once

#include <stdint.h>

#define FRAME_TOKEN (-1)

// out[b,t,:] = wte[inp[b,t],:] + wpe[t,:]; a frame slot gets wpe[t,:] only (see frame_proj_forward).
// For incremental decoding pass wpe + pos*C: position t of this call is absolute position pos + t.
void encoder_forward_cpu(float* out, const int* inp, const float* wte, const float* wpe, int B, int T, int C);
void encoder_backward_cpu(float* dwte, float* dwpe, const float* dout, const int* inp, int B, int T, int C);

// out[b,t,:] += w @ feat[b,t,:] + bias at frame slots (inp == FRAME_TOKEN); w is [C,P], feat [B,T,P].
void frame_proj_forward_cpu(float* out, const int* inp, const float* feat, const float* w, const float* bias, int B,
                            int T, int C, int P);
// dfeat may be NULL (the model never needs the gradient of its input features).
void frame_proj_backward_cpu(float* dfeat, float* dw, float* dbias, const float* dout, const int* inp,
                             const float* feat, const float* w, int B, int T, int C, int P);

// LayerNorm over C with eps 1e-5; mean/rstd [N] are saved for backward.
void layernorm_forward_cpu(float* out, float* mean, float* rstd, const float* inp, const float* weight,
                           const float* bias, int N, int C);
void layernorm_backward_cpu(float* dinp, float* dweight, float* dbias, const float* dout, const float* inp,
                            const float* weight, const float* mean, const float* rstd, int N, int C);

// out[N,OC] = inp[N,IC] @ weight[OC,IC]^T + bias[OC]; bias and dbias may be NULL.
void matmul_forward_cpu(float* out, const float* inp, const float* weight, const float* bias, int N, int IC, int OC);
void matmul_backward_cpu(float* dinp, float* dweight, float* dbias, const float* dout, const float* inp,
                         const float* weight, int N, int IC, int OC);

// Causal multi-head self-attention. qkv [B,T,3C] holds q | k | v, each split into H heads of C/H;
// out [B,T,C]; att [B,H,T,T] keeps the softmax weights (row t uses columns 0..t) for backward.
void attention_forward_cpu(float* out, float* att, const float* qkv, int B, int T, int C, int H);
// scratch: B*H*T*T floats (the gradient of the pre-softmax scores).
void attention_backward_cpu(float* dqkv, float* scratch, const float* dout, const float* qkv, const float* att, int B,
                            int T, int C, int H);
// Incremental attention with a KV cache. qkv [B,n,3C] are the projections of positions pos..pos+n-1;
// kcache/vcache [B,maxT,C]. Writes the new keys and values into the caches, then out[b,i,:]
// attends over cache positions 0..pos+i: the same result as attention_forward on the whole prefix.
// scratch: B*n*H*maxT floats.
void attention_decode_cpu(float* out, float* kcache, float* vcache, float* scratch, const float* qkv, int B, int n,
                          int pos, int maxT, int C, int H);

// GELU, tanh approximation (GPT-2).
void gelu_forward_cpu(float* out, const float* inp, int64_t N);
void gelu_backward_cpu(float* dinp, const float* inp, const float* dout, int64_t N);

void residual_forward_cpu(float* out, const float* a, const float* b, int64_t N);
void residual_backward_cpu(float* da, float* db, const float* dout, int64_t N);

// losses[n] = -log(softmax(logits[n,:])[targets[n]]) where mask[n] != 0, else 0 (the target of a
// masked-out row is ignored, it may be anything). probs [N,V] are saved for backward.
void softmax_crossentropy_forward_cpu(float* losses, float* probs, const float* logits, const int* targets,
                                      const float* mask, int N, int V);
// dlogits[n,:] += dlosses[n] * (probs[n,:] - onehot(targets[n])); rows with dlosses[n] == 0 are skipped.
void softmax_crossentropy_backward_cpu(float* dlogits, const float* dlosses, const float* probs, const int* targets,
                                       int N, int V);

// ---- policy-gradient (RL) ops, SPEC §3 ----
// logp[n] = log softmax(logits[n,:])[targets[n]] and, when entropy is not NULL,
// entropy[n] = -sum_i p_i log p_i, where mask[n] != 0; both 0 elsewhere (the target of a masked-out
// row is ignored). probs [N,V] are saved so softmax_crossentropy_backward can take the gradient
// (d logp / d logits = onehot(target) - probs, i.e. minus the cross-entropy's).
void token_logprobs_cpu(float* logp, float* entropy, float* probs, const float* logits, const int* targets,
                        const float* mask, int N, int V);

enum { KL_K1 = 0, KL_K2 = 1, KL_K3 = 2 };  // estimators of KL(pi_theta || pi_ref), see README
enum { CAP_TRUNCATE = 0, CAP_MASK = 1 };    // behaviour weight above the cap: min(w, cap) or 0
struct PolicyLossParams {
  float clip_low, clip_high;  // ratio clipped to [1 - clip_low, 1 + clip_high]
  float kl_coef;              // beta; ref_logp is read only when > 0
  float behav_cap;            // cap of the behaviour importance weight (decoupled loss)
  int kl_estimator;           // KL_K1 | KL_K2 | KL_K3
  int cap_mode;               // CAP_TRUNCATE | CAP_MASK
};
// Per-token outputs of policy_loss_cpu, each [N] (written at rows with coef != 0, 0 elsewhere).
struct PolicyLossTokens {
  float* pg;            // w * max(-A r, -A clip(r)): the clipped surrogate, weighted by w
  float* kl;            // the KL estimate to the reference (0 when kl_coef == 0)
  float* ratio;         // r = exp(logp - base)
  float* behav_weight;  // w after the cap (1 without prox_logp)
  float* clipped;       // 1 where the clipped branch is the active one (zero policy gradient)
  float* capped;        // 1 where the behaviour weight exceeded the cap
};
// The decoupled PPO token loss (AReaL's form; SPEC §3): base = prox_logp if not NULL, else old_logp,
//   r = exp(logp - base), w = cap(exp(prox_logp - old_logp)) (1 without prox_logp),
//   l = w * max(-A r, -A clip(r, 1 - clip_low, 1 + clip_high)) + kl_coef * kl(logp, ref_logp).
// Only logp carries a gradient. coef[n] is the row's aggregation weight (mask / normaliser; 0 skips
// the row) and dnll[n] = -coef[n] * dl/dlogp: the upstream gradient of the row's cross-entropy
// (nll = -logp), so softmax_crossentropy_backward(dlogits, dnll, probs, ...) finishes the chain.
// adv is per token [N].
void policy_loss_cpu(const PolicyLossTokens* out, float* dnll, const float* logp, const float* old_logp,
                     const float* prox_logp, const float* ref_logp, const float* adv, const float* coef,
                     const PolicyLossParams* params, int N);

// Sum of squares in double (global gradient norm = sqrt of the sum over all tensors).
double sumsq_cpu(const float* x, int64_t n);
// AdamW with decoupled weight decay, step t >= 1 (bias correction), gradients multiplied by
// grad_scale first (the clipping factor):
//   g = grad_scale*grads; m = b1*m + (1-b1)*g; v = b2*v + (1-b2)*g^2;
//   params -= lr * (m/(1-b1^t) / (sqrt(v/(1-b2^t)) + eps) + weight_decay*params)
void adamw_cpu(float* params, const float* grads, float* m, float* v, int64_t n, float lr, float beta1, float beta2,
               float eps, float weight_decay, float grad_scale, int t);

// Work per parallel_for chunk, in multiply-adds (<= 0: the default, 2^18). Tests set a small value
// so that tiny shapes still split across threads and thread-count invariance is really exercised.
void ops_set_chunk_work(int64_t work);

// out[n] = index of the largest logit of row n (the first one on ties): token accuracy, greedy decoding.
void argmax_rows_cpu(int* out, const float* x, int N, int V);
