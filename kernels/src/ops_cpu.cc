// CPU reference of every op; see ops.h for conventions. Plain loops, tiled so that the compiler
// vectorises the inner loops without reassociating sums (no -ffast-math): dot() keeps 8 partial
// sums in a fixed order, the backward passes are axpy loops over contiguous rows. The two hot
// spots of training, the matrix products of the linear layers and the GELU, run through the
// vectorised kernels of the CPU's instruction set instead (cpu_isa.h), in a fixed order as well.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_isa.h"
#include "ops.h"
#include "threadpool.h"

// Chunk size, in items, for parallel_for: about kChunkWork multiply-adds per chunk, so that waking a
// thread (tens of us on a VM) never costs more than the work it gets; a loop with less work than
// one chunk in total runs inline on the calling thread (small decode steps, tiny test shapes).
// 2^18: at 2^15 a batch-1 decode step woke the pool for most ops and 2 threads decoded 1.9x
// slower than 1 (63 vs 34 ms for 129 tokens of the default checkpoint); now both take ~34 ms.
static const int64_t kChunkWork = 1 << 18;
static int64_t g_chunk_work = kChunkWork;
void ops_set_chunk_work(int64_t work) { g_chunk_work = work > 0 ? work : kChunkWork; }
static inline int64_t grain(int64_t work_per_item) {
  int64_t g = g_chunk_work / (work_per_item > 0 ? work_per_item : 1);
  return g > 1 ? g : 1;
}

static inline float dot(const float* __restrict__ a, const float* __restrict__ b, int n) {
  float acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  int i = 0;
  for (; i + 8 <= n; i += 8) {
    for (int j = 0; j < 8; j++) acc[j] += a[i + j] * b[i + j];
  }
  float tail = 0.0f;
  for (; i < n; i++) tail += a[i] * b[i];
  return ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7])) + tail;
}

static inline void axpy(float* __restrict__ y, float a, const float* __restrict__ x, int n) {
  for (int i = 0; i < n; i++) y[i] += a * x[i];
}

// ---------------------------------------------------------------------------------------------
// embeddings

void encoder_forward_cpu(float* out, const int* inp, const float* wte, const float* wpe, int B, int T, int C) {
  parallel_for((int64_t)B * T, grain(C), [&](int64_t begin, int64_t end) {
    for (int64_t bt = begin; bt < end; bt++) {
      int t = (int)(bt % T);
      float* __restrict__ o = out + bt * C;
      const float* __restrict__ p = wpe + (int64_t)t * C;
      int tok = inp[bt];
      if (tok == FRAME_TOKEN) {
        for (int c = 0; c < C; c++) o[c] = p[c];
      } else {
        const float* __restrict__ e = wte + (int64_t)tok * C;
        for (int c = 0; c < C; c++) o[c] = e[c] + p[c];
      }
    }
  });
}

void encoder_backward_cpu(float* dwte, float* dwpe, const float* dout, const int* inp, int B, int T, int C) {
  // dwte is a scatter (a token can repeat): split by channel so no two chunks write one element.
  parallel_for(C, grain((int64_t)B * T), [&](int64_t c0, int64_t c1) {
    for (int64_t bt = 0; bt < (int64_t)B * T; bt++) {
      int tok = inp[bt];
      if (tok == FRAME_TOKEN) continue;
      float* __restrict__ d = dwte + (int64_t)tok * C;
      const float* __restrict__ g = dout + bt * C;
      for (int64_t c = c0; c < c1; c++) d[c] += g[c];
    }
  });
  parallel_for(T, grain((int64_t)B * C), [&](int64_t t0, int64_t t1) {
    for (int64_t t = t0; t < t1; t++) {
      float* __restrict__ d = dwpe + t * C;
      for (int b = 0; b < B; b++) {
        const float* __restrict__ g = dout + ((int64_t)b * T + t) * C;
        for (int c = 0; c < C; c++) d[c] += g[c];
      }
    }
  });
}

