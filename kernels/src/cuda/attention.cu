// attention.cu: causal multi-head attention, training forward and backward and KV-cache decoding
// (ops.h, "attention").
//
// Training is fused, flash-style (online softmax): the T x T weights are never stored. The forward
// keeps one float per query row, its log-sum-exp (the table's attention_keeps_weights = 0, so the
// model sizes att as [B,H,T] and the backward scratch as [B,H,T]); the backward recomputes each
// weight from it. All three training kernels work on tiles of one (sequence, head) staged in
// shared memory: a block owns a tile of query rows (forward, dq) or of keys (dk, dv) and loops
// over the tiles of the other side that causality leaves (tiles wholly above the diagonal are
// never visited). Each thread keeps a 4-row register block of every product (scores, dq, dk,
// dv), so one shared-memory read feeds several multiply-adds. The backward is two kernels, so
// that every gradient element has one owner (no atomics, the same numbers on every run): dq per
// query tile, which first computes D_t = dout_t . out_t = sum_j p_tj (dout_t . v_j) into the
// scratch [B,H,T], then dk, dv per key tile, which reads it. fp32 throughout; the order of the
// sums differs from the CPU's, so results agree to rounding (test/test_cuda.cc), not bit for bit.
#include <string.h>

#include "common.cuh"

#define WARPS (BLOCK / 32)
#define MAX_HS 128  // the largest head the training kernels are instantiated for (attn_dim below)

// ---- training: shared-memory tiles ----
//
// A tile of n rows (positions) of one head holds D >= hs channels per row, row-major with a row
// stride of D + 4 floats: the channels past hs are zeros, so products over d can always run over
// all D (a compile-time count: unrolled, register blocks indexed by constants only), and
// rows past T are zeros too, so every product is finite and masking only has to zero weights.
// D + 4 keeps rows 16-byte aligned (4-float vector reads) and puts the rows that 8 consecutive
// threads read (the quarter warp of a 16-byte access) in 8 different 4-bank groups. Tiles of
// weights (p or ds, [rows][cols]) have the same shape with cols in place of D.
//
// Threads: 16 per row group (tx, the tile's columns, `lane % 16`, so a row's 16 threads are one
// half warp and reduce with shuffles) times TY row groups (ty); a thread owns rows ty + TY i
// (i < 4) and columns tx + 16 k of a weight tile, and channels ch(c) (below) of a [rows][D] result.
#define RM 4  // rows per thread

// A partial unroll (UNROLL, common.cuh, unrolls fully): enough independent loads in flight without
// the register pressure of hoisting a whole tile's loads (unrolling everything took up to 255
// registers, and spills, and ran slower at the benchmark's larger shapes on an H200).
#ifdef PARAVT_CUDA_EMU
#define UNROLL_N(n)
#else
#define UNROLL_PRAGMA(x) _Pragma(#x)
#define UNROLL_N(n) UNROLL_PRAGMA(unroll n)
#endif

// The head dimension the kernels are instantiated for: hs rounded up to 16, 32, 64 or 128.
static inline int attn_dim(int hs) { return hs <= 16 ? 16 : hs <= 32 ? 32 : hs <= 64 ? 64 : 128; }

// Tile sizes per D, all under the 48 KB of static shared memory a block may have without an
// opt-in (which cuda_emu.h does not model); the row tile sets the threads: (rows / RM) * 16.
// forward: query rows x keys per step; dq: query rows x keys; dkv: keys x query rows. Shared
// memory per block (KB), D = 16 / 32 / 64 / 128: forward 32 / 44 / 43 / 35.5, dq 14.5 / 36 / 38.5
// / 34, dkv 33 / 45 / 43 / 35.5. dq at D = 16 takes 32 rows, not 64: with 64 ptxas spilled.
__host__ __device__ constexpr int fwd_rows(int D) { return D == 128 ? 32 : 64; }
__host__ __device__ constexpr int fwd_cols(int D) { return D <= 32 ? 64 : D == 64 ? 32 : 16; }
__host__ __device__ constexpr int dq_rows(int D) { return D == 32 ? 64 : D <= 64 ? 32 : 16; }
__host__ __device__ constexpr int dq_cols(int D) { return D == 128 ? 16 : 32; }
__host__ __device__ constexpr int dkv_rows(int D) { return D <= 32 ? 64 : D == 64 ? 32 : 16; }
__host__ __device__ constexpr int dkv_cols(int D) { return D == 128 ? 16 : 32; }
__host__ __device__ constexpr int threads_for(int rows) { return rows / RM * 16; }

