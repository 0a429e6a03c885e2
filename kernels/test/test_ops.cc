// Finite-difference gradient checks of every op of ops.h (through the CPU backend table), the
// KV-cache attention against the full attention, AdamW and the gradient norm against double
// precision references, and thread-count invariance. Exits non-zero on any mismatch.
#include <math.h>

#include <vector>

#include "../src/backend.h"
#include "../src/cpu_isa.h"
#include "../src/isa_math.h"
#include "../src/threadpool.h"
#include "test_util.h"

typedef std::vector<float> Vec;
static const KernelOps* K;

// Gradient buffers start from random values: backward must ADD its gradient (llm.c convention),
// so the analytic gradient is the buffer's change.
static Vec delta(const Vec& after, const Vec& before) {
  Vec d(after.size());
  for (size_t i = 0; i < d.size(); i++) d[i] = after[i] - before[i];
  return d;
}

static void check_encoder(Suite& s, Rng& r) {
  printf("encoder (token + position)\n");
  int B = 2, T = 5, C = 6, V = 7;
  std::vector<int> inp = {3, 1, FRAME_TOKEN, 3, 6, 0, 3, 3, FRAME_TOKEN, 2};  // repeats and frame slots
  Vec wte(V * C), wpe(T * C), out(B * T * C), dy(B * T * C);
  r.fill(wte, -1, 1), r.fill(wpe, -1, 1), r.fill(dy, -1, 1);
  auto loss = [&] {
    K->encoder_forward(out.data(), inp.data(), wte.data(), wpe.data(), B, T, C);
    return dot_loss(out.data(), dy.data(), out.size());
  };
  Vec dwte0(V * C), dwpe0(T * C);
  r.fill(dwte0, -1, 1), r.fill(dwpe0, -1, 1);
  Vec dwte = dwte0, dwpe = dwpe0;
  K->encoder_backward(dwte.data(), dwpe.data(), dy.data(), inp.data(), B, T, C);
  s.grad_check("encoder.wte", wte.data(), wte.size(), delta(dwte, dwte0).data(), loss, r, 64);
  s.grad_check("encoder.wpe", wpe.data(), wpe.size(), delta(dwpe, dwpe0).data(), loss, r, 64);
  // A frame slot carries the position embedding only.
  loss();
  s.expect(out[2 * C + 1] == wpe[2 * C + 1], "encoder: frame slot must hold wpe only");
}

static void check_frame_proj(Suite& s, Rng& r) {
  printf("frame projection\n");
  int B = 2, T = 4, C = 6, P = 11;
  std::vector<int> inp = {FRAME_TOKEN, 2, 1, FRAME_TOKEN, 0, FRAME_TOKEN, FRAME_TOKEN, 3};
  Vec feat(B * T * P), w(C * P), b(C), base(B * T * C), out(B * T * C), dy(B * T * C);
  r.fill(feat, 0, 1), r.fill(w, -0.5, 0.5), r.fill(b, -1, 1), r.fill(base, -1, 1), r.fill(dy, -1, 1);
  auto loss = [&] {
    out = base;
    K->frame_proj_forward(out.data(), inp.data(), feat.data(), w.data(), b.data(), B, T, C, P);
    return dot_loss(out.data(), dy.data(), out.size());
  };
  Vec dfeat0(feat.size()), dw0(w.size()), db0(b.size());
  r.fill(dfeat0, -1, 1), r.fill(dw0, -1, 1), r.fill(db0, -1, 1);
  Vec dfeat = dfeat0, dw = dw0, db = db0;
  K->frame_proj_backward(dfeat.data(), dw.data(), db.data(), dy.data(), inp.data(), feat.data(), w.data(), B, T, C, P);
  s.grad_check("frame_proj.w", w.data(), w.size(), delta(dw, dw0).data(), loss, r);
  s.grad_check("frame_proj.b", b.data(), b.size(), delta(db, db0).data(), loss, r);
  s.grad_check("frame_proj.feat", feat.data(), feat.size(), delta(dfeat, dfeat0).data(), loss, r, 88);
  loss();
  s.expect(out[C + 2] == base[C + 2], "frame_proj: a token position must be left untouched");
}

