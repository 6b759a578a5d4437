// What the merge probes (merge_floor.cu, merge_parts.cu) share: the error
// check, the launch floor's empty kernel, the block's XOR or sum, the input
// and the event timer.
#pragma once
#include <cstdio>
#include <cstdlib>

#define CUDA_CHECK(call)                                                                   \
  do {                                                                                     \
    cudaError_t e_ = (call);                                                               \
    if (e_ != cudaSuccess) {                                                               \
      std::printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); \
      std::exit(2);                                                                        \
    }                                                                                      \
  } while (0)

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
