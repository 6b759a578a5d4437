// gpugen's segmented reductions against cub::DeviceSegmentedReduce and the
// read ceiling, in one process, on the same buffers: M_R_segmented (long long
// offsets) and M_R_rows against CUB's offsets API and, where the CUB has it
// (3.2 and later), its fixed-size API. Uniform segment lengths 1 to 16M and
// a single segment, for 2^28 and 2^22 elements in total; a power-law mix,
// one giant segment among tiny ones and short lengths of 0 to 32 (offsets
// forms only). Each figure is
// the mean time per call over back-to-back calls after warm-up (CUDA
// events), shown as GB/s of input read (offsets and outputs not counted).
// Writes a table to stdout and CSV to argv[1]; argv[2], when given, is a
// comma-separated list of the shapes to time ("L=4096,4096x16K,one").
// For A/B runs, BENCH_CASES lists the cases to time ("welford,maxsub"),
// BENCH_LENGTHS the uniform lengths ("8,12,24"; 0 is one segment) and
// BENCH_CUB_OFFSETS=0 leaves CUB's offsets API out.
#include <cub/cub.cuh>
#include <thrust/iterator/transform_iterator.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include "benchseg.cuh"

#include "cuda_check.cuh"
#include "skewed_offsets.h"
#include "segmented_inputs.cuh"
#include "segmented_bench.cuh"

#define FIXED_SIZE_API (CUB_VERSION >= 300200)

struct ToWelford {
  __device__ Welford operator()(float x) const { return Welford{1.0f, x, 0.0f}; }
};
struct WelfordCombine {
  __device__ Welford operator()(const Welford &a, const Welford &b) const { return welford_combine(a, b); }
};

static FILE *csv;
// BENCH_CUB_OFFSETS=0 leaves CUB's offsets API out (0 in its column): on rows
// of 1 it takes 0.3 to 0.5 s a call at 2^28, most of an A/B run's time.
static bool cub_offsets = true;
static char cub_version[16];
static int ceiling_grid;
static int *d_sink;
static void *d_temp;
static const size_t temp_size = (size_t)512 << 20;

static void row(const char *name, const char *shape, size_t n, size_t segments, double seg_us, double rows_us,
                double cub_us, double cub_fixed_us, double ceil_us, const char *check) {
  const double bytes = (double)n * 4; /* every input here is 4 bytes an element */
  auto gbps = [&](double us) { return us > 0 ? bytes / us / 1e3 : 0.0; };
  auto ratio = [](double theirs, double ours) { return theirs > 0 && ours > 0 ? theirs / ours : 0.0; };
  const double best_ours = rows_us > 0 && rows_us < seg_us ? rows_us : seg_us;
  std::printf("%-8s %-10s %10zu %10zu %9.1f %9.1f %9.1f %9.1f %6.1f%% %6.1f%% %6.2fx %6.2fx %6.2fx %s\n", name, shape,
              n, segments, seg_us, rows_us, cub_us, cub_fixed_us, 100 * gbps(seg_us) / gbps(ceil_us),
              100 * gbps(best_ours) / gbps(ceil_us), ratio(cub_us, seg_us), ratio(cub_fixed_us, rows_us),
              ratio(cub_fixed_us > 0 && cub_fixed_us < cub_us ? cub_fixed_us : cub_us, best_ours), check);
  std::fprintf(csv, "%s,%s,%zu,%zu,%.3f,%.3f,%.3f,%.3f,%.3f,%s,%s\n", name, shape, n, segments, seg_us, rows_us, cub_us,
               cub_fixed_us, ceil_us, check, cub_version);
  std::fflush(stdout);
}

// The outputs of two forms agree on every segment.
template <class A> static bool agree(const A *d_a, const A *d_b, size_t count) {
  std::vector<A> a(count), b(count);
  CUDA_CHECK(cudaMemcpy(a.data(), d_a, count * sizeof(A), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(b.data(), d_b, count * sizeof(A), cudaMemcpyDeviceToHost));
  for (size_t i = 0; i < count; i++)
    if (!same(a[i], b[i]))
      return false;
  return true;
}

__global__ void uniform_offsets(long long *off, size_t count, size_t length) {
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i <= count; i += (size_t)gridDim.x * blockDim.x)
    off[i] = (long long)(i * length);
}

// One segment layout, every case on it. rows_length is 0 when the
// lengths are not uniform (no rows form, no fixed-size CUB).
struct Buffers {
  int *i_in;
  float *f_in;
  long long *off;
  void *out_g, *out_r, *out_c;
};

// Whether `item` is in the comma-separated `list` (every item when NULL).
static bool listed(const char *list, const char *item) {
  if (!list)
    return true;
  const size_t len = std::strlen(item);
  for (const char *p = list; *p;) {
    const char *end = std::strchr(p, ',');
    const size_t n = end ? (size_t)(end - p) : std::strlen(p);
    if (n == len && std::strncmp(p, item, n) == 0)
      return true;
    p += n + (end ? 1 : 0);
  }
  return false;
}