static void check_layernorm(Suite& s, Rng& r) {
  printf("layernorm\n");
  int N = 6, C = 13;
  Vec x(N * C), w(C), b(C), out(N * C), mean(N), rstd(N), dy(N * C);
  r.fill(x, -2, 2), r.fill(w, 0.5, 1.5), r.fill(b, -1, 1), r.fill(dy, -1, 1);
  auto loss = [&] {
    K->layernorm_forward(out.data(), mean.data(), rstd.data(), x.data(), w.data(), b.data(), N, C);
    return dot_loss(out.data(), dy.data(), out.size());
  };
  loss();
  Vec dx0(x.size()), dw0(C), db0(C);
  r.fill(dx0, -1, 1), r.fill(dw0, -1, 1), r.fill(db0, -1, 1);
  Vec dx = dx0, dw = dw0, db = db0;
  K->layernorm_backward(dx.data(), dw.data(), db.data(), dy.data(), x.data(), w.data(), mean.data(), rstd.data(), N, C);
  s.grad_check("layernorm.inp", x.data(), x.size(), delta(dx, dx0).data(), loss, r, 78);
  s.grad_check("layernorm.weight", w.data(), w.size(), delta(dw, dw0).data(), loss, r);
  s.grad_check("layernorm.bias", b.data(), b.size(), delta(db, db0).data(), loss, r);
}

// N = 7: the dot-product path of decoding; N = 37: the tiled product (cpu_isa.h), rows and columns
// past whole tiles of every ISA.
static void check_matmul(Suite& s, Rng& r, int N) {
  printf("matmul, N = %d (tile edges: N %% 4, IC %% 8, OC %% 64 all non-zero)\n", N);
  int IC = 19, OC = 70;
  Vec x(N * IC), w(OC * IC), b(OC), out(N * OC), dy(N * OC);
  r.fill(x, -1, 1), r.fill(w, -1, 1), r.fill(b, -1, 1), r.fill(dy, -1, 1);
  auto loss = [&] {
    K->matmul_forward(out.data(), x.data(), w.data(), b.data(), N, IC, OC);
    return dot_loss(out.data(), dy.data(), out.size());
  };
  Vec dx0(x.size()), dw0(w.size()), db0(b.size());
  r.fill(dx0, -1, 1), r.fill(dw0, -1, 1), r.fill(db0, -1, 1);
  Vec dx = dx0, dw = dw0, db = db0;
  K->matmul_backward(dx.data(), dw.data(), db.data(), dy.data(), x.data(), w.data(), N, IC, OC);
  s.grad_check("matmul.inp", x.data(), x.size(), delta(dx, dx0).data(), loss, r, 64);
  s.grad_check("matmul.weight", w.data(), w.size(), delta(dw, dw0).data(), loss, r, 64);
  s.grad_check("matmul.bias", b.data(), b.size(), delta(db, db0).data(), loss, r, 70);
  // Forward against a double-precision product.
  loss();
  Vec ref(out.size());
  for (int n = 0; n < N; n++)
    for (int o = 0; o < OC; o++) {
      double acc = b[o];
      for (int i = 0; i < IC; i++) acc += (double)x[n * IC + i] * w[o * IC + i];
      ref[n * OC + o] = (float)acc;
    }
  s.close("matmul.forward vs double", out.data(), ref.data(), out.size(), 1e-5, 1e-5);
  // Without bias.
  Vec out2(out.size());
  K->matmul_forward(out2.data(), x.data(), w.data(), NULL, N, IC, OC);
  for (int n = 0; n < N; n++)
    for (int o = 0; o < OC; o++) out2[n * OC + o] += b[o];
  s.close("matmul.forward bias=NULL", out2.data(), out.data(), out.size(), 1e-6, 1e-6);
}

