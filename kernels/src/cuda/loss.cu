// loss.cu: softmax cross-entropy with the loss mask, argmax, and the policy-gradient ops (ops.h,
// "loss" and SPEC §3 "Policy-gradient loss"). A block per row of V logits for the softmax ops.
#include "common.cuh"

// probs[n, :] = softmax(x) of one row (every thread of the block calls it); returns max and
// sum_i exp(x_i - max) through the references, as softmax_row in isa_math.h.
__device__ __forceinline__ void softmax_row_block(float* p, const float* x, int V, float& mx, float& sum) {
  float m = -INFINITY;
  for (int i = threadIdx.x; i < V; i += blockDim.x) m = x[i] > m ? x[i] : m;
  mx = block_max(m);
  float s = 0.0f;
  for (int i = threadIdx.x; i < V; i += blockDim.x) {
    float e = softmax_exp(x[i] - mx);
    p[i] = e;
    s += e;
  }
  sum = block_sum(s);
  float inv = 1.0f / sum;
  for (int i = threadIdx.x; i < V; i += blockDim.x) p[i] *= inv;
}

__global__ void crossentropy_forward_kernel(float* losses, float* probs, const float* logits, const int* targets,
                                            const float* mask, int V) {
  int64_t n = blockIdx.x;
  if (mask[n] == 0.0f) {  // the whole block leaves: no barrier is skipped by part of it
    if (threadIdx.x == 0) losses[n] = 0.0f;
    return;
  }
  const float* x = logits + n * V;
  float mx, sum;
  softmax_row_block(probs + n * V, x, V, mx, sum);
  if (threadIdx.x == 0) losses[n] = logf(sum) - (x[targets[n]] - mx);
}

// dlogits[n, i] += g p[n, i], then -= g at the target, in that order as the CPU does.
__global__ void crossentropy_backward_kernel(float* dlogits, const float* dlosses, const float* probs,
                                             const int* targets, int N, int V) {
  int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= (int64_t)N * V) return;
  int64_t n = idx / V;
  float g = dlosses[n];
  if (g == 0.0f) return;
  float d = dlogits[idx] + g * probs[idx];
  if (idx % V == targets[n]) d -= g;
  dlogits[idx] = d;
}