static const char *only_shapes; // argv[2]: the shapes to time, or NULL for all
static const char *only_cases;  // BENCH_CASES: the cases to time ("welford,maxsub"), or NULL for all

template <class IN, class A, class Seg, class Rows, class Cub, class CubFixed>
static void one(const char *name, const char *shape, const IN *in, size_t n, const long long *off, size_t count,
                size_t row_length, Buffers &b, Seg seg, Rows rows, Cub cub, CubFixed cub_fixed, bool has_cub) {
  if (!listed(only_cases, name))
    return;
  A *out_g = (A *)b.out_g, *out_r = (A *)b.out_r, *out_c = (A *)b.out_c;
  double seg_us = time_us([&] { CUDA_CHECK(seg(in, off, count, out_g)); });
  double rows_us = row_length ? time_us([&] { CUDA_CHECK(rows(in, count, row_length, out_r)); }) : 0;
  bool ok = !row_length || agree(out_g, out_r, count);
  double cub_us = 0, fixed_us = 0;
  if (has_cub && cub_offsets) {
    cub_us = time_us([&] { CUDA_CHECK(cub(in, off, count, out_c)); });
    ok = ok && agree(out_g, out_c, count);
  }
  if (has_cub) {
#if FIXED_SIZE_API
    if (row_length && row_length < (1u << 31)) {
      fixed_us = time_us([&] { CUDA_CHECK(cub_fixed(in, count, row_length, out_c)); });
      ok = ok && agree(out_g, out_c, count);
    }
#else
    (void)cub_fixed;
#endif
  }
  double ceil_us = time_us([&] { read_ceiling<<<ceiling_grid, 256>>>((const int4 *)in, n * sizeof(IN) / 16, d_sink); });
  row(name, shape, n, count, seg_us, rows_us, cub_us, fixed_us, ceil_us, ok ? "same" : "DIFFERENT");
}

static void all_cases(const char *shape, size_t n, size_t count, size_t row_length, Buffers &b) {
  if (!listed(only_shapes, shape))
    return;
  const cudaStream_t s = 0;
  const size_t tb = temp_size;
  one<int, int>("int32", shape, b.i_in, n, b.off, count, row_length, b,
      [&](const int *in, const long long *off, size_t c, int *o) { return benchseg_isum_segmented(in, off, c, o, d_temp, tb, s); },
      [&](const int *in, size_t r, size_t l, int *o) { return benchseg_isum_rows(in, r, l, o, d_temp, tb, s); },
      [&](const int *in, const long long *off, size_t c, int *o) {
        size_t t = tb;
        return cub::DeviceSegmentedReduce::Sum(d_temp, t, in, o, (int)c, off, off + 1, s);
      },
      [&](const int *in, size_t c, size_t l, int *o) {
#if FIXED_SIZE_API
        size_t t = tb;
        return cub::DeviceSegmentedReduce::Sum(d_temp, t, in, o, (::cuda::std::int64_t)c, (int)l, s);
#else
        (void)in, (void)c, (void)l, (void)o;
        return cudaSuccess;
#endif
      },
      true);
  one<float, float>("float", shape, b.f_in, n, b.off, count, row_length, b,
      [&](const float *in, const long long *off, size_t c, float *o) { return benchseg_fsum_segmented(in, off, c, o, d_temp, tb, s); },
      [&](const float *in, size_t r, size_t l, float *o) { return benchseg_fsum_rows(in, r, l, o, d_temp, tb, s); },
      [&](const float *in, const long long *off, size_t c, float *o) {
        size_t t = tb;
        return cub::DeviceSegmentedReduce::Sum(d_temp, t, in, o, (int)c, off, off + 1, s);
      },
      [&](const float *in, size_t c, size_t l, float *o) {
#if FIXED_SIZE_API
        size_t t = tb;
        return cub::DeviceSegmentedReduce::Sum(d_temp, t, in, o, (::cuda::std::int64_t)c, (int)l, s);
#else
        (void)in, (void)c, (void)l, (void)o;
        return cudaSuccess;
#endif
      },
      true);
  one<float, Welford>("welford", shape, b.f_in, n, b.off, count, row_length, b,
      [&](const float *in, const long long *off, size_t c, Welford *o) { return benchseg_welford_segmented(in, off, c, o, d_temp, tb, s); },
      [&](const float *in, size_t r, size_t l, Welford *o) { return benchseg_welford_rows(in, r, l, o, d_temp, tb, s); },
      [&](const float *in, const long long *off, size_t c, Welford *o) {
        size_t t = tb;
        auto x = thrust::make_transform_iterator(in, ToWelford{});
        return cub::DeviceSegmentedReduce::Reduce(d_temp, t, x, o, (int)c, off, off + 1, WelfordCombine{},
                                                  Welford{0, 0, 0}, s);
      },
      [&](const float *in, size_t c, size_t l, Welford *o) {
#if FIXED_SIZE_API
        size_t t = tb;
        auto x = thrust::make_transform_iterator(in, ToWelford{});
        return cub::DeviceSegmentedReduce::Reduce(d_temp, t, x, o, (::cuda::std::int64_t)c, (int)l, WelfordCombine{},
                                                  Welford{0, 0, 0}, s);
#else
        (void)in, (void)c, (void)l, (void)o;
        return cudaSuccess;
#endif
      },
      true);
  one<int, MaxSub>("maxsub", shape, b.i_in, n, b.off, count, row_length, b,
      [&](const int *in, const long long *off, size_t c, MaxSub *o) { return benchseg_maxsub_segmented(in, off, c, o, d_temp, tb, s); },
      [&](const int *in, size_t r, size_t l, MaxSub *o) { return benchseg_maxsub_rows(in, r, l, o, d_temp, tb, s); },
      [&](const int *, const long long *, size_t, MaxSub *) { return cudaSuccess; },
      [&](const int *, size_t, size_t, MaxSub *) { return cudaSuccess; }, false);
}