void frame_proj_forward_cpu(float* out, const int* inp, const float* feat, const float* w, const float* bias, int B,
                            int T, int C, int P) {
  parallel_for((int64_t)B * T, grain((int64_t)C * P), [&](int64_t begin, int64_t end) {
    for (int64_t bt = begin; bt < end; bt++) {
      if (inp[bt] != FRAME_TOKEN) continue;
      const float* f = feat + bt * P;
      float* o = out + bt * C;
      for (int c = 0; c < C; c++) o[c] += bias[c] + dot(w + (int64_t)c * P, f, P);
    }
  });
}

void frame_proj_backward_cpu(float* dfeat, float* dw, float* dbias, const float* dout, const int* inp,
                             const float* feat, const float* w, int B, int T, int C, int P) {
  int64_t N = (int64_t)B * T;
  parallel_for(C, grain((int64_t)B * T * P), [&](int64_t c0, int64_t c1) {
    for (int64_t c = c0; c < c1; c++) {
      float* __restrict__ dwc = dw + c * P;
      for (int64_t bt = 0; bt < N; bt++) {
        if (inp[bt] != FRAME_TOKEN) continue;
        float g = dout[bt * C + c];
        dbias[c] += g;
        axpy(dwc, g, feat + bt * P, P);
      }
    }
  });
  if (dfeat == NULL) return;
  parallel_for(N, grain((int64_t)C * P), [&](int64_t begin, int64_t end) {
    for (int64_t bt = begin; bt < end; bt++) {
      if (inp[bt] != FRAME_TOKEN) continue;
      for (int c = 0; c < C; c++) axpy(dfeat + bt * P, dout[bt * C + c], w + (int64_t)c * P, P);
    }
  });
}

// ---------------------------------------------------------------------------------------------
// layernorm

void layernorm_forward_cpu(float* out, float* mean, float* rstd, const float* inp, const float* weight,
                           const float* bias, int N, int C) {
  const float eps = 1e-5f;
  parallel_for(N, grain(4 * (int64_t)C), [&](int64_t begin, int64_t end) {
    for (int64_t n = begin; n < end; n++) {
      const float* __restrict__ x = inp + n * C;
      // Mean and variance in double: a row with a small variance amplifies their rounding into
      // every logit (kernels README, "Ops and the backend table").
      double md = 0.0;
      for (int i = 0; i < C; i++) md += x[i];
      md /= C;
      double vd = 0.0;
      for (int i = 0; i < C; i++) {
        double d = x[i] - md;
        vd += d * d;
      }
      vd /= C;
      float m = (float)md;
      float s = (float)(1.0 / sqrt(vd + eps));
      float* __restrict__ o = out + n * C;
      for (int i = 0; i < C; i++) o[i] = (s * (x[i] - m)) * weight[i] + bias[i];
      mean[n] = m;
      rstd[n] = s;
    }
  });
}

void layernorm_backward_cpu(float* dinp, float* dweight, float* dbias, const float* dout, const float* inp,
                            const float* weight, const float* mean, const float* rstd, int N, int C) {
  parallel_for(N, grain(6 * (int64_t)C), [&](int64_t begin, int64_t end) {
    for (int64_t n = begin; n < end; n++) {
      const float* __restrict__ g = dout + n * C;
      const float* __restrict__ x = inp + n * C;
      float m = mean[n], s = rstd[n];
      float dnorm_mean = 0.0f, dnorm_norm_mean = 0.0f;
      for (int i = 0; i < C; i++) {
        float norm = (x[i] - m) * s;
        float dnorm = weight[i] * g[i];
        dnorm_mean += dnorm;
        dnorm_norm_mean += dnorm * norm;
      }
      dnorm_mean = dnorm_mean / C;
      dnorm_norm_mean = dnorm_norm_mean / C;
      float* __restrict__ d = dinp + n * C;
      for (int i = 0; i < C; i++) {
        float norm = (x[i] - m) * s;
        float dnorm = weight[i] * g[i];
        d[i] += (dnorm - dnorm_mean - norm * dnorm_norm_mean) * s;
      }
    }
  });
  parallel_for(C, grain(3 * (int64_t)N), [&](int64_t c0, int64_t c1) {
    for (int64_t n = 0; n < N; n++) {
      const float* __restrict__ g = dout + n * C;
      const float* __restrict__ x = inp + n * C;
      float m = mean[n], s = rstd[n];
      for (int64_t i = c0; i < c1; i++) {
        dbias[i] += g[i];
        dweight[i] += (x[i] - m) * s * g[i];
      }
    }
  });
}

