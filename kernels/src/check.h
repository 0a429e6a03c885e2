// check.h: error reporting, checked allocation and checked file I/O for the compute core.
//
// Design. Every allocation and every file call of the core goes through a *_check function, reached
// through a macro that adds __FILE__ and __LINE__ (mallocCheck, fopenCheck, freadCheck, ... as in
// llm.c), and every failed invariant through KERNEL_CHECK. A failure throws KernelError (a
// std::exception) whose message starts with "file:line:". The core throws instead of calling exit()
// as llm.c does because it lives inside a Node process: the addon turns the exception into a
// rejected Promise or a JS Error, so a bad job fails and the worker process survives; the C++ test
// binaries let it escape, which ends them with a non-zero status. No exception is ever thrown inside
// a parallel region (checks run before the threads start), so the thread pool needs no unwinding.
//
// Checked allocations are 64-byte aligned (one cache line, enough for AVX-512 loads) and counted
// against a process-wide budget (kernel_set_memory_limit, 0 = unlimited): a job asking for a model
// or batch larger than the machine can hold fails with a clear message instead of waking the OOM
// killer, which would end the whole worker. Memory from mallocCheck must be released with
// freeCheck (the size lives in a header in front of the block).
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <exception>
#include <string>

class KernelError : public std::exception {
 public:
  explicit KernelError(std::string message) : message_(std::move(message)) {}
  const char* what() const noexcept override { return message_.c_str(); }

 private:
  std::string message_;
};

// Throws KernelError("file:line: <printf-formatted message>").
[[noreturn]] void kernel_fail(const char* file, int line, const char* fmt, ...)
    __attribute__((format(printf, 3, 4)));

#define KERNEL_CHECK(cond, ...)                                \
  do {                                                         \
    if (!(cond)) kernel_fail(__FILE__, __LINE__, __VA_ARGS__); \
  } while (0)

void* malloc_check(size_t bytes, const char* file, int line);
void* calloc_check(size_t count, size_t elem_bytes, const char* file, int line);
void free_check(void* ptr);
// a * b for sizes, failing instead of wrapping around.
size_t mul_check(size_t a, size_t b, const char* file, int line);

FILE* fopen_check(const char* path, const char* mode, const char* file, int line);
void fread_check(void* ptr, size_t size, size_t count, FILE* stream, const char* file, int line);
void fwrite_check(const void* ptr, size_t size, size_t count, FILE* stream, const char* file, int line);
void fclose_check(FILE* stream, const char* file, int line);

#define mallocCheck(bytes) malloc_check((bytes), __FILE__, __LINE__)
#define callocCheck(count, elem) calloc_check((count), (elem), __FILE__, __LINE__)
#define freeCheck(ptr) free_check(ptr)
#define mulCheck(a, b) mul_check((a), (b), __FILE__, __LINE__)
#define fopenCheck(path, mode) fopen_check((path), (mode), __FILE__, __LINE__)
#define freadCheck(ptr, size, count, stream) fread_check((ptr), (size), (count), (stream), __FILE__, __LINE__)
#define fwriteCheck(ptr, size, count, stream) fwrite_check((ptr), (size), (count), (stream), __FILE__, __LINE__)
#define fcloseCheck(stream) fclose_check((stream), __FILE__, __LINE__)

// Memory budget of all checked allocations in this process, in bytes (0 = unlimited).
void kernel_set_memory_limit(size_t bytes);
size_t kernel_memory_limit(void);
size_t kernel_memory_in_use(void);
