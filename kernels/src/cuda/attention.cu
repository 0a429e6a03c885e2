// attention.cu: causal multi-head attention, training forward and backward and KV-cache decoding
// (ops.h, "attention").
//
// Training is fused, flash-style (online softmax): the T x T weights are never stored. The forward
// keeps one float per query row, its log-sum-exp (the table's attention_keeps_weights = 0, so the
// model sizes att as [B,H,T] and the backward scratch as [B,H,T]); the backward recomputes each
// weight from it. One warp per query row (forward, dq) or key (dk, dv): lanes take 32 keys at a
// time for the scores, then the head's channels for the sums, with the chunk's weights passed by
// shuffles. fp32 throughout; the order of the sums differs from the CPU's, so results agree to
// rounding (test/test_cuda.cc), not bit for bit.
#include "common.cuh"

#define WARPS (BLOCK / 32)
#define MAX_HS 128  // head size at most 4 channels per lane

// q, k or v (part 0, 1, 2) of position t of head h in sequence b.
__device__ __forceinline__ const float* head_row(const float* qkv, int64_t b, int t, int T, int C, int h, int hs,
                                                 int part) {
  return qkv + (b * T + t) * 3 * (int64_t)C + part * C + h * hs;
}

__device__ __forceinline__ float dot_hs(const float* a, const float* b, int hs) {
  float s = 0.0f;
  for (int d = 0; d < hs; d++) s += a[d] * b[d];
  return s;
}

// out_t = sum_{j <= t} softmax_j(q_t . k_j * scale) v_j; lse[row] = log sum_j exp(s_j) (the scores
// scaled). Keys in chunks of 32: the running max m, sum l and accumulators are rescaled when the
// max grows.
__global__ void attention_forward_kernel(float* out, float* lse, const float* qkv, int B, int T, int C, int H) {
  int lane = threadIdx.x % 32;
  int64_t row = (int64_t)blockIdx.x * WARPS + threadIdx.x / 32;
  if (row >= (int64_t)B * H * T) return;  // whole warps: the shuffles below see full warps
  int64_t bh = row / T;
  int t = (int)(row % T), h = (int)(bh % H), hs = C / H;
  int64_t b = bh / H;
  float scale = 1.0f / sqrtf((float)hs);
  const float* q = head_row(qkv, b, t, T, C, h, hs, 0);
  float m = -INFINITY, l = 0.0f, acc[MAX_HS / 32] = {0.0f, 0.0f, 0.0f, 0.0f};
  for (int j0 = 0; j0 <= t; j0 += 32) {
    int j = j0 + lane;
    float s = j <= t ? dot_hs(q, head_row(qkv, b, j, T, C, h, hs, 1), hs) * scale : -INFINITY;
    float m_new = fmaxf(m, warp_max(s));
    float p = j <= t ? expf(s - m_new) : 0.0f;
    float corr = expf(m - m_new);  // 0 on the first chunk (m = -inf)
    l = l * corr + warp_sum(p);
    int n = t - j0 + 1 < 32 ? t - j0 + 1 : 32;
    for (int i = 0; i < MAX_HS / 32; i++) acc[i] *= corr;
    for (int jj = 0; jj < n; jj++) {
      float pj = __shfl_sync(0xffffffffu, p, jj);
      const float* v = head_row(qkv, b, j0 + jj, T, C, h, hs, 2);
      for (int i = 0; i < MAX_HS / 32; i++) {
        int d = lane + 32 * i;
        if (d < hs) acc[i] += pj * v[d];
      }
    }
    m = m_new;
  }
  float* o = out + (b * T + t) * C + h * hs;
  float inv = 1.0f / l;
  for (int i = 0; i < MAX_HS / 32; i++) {
    int d = lane + 32 * i;
    if (d < hs) o[d] = acc[i] * inv;
  }
  if (lane == 0) lse[row] = m + logf(l);
}