static void check_attention(Suite& s, Rng& r) {
  printf("attention (causal, multi-head)\n");
  int B = 2, T = 5, C = 8, H = 2;
  Vec qkv(B * T * 3 * C), out(B * T * C), att(B * H * T * T), dy(B * T * C), scratch(B * H * T * T);
  r.fill(qkv, -1.5, 1.5), r.fill(dy, -1, 1);
  auto loss = [&] {
    K->attention_forward(out.data(), att.data(), qkv.data(), B, T, C, H);
    return dot_loss(out.data(), dy.data(), out.size());
  };
  loss();
  Vec dq0(qkv.size());
  r.fill(dq0, -1, 1);
  Vec dq = dq0;
  K->attention_backward(dq.data(), scratch.data(), dy.data(), qkv.data(), att.data(), B, T, C, H);
  s.grad_check("attention.qkv", qkv.data(), qkv.size(), delta(dq, dq0).data(), loss, r, 240);
  // Causality: changing the last position must not change any earlier output.
  Vec before = out;
  for (int c = 0; c < 3 * C; c++) qkv[(T - 1) * 3 * C + c] += 0.5f;
  loss();
  bool causal = true;
  for (int t = 0; t < T - 1; t++)
    for (int c = 0; c < C; c++) causal &= out[t * C + c] == before[t * C + c];
  s.expect(causal, "attention: a later position changed an earlier output");

  printf("attention with KV cache (prefill 3, then 1 by 1) vs full attention\n");
  int maxT = 7;
  Vec kc(B * maxT * C), vc(B * maxT * C), full(B * T * C);
  K->attention_forward(full.data(), att.data(), qkv.data(), B, T, C, H);
  Vec dec(B * T * C);
  int pos = 0;
  for (int n : {3, 1, 1}) {
    Vec q(B * n * 3 * C), o(B * n * C), sc(B * n * H * maxT);
    for (int b = 0; b < B; b++)
      memcpy(&q[b * n * 3 * C], &qkv[(b * T + pos) * 3 * C], sizeof(float) * n * 3 * C);
    K->attention_decode(o.data(), kc.data(), vc.data(), sc.data(), q.data(), B, n, pos, maxT, C, H);
    for (int b = 0; b < B; b++) memcpy(&dec[(b * T + pos) * C], &o[b * n * C], sizeof(float) * n * C);
    pos += n;
  }
  s.close("attention_decode vs forward", dec.data(), full.data(), dec.size(), 1e-6, 1e-6);
}

// Rows across several causal blocks of the tiled attention (4 * MR rows: 48, 24 or 16), against a
// double-precision forward and finite differences of sampled entries.
static void check_attention_long(Suite& s, Rng& r) {
  int B = 1, T = 53, C = 8, H = 2, hs = C / H;
  printf("attention, T = %d (several row blocks)\n", T);
  Vec qkv(B * T * 3 * C), out(B * T * C), att(B * H * T * T), dy(B * T * C), scratch(B * H * T * T);
  r.fill(qkv, -1.5, 1.5), r.fill(dy, -1, 1);
  auto loss = [&] {
    K->attention_forward(out.data(), att.data(), qkv.data(), B, T, C, H);
    return dot_loss(out.data(), dy.data(), out.size());
  };
  loss();
  Vec ref(out.size());
  for (int h = 0; h < H; h++)
    for (int t = 0; t < T; t++) {
      std::vector<double> w(t + 1);
      double mx = -1e300, sum = 0;
      for (int j = 0; j <= t; j++) {
        double d = 0;
        for (int i = 0; i < hs; i++) d += (double)qkv[t * 3 * C + h * hs + i] * qkv[j * 3 * C + C + h * hs + i];
        w[j] = d / sqrt((double)hs);
        mx = w[j] > mx ? w[j] : mx;
      }
      for (int j = 0; j <= t; j++) sum += (w[j] = exp(w[j] - mx));
      for (int i = 0; i < hs; i++) {
        double y = 0;
        for (int j = 0; j <= t; j++) y += w[j] / sum * qkv[j * 3 * C + 2 * C + h * hs + i];
        ref[t * C + h * hs + i] = (float)y;
      }
    }
  s.close("attention.forward vs double", out.data(), ref.data(), out.size(), 1e-5, 1e-5);
  Vec dq0(qkv.size());
  r.fill(dq0, -1, 1);
  Vec dq = dq0;
  K->attention_backward(dq.data(), scratch.data(), dy.data(), qkv.data(), att.data(), B, T, C, H);
  s.grad_check("attention.qkv (T = 53)", qkv.data(), qkv.size(), delta(dq, dq0).data(), loss, r, 96);
}

