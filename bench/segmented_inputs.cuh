// The inputs of the segmented bench (bench_segmented.cu): ints in -100..100
// and floats in [0, 1) from a hash of the index. The data is not constant
// because a fold's speed can depend on it: Welford's IEEE division takes its
// slow path for a zero dividend, so all-zero input runs Welford's kernel
// several times as slow as ordinary data.
#pragma once
#include <cstddef>

static __device__ unsigned int hash32(size_t i) {
  unsigned long long x = i * 0x9e3779b97f4a7c15ULL;
  x ^= x >> 31;
  x *= 0xbf58476d1ce4e5b9ULL;
  return (unsigned int)(x >> 32);
}
static __global__ void fill_int(int *p, size_t n) {
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    p[i] = (int)(hash32(i) % 201) - 100;
}
static __global__ void fill_float(float *p, size_t n) {
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    p[i] = (float)(hash32(i) >> 8) * (1.0f / 16777216.0f);
}