// Per query row: Dt = sum_j p_tj (dout_t . v_j) (= dout_t . out_t) into dsum[row], then
// dq_t += sum_j ds_tj k_j with ds_tj = p_tj (dout_t . v_j - Dt) scale.
__global__ void attention_backward_dq_kernel(float* dqkv, float* dsum, const float* dout, const float* qkv,
                                             const float* lse, int B, int T, int C, int H) {
  int lane = threadIdx.x % 32;
  int64_t row = (int64_t)blockIdx.x * WARPS + threadIdx.x / 32;
  if (row >= (int64_t)B * H * T) return;
  int64_t bh = row / T;
  int t = (int)(row % T), h = (int)(bh % H), hs = C / H;
  int64_t b = bh / H;
  float scale = 1.0f / sqrtf((float)hs), L = lse[row];
  const float* q = head_row(qkv, b, t, T, C, h, hs, 0);
  const float* g = dout + (b * T + t) * C + h * hs;
  float D = 0.0f;
  for (int j = lane; j <= t; j += 32) {
    float p = expf(dot_hs(q, head_row(qkv, b, j, T, C, h, hs, 1), hs) * scale - L);
    D += p * dot_hs(g, head_row(qkv, b, j, T, C, h, hs, 2), hs);
  }
  D = warp_sum(D);
  if (lane == 0) dsum[row] = D;
  float acc[MAX_HS / 32] = {0.0f, 0.0f, 0.0f, 0.0f};
  for (int j0 = 0; j0 <= t; j0 += 32) {
    int j = j0 + lane;
    float ds = 0.0f;
    if (j <= t) {
      float p = expf(dot_hs(q, head_row(qkv, b, j, T, C, h, hs, 1), hs) * scale - L);
      ds = p * (dot_hs(g, head_row(qkv, b, j, T, C, h, hs, 2), hs) - D) * scale;
    }
    int n = t - j0 + 1 < 32 ? t - j0 + 1 : 32;
    for (int jj = 0; jj < n; jj++) {
      float dsj = __shfl_sync(0xffffffffu, ds, jj);
      const float* k = head_row(qkv, b, j0 + jj, T, C, h, hs, 1);
      for (int i = 0; i < MAX_HS / 32; i++) {
        int d = lane + 32 * i;
        if (d < hs) acc[i] += dsj * k[d];
      }
    }
  }
  float* dq = dqkv + (b * T + t) * 3 * (int64_t)C + h * hs;
  for (int i = 0; i < MAX_HS / 32; i++) {
    int d = lane + 32 * i;
    if (d < hs) dq[d] += acc[i];
  }
}

// Per key j: dk_j += sum_{t >= j} ds_tj q_t and dv_j += sum_{t >= j} p_tj dout_t, the queries in
// chunks of 32 (lane = query), reading lse and dsum of each query row.
__global__ void attention_backward_dkv_kernel(float* dqkv, const float* dsum, const float* dout, const float* qkv,
                                              const float* lse, int B, int T, int C, int H) {
  int lane = threadIdx.x % 32;
  int64_t col = (int64_t)blockIdx.x * WARPS + threadIdx.x / 32;
  if (col >= (int64_t)B * H * T) return;
  int64_t bh = col / T;
  int j = (int)(col % T), h = (int)(bh % H), hs = C / H;
  int64_t b = bh / H;
  float scale = 1.0f / sqrtf((float)hs);
  const float* k = head_row(qkv, b, j, T, C, h, hs, 1);
  const float* v = head_row(qkv, b, j, T, C, h, hs, 2);
  float ak[MAX_HS / 32] = {0.0f, 0.0f, 0.0f, 0.0f}, av[MAX_HS / 32] = {0.0f, 0.0f, 0.0f, 0.0f};
  for (int t0 = j; t0 < T; t0 += 32) {
    int t = t0 + lane;
    float p = 0.0f, ds = 0.0f;
    if (t < T) {
      int64_t r = bh * T + t;
      const float* g = dout + (b * T + t) * C + h * hs;
      p = expf(dot_hs(head_row(qkv, b, t, T, C, h, hs, 0), k, hs) * scale - lse[r]);
      ds = p * (dot_hs(g, v, hs) - dsum[r]) * scale;
    }
    int n = T - t0 < 32 ? T - t0 : 32;
    for (int tt = 0; tt < n; tt++) {
      float pt = __shfl_sync(0xffffffffu, p, tt), dst = __shfl_sync(0xffffffffu, ds, tt);
      const float* q = head_row(qkv, b, t0 + tt, T, C, h, hs, 0);
      const float* g = dout + (b * T + t0 + tt) * C + h * hs;
      for (int i = 0; i < MAX_HS / 32; i++) {
        int d = lane + 32 * i;
        if (d < hs) ak[i] += dst * q[d], av[i] += pt * g[d];
      }
    }
  }
  float* dk = dqkv + (b * T + j) * 3 * (int64_t)C + C + h * hs;
  float* dv = dk + C;
  for (int i = 0; i < MAX_HS / 32; i++) {
    int d = lane + 32 * i;
    if (d < hs) dk[d] += ak[i], dv[d] += av[i];
  }
}

