// cuda_emu.cc: the host scheduler and runtime behind cuda_emu.h (see its header comment).
//
// Switching. Each fiber is entered once through makecontext/swapcontext (which also save and
// restore the signal mask: a system call each), then parks in a loop that runs one emulated thread
// after another; every later switch is _setjmp/_longjmp, which touches no signal mask (the parity
// test took 53 s with swapcontext on every switch, 1.7 s so). _FORTIFY_SOURCE's longjmp check
// rejects jumps between stacks, so it is off in this file.
#undef _FORTIFY_SOURCE
#include "cuda_emu.h"

#include <setjmp.h>
#include <ucontext.h>

#include <vector>

dim3 threadIdx, blockIdx, blockDim, gridDim;

namespace emu {
namespace {

enum State { kRunnable = 0, kWaitBlock = 1, kWaitWarp = 2, kDone = 3 };

struct Fiber {
  jmp_buf jb;     // where the fiber parked (at a barrier, or done and waiting for its next thread)
  int state;
  bool started;   // entered once through makecontext
  ucontext_t ctx; // only for that first entry
};

const size_t kStackBytes = 64 * 1024;  // kernels keep a few register tiles of locals
const int kMaxThreads = 1024;           // CUDA's limit of threads per block

ucontext_t g_scheduler_ctx;  // the first entry of a fiber returns through it
jmp_buf g_scheduler;
std::vector<Fiber> g_fibers;
std::vector<char*> g_stacks;
int g_current = -1;
int g_threads = 0;
const std::function<void()>* g_body = nullptr;
std::vector<unsigned char> g_exchange;  // [kMaxThreads][16]: one slot per lane
std::vector<unsigned char> g_smem;
const char* g_kernel = "";

// A fiber's life: run the body as the thread it was resumed for, mark it done, park; resumed again
// for a thread of the next block (or launch), it loops.
void fiber_main() {
  for (;;) {
    (*g_body)();
    Fiber& f = g_fibers[g_current];
    f.state = kDone;
    if (!_setjmp(f.jb)) _longjmp(g_scheduler, 1);
  }
}

void resume(int i) {
  Fiber& f = g_fibers[i];
  if (_setjmp(g_scheduler)) return;  // the fiber jumped back
  if (f.started) _longjmp(f.jb, 1);
  f.started = true;
  getcontext(&f.ctx);
  f.ctx.uc_stack.ss_sp = g_stacks[i];
  f.ctx.uc_stack.ss_size = kStackBytes;
  f.ctx.uc_link = NULL;  // fiber_main never returns
  makecontext(&f.ctx, fiber_main, 0);
  swapcontext(&g_scheduler_ctx, &f.ctx);
}

void set_thread_index(int linear) {
  threadIdx.x = linear % blockDim.x;
  threadIdx.y = (linear / blockDim.x) % blockDim.y;
  threadIdx.z = linear / (blockDim.x * blockDim.y);
}

void run_block() {
  for (int i = 0; i < g_threads; i++) g_fibers[i].state = kRunnable;
  int warps = (g_threads + 31) / 32;
  for (;;) {
    for (int i = 0; i < g_threads; i++) {
      if (g_fibers[i].state != kRunnable) continue;
      g_current = i;
      set_thread_index(i);
      resume(i);
    }
    // Everyone is now waiting or done: release the barriers that are complete.
    bool released = false, all_done = true, all_block = true;
    for (int w = 0; w < warps; w++) {
      int lo = w * 32, hi = lo + 32 < g_threads ? lo + 32 : g_threads;
      bool warp_ready = true, any_waiting = false;
      for (int i = lo; i < hi; i++) {
        int s = g_fibers[i].state;
        if (s != kDone) all_done = false;
        if (s == kWaitWarp) any_waiting = true;
        if (s != kWaitWarp && s != kDone) warp_ready = false;
        if (s != kWaitBlock && s != kDone) all_block = false;
      }
      if (warp_ready && any_waiting) {
        for (int i = lo; i < hi; i++)
          if (g_fibers[i].state == kWaitWarp) g_fibers[i].state = kRunnable;
        released = true;
      }
    }
    if (all_done) return;
    if (!released && all_block) {
      for (int i = 0; i < g_threads; i++)
        if (g_fibers[i].state == kWaitBlock) g_fibers[i].state = kRunnable;
      released = true;
    }
    if (!released) {
      fprintf(stderr, "cuda_emu: kernel %s deadlocks in block (%u,%u,%u): a barrier some threads never reach\n",
              g_kernel, blockIdx.x, blockIdx.y, blockIdx.z);
      abort();
    }
  }
}

}  // namespace

void wait(int kind) {
  Fiber& f = g_fibers[g_current];
  f.state = kind;
  if (!_setjmp(f.jb)) _longjmp(g_scheduler, 1);
}

int lane_id() { return g_current % 32; }

void warp_exchange(const void* v, void* out, int bytes, int src) {
  if (bytes > 16) abort();
  int me = g_current, warp0 = me - me % 32;
  memcpy(&g_exchange[(size_t)me * 16], v, bytes);
  wait(kWaitWarp);
  int from = warp0 + src;
  bool valid = src >= 0 && src < 32 && from < g_threads && g_fibers[from].state != kDone;
  memcpy(out, valid ? &g_exchange[(size_t)from * 16] : v, bytes);
  wait(kWaitWarp);  // nobody overwrites its slot before every lane has read
}

void* dynamic_smem() { return g_smem.data(); }

void launch(const char* name, dim3 grid, dim3 block, size_t smem, const std::function<void()>& body) {
  int threads = (int)(block.x * block.y * block.z);
  if (threads <= 0 || threads > kMaxThreads || grid.x == 0 || grid.y == 0 || grid.z == 0) {
    fprintf(stderr, "cuda_emu: kernel %s launched with grid (%u,%u,%u) block (%u,%u,%u)\n", name, grid.x, grid.y,
            grid.z, block.x, block.y, block.z);
    abort();
  }
  while ((int)g_stacks.size() < threads) g_stacks.push_back((char*)malloc(kStackBytes));
  if (g_fibers.empty()) g_fibers.resize(kMaxThreads);  // never reallocated: parked fibers point into it
  g_exchange.resize((size_t)kMaxThreads * 16);
  if (g_smem.size() < smem) g_smem.resize(smem);
  g_kernel = name;
  g_body = &body;
  g_threads = threads;
  blockDim = block;
  gridDim = grid;
  for (unsigned z = 0; z < grid.z; z++)
    for (unsigned y = 0; y < grid.y; y++)
      for (unsigned x = 0; x < grid.x; x++) {
        blockIdx = dim3(x, y, z);
        run_block();
      }
  g_body = nullptr;
}

}  // namespace emu