// The tiled product itself (cpu_isa.h) for every ISA this CPU has, against double precision: the
// three stride patterns of a linear layer, bias, accumulation, and blocks that start inside.
static void check_gemm(Suite& s, Rng& r) {
  for (const char* name : {"avx512", "avx2", "portable"}) {
    const CpuIsa* isa = cpu_isa_named(name);
    if (isa == NULL) {
      printf("gemm %s: not available on this CPU or build\n", name);
      continue;
    }
    printf("gemm %s (%d x %d tiles)\n", name, isa->mr, isa->nr);
    for (int shape = 0; shape < 3; shape++) {
      int M = 2 * isa->mr + 5, N = 2 * isa->nr + 3, K = 29 + shape;
      Vec a((size_t)M * K), b((size_t)K * (N + 2)), c((size_t)M * (N + 1)), bias(N);
      r.fill(a, -1, 1), r.fill(b, -1, 1), r.fill(c, -1, 1), r.fill(bias, -1, 1);
      // shape 0: A by rows (out = inp @ W^T); 1: A by columns (dW += dout^T @ inp); 2: as 0, accumulate
      int64_t a_rs = shape == 1 ? 1 : K, a_ks = shape == 1 ? M : 1;
      int accumulate = shape == 0 ? 0 : 1;
      const float* bias_p = shape == 1 ? NULL : bias.data();
      Vec want = c;
      for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
          double acc = 0;
          for (int k = 0; k < K; k++) acc += (double)a[i * a_rs + k * a_ks] * b[(size_t)k * (N + 2) + j];
          if (bias_p) acc += bias_p[j];
          if (accumulate) acc += c[(size_t)i * (N + 1) + j];
          want[(size_t)i * (N + 1) + j] = (float)acc;
        }
      GemmArgs g{M, N, K, a.data(), a_rs, a_ks, b.data(), N + 2, c.data(), N + 1, bias_p, accumulate};
      int rs = isa->mr + 1, cs = isa->nr - 1;  // four blocks, each with partial tiles
      isa->gemm_block(&g, 0, rs, 0, cs);
      isa->gemm_block(&g, 0, rs, cs, N);
      isa->gemm_block(&g, rs, M, 0, cs);
      isa->gemm_block(&g, rs, M, cs, N);
      char label[64];
      snprintf(label, sizeof(label), "gemm %s, stride pattern %d", name, shape);
      s.close(label, c.data(), want.data(), c.size(), 1e-5, 1e-5);
    }
  }
}

// The vectorised GELU (isa_math.h): tanh against double, and the same bits from every ISA.
static void check_gelu_isas(Suite& s, Rng& r) {
  printf("gelu: vectorised tanh vs double, every ISA bitwise\n");
  Vec x(20001);
  for (size_t i = 0; i < x.size(); i++) x[i] = -10.0f + 20.0f * (float)i / (float)(x.size() - 1);
  double max_err = 0;
  for (float v : x) {
    double err = fabs((double)tanh_branchless(v) - tanh((double)v));
    max_err = err > max_err ? err : max_err;
  }
  printf("  tanh over [-10, 10]               max |err| %.2e\n", max_err);
  s.expect(max_err <= 3e-7, "tanh_branchless max error %g > 3e-7", max_err);
  // Non-finite inputs stay non-finite, so model.cc's checks still see them.
  s.expect(isnan(tanh_branchless(NAN)) && fabsf(tanh_branchless(INFINITY) - 1.0f) <= 6e-8f &&
               fabsf(tanh_branchless(-INFINITY) + 1.0f) <= 6e-8f,
           "tanh of NaN / +-inf: %g %g %g", (double)tanh_branchless(NAN), (double)tanh_branchless(INFINITY),
           (double)tanh_branchless(-INFINITY));
  float row[3] = {INFINITY, INFINITY, 1.0f}, p[3], mx, sum;
  softmax_row_loop(p, row, 3, &mx, &sum);
  s.expect(isnan(p[0]) && isnan(sum), "softmax of a row of overflowed logits must be NaN, got %g (sum %g)",
           (double)p[0], (double)sum);
  Vec dy(x.size());
  r.fill(dy, -1, 1);
  Vec ref_out(x.size()), ref_d(x.size(), 0.0f);
  cpu_isa_portable_table()->gelu_forward(ref_out.data(), x.data(), (int64_t)x.size());
  cpu_isa_portable_table()->gelu_backward(ref_d.data(), x.data(), dy.data(), (int64_t)x.size());
  for (const char* name : {"avx512", "avx2"}) {
    const CpuIsa* isa = cpu_isa_named(name);
    if (isa == NULL) continue;
    Vec out(x.size()), d(x.size(), 0.0f);
    isa->gelu_forward(out.data(), x.data(), (int64_t)x.size());
    isa->gelu_backward(d.data(), x.data(), dy.data(), (int64_t)x.size());
    s.expect(memcmp(out.data(), ref_out.data(), out.size() * sizeof(float)) == 0 &&
                 memcmp(d.data(), ref_d.data(), d.size() * sizeof(float)) == 0,
             "gelu %s differs from the portable loop", name);
  }
}

