// What every reduction test shares: the CUDA error check, the pass/fail
// counter and the seeded hash the inputs are made from.
#ifndef REDUCE_HARNESS_H
#define REDUCE_HARNESS_H
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                                   \
  do {                                                                                     \
    cudaError_t e_ = (call);                                                               \
    if (e_ != cudaSuccess) {                                                               \
      std::printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); \
      std::exit(2);                                                                        \
    }                                                                                      \
  } while (0)

static long passed, failed;
static bool check(bool ok, const char *name, const char *what, size_t n) {
  if (ok)
    passed++;
  else if (++failed <= 200)
    std::printf("FAIL %s: %s (n = %zu)\n", name, what, n);
  return ok;
}

static unsigned long long mix(unsigned long long x) { // splitmix64
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}
#endif