// att: [B,H,T] log-sum-exp per query row (this backend keeps no weights; backend.h).
void attention_forward_cuda(float* out, float* att, const float* qkv, int B, int T, int C, int H) {
  int blocks = ceil_div((int64_t)B * H * T, WARPS);
  LAUNCH(attention_forward_kernel, blocks, BLOCK, 0, out, att, qkv, B, T, C, H);
  LAUNCH_CHECK(attention_forward_kernel);
}

// scratch: [B,H,T] (the rows' dout . out).
void attention_backward_cuda(float* dqkv, float* scratch, const float* dout, const float* qkv, const float* att,
                             int B, int T, int C, int H) {
  int blocks = ceil_div((int64_t)B * H * T, WARPS);
  LAUNCH(attention_backward_dq_kernel, blocks, BLOCK, 0, dqkv, scratch, dout, qkv, att, B, T, C, H);
  LAUNCH_CHECK(attention_backward_dq_kernel);
  LAUNCH(attention_backward_dkv_kernel, blocks, BLOCK, 0, dqkv, scratch, dout, qkv, att, B, T, C, H);
  LAUNCH_CHECK(attention_backward_dkv_kernel);
}

// ---- KV-cache decoding ----

__global__ void kv_append_kernel(float* kcache, float* vcache, const float* qkv, int B, int n, int pos, int maxT,
                                 int C) {
  int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= (int64_t)B * n * C) return;
  int c = (int)(idx % C);
  int64_t bi = idx / C;
  int i = (int)(bi % n);
  int64_t b = bi / n;
  const float* src = qkv + bi * 3 * (int64_t)C;
  int64_t dst = (b * maxT + pos + i) * C + c;
  kcache[dst] = src[C + c];
  vcache[dst] = src[2 * C + c];
}

// A warp per (b, i, h), in the CPU's order idx = (b n + i) H + h; weights in scratch[idx, 0..len).
__global__ void attention_decode_kernel(float* out, const float* kcache, const float* vcache, float* scratch,
                                        const float* qkv, int B, int n, int pos, int maxT, int C, int H) {
  int lane = threadIdx.x % 32;
  int64_t idx = (int64_t)blockIdx.x * WARPS + threadIdx.x / 32;
  if (idx >= (int64_t)B * n * H) return;
  int h = (int)(idx % H), i = (int)((idx / H) % n), hs = C / H, len = pos + i + 1;
  int64_t b = idx / ((int64_t)H * n);
  float scale = 1.0f / sqrtf((float)hs);
  const float* q = qkv + (b * n + i) * 3 * (int64_t)C + h * hs;
  const float* kb = kcache + b * maxT * C + h * hs;
  const float* vb = vcache + b * maxT * C + h * hs;
  float* w = scratch + idx * maxT;
  float mx = -INFINITY;
  for (int j = lane; j < len; j += 32) {
    const float* k = kb + (int64_t)j * C;
    float s = 0.0f;
    for (int d = 0; d < hs; d++) s += q[d] * k[d];
    s *= scale;
    w[j] = s;
    mx = s > mx ? s : mx;
  }
  mx = warp_max(mx);
  float sum = 0.0f;
  for (int j = lane; j < len; j += 32) {
    float e = expf(w[j] - mx);  // attend_row in ops_cpu.cc: no clamp on this path
    w[j] = e;
    sum += e;
  }
  float inv = 1.0f / warp_sum(sum);
  for (int j = lane; j < len; j += 32) w[j] *= inv;
  __syncwarp();  // every lane reads the whole row of weights below
  float* o = out + (b * n + i) * C + h * hs;
  for (int d = lane; d < hs; d += 32) {
    float s = 0.0f;
    for (int j = 0; j < len; j++) s += w[j] * vb[(int64_t)j * C + d];
    o[d] = s;
  }
}

void attention_decode_cuda(float* out, float* kcache, float* vcache, float* scratch, const float* qkv, int B, int n,
                           int pos, int maxT, int C, int H) {
  LAUNCH(kv_append_kernel, ceil_div((int64_t)B * n * C, BLOCK), BLOCK, 0, kcache, vcache, qkv, B, n, pos, maxT, C);
  LAUNCH_CHECK(kv_append_kernel);
  LAUNCH(attention_decode_kernel, ceil_div((int64_t)B * n * H, WARPS), BLOCK, 0, out, kcache, vcache, scratch, qkv, B,
         n, pos, maxT, C, H);
  LAUNCH_CHECK(attention_decode_kernel);
}
