// What the segmented bench (bench_segmented.cu) and the split model
// (split_mix.cu) share: the read ceiling kernel, the event timer and the
// comparison of two outputs. Include it after the module's header (benchseg.cuh),
// which defines Welford and MaxSub.
#pragma once
#include <cmath>

#include "cuda_check.cuh"

__global__ void read_ceiling(const int4 *__restrict__ p, size_t n4, int *sink) {
  int4 acc = make_int4(0, 0, 0, 0);
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += (size_t)gridDim.x * blockDim.x) {
    int4 a = __ldg(p + i);
    acc.x ^= a.x, acc.y ^= a.y, acc.z ^= a.z, acc.w ^= a.w;
  }
  if ((acc.x ^ acc.y ^ acc.z ^ acc.w) == 0x7fffffff)
    *sink = acc.x;
}

static cudaEvent_t ev0, ev1;
// Mean time per call: one warm-up call, one timed call to size the loop,
// then about 30 ms of back-to-back calls (3 to 2000). Create ev0 and ev1
// first.
template <class F> static double time_us(F call) {
  call();
  CUDA_CHECK(cudaEventRecord(ev0));
  call();
  CUDA_CHECK(cudaEventRecord(ev1));
  CUDA_CHECK(cudaEventSynchronize(ev1));
  float ms;
  CUDA_CHECK(cudaEventElapsedTime(&ms, ev0, ev1));
  int iters = (int)(30.0 / (ms > 1e-3f ? ms : 1e-3f));
  iters = iters < 3 ? 3 : iters > 2000 ? 2000 : iters;
  CUDA_CHECK(cudaEventRecord(ev0));
  for (int i = 0; i < iters; i++)
    call();
  CUDA_CHECK(cudaEventRecord(ev1));
  CUDA_CHECK(cudaEventSynchronize(ev1));
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaEventElapsedTime(&ms, ev0, ev1));
  return ms * 1000.0 / iters;
}

// Two forms' results for one segment: bitwise for integers and
// max-subarray, within 1e-3 relative for floats and Welford.
static bool near(double a, double b) { return std::fabs(a - b) <= 1e-3 * (std::fabs(a) + std::fabs(b)) + 1e-5; }
static bool same(int a, int b) { return a == b; }
static bool same(float a, float b) { return near(a, b); }
static bool same(const Welford &a, const Welford &b) {
  return near(a.n, b.n) && near(a.mean, b.mean) && near(a.m2, b.m2);
}
static bool same(const MaxSub &a, const MaxSub &b) { return benchseg::bits_equal(a, b); }