// ---------------------------------------------------------------------------------------------
// matmul

// Runs the product in blocks of whole register tiles, about four blocks per thread or more.
static void gemm(const GemmArgs& g) {
  const CpuIsa* isa = cpu_isa();
  int mb = isa->mr * 8, nb = isa->nr * 4;
  int64_t want = 4 * (int64_t)pool_get_threads();
  auto blocks = [&] { return (int64_t)((g.M + mb - 1) / mb) * ((g.N + nb - 1) / nb); };
  while (blocks() < want && mb > isa->mr) mb = mb / 2 >= isa->mr ? (mb / 2 / isa->mr) * isa->mr : isa->mr;
  while (blocks() < want && nb > isa->nr) nb /= 2;
  int64_t col_blocks = (g.N + nb - 1) / nb;
  parallel_for(blocks(), grain((int64_t)mb * nb * g.K), [&](int64_t begin, int64_t end) {
    for (int64_t blk = begin; blk < end; blk++) {
      int r0 = (int)(blk / col_blocks) * mb, c0 = (int)(blk % col_blocks) * nb;
      isa->gemm_block(&g, r0, r0 + mb < g.M ? r0 + mb : g.M, c0, c0 + nb < g.N ? c0 + nb : g.N);
    }
  });
}

// Below this many rows (decoding: one position per sequence) the product is a matrix-vector
// product, bound by reading the weight once; the dot-product loop does that without the
// transposed copy the tiled product needs.
static const int kGemmMinRows = 16;

void matmul_forward_cpu(float* out, const float* inp, const float* weight, const float* bias, int N, int IC, int OC) {
  if (N >= kGemmMinRows) {
    // out = inp @ W^T: the tiles read B(k, j) = W[j, k] along j, so W^T is copied once per call
    // (IC x OC floats against N x IC x OC multiply-adds). The buffer belongs to the calling thread
    // and only grows: no allocation once a model has run its largest layer.
    static thread_local float* wt = NULL;
    static thread_local size_t wt_cap = 0;
    size_t need = (size_t)IC * OC;
    if (need > wt_cap) {
      free(wt);
      wt = (float*)malloc(need * sizeof(float));
      if (wt == NULL) abort();  // ops never throw (ops.h); a failed few-MB allocation is fatal
      wt_cap = need;
    }
    float* t = wt;
    parallel_for((IC + 31) / 32, grain(32 * (int64_t)OC), [&](int64_t begin, int64_t end) {
      for (int64_t kb = begin; kb < end; kb++) {
        int k0 = (int)kb * 32, k1 = k0 + 32 < IC ? k0 + 32 : IC;
        for (int o = 0; o < OC; o++)
          for (int k = k0; k < k1; k++) t[(int64_t)k * OC + o] = weight[(int64_t)o * IC + k];
      }
    });
    gemm(GemmArgs{N, OC, IC, inp, IC, 1, t, OC, out, OC, bias, 0});
    return;
  }
  // A few rows: each chunk takes a block of 64 output channels of one row, four weight rows per
  // pass of the ISA's dot-product loop (cpu_isa.h gemv_rows).
  const CpuIsa* isa = cpu_isa();
  const int OT = 64;
  int64_t col_tiles = (OC + OT - 1) / OT;
  parallel_for((int64_t)N * col_tiles, grain((int64_t)(OC < OT ? OC : OT) * IC), [&](int64_t begin, int64_t end) {
    for (int64_t tile = begin; tile < end; tile++) {
      int n = (int)(tile / col_tiles), o0 = (int)(tile % col_tiles) * OT;
      int o1 = o0 + OT < OC ? o0 + OT : OC;
      isa->gemv_rows(out + (int64_t)n * OC, inp + (int64_t)n * IC, weight, IC, IC, bias, o0, o1);
    }
  });
}