// ---- runtime ----

static const size_t kEmuMemory = (size_t)16 << 30;  // what cudaMemGetInfo reports
static size_t g_in_use = 0;

const char* cudaGetErrorString(cudaError_t err) {
  switch (err) {
    case cudaSuccess:
      return "no error";
    case cudaErrorInvalidValue:
      return "invalid argument";
    case cudaErrorMemoryAllocation:
      return "out of memory";
    case cudaErrorNoDevice:
      return "no CUDA-capable device is detected";
    default:
      return "unknown error";
  }
}
cudaError_t cudaGetDeviceCount(int* count) {
  *count = 1;
  return cudaSuccess;
}
cudaError_t cudaSetDevice(int device) { return device == 0 ? cudaSuccess : cudaErrorInvalidValue; }
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device) {
  if (device != 0) return cudaErrorInvalidValue;
  memset(prop, 0, sizeof(*prop));
  snprintf(prop->name, sizeof(prop->name), "host emulation (cuda_emu)");
  prop->totalGlobalMem = kEmuMemory;
  prop->multiProcessorCount = 1;
  prop->major = 9;
  return cudaSuccess;
}
cudaError_t cudaMemGetInfo(size_t* free_bytes, size_t* total_bytes) {
  *total_bytes = kEmuMemory;
  *free_bytes = kEmuMemory - g_in_use;
  return cudaSuccess;
}
// The size lives in 256 bytes in front of the block (cudaMalloc's alignment).
cudaError_t cudaMalloc(void** ptr, size_t bytes) {
  if (bytes > kEmuMemory - g_in_use) return cudaErrorMemoryAllocation;
  char* p = (char*)aligned_alloc(256, 256 + ((bytes + 255) / 256) * 256);
  if (p == nullptr) return cudaErrorMemoryAllocation;
  memcpy(p, &bytes, sizeof(bytes));
  memset(p + 256, 0xA5, bytes);  // like the device, memory is not zeroed: callers must not rely on it
  g_in_use += bytes;
  *ptr = p + 256;
  return cudaSuccess;
}
cudaError_t cudaFree(void* ptr) {
  if (ptr == nullptr) return cudaSuccess;
  char* p = (char*)ptr - 256;
  size_t bytes;
  memcpy(&bytes, p, sizeof(bytes));
  g_in_use -= bytes;
  free(p);
  return cudaSuccess;
}
cudaError_t cudaMemcpy(void* dst, const void* src, size_t bytes, cudaMemcpyKind) {
  if (bytes) memmove(dst, src, bytes);
  return cudaSuccess;
}
cudaError_t cudaMemset(void* dst, int value, size_t bytes) {
  memset(dst, value, bytes);
  return cudaSuccess;
}
cudaError_t cudaDeviceSynchronize(void) { return cudaSuccess; }
cudaError_t cudaGetLastError(void) { return cudaSuccess; }