// dst[0..VW) = src[0..VW), one 4-, 8- or 16-byte shared-memory access (src aligned to VW floats).
template <int VW>
__device__ __forceinline__ void ldv(float* dst, const float* src) {
#ifdef PARAVT_CUDA_EMU
  memcpy(dst, src, VW * sizeof(float));
#else
  if constexpr (VW == 4) {
    float4 v = *reinterpret_cast<const float4*>(src);
    dst[0] = v.x, dst[1] = v.y, dst[2] = v.z, dst[3] = v.w;
  } else if constexpr (VW == 2) {
    float2 v = *reinterpret_cast<const float2*>(src);
    dst[0] = v.x, dst[1] = v.y;
  } else {
    dst[0] = src[0];
  }
#endif
}

// Rows r0..r0+NR-1 of one head's q, k, v or dout (src points at channel 0 of row 0, rows ld apart)
// into a tile; consecutive threads take consecutive channels of a row (coalesced reads).
template <int NR, int D, int NT>
__device__ __forceinline__ void stage_rows(float* dst, const float* src, int64_t ld, int r0, int T, int hs) {
  static_assert(NR * D % NT == 0, "a tile is a whole number of passes of the block");
  UNROLL_N(8)
  for (int it = 0; it < NR * D / NT; it++) {
    int idx = (int)threadIdx.x + it * NT, r = idx / D, d = idx % D, t = r0 + r;
    dst[r * (D + 4) + d] = t < T && d < hs ? src[t * ld + d] : 0.0f;
  }
}

// acc[i][k] += sum_d A[ty + TY i][d] B[tx + 16 k][d] over two [rows][D] tiles (scores q.k, dout.v).
template <int D, int TY, int CM>
__device__ __forceinline__ void dot_tile(float (&acc)[RM][CM], const float* A, const float* B, int ty, int tx) {
  UNROLL_N(4)
  for (int d = 0; d < D; d += 4) {
    float a[RM][4], b[CM][4];
    UNROLL
    for (int i = 0; i < RM; i++) ldv<4>(a[i], A + (ty + TY * i) * (D + 4) + d);
    UNROLL
    for (int k = 0; k < CM; k++) ldv<4>(b[k], B + (tx + 16 * k) * (D + 4) + d);
    UNROLL
    for (int e = 0; e < 4; e++)
      UNROLL
      for (int i = 0; i < RM; i++)
        UNROLL
        for (int k = 0; k < CM; k++) acc[i][k] += a[i][e] * b[k][e];
  }
}

// A thread's channels of a [rows][D] result: vectors of VW = min(D/16, 4) channels, the 16 threads
// of a row side by side (one contiguous run per vector: conflict-free reads, coalesced writes).
template <int D>
__device__ __forceinline__ int channel(int c, int tx) {
  constexpr int VW = D / 16 < 4 ? D / 16 : 4;
  return c / VW * 16 * VW + tx * VW + c % VW;
}

// acc[i][c] += sum_j W[ty + TY i][j] X[j][channel(c)]: a weight tile [rows][NJ] (p or ds) times a
// [NJ][D] tile (v, k, dout or q). Weights past a row's causal limit are zeros.
template <int D, int TY, int NJ>
__device__ __forceinline__ void acc_tile(float (&acc)[RM][D / 16], const float* W, const float* X, int ty, int tx) {
  constexpr int DM = D / 16, VW = DM < 4 ? DM : 4;
  UNROLL_N(2)
  for (int j = 0; j < NJ; j += 4) {
    float w[RM][4];
    UNROLL
    for (int i = 0; i < RM; i++) ldv<4>(w[i], W + (ty + TY * i) * (NJ + 4) + j);
    UNROLL
    for (int e = 0; e < 4; e++) {
      float x[DM];
      UNROLL
      for (int g = 0; g < DM / VW; g++) ldv<VW>(x + g * VW, X + (j + e) * (D + 4) + g * 16 * VW + tx * VW);
      UNROLL
      for (int i = 0; i < RM; i++)
        UNROLL
        for (int c = 0; c < DM; c++) acc[i][c] += w[i][e] * x[c];
    }
  }
}