void matmul_backward_cpu(float* dinp, float* dweight, float* dbias, const float* dout, const float* inp,
                         const float* weight, int N, int IC, int OC) {
  // dinp[N,IC] += dout[N,OC] @ W[OC,IC]: A = dout by rows, B = W as it is.
  gemm(GemmArgs{N, IC, OC, dout, OC, 1, weight, IC, dinp, IC, NULL, 1});
  // dW[OC,IC] += dout^T @ inp: A(o, n) = dout[n, o], B = inp as it is; k runs over the N rows.
  gemm(GemmArgs{OC, IC, N, dout, 1, OC, inp, IC, dweight, IC, NULL, 1});
  if (dbias == NULL) return;
  // dbias[o] += sum_n dout[n, o], n in order, in blocks of 64 channels.
  parallel_for((OC + 63) / 64, grain(64 * (int64_t)N), [&](int64_t begin, int64_t end) {
    for (int64_t blk = begin; blk < end; blk++) {
      int o0 = (int)blk * 64, o1 = o0 + 64 < OC ? o0 + 64 : OC;
      for (int64_t n = 0; n < N; n++) {
        const float* g = dout + n * OC;
        for (int o = o0; o < o1; o++) dbias[o] += g[o];
      }
    }
  });
}

// ---------------------------------------------------------------------------------------------
// attention

// One query row: softmax(q.k_j * scale) over keys 0..len-1 into w, then out = sum_j w_j v_j.
// Shared by the training and the KV-cache paths so both give the same numbers.
static inline void attend_row(float* __restrict__ out, float* __restrict__ w, const float* q, const float* kbase,
                              const float* vbase, int64_t stride, int len, int hs, float scale) {
  float maxval = -INFINITY;
  for (int j = 0; j < len; j++) {
    float s = dot(q, kbase + j * stride, hs) * scale;
    w[j] = s;
    if (s > maxval) maxval = s;
  }
  float sum = 0.0f;
  for (int j = 0; j < len; j++) {
    float e = expf(w[j] - maxval);
    w[j] = e;
    sum += e;
  }
  float inv = 1.0f / sum;
  for (int j = 0; j < len; j++) w[j] *= inv;
  for (int i = 0; i < hs; i++) out[i] = 0.0f;
  for (int j = 0; j < len; j++) axpy(out, w[j], vbase + j * stride, hs);
}

// Training attention runs one (sequence, head) per task as small products on the ISA's tiles
// (cpu_isa.h) over strided views of qkv (row stride 3C): scores = q k^T, softmax per row, y = p v,
// and backward the same way. Causality bounds each block of rows: rows [r0, r1) need columns
// (keys) 0..r1-1 only, and entries past a row's own position are exact zeros in att and scratch,
// so the few they touch inside a block add nothing. The keys (and values, backward) are copied
// transposed once per task into a buffer of the calling thread that only grows.
static float* head_buffer(size_t floats) {
  static thread_local float* buf = NULL;
  static thread_local size_t cap = 0;
  if (floats > cap) {
    free(buf);
    buf = (float*)malloc(floats * sizeof(float));
    if (buf == NULL) abort();  // ops never throw (ops.h); a failed allocation of hs x T floats is fatal
    cap = floats;
  }
  return buf;
}

// dst[d, j] = src[j * stride + d]: one head's keys or values as [hs, T].
static void transpose_head(float* dst, const float* src, int64_t stride, int T, int hs) {
  for (int j = 0; j < T; j++)
    for (int d = 0; d < hs; d++) dst[(int64_t)d * T + j] = src[j * stride + d];
}

void attention_forward_cpu(float* out, float* att, const float* qkv, int B, int T, int C, int H) {
  const CpuIsa* isa = cpu_isa();
  int hs = C / H, RB = 4 * isa->mr;
  int64_t C3 = 3 * (int64_t)C;
  float scale = 1.0f / sqrtf((float)hs);
  parallel_for((int64_t)B * H, 1, [&](int64_t begin, int64_t end) {
    float* kt = head_buffer((size_t)hs * T);
    for (int64_t bh = begin; bh < end; bh++) {
      int64_t b = bh / H;
      int h = (int)(bh % H);
      const float* q = qkv + b * T * C3 + h * hs;
      float* a = att + bh * T * T;
      transpose_head(kt, q + C, C3, T, hs);
      for (int r0 = 0; r0 < T; r0 += RB) {
        int r1 = r0 + RB < T ? r0 + RB : T;
        GemmArgs scores{T, T, hs, q, C3, 1, kt, T, a, T, NULL, 0};
        isa->gemm_block(&scores, r0, r1, 0, r1);
      }
      for (int t = 0; t < T; t++) isa->softmax_causal_row(a + (int64_t)t * T, t + 1, T, scale);
      for (int r0 = 0; r0 < T; r0 += RB) {
        int r1 = r0 + RB < T ? r0 + RB : T;
        GemmArgs y{T, hs, r1, a, T, 1, q + 2 * C, C3, out + b * T * C + h * hs, C, NULL, 0};
        isa->gemm_block(&y, r0, r1, 0, hs);
      }
    }
  });
}

