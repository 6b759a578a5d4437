// The segmented bench's (bench_segmented.cu) shared pieces: the read ceiling
// kernel, the event timer (event_timer.cuh) and the comparison of two
// outputs. Include it after the module's header (benchseg.cuh), which
// defines Welford and MaxSub.
#pragma once
#include <cmath>

#include "cuda_check.cuh"
#include "event_timer.cuh"

__global__ void read_ceiling(const int4 *__restrict__ p, size_t n4, int *sink) {
  int4 acc = make_int4(0, 0, 0, 0);
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += (size_t)gridDim.x * blockDim.x) {
    int4 a = __ldg(p + i);
    acc.x ^= a.x, acc.y ^= a.y, acc.z ^= a.z, acc.w ^= a.w;
  }
  if ((acc.x ^ acc.y ^ acc.z ^ acc.w) == 0x7fffffff)
    *sink = acc.x;
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