// Reductions over the 16 threads of a row (a half warp; every lane of the warp takes part).
__device__ __forceinline__ float row_max(float v) {
  for (int o = 8; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
  return v;
}
__device__ __forceinline__ float row_sum(float v) {
  for (int o = 8; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

// out_t = sum_{j <= t} softmax_j(q_t . k_j * scale) v_j; lse[row] = log sum_j exp(s_j) (the scores
// scaled). Block: (b h, query tile, the last tile first: it has the most keys). Per key tile: the
// scores, then the running max m and sum l of each row (l as per-thread partial sums, reduced at
// the end) rescale the accumulators when the max grows, then out += p v.
template <int D>
__global__ void __launch_bounds__(threads_for(fwd_rows(D)))
    attention_forward_kernel(float* out, float* lse, const float* qkv, int T, int C, int H) {
  constexpr int BR = fwd_rows(D), BC = fwd_cols(D), TY = BR / RM, NT = threads_for(BR), CM = BC / 16, DM = D / 16;
  __align__(16) __shared__ float qs[BR * (D + 4)];
  __align__(16) __shared__ float ks[BC * (D + 4)];
  __align__(16) __shared__ float vs[BC * (D + 4)];
  __align__(16) __shared__ float ps[BR * (BC + 4)];
  int tx = threadIdx.x % 16, ty = threadIdx.x / 16, hs = C / H, bh = blockIdx.x, h = bh % H;
  int q0 = (gridDim.y - 1 - blockIdx.y) * BR;
  int64_t b = bh / H, ld = 3 * (int64_t)C;
  const float* base = qkv + b * T * ld + h * hs;
  float scale = 1.0f / sqrtf((float)hs);
  stage_rows<BR, D, NT>(qs, base, ld, q0, T, hs);
  float m[RM], l[RM], acc[RM][DM];
  UNROLL
  for (int i = 0; i < RM; i++) {
    m[i] = -INFINITY, l[i] = 0.0f;
    UNROLL
    for (int c = 0; c < DM; c++) acc[i][c] = 0.0f;
  }
  int kend = q0 + BR < T ? q0 + BR : T;  // the keys of the tile's last row (or of row T-1)
  for (int k0 = 0; k0 < kend; k0 += BC) {
    __syncthreads();  // the previous step's reads of ks, vs, ps are done (and qs is staged)
    stage_rows<BC, D, NT>(ks, base + C, ld, k0, T, hs);
    stage_rows<BC, D, NT>(vs, base + 2 * C, ld, k0, T, hs);
    __syncthreads();
    float s[RM][CM];
    UNROLL
    for (int i = 0; i < RM; i++)
      UNROLL
      for (int k = 0; k < CM; k++) s[i][k] = 0.0f;
    dot_tile<D, TY, CM>(s, qs, ks, ty, tx);
    UNROLL
    for (int i = 0; i < RM; i++) {
      int t = q0 + ty + TY * i;
      float mx = -INFINITY;
      UNROLL
      for (int k = 0; k < CM; k++) {
        s[i][k] = k0 + tx + 16 * k <= t ? s[i][k] * scale : -INFINITY;
        mx = fmaxf(mx, s[i][k]);
      }
      // Key 0 is in the first tile of every row, so m is finite from then on: no inf - inf.
      float m_new = fmaxf(m[i], row_max(mx)), corr = expf(m[i] - m_new), sum = 0.0f;
      UNROLL
      for (int k = 0; k < CM; k++) {
        float p = k0 + tx + 16 * k <= t ? expf(s[i][k] - m_new) : 0.0f;
        ps[(ty + TY * i) * (BC + 4) + tx + 16 * k] = p;
        sum += p;
      }
      l[i] = l[i] * corr + sum;
      m[i] = m_new;
      UNROLL
      for (int c = 0; c < DM; c++) acc[i][c] *= corr;
    }
    __syncthreads();  // the tile of weights is complete
    acc_tile<D, TY, BC>(acc, ps, vs, ty, tx);
  }
  UNROLL
  for (int i = 0; i < RM; i++) {
    int t = q0 + ty + TY * i;
    float sum = row_sum(l[i]);
    if (t >= T) continue;
    float* o = out + (b * T + t) * C + h * hs;
    float inv = 1.0f / sum;
    UNROLL
    for (int c = 0; c < DM; c++) {
      int d = channel<D>(c, tx);
      if (d < hs) o[d] = acc[i][c] * inv;
    }
    if (tx == 0) lse[(int64_t)bh * T + t] = m[i] + logf(sum);
  }
}

// Per query tile, two passes over its key tiles: first D_t = sum_j p_tj (dout_t . v_j) (=
// dout_t . out_t) into dsum, then dq_t += sum_j ds_tj k_j with ds_tj = p_tj (dout_t . v_j - D_t)
// scale (p_tj = exp(q_t . k_j scale - lse_t)). The scores and dout . v are computed in both
// passes: D_t needs the whole row before any ds, and `out` is not an input of the backward.
template <int D>
__global__ void __launch_bounds__(threads_for(dq_rows(D)))
    attention_backward_dq_kernel(float* dqkv, float* dsum, const float* dout, const float* qkv, const float* lse,
                                 int T, int C, int H) {
  constexpr int BR = dq_rows(D), BC = dq_cols(D), TY = BR / RM, NT = threads_for(BR), CM = BC / 16, DM = D / 16;
  __align__(16) __shared__ float qs[BR * (D + 4)];
  __align__(16) __shared__ float gs[BR * (D + 4)];  // dout
  __align__(16) __shared__ float ks[BC * (D + 4)];
  __align__(16) __shared__ float vs[BC * (D + 4)];
  __align__(16) __shared__ float dss[BR * (BC + 4)];
  int tx = threadIdx.x % 16, ty = threadIdx.x / 16, hs = C / H, bh = blockIdx.x, h = bh % H;
  int q0 = (gridDim.y - 1 - blockIdx.y) * BR;
  int64_t b = bh / H, ld = 3 * (int64_t)C;
  const float* base = qkv + b * T * ld + h * hs;
  float scale = 1.0f / sqrtf((float)hs);
  stage_rows<BR, D, NT>(qs, base, ld, q0, T, hs);
  stage_rows<BR, D, NT>(gs, dout + b * T * C + h * hs, C, q0, T, hs);
  float L[RM], Dt[RM];
  UNROLL
  for (int i = 0; i < RM; i++) {
    int t = q0 + ty + TY * i;
    L[i] = t < T ? lse[(int64_t)bh * T + t] : 0.0f;  // rows past T: q = 0, finite weights, never stored
    Dt[i] = 0.0f;
  }
  int kend = q0 + BR < T ? q0 + BR : T;
  for (int pass = 0; pass < 2; pass++) {
    float acc[RM][DM];
    UNROLL
    for (int i = 0; i < RM; i++)
      UNROLL
      for (int c = 0; c < DM; c++) acc[i][c] = 0.0f;
    for (int k0 = 0; k0 < kend; k0 += BC) {
      __syncthreads();  // the previous step's reads of ks, vs, dss are done (and qs, gs are staged)
      stage_rows<BC, D, NT>(ks, base + C, ld, k0, T, hs);
      stage_rows<BC, D, NT>(vs, base + 2 * C, ld, k0, T, hs);
      __syncthreads();
      float s[RM][CM], dp[RM][CM];
      UNROLL
      for (int i = 0; i < RM; i++)
        UNROLL
        for (int k = 0; k < CM; k++) s[i][k] = 0.0f, dp[i][k] = 0.0f;
      dot_tile<D, TY, CM>(s, qs, ks, ty, tx);
      dot_tile<D, TY, CM>(dp, gs, vs, ty, tx);
      UNROLL
      for (int i = 0; i < RM; i++) {
        int t = q0 + ty + TY * i;
        UNROLL
        for (int k = 0; k < CM; k++) {
          float p = k0 + tx + 16 * k <= t ? expf(s[i][k] * scale - L[i]) : 0.0f;
          if (pass == 0) Dt[i] += p * dp[i][k];
          else dss[(ty + TY * i) * (BC + 4) + tx + 16 * k] = p * (dp[i][k] - Dt[i]) * scale;
        }
      }
      if (pass == 0) continue;  // block-uniform: every thread skips the same barrier
      __syncthreads();  // the tile of ds is complete
      acc_tile<D, TY, BC>(acc, dss, ks, ty, tx);
    }
    if (pass == 0) {
      UNROLL
      for (int i = 0; i < RM; i++) {
        int t = q0 + ty + TY * i;
        Dt[i] = row_sum(Dt[i]);
        if (tx == 0 && t < T) dsum[(int64_t)bh * T + t] = Dt[i];
      }
      continue;
    }
    UNROLL
    for (int i = 0; i < RM; i++) {
      int t = q0 + ty + TY * i;
      if (t >= T) continue;
      float* dq = dqkv + (b * T + t) * ld + h * hs;
      UNROLL
      for (int c = 0; c < DM; c++) {
        int d = channel<D>(c, tx);
        if (d < hs) dq[d] += acc[i][c];
      }
    }
  }
}

// Per key tile (the first tile first: it has the most queries): dk_j += sum_{t >= j} ds_tj q_t and
// dv_j += sum_{t >= j} p_tj dout_t over the query tiles from the diagonal to T, each staged with
// its rows' lse and D_t (dsum, written by the dq kernel). Here the weight tiles are [key][query].
template <int D>
__global__ void __launch_bounds__(threads_for(dkv_rows(D)))
    attention_backward_dkv_kernel(float* dqkv, const float* dsum, const float* dout, const float* qkv,
                                  const float* lse, int T, int C, int H) {
  constexpr int BC = dkv_rows(D), BR = dkv_cols(D), TY = BC / RM, NT = threads_for(BC), CM = BR / 16, DM = D / 16;
  static_assert(BC % BR == 0 && BR <= NT, "query tiles start at the key tile's first key");
  __align__(16) __shared__ float ks[BC * (D + 4)];
  __align__(16) __shared__ float vs[BC * (D + 4)];
  __align__(16) __shared__ float qs[BR * (D + 4)];
  __align__(16) __shared__ float gs[BR * (D + 4)];  // dout
  __align__(16) __shared__ float pst[BC * (BR + 4)];
  __align__(16) __shared__ float dst[BC * (BR + 4)];
  __shared__ float ls[BR], dts[BR];
  int tx = threadIdx.x % 16, ty = threadIdx.x / 16, hs = C / H, bh = blockIdx.x, h = bh % H;
  int j0 = blockIdx.y * BC;
  int64_t b = bh / H, ld = 3 * (int64_t)C;
  const float* base = qkv + b * T * ld + h * hs;
  const float* g = dout + b * T * C + h * hs;
  float scale = 1.0f / sqrtf((float)hs);
  stage_rows<BC, D, NT>(ks, base + C, ld, j0, T, hs);
  stage_rows<BC, D, NT>(vs, base + 2 * C, ld, j0, T, hs);
  float ak[RM][DM], av[RM][DM];
  UNROLL
  for (int i = 0; i < RM; i++)
    UNROLL
    for (int c = 0; c < DM; c++) ak[i][c] = 0.0f, av[i][c] = 0.0f;
  for (int t0 = j0; t0 < T; t0 += BR) {
    __syncthreads();  // the previous step's reads of qs, gs, pst, dst are done (and ks, vs are staged)
    stage_rows<BR, D, NT>(qs, base, ld, t0, T, hs);
    stage_rows<BR, D, NT>(gs, g, C, t0, T, hs);
    if ((int)threadIdx.x < BR) {
      int t = t0 + threadIdx.x;
      ls[threadIdx.x] = t < T ? lse[(int64_t)bh * T + t] : 0.0f;
      dts[threadIdx.x] = t < T ? dsum[(int64_t)bh * T + t] : 0.0f;
    }
    __syncthreads();
    float s[RM][CM], dp[RM][CM];
    UNROLL
    for (int i = 0; i < RM; i++)
      UNROLL
      for (int k = 0; k < CM; k++) s[i][k] = 0.0f, dp[i][k] = 0.0f;
    dot_tile<D, TY, CM>(s, ks, qs, ty, tx);
    dot_tile<D, TY, CM>(dp, vs, gs, ty, tx);
    UNROLL
    for (int i = 0; i < RM; i++) {
      int j = j0 + ty + TY * i;
      UNROLL
      for (int k = 0; k < CM; k++) {
        int c = tx + 16 * k, t = t0 + c;
        float p = t >= j && t < T ? expf(s[i][k] * scale - ls[c]) : 0.0f;
        pst[(ty + TY * i) * (BR + 4) + c] = p;
        dst[(ty + TY * i) * (BR + 4) + c] = p * (dp[i][k] - dts[c]) * scale;
      }
    }
    __syncthreads();  // the tiles of p and ds are complete
    acc_tile<D, TY, BR>(av, pst, gs, ty, tx);
    acc_tile<D, TY, BR>(ak, dst, qs, ty, tx);
  }
  UNROLL
  for (int i = 0; i < RM; i++) {
    int j = j0 + ty + TY * i;
    if (j >= T) continue;
    float* dk = dqkv + (b * T + j) * ld + C + h * hs;
    float* dv = dk + C;
    UNROLL
    for (int c = 0; c < DM; c++) {
      int d = channel<D>(c, tx);
      if (d < hs) dk[d] += ak[i][c], dv[d] += av[i][c];
    }
  }
}

template <int D>
static void forward_tiles(float* out, float* att, const float* qkv, int B, int T, int C, int H) {
  dim3 grid(B * H, ceil_div(T, fwd_rows(D)));
  LAUNCH(attention_forward_kernel<D>, grid, threads_for(fwd_rows(D)), 0, out, att, qkv, T, C, H);
  LAUNCH_CHECK(attention_forward_kernel);
}

template <int D>
static void backward_tiles(float* dqkv, float* scratch, const float* dout, const float* qkv, const float* att, int B,
                           int T, int C, int H) {
  dim3 gq(B * H, ceil_div(T, dq_rows(D))), gkv(B * H, ceil_div(T, dkv_rows(D)));
  LAUNCH(attention_backward_dq_kernel<D>, gq, threads_for(dq_rows(D)), 0, dqkv, scratch, dout, qkv, att, T, C, H);
  LAUNCH_CHECK(attention_backward_dq_kernel);
  LAUNCH(attention_backward_dkv_kernel<D>, gkv, threads_for(dkv_rows(D)), 0, dqkv, scratch, dout, qkv, att, T, C,
         H);
  LAUNCH_CHECK(attention_backward_dkv_kernel);
}

// att: [B,H,T] log-sum-exp per query row (this backend keeps no weights; backend.h).
void attention_forward_cuda(float* out, float* att, const float* qkv, int B, int T, int C, int H) {
  switch (attn_dim(C / H)) {
    case 16: return forward_tiles<16>(out, att, qkv, B, T, C, H);
    case 32: return forward_tiles<32>(out, att, qkv, B, T, C, H);
    case 64: return forward_tiles<64>(out, att, qkv, B, T, C, H);
    default: return forward_tiles<MAX_HS>(out, att, qkv, B, T, C, H);
  }
}

// scratch: [B,H,T] (the rows' dout . out).
void attention_backward_cuda(float* dqkv, float* scratch, const float* dout, const float* qkv, const float* att,
                             int B, int T, int C, int H) {
  switch (attn_dim(C / H)) {
    case 16: return backward_tiles<16>(dqkv, scratch, dout, qkv, att, B, T, C, H);
    case 32: return backward_tiles<32>(dqkv, scratch, dout, qkv, att, B, T, C, H);
    case 64: return backward_tiles<64>(dqkv, scratch, dout, qkv, att, B, T, C, H);
    default: return backward_tiles<MAX_HS>(dqkv, scratch, dout, qkv, att, B, T, C, H);
  }
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
