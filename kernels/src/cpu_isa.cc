// cpu_isa.cc: which CpuIsa table the ops use (cpu_isa.h). Chosen once, on first use: the best the
// CPU has (cpuid: AVX-512F, else AVX2 + FMA, else portable), or PARAVT_CPU_ISA when set.
#include "cpu_isa.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <atomic>
#include <initializer_list>

static bool cpu_has(const char* name) {
#if defined(__x86_64__) && defined(__GNUC__)
  __builtin_cpu_init();
  if (strcmp(name, "avx512") == 0)
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
           __builtin_cpu_supports("avx512dq");
  if (strcmp(name, "avx2") == 0) return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#endif
  return strcmp(name, "portable") == 0;
}

const CpuIsa* cpu_isa_named(const char* name) {
  const CpuIsa* t = strcmp(name, "avx512") == 0   ? cpu_isa_avx512_table()
                    : strcmp(name, "avx2") == 0   ? cpu_isa_avx2_table()
                    : strcmp(name, "portable") == 0 ? cpu_isa_portable_table()
                                                    : nullptr;
  return t != nullptr && cpu_has(name) ? t : nullptr;
}

static std::atomic<const CpuIsa*> g_isa{nullptr};
static char g_note[96];

static const CpuIsa* best(void) {
  for (const char* n : {"avx512", "avx2"})
    if (const CpuIsa* t = cpu_isa_named(n)) return t;
  return cpu_isa_portable_table();
}

static const CpuIsa* choose(void) {
  const char* want = getenv("PARAVT_CPU_ISA");
  if (want != NULL && want[0] != '\0') {
    if (const CpuIsa* t = cpu_isa_named(want)) {
      snprintf(g_note, sizeof(g_note), "%s (PARAVT_CPU_ISA)", t->name);
      return t;
    }
    const CpuIsa* t = best();
    snprintf(g_note, sizeof(g_note), "%s (PARAVT_CPU_ISA=%.20s is not available here)", t->name, want);
    return t;
  }
  const CpuIsa* t = best();
  snprintf(g_note, sizeof(g_note), "%s (cpuid)", t->name);
  return t;
}

const CpuIsa* cpu_isa(void) {
  const CpuIsa* t = g_isa.load(std::memory_order_acquire);
  if (t != nullptr) return t;
  t = choose();
  g_isa.store(t, std::memory_order_release);
  return t;
}

const char* cpu_isa_note(void) {
  cpu_isa();
  return g_note;
}

int cpu_isa_set(const char* name) {
  const CpuIsa* t = cpu_isa_named(name);
  if (t == nullptr) return 0;
  snprintf(g_note, sizeof(g_note), "%s (set)", t->name);
  g_isa.store(t, std::memory_order_release);
  return 1;
}