void attention_backward_cpu(float* dqkv, float* scratch, const float* dout, const float* qkv, const float* att, int B,
                            int T, int C, int H) {
  const CpuIsa* isa = cpu_isa();
  int hs = C / H, RB = 4 * isa->mr;
  int64_t C3 = 3 * (int64_t)C;
  float scale = 1.0f / sqrtf((float)hs);
  parallel_for((int64_t)B * H, 1, [&](int64_t begin, int64_t end) {
    float* vt = head_buffer((size_t)hs * T);
    for (int64_t bh = begin; bh < end; bh++) {
      int64_t b = bh / H;
      int h = (int)(bh % H);
      const float* q = qkv + b * T * C3 + h * hs;
      const float* k = q + C;
      const float* p = att + bh * T * T;
      const float* g = dout + b * T * C + h * hs;
      float* ds = scratch + bh * T * T;
      float* dq = dqkv + b * T * C3 + h * hs;
      transpose_head(vt, q + 2 * C, C3, T, hs);
      // d(loss)/d(att[t, j]) = dout_t . v_j, then the softmax backward row by row: ds holds the
      // gradient of the pre-softmax scores (zero past each row's position).
      for (int r0 = 0; r0 < T; r0 += RB) {
        int r1 = r0 + RB < T ? r0 + RB : T;
        GemmArgs dp{T, T, hs, g, C, 1, vt, T, ds, T, NULL, 0};
        isa->gemm_block(&dp, r0, r1, 0, r1);
      }
      for (int t = 0; t < T; t++)
        isa->softmax_causal_row_backward(ds + (int64_t)t * T, p + (int64_t)t * T, t + 1, T, scale);
      for (int r0 = 0; r0 < T; r0 += RB) {
        int r1 = r0 + RB < T ? r0 + RB : T;
        // dq_t += sum_{j <= t} ds[t, j] k_j
        GemmArgs dqa{T, hs, r1, ds, T, 1, k, C3, dq, C3, NULL, 1};
        isa->gemm_block(&dqa, r0, r1, 0, hs);
        // dk_j += sum_{t >= j} ds[t, j] q_t and dv_j += sum_{t >= j} att[t, j] dout_t: A(j, t) is
        // column j of ds / att, k runs over t from the block's first row (earlier rows hold zeros).
        GemmArgs dka{T, hs, T - r0, ds + (int64_t)r0 * T, 1, T, q + r0 * C3, C3, dq + C, C3, NULL, 1};
        isa->gemm_block(&dka, r0, r1, 0, hs);
        GemmArgs dva{T, hs, T - r0, p + (int64_t)r0 * T, 1, T, g + (int64_t)r0 * C, C, dq + 2 * C, C3, NULL, 1};
        isa->gemm_block(&dva, r0, r1, 0, hs);
      }
    }
  });
}