static void check_pointwise(Suite& s, Rng& r) {
  printf("gelu, residual\n");
  int N = 37;
  Vec x(N), out(N), dy(N);
  r.fill(x, -4, 4), r.fill(dy, -1, 1);
  auto lg = [&] {
    K->gelu_forward(out.data(), x.data(), N);
    return dot_loss(out.data(), dy.data(), N);
  };
  Vec dx0(N);
  r.fill(dx0, -1, 1);
  Vec dx = dx0;
  K->gelu_backward(dx.data(), x.data(), dy.data(), N);
  s.grad_check("gelu.inp", x.data(), N, delta(dx, dx0).data(), lg, r);
  lg();
  double x0 = x[0], ref = 0.5 * x0 * (1 + tanh(sqrt(2 / M_PI) * (x0 + 0.044715 * x0 * x0 * x0)));
  s.expect(fabs(out[0] - ref) < 1e-6, "gelu(%g) = %g, expected %g", x0, (double)out[0], ref);

  Vec a(N), b(N);
  r.fill(a, -1, 1), r.fill(b, -1, 1);
  auto lr = [&] {
    K->residual_forward(out.data(), a.data(), b.data(), N);
    return dot_loss(out.data(), dy.data(), N);
  };
  Vec da0(N), db0(N);
  r.fill(da0, -1, 1), r.fill(db0, -1, 1);
  Vec da = da0, db = db0;
  K->residual_backward(da.data(), db.data(), dy.data(), N);
  s.grad_check("residual.a", a.data(), N, delta(da, da0).data(), lr, r);
  s.grad_check("residual.b", b.data(), N, delta(db, db0).data(), lr, r);
}

static void check_crossentropy(Suite& s, Rng& r) {
  printf("softmax cross-entropy with loss mask\n");
  int N = 6, V = 9;
  std::vector<int> targets = {1, 8, -1, 0, 4, 77};  // masked-out rows may hold anything
  Vec mask = {1, 1, 0, 0.5f, 1, 0};
  Vec logits(N * V), probs(N * V), losses(N), w(N);
  r.fill(logits, -3, 3), r.fill(w, 0.5, 1.5);
  auto loss = [&] {
    K->softmax_crossentropy_forward(losses.data(), probs.data(), logits.data(), targets.data(), mask.data(), N, V);
    return dot_loss(losses.data(), w.data(), N);
  };
  loss();
  Vec dl(N);
  for (int n = 0; n < N; n++) dl[n] = mask[n] != 0 ? w[n] : 0.0f;
  Vec d0(logits.size());
  r.fill(d0, -1, 1);
  Vec d = d0;
  K->softmax_crossentropy_backward(d.data(), dl.data(), probs.data(), targets.data(), N, V);
  s.grad_check("crossentropy.logits", logits.data(), logits.size(), delta(d, d0).data(), loss, r, 54);
  loss();
  double lse = 0;
  for (int i = 0; i < V; i++) lse += exp((double)logits[i]);
  double ref = log(lse) - logits[1];
  s.expect(fabs(losses[0] - ref) < 1e-5, "crossentropy: loss %g, expected %g", (double)losses[0], ref);
  s.expect(losses[2] == 0.0f && losses[5] == 0.0f, "crossentropy: masked-out rows must have loss 0");

  std::vector<int> am(N);
  K->argmax_rows(am.data(), logits.data(), N, V);
  bool ok = true;
  for (int n = 0; n < N; n++)
    for (int i = 0; i < V; i++) ok &= logits[n * V + i] <= logits[n * V + am[n]];
  s.expect(ok, "argmax_rows: not the largest logit");
}

// Log-ratios whose ratios keep >= 5% away from the clip edges 0.8 and 1.2, so a finite-difference step
// (which moves logp by ~1e-2) never crosses a kink of the clipped surrogate.
static const float kLogRatios[] = {-0.7f, -0.4f, -0.05f, 0.0f, 0.05f, 0.3f, 0.5f};

