// What the merge probes (merge_floor.cu, merge_parts.cu) share: the error
// check, the launch floor's empty kernel, the block's XOR or sum, the tagged
// words, the input and the event timer.
#pragma once
#include <cstdio>
#include <cstdlib>

#include "cuda_check.cuh"

__global__ void empty_kernel() {}

// The block's XOR (or, with SUM, wrapping sum) of every thread's v, in
// thread 0; s is free on entry.
template <bool SUM = false> __device__ int block_fold(int v, int *s) {
  for (int o = 16; o > 0; o >>= 1) {
    const int w = __shfl_xor_sync(0xffffffffu, v, o);
    v = SUM ? (int)((unsigned)v + (unsigned)w) : v ^ w;
  }
  if ((threadIdx.x & 31) == 0)
    s[threadIdx.x >> 5] = v;
  __syncthreads();
  if (threadIdx.x < 32) {
    v = threadIdx.x < blockDim.x / 32 ? s[threadIdx.x] : 0;
    for (int o = 16; o > 0; o >>= 1) {
      const int w = __shfl_xor_sync(0xffffffffu, v, o);
      v = SUM ? (int)((unsigned)v + (unsigned)w) : v ^ w;
    }
  }
  return v;
}

// A partial in a 16-byte word beside the call's 64-bit tag, stored and
// loaded whole (one single-copy-atomic b128 access), so a reader that sees
// the tag sees the payload (merge_floor.cu's read_tagged, merge_parts.cu's
// early).
__device__ __forceinline__ void store_word(unsigned long long *w, unsigned long long payload, unsigned long long tag) {
  asm volatile("{ .reg .b128 v; mov.b128 v, {%1, %2}; st.relaxed.gpu.global.b128 [%0], v; }" ::"l"(w), "l"(payload),
               "l"(tag)
               : "memory");
}
__device__ __forceinline__ unsigned long long load_word(const unsigned long long *w, unsigned long long *tag) {
  unsigned long long payload, t;
  asm volatile("{ .reg .b128 v; ld.relaxed.gpu.global.b128 v, [%2]; mov.b128 {%0, %1}, v; }"
               : "=l"(payload), "=l"(t)
               : "l"(w)
               : "memory");
  *tag = t;
  return payload;
}

__device__ unsigned int hash32(size_t i) {
  unsigned long long x = i * 0x9e3779b97f4a7c15ULL;
  x ^= x >> 31;
  x *= 0xbf58476d1ce4e5b9ULL;
  return (unsigned int)(x >> 32);
}
__global__ void fill(int *p, size_t n) {
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    p[i] = (int)hash32(i);
}

// Microseconds per call, over about 20 ms of back-to-back calls after 5
// warm-up calls.
static cudaEvent_t ev0, ev1;
template <class F> static double time_us(F call, size_t bytes) {
  int iters = (int)(0.02 * 3e12 / (double)(bytes ? bytes : 1));
  iters = iters < 20 ? 20 : iters > 2000 ? 2000 : iters;
  for (int i = 0; i < 5; i++)
    call();
  CUDA_CHECK(cudaEventRecord(ev0));
  for (int i = 0; i < iters; i++)
    call();
  CUDA_CHECK(cudaEventRecord(ev1));
  CUDA_CHECK(cudaEventSynchronize(ev1));
  CUDA_CHECK(cudaGetLastError());
  float ms;
  CUDA_CHECK(cudaEventElapsedTime(&ms, ev0, ev1));
  return ms * 1000.0 / iters;
}
