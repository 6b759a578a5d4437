// What the power-law mix would take in two launches, one for its short
// segments and one for its long ones, each with today's _segmented kernel
// (issue 14, target 2). The mix's elements are split at a length T into two
// compacted inputs with offsets of their own; the program times the whole
// mix, each part alone and both parts back to back in one stream, with the
// read ceiling of the whole input, and checks that the split's outputs are
// the whole launch's, segment by segment.
//
//   make -C bench split-mix      (or: split_mix [LOG2_N], 2^28 unless given)
//
// It models a split, it does not build one: the parts' kernels are the
// kernel that serves every length, registers and all, and a real split would
// also need the pass that finds the long segments.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "benchseg.cuh"
#include "segmented_inputs.cuh"
#include "skewed_offsets.h"
#include "segmented_bench.cuh"

// Least time a call over 5 of time_us's means.
template <class F> static double least_us(F call) {
  double best = 1e30;
  for (int round = 0; round < 5; round++)
    best = std::fmin(best, time_us(call));
  return best;
}

// One side of the split: the segments on it, compacted.
struct Part {
  std::vector<size_t> segments; // indices into the whole mix
  long long *off = nullptr;     // device offsets, segments.size() + 1
  int *i_in = nullptr;
  float *f_in = nullptr;
  size_t elements = 0;
};