void attention_decode_cpu(float* out, float* kcache, float* vcache, float* scratch, const float* qkv, int B, int n,
                          int pos, int maxT, int C, int H) {
  int hs = C / H;
  int64_t C3 = 3 * (int64_t)C;
  float scale = 1.0f / sqrtf((float)hs);
  for (int64_t b = 0; b < B; b++) {
    for (int i = 0; i < n; i++) {
      const float* src = qkv + (b * n + i) * C3;
      memcpy(kcache + (b * maxT + pos + i) * C, src + C, sizeof(float) * C);
      memcpy(vcache + (b * maxT + pos + i) * C, src + 2 * C, sizeof(float) * C);
    }
  }
  parallel_for((int64_t)B * n * H, grain((int64_t)(pos + n) * 2 * (C / H)), [&](int64_t begin, int64_t end) {
    for (int64_t idx = begin; idx < end; idx++) {
      int h = (int)(idx % H);
      int i = (int)((idx / H) % n);
      int64_t b = idx / ((int64_t)H * n);
      attend_row(out + (b * n + i) * C + h * hs, scratch + idx * maxT, qkv + (b * n + i) * C3 + h * hs,
                 kcache + b * maxT * C + h * hs, vcache + b * maxT * C + h * hs, C, pos + i + 1, hs, scale);
    }
  });
}

// ---------------------------------------------------------------------------------------------
// pointwise

// GELU through the ISA's vectorised loop (cpu_isa.h, isa_math.h: tanh without a libm call).
void gelu_forward_cpu(float* out, const float* inp, int64_t N) {
  const CpuIsa* isa = cpu_isa();
  parallel_for(N, grain(20), [&](int64_t begin, int64_t end) { isa->gelu_forward(out + begin, inp + begin, end - begin); });
}

void gelu_backward_cpu(float* dinp, const float* inp, const float* dout, int64_t N) {
  const CpuIsa* isa = cpu_isa();
  parallel_for(N, grain(30), [&](int64_t begin, int64_t end) {
    isa->gelu_backward(dinp + begin, inp + begin, dout + begin, end - begin);
  });
}

void residual_forward_cpu(float* out, const float* a, const float* b, int64_t N) {
  parallel_for(N, grain(1), [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; i++) out[i] = a[i] + b[i];
  });
}

void residual_backward_cpu(float* da, float* db, const float* dout, int64_t N) {
  parallel_for(N, grain(2), [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; i++) {
      da[i] += dout[i];
      db[i] += dout[i];
    }
  });
}

// ---------------------------------------------------------------------------------------------
// loss

void softmax_crossentropy_forward_cpu(float* losses, float* probs, const float* logits, const int* targets,
                                      const float* mask, int N, int V) {
  const CpuIsa* isa = cpu_isa();
  parallel_for(N, grain(4 * (int64_t)V), [&](int64_t begin, int64_t end) {
    for (int64_t n = begin; n < end; n++) {
      if (mask[n] == 0.0f) {
        losses[n] = 0.0f;
        continue;
      }
      const float* x = logits + n * V;
      float maxval, sum;
      isa->softmax_row(probs + n * V, x, V, &maxval, &sum);
      losses[n] = logf(sum) - (x[targets[n]] - maxval);
    }
  });
}

void softmax_crossentropy_backward_cpu(float* dlogits, const float* dlosses, const float* probs, const int* targets,
                                       int N, int V) {
  parallel_for(N, grain(2 * (int64_t)V), [&](int64_t begin, int64_t end) {
    for (int64_t n = begin; n < end; n++) {
      float g = dlosses[n];
      if (g == 0.0f) continue;
      float* __restrict__ d = dlogits + n * V;
      const float* __restrict__ p = probs + n * V;
      for (int i = 0; i < V; i++) d[i] += g * p[i];
      d[targets[n]] -= g;
    }
  });
}

// ---------------------------------------------------------------------------------------------
// policy gradient (SPEC §3)

void token_logprobs_cpu(float* logp, float* entropy, float* probs, const float* logits, const int* targets,
                        const float* mask, int N, int V) {
  const CpuIsa* isa = cpu_isa();
  parallel_for(N, grain(5 * (int64_t)V), [&](int64_t begin, int64_t end) {
    for (int64_t n = begin; n < end; n++) {
      if (mask[n] == 0.0f) {
        logp[n] = 0.0f;
        if (entropy) entropy[n] = 0.0f;
        continue;
      }
      const float* __restrict__ x = logits + n * V;
      const float* __restrict__ p = probs + n * V;
      float maxval, sum;
      isa->softmax_row(probs + n * V, x, V, &maxval, &sum);
      float lse = logf(sum);
      logp[n] = (x[targets[n]] - maxval) - lse;
      if (entropy) {
        // H = lse - sum p (x - max), in double: a sum of V terms of both signs.
        double px = 0.0;
        for (int i = 0; i < V; i++) px += (double)p[i] * (double)(x[i] - maxval);
        entropy[n] = (float)((double)lse - px);
      }
    }
  });
}

