// threadpool.h: the one thread pool of the CPU backend.
//
// Design. A fixed set of std::threads, sized by pool_set_threads (default: hardware_concurrency),
// started lazily and parked on a condition variable between jobs (idle threads sleep, they never
// spin, so an idle core costs nothing to the rest of the worker process). parallel_for(n, grain, f)
// splits [0, n) into chunks of `grain` handed out through an atomic counter (dynamic schedule: the
// rows of causal attention have unequal cost) and runs f(begin, end) on the pool and the calling
// thread. Every op assigns each output element to exactly one chunk and computes it in a fixed
// order, so results are bit-identical for any thread count; tests and fixtures depend on that.
// Callers from different threads (two Node async workers) are serialised by a mutex, and a
// parallel_for called from inside a chunk runs inline, so nesting cannot deadlock.
#pragma once

#include <stdint.h>

typedef void (*pool_range_fn)(void* ctx, int64_t begin, int64_t end);

// n <= 0 selects std::thread::hardware_concurrency(). Waits for a running parallel_for to finish.
void pool_set_threads(int n);
int pool_get_threads(void);
// Joins the workers (they restart on the next parallel_for); for clean process and addon teardown.
void pool_shutdown(void);
// grain <= 0 picks about 4 chunks per thread.
void pool_parallel_for(int64_t n, int64_t grain, pool_range_fn fn, void* ctx);

template <typename F>
inline void parallel_for(int64_t n, int64_t grain, const F& f) {
  pool_parallel_for(
      n, grain, [](void* ctx, int64_t begin, int64_t end) { (*(const F*)ctx)(begin, end); }, (void*)&f);
}