// The first index of the largest value (ties to the lower index, as argmax_rows_cpu).
__global__ void argmax_rows_kernel(int* out, const float* x, int V) {
  __shared__ float best_v[BLOCK];
  __shared__ int best_i[BLOCK];
  const float* r = x + (int64_t)blockIdx.x * V;
  float bv = -INFINITY;
  int bi = V;  // none yet
  for (int i = threadIdx.x; i < V; i += blockDim.x)
    if (bi == V || r[i] > bv) bv = r[i], bi = i;
  best_v[threadIdx.x] = bv;
  best_i[threadIdx.x] = bi;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if ((int)threadIdx.x < stride) {
      float ov = best_v[threadIdx.x + stride];
      int oi = best_i[threadIdx.x + stride];
      int mi = best_i[threadIdx.x];
      if (oi != V && (mi == V || ov > best_v[threadIdx.x] || (ov == best_v[threadIdx.x] && oi < mi)))
        best_v[threadIdx.x] = ov, best_i[threadIdx.x] = oi;
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = best_i[0] == V ? 0 : best_i[0];
}

__global__ void token_logprobs_kernel(float* logp, float* entropy, float* probs, const float* logits,
                                      const int* targets, const float* mask, int V) {
  int64_t n = blockIdx.x;
  if (mask[n] == 0.0f) {
    if (threadIdx.x == 0) {
      logp[n] = 0.0f;
      if (entropy) entropy[n] = 0.0f;
    }
    return;
  }
  const float* x = logits + n * V;
  float* p = probs + n * V;
  float mx, sum;
  softmax_row_block(p, x, V, mx, sum);
  float lse = logf(sum);
  if (threadIdx.x == 0) logp[n] = (x[targets[n]] - mx) - lse;
  if (entropy) {
    // H = lse - sum p (x - max), in double (token_logprobs_cpu). Each thread reads back only the
    // probabilities it wrote itself, so no barrier is needed before this loop.
    double px = 0.0;
    for (int i = threadIdx.x; i < V; i += blockDim.x) px += (double)p[i] * (double)(x[i] - mx);
    px = block_sum_d(px);
    if (threadIdx.x == 0) entropy[n] = (float)((double)lse - px);
  }
}

// The decoupled PPO token loss: policy_loss_cpu line for line (its comments give the why).
__global__ void policy_loss_kernel(PolicyLossTokens out, float* dnll, const float* logp, const float* old_logp,
                                   const float* prox_logp, const float* ref_logp, const float* adv, const float* coef,
                                   PolicyLossParams p, int N) {
  int64_t n = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (n >= N) return;
  if (coef[n] == 0.0f) {
    out.pg[n] = out.kl[n] = out.ratio[n] = out.behav_weight[n] = out.clipped[n] = out.capped[n] = 0.0f;
    dnll[n] = 0.0f;
    return;
  }
  float lp = logp[n], a = adv[n];
  float base = prox_logp ? prox_logp[n] : old_logp[n];
  float w = 1.0f, capped = 0.0f;
  if (prox_logp) {
    w = expf(prox_logp[n] - old_logp[n]);
    if (w > p.behav_cap) {
      capped = 1.0f;
      w = p.cap_mode == CAP_MASK ? 0.0f : p.behav_cap;
    }
  }
  float r = expf(lp - base);
  float rc = fminf(fmaxf(r, 1.0f - p.clip_low), 1.0f + p.clip_high);
  float l1 = -a * r, l2 = -a * rc;
  int clip = l2 > l1;
  float pg = w * (clip ? l2 : l1);
  float dpg = clip ? 0.0f : w * l1;
  float kl = 0.0f, dkl = 0.0f;
  if (p.kl_coef > 0.0f) {
    float d = lp - ref_logp[n];
    if (p.kl_estimator == KL_K1) {
      kl = d, dkl = 1.0f;
    } else if (p.kl_estimator == KL_K2) {
      kl = 0.5f * d * d, dkl = d;
    } else {
      float e = expf(-d);
      kl = e + d - 1.0f, dkl = 1.0f - e;
    }
  }
  out.pg[n] = pg;
  out.kl[n] = kl;
  out.ratio[n] = r;
  out.behav_weight[n] = w;
  out.clipped[n] = (float)clip;
  out.capped[n] = capped;
  dnll[n] = -coef[n] * (dpg + p.kl_coef * dkl);
}

void softmax_crossentropy_forward_cuda(float* losses, float* probs, const float* logits, const int* targets,
                                       const float* mask, int N, int V) {
  if (N == 0) return;
  LAUNCH(crossentropy_forward_kernel, N, BLOCK, 0, losses, probs, logits, targets, mask, V);
  LAUNCH_CHECK(crossentropy_forward_kernel);
}

void softmax_crossentropy_backward_cuda(float* dlogits, const float* dlosses, const float* probs, const int* targets,
                                        int N, int V) {
  if (N == 0) return;
  LAUNCH(crossentropy_backward_kernel, ceil_div((int64_t)N * V, BLOCK), BLOCK, 0, dlogits, dlosses, probs, targets, N,
         V);
  LAUNCH_CHECK(crossentropy_backward_kernel);
}

void argmax_rows_cuda(int* out, const float* x, int N, int V) {
  if (N == 0) return;
  LAUNCH(argmax_rows_kernel, N, BLOCK, 0, out, x, V);
  LAUNCH_CHECK(argmax_rows_kernel);
}

void token_logprobs_cuda(float* logp, float* entropy, float* probs, const float* logits, const int* targets,
                         const float* mask, int N, int V) {
  if (N == 0) return;
  LAUNCH(token_logprobs_kernel, N, BLOCK, 0, logp, entropy, probs, logits, targets, mask, V);
  LAUNCH_CHECK(token_logprobs_kernel);
}

void policy_loss_cuda(const PolicyLossTokens* out, float* dnll, const float* logp, const float* old_logp,
                      const float* prox_logp, const float* ref_logp, const float* adv, const float* coef,
                      const PolicyLossParams* params, int N) {
  if (N == 0) return;
  LAUNCH(policy_loss_kernel, ceil_div(N, BLOCK), BLOCK, 0, *out, dnll, logp, old_logp, prox_logp, ref_logp, adv, coef,
         *params, N);
  LAUNCH_CHECK(policy_loss_kernel);
}