int main(int argc, char **argv) {
  cudaDeviceProp prop;
  CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  std::snprintf(cub_version, sizeof cub_version, "%d.%d.%d", CUB_VERSION / 100000, CUB_VERSION / 100 % 1000,
                CUB_VERSION % 100);
  std::printf("# %s, %d SMs; CUB %s (fixed-size API: %s)\n", prop.name, prop.multiProcessorCount, cub_version,
              FIXED_SIZE_API ? "yes" : "no");
  csv = std::fopen(argc > 1 ? argv[1] : "segmented.csv", "w");
  only_shapes = argc > 2 ? argv[2] : nullptr;
  only_cases = std::getenv("BENCH_CASES");
  const char *offsets_env = std::getenv("BENCH_CUB_OFFSETS");
  cub_offsets = !offsets_env || std::strcmp(offsets_env, "0") != 0;
  std::fprintf(csv, "case,shape,n,segments,segmented_us,rows_us,cub_offsets_us,cub_fixed_us,ceiling_us,check,cub_version\n");
  CUDA_CHECK(cudaEventCreate(&ev0));
  CUDA_CHECK(cudaEventCreate(&ev1));
  CUDA_CHECK(cudaMalloc(&d_sink, sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_temp, temp_size));
  int per_sm = 0;
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, read_ceiling, 256, 0));
  ceiling_grid = prop.multiProcessorCount * per_sm;
  const size_t max_n = (size_t)1 << 28;
  Buffers b;
  CUDA_CHECK(cudaMalloc(&b.i_in, max_n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&b.f_in, max_n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&b.off, (max_n + 1) * sizeof(long long)));
  for (void **p : {&b.out_g, &b.out_r, &b.out_c})
    CUDA_CHECK(cudaMalloc(p, max_n * sizeof(MaxSub)));
  fill_int<<<1024, 256>>>(b.i_in, max_n);
  fill_float<<<1024, 256>>>(b.f_in, max_n);
  CUDA_CHECK(cudaDeviceSynchronize());
  std::printf("%-8s %-10s %10s %10s %9s %9s %9s %9s %7s %7s %7s %7s %7s %s\n", "case", "shape", "n", "segments", "seg_us",
              "rows_us", "cub_us", "fixed_us", "%ceil", "%ceil*", "cub/seg", "fix/row", "best", "check");
  std::vector<size_t> lengths = {1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 1u << 20, 1u << 24, 0 /* one segment */};
  if (const char *list = std::getenv("BENCH_LENGTHS")) {
    lengths.clear();
    for (char *end; *list; list = *end ? end + 1 : end)
      lengths.push_back(std::strtoull(list, &end, 10));
  }
  for (size_t n : {(size_t)1 << 28, (size_t)1 << 22}) {
    for (size_t length : lengths) {
      const size_t l = length ? length : n;
      if (l > n || (length == n))
        continue;
      const size_t count = n / l;
      uniform_offsets<<<1024, 256>>>(b.off, count, l);
      char shape[32];
      std::snprintf(shape, sizeof shape, length ? "L=%zu" : "one", l);
      all_cases(shape, n, count, l, b);
    }
    // skewed: power-law lengths, one giant segment among tiny ones, short lengths
    std::vector<long long> off = power_law_offsets(n);
    CUDA_CHECK(cudaMemcpy(b.off, off.data(), off.size() * sizeof(long long), cudaMemcpyHostToDevice));
    all_cases("power-law", n, off.size() - 1, 0, b);
    off = giant_offsets(n);
    CUDA_CHECK(cudaMemcpy(b.off, off.data(), off.size() * sizeof(long long), cudaMemcpyHostToDevice));
    all_cases("giant", n, off.size() - 1, 0, b);
    off = short_offsets(n);
    CUDA_CHECK(cudaMemcpy(b.off, off.data(), off.size() * sizeof(long long), cudaMemcpyHostToDevice));
    all_cases("short-mix", n, off.size() - 1, 0, b);
  }
  // the layer-norm shape: 4096 rows of 16384 floats
  uniform_offsets<<<1024, 256>>>(b.off, 4096, 16384);
  all_cases("4096x16K", (size_t)4096 * 16384, 4096, 16384, b);
  std::fclose(csv);
  return 0;
}