void policy_loss_cpu(const PolicyLossTokens* out, float* dnll, const float* logp, const float* old_logp,
                     const float* prox_logp, const float* ref_logp, const float* adv, const float* coef,
                     const PolicyLossParams* prm, int N) {
  const PolicyLossParams p = *prm;
  parallel_for(N, grain(64), [&](int64_t begin, int64_t end) {
    for (int64_t n = begin; n < end; n++) {
      if (coef[n] == 0.0f) {
        out->pg[n] = out->kl[n] = out->ratio[n] = out->behav_weight[n] = out->clipped[n] = out->capped[n] = 0.0f;
        dnll[n] = 0.0f;
        continue;
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
      // max(l1, l2): the clipped branch is active (and flat) only when it is strictly larger.
      int clip = l2 > l1;
      float pg = w * (clip ? l2 : l1);
      float dpg = clip ? 0.0f : w * l1;  // d(-A r)/dlogp = -A r
      float kl = 0.0f, dkl = 0.0f;
      if (p.kl_coef > 0.0f) {
        float d = lp - ref_logp[n];
        if (p.kl_estimator == KL_K1) {
          kl = d, dkl = 1.0f;
        } else if (p.kl_estimator == KL_K2) {
          kl = 0.5f * d * d, dkl = d;
        } else {  // k3: exp(ref - logp) - (ref - logp) - 1 >= 0
          float e = expf(-d);
          kl = e + d - 1.0f, dkl = 1.0f - e;
        }
      }
      out->pg[n] = pg;
      out->kl[n] = kl;
      out->ratio[n] = r;
      out->behav_weight[n] = w;
      out->clipped[n] = (float)clip;
      out->capped[n] = capped;
      dnll[n] = -coef[n] * (dpg + p.kl_coef * dkl);
    }
  });
}

// ---------------------------------------------------------------------------------------------
// optimizer

double sumsq_cpu(const float* x, int64_t n) {
  // The chunking depends on n only, so the sum is the same for any thread count.
  const int kMaxChunks = 1024;
  int64_t chunk = (n + kMaxChunks - 1) / kMaxChunks;
  if (chunk < 16384) chunk = 16384;
  int64_t chunks = (n + chunk - 1) / chunk;
  double partial[kMaxChunks];
  parallel_for(chunks, 1, [&](int64_t begin, int64_t end) {
    for (int64_t k = begin; k < end; k++) {
      int64_t i1 = (k + 1) * chunk < n ? (k + 1) * chunk : n;
      double s = 0.0;
      for (int64_t i = k * chunk; i < i1; i++) s += (double)x[i] * (double)x[i];
      partial[k] = s;
    }
  });
  double total = 0.0;
  for (int64_t k = 0; k < chunks; k++) total += partial[k];
  return total;
}

void adamw_cpu(float* params, const float* grads, float* m, float* v, int64_t n, float lr, float beta1, float beta2,
               float eps, float weight_decay, float grad_scale, int t) {
  float bc1 = 1.0f - powf(beta1, (float)t);
  float bc2 = 1.0f - powf(beta2, (float)t);
  parallel_for(n, grain(10), [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; i++) {
      float g = grads[i] * grad_scale;
      float mi = beta1 * m[i] + (1.0f - beta1) * g;
      float vi = beta2 * v[i] + (1.0f - beta2) * g * g;
      float mhat = mi / bc1;
      float vhat = vi / bc2;
      m[i] = mi;
      v[i] = vi;
      params[i] -= lr * (mhat / (sqrtf(vhat) + eps) + weight_decay * params[i]);
    }
  });
}

void argmax_rows_cpu(int* out, const float* x, int N, int V) {
  parallel_for(N, grain(V), [&](int64_t begin, int64_t end) {
    for (int64_t n = begin; n < end; n++) {
      const float* r = x + n * V;
      int best = 0;
      for (int i = 1; i < V; i++) best = r[i] > r[best] ? i : best;
      out[n] = best;
    }
  });
}