static void build(Part &p, const std::vector<long long> &off, const int *h_i, const float *h_f) {
  std::vector<long long> o(1, 0);
  for (size_t s : p.segments)
    o.push_back(o.back() + (off[s + 1] - off[s]));
  p.elements = (size_t)o.back();
  std::vector<int> hi(p.elements);
  std::vector<float> hf(p.elements);
  size_t at = 0;
  for (size_t s : p.segments) {
    const size_t len = (size_t)(off[s + 1] - off[s]);
    std::memcpy(hi.data() + at, h_i + off[s], len * sizeof(int));
    std::memcpy(hf.data() + at, h_f + off[s], len * sizeof(float));
    at += len;
  }
  CUDA_CHECK(cudaMalloc(&p.off, o.size() * sizeof(long long)));
  CUDA_CHECK(cudaMalloc(&p.i_in, (p.elements ? p.elements : 1) * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&p.f_in, (p.elements ? p.elements : 1) * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(p.off, o.data(), o.size() * sizeof(long long), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(p.i_in, hi.data(), p.elements * sizeof(int), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(p.f_in, hf.data(), p.elements * sizeof(float), cudaMemcpyHostToDevice));
}

static void release(Part &p) {
  CUDA_CHECK(cudaFree(p.off));
  CUDA_CHECK(cudaFree(p.i_in));
  CUDA_CHECK(cudaFree(p.f_in));
}

static void *d_temp;
static const size_t temp_size = (size_t)512 << 20;

// The whole mix against its two parts for one reduction.
template <class IN, class A, class Seg>
static void one(const char *name, size_t threshold, const IN *whole_in, const long long *whole_off, size_t count,
                const Part &lo, const Part &hi, const IN *lo_in, const IN *hi_in, double ceil_us,
                Seg seg) {
  A *out_whole, *out_lo, *out_hi;
  CUDA_CHECK(cudaMalloc(&out_whole, count * sizeof(A)));
  CUDA_CHECK(cudaMalloc(&out_lo, (lo.segments.size() + 1) * sizeof(A)));
  CUDA_CHECK(cudaMalloc(&out_hi, (hi.segments.size() + 1) * sizeof(A)));
  const double whole_us = least_us([&] { CUDA_CHECK(seg(whole_in, whole_off, count, out_whole)); });
  CUDA_CHECK(seg(whole_in, whole_off, count, out_whole));
  const double lo_us = least_us([&] { CUDA_CHECK(seg(lo_in, lo.off, lo.segments.size(), out_lo)); });
  const double hi_us = least_us([&] { CUDA_CHECK(seg(hi_in, hi.off, hi.segments.size(), out_hi)); });
  const double both_us = least_us([&] {
    CUDA_CHECK(seg(lo_in, lo.off, lo.segments.size(), out_lo));
    CUDA_CHECK(seg(hi_in, hi.off, hi.segments.size(), out_hi));
  });
  std::vector<A> w(count), l(lo.segments.size()), h(hi.segments.size());
  CUDA_CHECK(cudaMemcpy(w.data(), out_whole, count * sizeof(A), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(l.data(), out_lo, l.size() * sizeof(A), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(h.data(), out_hi, h.size() * sizeof(A), cudaMemcpyDeviceToHost));
  bool ok = true;
  for (size_t i = 0; i < l.size(); i++)
    ok = ok && same(w[lo.segments[i]], l[i]);
  for (size_t i = 0; i < h.size(); i++)
    ok = ok && same(w[hi.segments[i]], h[i]);
  std::printf("%-8s %8zu %9zu %7.2f%% %9.1f %9.1f %9.1f %9.1f %6.3f %6.1f%% %6.1f%% %s\n", name, threshold,
              lo.segments.size(), 100.0 * (double)lo.elements / (double)(lo.elements + hi.elements), whole_us, lo_us,
              hi_us, both_us, whole_us / both_us, 100 * ceil_us / whole_us, 100 * ceil_us / both_us,
              ok ? "same" : "DIFFERENT");
  std::fflush(stdout);
  CUDA_CHECK(cudaFree(out_whole));
  CUDA_CHECK(cudaFree(out_lo));
  CUDA_CHECK(cudaFree(out_hi));
}

int main(int argc, char **argv) {
  const int log2n = argc > 1 ? std::atoi(argv[1]) : 28;
  const size_t n = (size_t)1 << log2n;
  cudaDeviceProp prop;
  CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  CUDA_CHECK(cudaEventCreate(&ev0));
  CUDA_CHECK(cudaEventCreate(&ev1));
  CUDA_CHECK(cudaMalloc(&d_temp, temp_size));
  int *d_sink, per_sm = 0;
  CUDA_CHECK(cudaMalloc(&d_sink, sizeof(int)));
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, read_ceiling, 256, 0));
  const int ceiling_grid = prop.multiProcessorCount * per_sm;

  const std::vector<long long> off = power_law_offsets(n);
  const size_t count = off.size() - 1;
  int *i_in;
  float *f_in;
  long long *d_off;
  CUDA_CHECK(cudaMalloc(&i_in, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&f_in, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_off, off.size() * sizeof(long long)));
  CUDA_CHECK(cudaMemcpy(d_off, off.data(), off.size() * sizeof(long long), cudaMemcpyHostToDevice));
  fill_int<<<1024, 256>>>(i_in, n);
  fill_float<<<1024, 256>>>(f_in, n);
  CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<int> h_i(n);
  std::vector<float> h_f(n);
  CUDA_CHECK(cudaMemcpy(h_i.data(), i_in, n * sizeof(int), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(h_f.data(), f_in, n * sizeof(float), cudaMemcpyDeviceToHost));
  const double ceil_us =
      least_us([&] { read_ceiling<<<ceiling_grid, 256>>>((const int4 *)i_in, n * sizeof(int) / 16, d_sink); });

  std::printf("# %s, %d SMs; the power-law mix of 2^%d elements, %zu segments; read ceiling %.1f us\n", prop.name,
              prop.multiProcessorCount, log2n, count, ceil_us);
  std::printf("# short: segments of up to T elements; long: the rest. %%ceil is the ceiling kernel's time over the "
              "whole launch's, and over the two parts' back to back\n");
  std::printf("%-8s %8s %9s %8s %9s %9s %9s %9s %6s %7s %7s %s\n", "case", "T", "short", "elems", "whole_us",
              "short_us", "long_us", "both_us", "x", "%whole", "%both", "check");
  const cudaStream_t s = 0;
  const size_t tb = temp_size;
  for (size_t threshold : {(size_t)1024, (size_t)4096, (size_t)16384, (size_t)65536}) {
    Part lo, hi;
    for (size_t i = 0; i < count; i++)
      ((size_t)(off[i + 1] - off[i]) <= threshold ? lo : hi).segments.push_back(i);
    build(lo, off, h_i.data(), h_f.data());
    build(hi, off, h_i.data(), h_f.data());
    one<int, int>("int32", threshold, i_in, d_off, count, lo, hi, lo.i_in, hi.i_in, ceil_us,
                  [&](const int *in, const long long *o, size_t c, int *out) {
                    return benchseg_isum_segmented(in, o, c, out, d_temp, tb, s);
                  });
    one<float, float>("float", threshold, f_in, d_off, count, lo, hi, lo.f_in, hi.f_in, ceil_us,
                      [&](const float *in, const long long *o, size_t c, float *out) {
                        return benchseg_fsum_segmented(in, o, c, out, d_temp, tb, s);
                      });
    one<float, Welford>("welford", threshold, f_in, d_off, count, lo, hi, lo.f_in, hi.f_in, ceil_us,
                        [&](const float *in, const long long *o, size_t c, Welford *out) {
                          return benchseg_welford_segmented(in, o, c, out, d_temp, tb, s);
                        });
    one<int, MaxSub>("maxsub", threshold, i_in, d_off, count, lo, hi, lo.i_in, hi.i_in, ceil_us,
                     [&](const int *in, const long long *o, size_t c, MaxSub *out) {
                       return benchseg_maxsub_segmented(in, o, c, out, d_temp, tb, s);
                     });
    release(lo);
    release(hi);
  }
  return 0;
}