static void check_token_logprobs(Suite& s, Rng& r) {
  printf("token log-probabilities and entropy\n");
  int N = 5, V = 9;
  std::vector<int> targets = {2, -7, 8, 0, 5};  // row 1 masked out: its target is ignored
  Vec mask = {1, 0, 0.5f, 1, 1}, logits(N * V), probs(N * V), logp(N), ent(N);
  r.fill(logits, -4, 4);
  K->token_logprobs(logp.data(), ent.data(), probs.data(), logits.data(), targets.data(), mask.data(), N, V);
  double max_err = 0.0;
  for (int n = 0; n < N; n++) {
    if (mask[n] == 0) continue;
    double z = 0.0, h = 0.0;
    for (int i = 0; i < V; i++) z += exp((double)logits[n * V + i]);
    for (int i = 0; i < V; i++) {
      double q = exp((double)logits[n * V + i]) / z;
      h -= q * log(q);
    }
    max_err = fmax(max_err, fabs(logp[n] - ((double)logits[n * V + targets[n]] - log(z))));
    max_err = fmax(max_err, fabs(ent[n] - h));
  }
  s.expect(max_err < 2e-6, "token_logprobs: max error vs double %g", max_err);
  s.expect(logp[1] == 0.0f && ent[1] == 0.0f, "token_logprobs: masked-out row must be 0");
  printf("  logp and entropy vs double        max |err| %.2e\n", max_err);
}

