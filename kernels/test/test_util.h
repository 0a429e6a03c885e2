// test_util.h: helpers shared by the C++ test binaries: a seeded RNG, finite-difference gradient
// checks and tolerance comparisons.
//
// Design. A gradient check perturbs one input element at a time by +-h, evaluates a scalar loss
// L = sum(dy * op(x)) accumulated in double (dy fixed and random), and compares
// (L(x+h) - L(x-h)) / (x+h - x-h) with the analytic gradient. The denominator uses the perturbed
// values as actually stored in float, so rounding of x+h does not count as error. An element
// passes when |analytic - numeric| <= atol + rtol * |numeric| (llm.c's absolute plus relative
// tolerance); every failure is printed and the binary exits non-zero at the end (Suite::finish).
#pragma once

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <functional>
#include <vector>

struct Rng {
  uint64_t s;
  explicit Rng(uint64_t seed) : s(seed) {}
  uint64_t next() {
    uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double uniform() { return ((next() >> 11) + 0.5) * (1.0 / 9007199254740992.0); }
  float range(float lo, float hi) { return lo + (hi - lo) * (float)uniform(); }
  int below(int n) { return (int)(next() % (uint64_t)n); }
  void fill(std::vector<float>& v, float lo, float hi) {
    for (float& x : v) x = range(lo, hi);
  }
};

struct Suite {
  int checks = 0, failures = 0;

  // Records one named check; prints it when it fails (or always with verbose output).
  void expect(bool ok, const char* fmt, ...) __attribute__((format(printf, 3, 4))) {
    checks++;
    if (ok) return;
    failures++;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "FAIL: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
  }

  // Finite-difference check of analytic[i] = dL/dx[i] for `samples` indices of x (all if n is small).
  void grad_check(const char* name, float* x, size_t n, const float* analytic, const std::function<double()>& loss,
                  Rng& rng, int samples = 48, double h = 1e-2, double atol = 1e-4, double rtol = 1e-3) {
    std::vector<size_t> idx;
    if (n <= (size_t)samples) {
      for (size_t i = 0; i < n; i++) idx.push_back(i);
    } else {
      for (int k = 0; k < samples; k++) idx.push_back((size_t)(rng.next() % n));
    }
    double max_err = 0.0, max_ref = 0.0;
    int bad = 0;
    for (size_t i : idx) {
      float orig = x[i];
      x[i] = (float)(orig + h);
      double xp = x[i], lp = loss();
      x[i] = (float)(orig - h);
      double xm = x[i], lm = loss();
      x[i] = orig;
      double num = (lp - lm) / (xp - xm);
      double err = fabs(num - (double)analytic[i]);
      double tol = atol + rtol * fabs(num);
      if (err > max_err) max_err = err;
      if (fabs(num) > max_ref) max_ref = fabs(num);
      checks++;
      if (err > tol || !isfinite(analytic[i])) {
        failures++;
        if (bad++ < 5) {
          fprintf(stderr, "FAIL: grad %s[%zu]: analytic %.8g numeric %.8g (err %.3g > tol %.3g)\n", name, i,
                  (double)analytic[i], num, err, tol);
        }
      }
    }
    printf("  grad %-24s %3zu elements  max |err| %.2e  max |grad| %.2e%s\n", name, idx.size(), max_err, max_ref,
           bad ? "  FAILED" : "");
  }

  // Elementwise comparison a vs ref with |a - ref| <= atol + rtol*|ref|.
  void close(const char* name, const float* a, const float* ref, size_t n, double atol, double rtol) {
    double max_err = 0.0;
    int bad = 0;
    for (size_t i = 0; i < n; i++) {
      double err = fabs((double)a[i] - (double)ref[i]);
      if (err > max_err || !isfinite(err)) max_err = isfinite(err) ? err : INFINITY;
      if (!(err <= atol + rtol * fabs((double)ref[i]))) {
        if (bad++ < 5) fprintf(stderr, "FAIL: %s[%zu]: %.8g vs expected %.8g\n", name, i, (double)a[i], (double)ref[i]);
      }
    }
    checks++;
    if (bad) failures++;
    printf("  %-30s %8zu values  max |err| %.2e%s\n", name, n, max_err, bad ? "  FAILED" : "");
  }

  int finish(const char* binary) {
    printf("%s: %d checks, %d failures\n", binary, checks, failures);
    return failures == 0 ? 0 : 1;
  }
};

// sum(dy * y) in double: the scalar whose gradient wrt y is dy.
// What model_forward and decoder_step take for frames: one row of P features per FRAME_TOKEN of
// tokens, in position order, picked from a dense [N, P] array (the fixture's layout).
static inline std::vector<float> slot_rows(const int* tokens, const float* dense, size_t N, int P) {
  std::vector<float> rows;
  for (size_t n = 0; n < N; n++)
    if (tokens[n] == -1) rows.insert(rows.end(), dense + n * P, dense + (n + 1) * P);
  return rows;
}

static inline double dot_loss(const float* y, const float* dy, size_t n) {
  double s = 0.0;
  for (size_t i = 0; i < n; i++) s += (double)y[i] * (double)dy[i];
  return s;
}
