#include "threadpool.h"

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

static const int kMaxThreads = 256;

// Never destroyed: at process exit parked workers may still wait on these, and destroying a
// condition variable with waiters can hang; the OS reclaims the threads.
static std::mutex& g_use = *new std::mutex;  // one parallel_for (or resize) at a time
static std::mutex& g_mu = *new std::mutex;   // guards the fields below
static std::condition_variable& g_work_cv = *new std::condition_variable;
static std::condition_variable& g_done_cv = *new std::condition_variable;
static std::vector<std::thread>& g_workers = *new std::vector<std::thread>;
static int g_threads = 0;  // 0 = not chosen yet
static uint64_t g_generation = 0;
static bool g_stop = false;
static int g_pending = 0;  // workers still inside the current job
static pool_range_fn g_fn = nullptr;
static void* g_ctx = nullptr;
static int64_t g_n = 0, g_grain = 1;
static std::atomic<int64_t> g_next{0};
static thread_local bool t_inside = false;

static int default_threads(void) {
  unsigned hc = std::thread::hardware_concurrency();
  return hc == 0 ? 1 : (int)(hc > (unsigned)kMaxThreads ? kMaxThreads : hc);
}

static void run_chunks(void) {
  t_inside = true;
  for (;;) {
    int64_t begin = g_next.fetch_add(g_grain);
    if (begin >= g_n) break;
    int64_t end = begin + g_grain < g_n ? begin + g_grain : g_n;
    g_fn(g_ctx, begin, end);
  }
  t_inside = false;
}

// `seen` is the generation at spawn time, so a worker started just before a job is posted takes it.
static void worker_main(uint64_t seen) {
  for (;;) {
    {
      std::unique_lock<std::mutex> lk(g_mu);
      g_work_cv.wait(lk, [&] { return g_stop || g_generation != seen; });
      if (g_stop) return;
      seen = g_generation;
    }
    run_chunks();
    std::lock_guard<std::mutex> lk(g_mu);
    if (--g_pending == 0) g_done_cv.notify_one();
  }
}

static void stop_workers(void) {  // caller holds g_use
  {
    std::lock_guard<std::mutex> lk(g_mu);
    g_stop = true;
  }
  g_work_cv.notify_all();
  for (auto& t : g_workers) t.join();
  g_workers.clear();
  g_stop = false;
}

void pool_set_threads(int n) {
  std::lock_guard<std::mutex> use(g_use);
  int want = n <= 0 ? default_threads() : (n > kMaxThreads ? kMaxThreads : n);
  if (want == g_threads) return;
  stop_workers();
  g_threads = want;
}

void pool_shutdown(void) {
  std::lock_guard<std::mutex> use(g_use);
  stop_workers();
}

int pool_get_threads(void) {
  std::lock_guard<std::mutex> use(g_use);
  if (g_threads == 0) g_threads = default_threads();
  return g_threads;
}

void pool_parallel_for(int64_t n, int64_t grain, pool_range_fn fn, void* ctx) {
  if (n <= 0) return;
  if (t_inside) {  // nested: run inline
    fn(ctx, 0, n);
    return;
  }
  std::lock_guard<std::mutex> use(g_use);
  if (g_threads == 0) g_threads = default_threads();
  if (grain <= 0) {
    grain = n / ((int64_t)g_threads * 4);
    if (grain < 1) grain = 1;
  }
  if (g_threads == 1 || n <= grain) {
    t_inside = true;
    fn(ctx, 0, n);
    t_inside = false;
    return;
  }
  while ((int)g_workers.size() < g_threads - 1) g_workers.emplace_back(worker_main, g_generation);
  {
    std::lock_guard<std::mutex> lk(g_mu);
    g_fn = fn;
    g_ctx = ctx;
    g_n = n;
    g_grain = grain;
    g_next.store(0);
    g_pending = (int)g_workers.size();
    g_generation++;
  }
  g_work_cv.notify_all();
  run_chunks();
  std::unique_lock<std::mutex> lk(g_mu);
  g_done_cv.wait(lk, [] { return g_pending == 0; });
}
