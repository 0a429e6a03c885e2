#include "check.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <atomic>

static std::atomic<size_t> g_in_use{0};
static std::atomic<size_t> g_limit{0};
static const size_t kHeader = 64;  // keeps the returned pointer 64-byte aligned

void kernel_fail(const char* file, int line, const char* fmt, ...) {
  const char* base = strrchr(file, '/');
  char msg[1024];
  int n = snprintf(msg, sizeof(msg), "%s:%d: ", base ? base + 1 : file, line);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg + n, sizeof(msg) - (size_t)n, fmt, ap);
  va_end(ap);
  throw KernelError(msg);
}

size_t mul_check(size_t a, size_t b, const char* file, int line) {
  size_t r;
  if (__builtin_mul_overflow(a, b, &r)) kernel_fail(file, line, "size overflow: %zu x %zu", a, b);
  return r;
}

void* malloc_check(size_t bytes, const char* file, int line) {
  if (bytes > SIZE_MAX - kHeader) kernel_fail(file, line, "allocation of %zu bytes is too large", bytes);
  size_t limit = g_limit.load();
  size_t before = g_in_use.fetch_add(bytes);
  if (limit != 0 && before + bytes > limit) {
    g_in_use.fetch_sub(bytes);
    kernel_fail(file, line, "allocation of %zu bytes exceeds the memory limit (%zu of %zu bytes in use)", bytes,
                before, limit);
  }
  void* raw = NULL;
  if (posix_memalign(&raw, kHeader, bytes + kHeader) != 0 || raw == NULL) {
    g_in_use.fetch_sub(bytes);
    kernel_fail(file, line, "out of memory allocating %zu bytes", bytes);
  }
  *(size_t*)raw = bytes;
  return (char*)raw + kHeader;
}

void* calloc_check(size_t count, size_t elem_bytes, const char* file, int line) {
  size_t bytes = mul_check(count, elem_bytes, file, line);
  void* p = malloc_check(bytes, file, line);
  memset(p, 0, bytes);
  return p;
}

void free_check(void* ptr) {
  if (ptr == NULL) return;
  char* raw = (char*)ptr - kHeader;
  g_in_use.fetch_sub(*(size_t*)raw);
  free(raw);
}

FILE* fopen_check(const char* path, const char* mode, const char* file, int line) {
  FILE* f = fopen(path, mode);
  if (f == NULL) kernel_fail(file, line, "cannot open %s (mode %s): %s", path, mode, strerror(errno));
  return f;
}

void fread_check(void* ptr, size_t size, size_t count, FILE* stream, const char* file, int line) {
  size_t got = fread(ptr, size, count, stream);
  if (got != count) {
    kernel_fail(file, line, "short read: %zu of %zu elements of %zu bytes (%s)", got, count, size,
                feof(stream) ? "end of file" : "read error");
  }
}

void fwrite_check(const void* ptr, size_t size, size_t count, FILE* stream, const char* file, int line) {
  size_t put = fwrite(ptr, size, count, stream);
  if (put != count) kernel_fail(file, line, "short write: %zu of %zu elements of %zu bytes", put, count, size);
}

void fclose_check(FILE* stream, const char* file, int line) {
  if (fclose(stream) != 0) kernel_fail(file, line, "fclose failed: %s", strerror(errno));
}

void kernel_set_memory_limit(size_t bytes) { g_limit.store(bytes); }
size_t kernel_memory_limit(void) { return g_limit.load(); }
size_t kernel_memory_in_use(void) { return g_in_use.load(); }