// Finite differences of sum(coef * l) wrt the logits through token_logprobs -> policy_loss ->
// softmax_crossentropy_backward, for every KL estimator, both cap modes, with and without a
// proximal policy; plus the pointwise semantics (clipping, cap, masking).
static void check_policy_loss(Suite& s, Rng& r) {
  printf("policy loss (decoupled PPO clip + KL to the reference)\n");
  const int N = 14, V = 7;
  std::vector<int> targets(N);
  Vec logits(N * V), mask(N), adv(N), coef(N), probs(N * V), logp(N);
  for (int n = 0; n < N; n++) targets[n] = r.below(V);
  r.fill(logits, -2, 2);
  for (int n = 0; n < N; n++) {
    mask[n] = n % 5 == 4 ? 0.0f : 1.0f;
    adv[n] = (n % 3 == 0 ? -1.0f : 1.0f) * r.range(0.3f, 1.5f);
    coef[n] = mask[n] * r.range(0.05f, 0.2f);
  }
  K->token_logprobs(logp.data(), NULL, probs.data(), logits.data(), targets.data(), mask.data(), N, V);
  Vec old(N), prox(N), ref(N);
  for (int n = 0; n < N; n++) {
    old[n] = logp[n] - kLogRatios[n % 7];
    prox[n] = old[n] + (n % 4 == 0 ? 1.5f : r.range(-0.5f, 0.5f));  // w = e^1.5 = 4.5 > cap 3 every 4th token
    ref[n] = logp[n] + r.range(-0.8f, 0.8f);
  }
  Vec pg(N), kl(N), ratio(N), w(N), clipped(N), capped(N), dnll(N), lp(N);
  PolicyLossTokens tok = {pg.data(), kl.data(), ratio.data(), w.data(), clipped.data(), capped.data()};
  const char* est[] = {"k1", "k2", "k3"};
  for (int e = KL_K1; e <= KL_K3; e++) {
    for (int mode = 0; mode < 3; mode++) {  // 0: no proximal policy, 1: truncate, 2: mask
      PolicyLossParams p = {0.2f, 0.2f, 0.3f, 3.0f, e, mode == 2 ? CAP_MASK : CAP_TRUNCATE};
      const float* px = mode == 0 ? NULL : prox.data();
      auto loss = [&] {
        K->token_logprobs(lp.data(), NULL, probs.data(), logits.data(), targets.data(), mask.data(), N, V);
        K->policy_loss(&tok, dnll.data(), lp.data(), old.data(), px, ref.data(), adv.data(), coef.data(), &p, N);
        double l = 0.0;
        for (int n = 0; n < N; n++) l += (double)coef[n] * ((double)pg[n] + (double)p.kl_coef * kl[n]);
        return l;
      };
      loss();
      Vec d0(N * V), d;
      r.fill(d0, -1, 1);
      d = d0;
      K->softmax_crossentropy_backward(d.data(), dnll.data(), probs.data(), targets.data(), N, V);
      char name[64];
      const char* what = mode == 0 ? "no-prox" : mode == 1 ? "truncate" : "mask";
      snprintf(name, sizeof(name), "policy.logits %s %s", est[e], what);
      s.grad_check(name, logits.data(), logits.size(), delta(d, d0).data(), loss, r, 98);
      int ncapped = 0, nclipped = 0;
      for (int n = 0; n < N; n++) ncapped += capped[n] != 0.0f, nclipped += clipped[n] != 0.0f;
      s.expect(nclipped > 0 && (mode == 0 ? ncapped == 0 : ncapped > 0),
               "%s: the check must exercise clipping (%d tokens) and the cap (%d tokens)", name, nclipped, ncapped);
    }
  }

  // Pointwise semantics on hand-made rows (no KL): A = +1 and r = 1.5 is clipped (flat); A = -1 and
  // r = 1.5 is not (the pessimistic branch keeps the gradient); A = +1 and r = 0.5 is not clipped.
  {
    Vec l = {-1.0f, -1.0f, -1.0f, -1.0f, -1.0f, -1.0f};
    Vec o = {-1.0f - logf(1.5f), -1.0f - logf(1.5f), -1.0f - logf(0.5f), -1.0f, -1.0f, -1.0f};
    Vec pr = {o[0], o[1], o[2], -1.0f, -1.0f, -1.0f};
    o[3] = -1.0f - logf(10.0f), o[4] = o[3], o[5] = -1.0f;  // w = 10 (capped) for rows 3-4, 1 for row 5
    Vec a = {1.0f, -1.0f, 1.0f, 2.0f, 2.0f, 2.0f}, c = {1, 1, 1, 1, 1, 0};
    Vec g(6);
    PolicyLossTokens t6 = {pg.data(), kl.data(), ratio.data(), w.data(), clipped.data(), capped.data()};
    PolicyLossParams p = {0.2f, 0.2f, 0.0f, 5.0f, KL_K3, CAP_TRUNCATE};
    K->policy_loss(&t6, g.data(), l.data(), o.data(), pr.data(), NULL, a.data(), c.data(), &p, 6);
    s.expect(clipped[0] == 1.0f && g[0] == 0.0f && fabsf(pg[0] + 1.2f) < 1e-6f,
             "policy: A>0, r=1.5 must be clipped to 1.2 with zero gradient (pg %g, dnll %g)", (double)pg[0],
             (double)g[0]);
    s.expect(clipped[1] == 0.0f && fabsf(g[1] - (-1.5f)) < 1e-5f,
             "policy: A<0, r=1.5 keeps the unclipped branch: dnll = -(-A r) = -1.5, got %g", (double)g[1]);
    s.expect(clipped[2] == 0.0f && fabsf(g[2] - 0.5f) < 1e-5f, "policy: A>0, r=0.5: dnll = A r = 0.5, got %g",
             (double)g[2]);
    s.expect(capped[3] == 1.0f && w[3] == 5.0f && fabsf(g[3] - 10.0f) < 1e-4f,
             "policy: truncate caps w=10 to 5 (w %g, dnll %g, expected 5*A*r = 10)", (double)w[3], (double)g[3]);
    s.expect(capped[5] == 0.0f && w[5] == 0.0f && g[5] == 0.0f && pg[5] == 0.0f && ratio[5] == 0.0f,
             "policy: coef 0 row contributes nothing");
    p.cap_mode = CAP_MASK;
    K->policy_loss(&t6, g.data(), l.data(), o.data(), pr.data(), NULL, a.data(), c.data(), &p, 6);
    s.expect(capped[4] == 1.0f && w[4] == 0.0f && g[4] == 0.0f && pg[4] == 0.0f,
             "policy: mask mode drops a token whose weight exceeds the cap (w %g, dnll %g)", (double)w[4],
             (double)g[4]);
    // k3 value and gradient at logp - ref = 0.5: e^-0.5 + 0.5 - 1, d/dlogp = 1 - e^-0.5.
    Vec rf = {-1.5f}, one = {1.0f}, zero = {0.0f};
    PolicyLossParams pk = {0.2f, 0.2f, 1.0f, 5.0f, KL_K3, CAP_TRUNCATE};
    K->policy_loss(&t6, g.data(), l.data(), l.data(), NULL, rf.data(), zero.data(), one.data(), &pk, 1);
    double k3 = exp(-0.5) + 0.5 - 1.0;
    s.expect(fabs(kl[0] - k3) < 1e-6 && fabs(g[0] + (1.0 - exp(-0.5))) < 1e-6,
             "policy: k3 at d=0.5: kl %g (expected %g), dnll %g", (double)kl[0], k3, (double)g[0]);
  }
}

static void check_optimizer(Suite& s, Rng& r) {
  printf("AdamW, gradient norm\n");
  int n = 100003;  // several chunks of the parallel loops, ragged end
  Vec p(n), g(n), m(n, 0.0f), v(n, 0.0f);
  r.fill(p, -1, 1);
  std::vector<double> pd(p.begin(), p.end()), md(n, 0.0), vd(n, 0.0);
  float lr = 1e-2f, b1 = 0.9f, b2 = 0.95f, eps = 1e-8f, wd = 0.1f, scale = 0.5f;
  for (int t = 1; t <= 3; t++) {
    r.fill(g, -1, 1);
    K->adamw(p.data(), g.data(), m.data(), v.data(), n, lr, b1, b2, eps, wd, scale, t);
    for (int i = 0; i < n; i++) {
      double gi = (double)g[i] * scale;
      md[i] = b1 * md[i] + (1 - b1) * gi;
      vd[i] = b2 * vd[i] + (1 - b2) * gi * gi;
      double mh = md[i] / (1 - pow(b1, t)), vh = vd[i] / (1 - pow(b2, t));
      pd[i] -= lr * (mh / (sqrt(vh) + eps) + wd * pd[i]);
    }
  }
  Vec pref(pd.begin(), pd.end());
  s.close("adamw params vs double", p.data(), pref.data(), n, 1e-6, 1e-5);

  double ss = 0.0;
  for (int i = 0; i < n; i++) ss += (double)g[i] * g[i];
  double got = K->sumsq(g.data(), n);
  s.expect(fabs(got - ss) <= 1e-9 * ss, "sumsq %.12g, expected %.12g", got, ss);
}

static void check_threads(Suite& s, Rng& r) {
  printf("thread-count invariance (1 vs 3 threads, bitwise)\n");
  int B = 3, T = 9, C = 16, H = 4, N = B * T, OC = 48;
  Vec qkv(N * 3 * C), dy(N * C), w(OC * C), x(N * C), dmm(N * OC);
  r.fill(qkv, -1, 1), r.fill(dy, -1, 1), r.fill(w, -1, 1), r.fill(x, -1, 1), r.fill(dmm, -1, 1);
  Vec res[2][4];
  int threads[2] = {1, 3};
  ops_set_chunk_work(64);  // split even these small shapes into many chunks
  for (int k = 0; k < 2; k++) {
    pool_set_threads(threads[k]);
    Vec out(N * C), att(B * H * T * T), dq(qkv.size(), 0.0f), sc(B * H * T * T), mo(N * OC), dx(N * C, 0.0f),
        dw(w.size(), 0.0f);
    K->attention_forward(out.data(), att.data(), qkv.data(), B, T, C, H);
    K->attention_backward(dq.data(), sc.data(), dy.data(), qkv.data(), att.data(), B, T, C, H);
    K->matmul_forward(mo.data(), x.data(), w.data(), NULL, N, C, OC);
    K->matmul_backward(dx.data(), dw.data(), NULL, dmm.data(), x.data(), w.data(), N, C, OC);
    res[k][0] = out, res[k][1] = dq, res[k][2] = mo, res[k][3] = dw;
  }
  pool_set_threads(0);
  ops_set_chunk_work(0);
  const char* names[4] = {"attention out", "attention dqkv", "matmul out", "matmul dweight"};
  for (int i = 0; i < 4; i++)
    s.expect(memcmp(res[0][i].data(), res[1][i].data(), res[0][i].size() * sizeof(float)) == 0,
             "%s differs between 1 and 3 threads", names[i]);
}

int main() {
  K = kernel_ops_cpu();
  Suite s;
  Rng r(1234);
  check_encoder(s, r);
  check_frame_proj(s, r);
  check_layernorm(s, r);
  check_matmul(s, r, 7);
  check_attention(s, r);
  check_pointwise(s, r);
  check_crossentropy(s, r);
  check_token_logprobs(s, r);
  check_policy_loss(s, r);
  check_optimizer(s, r);
  check_threads(s, r);
  // The vectorised kernels (cpu_isa.h) on their own, then the ops that use them through every ISA
  // this CPU has, the one cpuid picks last (a generator of their own: the checks above keep the
  // draws they were tuned with).
  Rng r2(4321);
  check_gemm(s, r2);
  check_gelu_isas(s, r2);
  for (const char* isa : {"portable", "avx2", "avx512"}) {
    if (!cpu_isa_set(isa)) continue;
    printf("---- ops with the %s kernels\n", isa);
    check_matmul(s, r2, 7);
    check_matmul(s, r2, 37);
    check_attention(s, r2);
    check_attention_long(s, r2);
    check_pointwise(s, r2);
    check_threads(s, r2);
  }
  cpu_isa_set(cpu_isa_named("avx512") ? "avx512" : cpu_isa_named("avx2") ? "avx2" : "portable");
  pool_shutdown();
  return s.finish("test_ops");
}
