// gpugen's reductions against CUB's DeviceReduce and the memory-read
// ceiling, in one process, on the same buffers. Each figure is the mean time
// per call over many back-to-back calls after warm-up (CUDA events), shown
// as GB/s of input read. Writes a table to stdout and CSV to argv[1].
#include <cub/cub.cuh>
#include <cuda/std/functional>
#include <cctype>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include "bench.cuh"

#include "cuda_check.cuh"

#include "cub_ops.cuh" // CUB's side: the same operators

#include "ceiling.cuh" // the read ceiling: read_ceiling

// ---- the launch floor: what a back-to-back launch costs with no work ------
__global__ void empty_kernel() {}

// ---- inputs -------------------------------------------------------------------
__device__ unsigned int hash32(size_t i) {
  unsigned long long x = i * 0x9e3779b97f4a7c15ULL;
  x ^= x >> 31;
  x *= 0xbf58476d1ce4e5b9ULL;
  return (unsigned int)(x >> 32);
}
__device__ void make(int &v, size_t i) { v = (int)(hash32(i) % 201) - 100; }
__device__ void make(float &v, size_t i) { v = (float)(hash32(i) >> 8) * (1.0f / 16777216.0f); }
__device__ void make(double &v, size_t i) { v = (double)(hash32(i) >> 8) * (1.0 / 16777216.0); }
__device__ void make(Float3 &v, size_t i) { make(v.x, 3 * i), make(v.y, 3 * i + 1), make(v.z, 3 * i + 2); }
__device__ void make(float4 &v, size_t i) { make(v.x, 4 * i), make(v.y, 4 * i + 1), make(v.z, 4 * i + 2), make(v.w, 4 * i + 3); }
__device__ void make(Custom &v, size_t i) { v.key = (long long)(hash32(2 * i) % 2000001) - 1000000, v.val = hash32(2 * i + 1); }
__device__ void make(Short3 &v, size_t i) {
  v.a = (short)(hash32(3 * i) % 7), v.b = (short)(hash32(3 * i + 1) % 7), v.c = (short)(hash32(3 * i + 2) % 7);
}
template <class T> __global__ void fill(T *p, size_t n) {
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    make(p[i], i);
}

// ---- timing -------------------------------------------------------------------
static cudaEvent_t ev0, ev1;
static int fixed_iters; /* BENCH_ITERS: for runs under compute-sanitizer */
static const char *only_case; /* argv[2]: run only these cases (comma-separated) */
static size_t min_n;          /* argv[3]: skip smaller n */
template <class F> static double time_us(F call, size_t bytes) {
  int iters = (int)(0.02 * 3e12 / (double)(bytes ? bytes : 1));
  iters = iters < 20 ? 20 : iters > 2000 ? 2000 : iters;
  if (fixed_iters)
    iters = fixed_iters;
  for (int i = 0; i < (fixed_iters ? 1 : 5); i++)
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

static int ceiling_grid;
static char cub_version[16]; /* "3.0.1": which CUB this program was built with */
static int *d_sink;
static FILE *csv;
static void *d_temp;
static size_t temp_size = (size_t)256 << 20;

static double ceiling_us(const void *p, size_t bytes) {
  size_t n4 = bytes / 16;
  return time_us([&] { read_ceiling<<<ceiling_grid, 256>>>((const int4 *)p, n4, d_sink); }, bytes);
}

static void row(const char *name, size_t n, size_t bytes, double g_us, double c_us, double r_us, const char *check) {
  double g = bytes / g_us / 1e3, c = c_us > 0 ? bytes / c_us / 1e3 : 0, r = bytes / r_us / 1e3;
  char cub_cols[96];
  if (c_us > 0)
    std::snprintf(cub_cols, sizeof cub_cols, "%9.2f %8.1f %6.2fx %6.2fx", c_us, c, c_us / g_us, g_us / c_us);
  else
    std::snprintf(cub_cols, sizeof cub_cols, "%9s %8s %7s %7s", "-", "-", "-", "-");
  std::printf("%-8s %11zu %9.2f %8.1f %s %8.1f %5.1f%% %s\n", name, n, g_us, g, cub_cols, r, 100.0 * g / r, check);
  std::fprintf(csv, "%s,%zu,%zu,%.3f,%.2f,%.3f,%.2f,%.3f,%.2f,%s,%s\n", name, n, bytes, g_us, g, c_us, c, r_us, r, check,
               cub_version);
  std::fflush(stdout);
}

// Element counts from BENCH_SIZES (comma-separated), e.g. sizes that are
// not a whole number of tiles; empty when unset. Read before any CUDA call,
// so that a bad list fails at once.
static std::vector<size_t> listed_sizes;
static void read_listed_sizes() {
  const char *list = std::getenv("BENCH_SIZES");
  if (!list || !*list)
    return;
  for (const char *p = list;;) {
    char *e;
    size_t n = std::strtoull(p, &e, 10);
    if (!std::isdigit((unsigned char)*p) || n == 0 || (*e && *e != ',')) {
      std::fprintf(stderr, "bench: BENCH_SIZES must be positive element counts separated by commas, got \"%s\"\n", list);
      std::exit(1);
    }
    listed_sizes.push_back(n);
    if (!*e)
      break;
    p = e + 1;
  }
}

// The issue's sizes (2^10 to 2^28 by powers of 4, and 1 GiB), or BENCH_SIZES.
static std::vector<size_t> sizes_for(size_t elem) {
  if (!listed_sizes.empty())
    return listed_sizes;
  std::vector<size_t> s;
  for (int e = 10; e <= 28; e += 2)
    s.push_back((size_t)1 << e);
  s.push_back(((size_t)1 << 30) / elem);
  return s;
}

template <class T> static T *make_input(size_t max_n) {
  T *d;
  CUDA_CHECK(cudaMalloc(&d, max_n * sizeof(T)));
  fill<<<1024, 256>>>(d, max_n);
  CUDA_CHECK(cudaDeviceSynchronize());
  return d;
}

template <class A> static A fetch(const A *d) {
  A h;
  CUDA_CHECK(cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost));
  return h;
}
static bool near(double a, double b) { return std::fabs(a - b) <= 1e-3 * (std::fabs(a) + std::fabs(b)) + 1e-6; }

// One case: gpugen's call g(in, n, out), CUB's call c(in, n, out) (or none),
// and a check of the two outputs.
template <class T, class A, class G, class C, class Check>
static void run(const char *name, G gpugen_call, C cub_call, Check same, bool has_cub) {
  if (only_case) { /* a comma-separated list of case names */
    bool listed = false;
    for (const char *p = only_case; *p;) {
      const char *e = std::strchr(p, ',');
      size_t len = e ? (size_t)(e - p) : std::strlen(p);
      listed |= len == std::strlen(name) && std::strncmp(p, name, len) == 0;
      p += len + (e ? 1 : 0);
    }
    if (!listed)
      return;
  }
  std::vector<size_t> sizes = sizes_for(sizeof(T));
  size_t max_n = 0;
  for (size_t n : sizes)
    max_n = n > max_n ? n : max_n;
  T *in = make_input<T>(max_n); /* 2^28 elements can exceed the 1 GiB case */
  A *out_g, *out_c;
  CUDA_CHECK(cudaMalloc(&out_g, 64));
  CUDA_CHECK(cudaMalloc(&out_c, 64));
  for (size_t n : sizes) {
    if (n < min_n)
      continue;
    size_t bytes = n * sizeof(T);
    double g = time_us([&] { CUDA_CHECK(gpugen_call(in, n, out_g)); }, bytes);
    double c = has_cub ? time_us([&] { CUDA_CHECK(cub_call(in, n, out_c)); }, bytes) : 0;
    double r = ceiling_us(in, bytes);
    CUDA_CHECK(cudaDeviceSynchronize());
    const char *check = has_cub ? (same(fetch(out_g), fetch(out_c)) ? "same" : "DIFFERENT") : "-";
    row(name, n, bytes, g, c, r, check);
  }
  CUDA_CHECK(cudaFree(in));
  CUDA_CHECK(cudaFree(out_g));
  CUDA_CHECK(cudaFree(out_c));
}

int main(int argc, char **argv) {
  read_listed_sizes();
  cudaDeviceProp prop;
  CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  std::snprintf(cub_version, sizeof cub_version, "%d.%d.%d", CUB_VERSION / 100000, CUB_VERSION / 100 % 1000,
                CUB_VERSION % 100);
  std::printf("# %s, %d SMs; CUDA runtime %d; CUB %s\n", prop.name, prop.multiProcessorCount, CUDART_VERSION, cub_version);
  csv = std::fopen(argc > 1 ? argv[1] : "bench.csv", "w");
  only_case = argc > 2 ? argv[2] : nullptr;
  min_n = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 0;
  fixed_iters = std::getenv("BENCH_ITERS") ? std::atoi(std::getenv("BENCH_ITERS")) : 0;
  std::fprintf(csv, "case,n,bytes,gpugen_us,gpugen_GBps,cub_us,cub_GBps,ceiling_us,ceiling_GBps,check,cub_version\n");
  CUDA_CHECK(cudaEventCreate(&ev0));
  CUDA_CHECK(cudaEventCreate(&ev1));
  CUDA_CHECK(cudaMalloc(&d_sink, sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_temp, temp_size));
  int per_sm = 0;
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, read_ceiling, 256, 0));
  ceiling_grid = prop.multiProcessorCount * per_sm;
  // Small n is launch-bound: the time per back-to-back call of an empty
  // kernel bounds every one-launch figure from below (CUB's two launches pay it twice).
  double floor_us = 1e9; /* the least of five: the first runs while clocks ramp up */
  for (int i = 0; i < 5; i++) {
    double t = time_us([] { empty_kernel<<<1, 32>>>(); }, 0);
    floor_us = t < floor_us ? t : floor_us;
  }
  std::printf("# launch floor: %.2f us per back-to-back launch of an empty kernel\n", floor_us);
  std::fprintf(csv, "empty-launch,0,0,%.3f,0,0,0,0,0,-,%s\n", floor_us, cub_version);
  std::printf("%-8s %11s %9s %8s %9s %8s %7s %7s %8s %6s %s\n", "case", "n", "gpugen_us", "GB/s", "cub_us", "GB/s",
              "vs_cub", "t/t_cub", "ceil", "%ceil", "check");
  size_t tb = temp_size;
  const cudaStream_t s = 0;
  auto exact = [](auto a, auto b) { return bench::bits_equal(a, b); };

  run<int, int>("int32", [&](const int *in, size_t n, int *o) { return bench_isum(in, n, o, d_temp, tb, s); },
      [&](const int *in, size_t n, int *o) { size_t t = tb; return cub::DeviceReduce::Sum(d_temp, t, in, o, (long long)n, s); },
      exact, true);
  run<float, float>("float", [&](const float *in, size_t n, float *o) { return bench_fsum(in, n, o, d_temp, tb, s); },
      [&](const float *in, size_t n, float *o) { size_t t = tb; return cub::DeviceReduce::Sum(d_temp, t, in, o, (long long)n, s); },
      [](float a, float b) { return near(a, b); }, true);
  run<double, double>("double", [&](const double *in, size_t n, double *o) { return bench_dsum(in, n, o, d_temp, tb, s); },
      [&](const double *in, size_t n, double *o) { size_t t = tb; return cub::DeviceReduce::Sum(d_temp, t, in, o, (long long)n, s); },
      [](double a, double b) { return near(a, b); }, true);
  run<int, SumSq>("sumsq", [&](const int *in, size_t n, SumSq *o) { return bench_sumsq(in, n, o, d_temp, tb, s); },
      [&](const int *in, size_t n, SumSq *o) {
        size_t t = tb;
        return cub::DeviceReduce::TransformReduce(d_temp, t, in, o, (long long)n, SumSqCombine{}, ToSumSq{}, SumSq{0, 0}, s);
      },
      exact, true);
  run<float, Welford>("welford", [&](const float *in, size_t n, Welford *o) { return bench_welford(in, n, o, d_temp, tb, s); },
      [&](const float *in, size_t n, Welford *o) {
        size_t t = tb;
        return cub::DeviceReduce::TransformReduce(d_temp, t, in, o, (long long)n, WelfordCombine{}, ToWelford{},
                                                  Welford{0, 0, 0}, s);
      },
      [](Welford a, Welford b) { return near(a.n, b.n) && near(a.mean, b.mean) && near(a.m2, b.m2); }, true);
  run<Float3, Float3>("struct12", [&](const Float3 *in, size_t n, Float3 *o) { return bench_f3sum(in, n, o, d_temp, tb, s); },
      [&](const Float3 *in, size_t n, Float3 *o) {
        size_t t = tb;
        return cub::DeviceReduce::Reduce(d_temp, t, in, o, (long long)n, Float3Add{}, Float3{0, 0, 0}, s);
      },
      [](Float3 a, Float3 b) { return near(a.x, b.x) && near(a.y, b.y) && near(a.z, b.z); }, true);
  run<Short3, Short3>("struct6", [&](const Short3 *in, size_t n, Short3 *o) { return bench_s3sum(in, n, o, d_temp, tb, s); },
      [&](const Short3 *in, size_t n, Short3 *o) {
        size_t t = tb;
        return cub::DeviceReduce::Reduce(d_temp, t, in, o, (long long)n, Short3Add{}, Short3{0, 0, 0}, s);
      },
      exact, true);
  run<float4, float4>("float4", [&](const float4 *in, size_t n, float4 *o) { return bench_f4sum(in, n, o, d_temp, tb, s); },
      [&](const float4 *in, size_t n, float4 *o) {
        size_t t = tb;
        return cub::DeviceReduce::Reduce(d_temp, t, in, o, (long long)n, Float4Add{}, make_float4(0, 0, 0, 0), s);
      },
      [](float4 a, float4 b) { return near(a.x, b.x) && near(a.y, b.y) && near(a.z, b.z) && near(a.w, b.w); }, true);
  // argmax: CUB writes the value and the index to two outputs
  long long *d_index;
  CUDA_CHECK(cudaMalloc(&d_index, sizeof(long long)));
  run<float, bench_fargmax_result>("argmax",
      [&](const float *in, size_t n, bench_fargmax_result *o) { return bench_fargmax(in, n, o, d_temp, tb, s); },
      [&](const float *in, size_t n, bench_fargmax_result *o) {
        size_t t = tb;
        return cub::DeviceReduce::ArgMax(d_temp, t, in, &o->value, d_index, (long long)n, s);
      },
      [&](bench_fargmax_result a, bench_fargmax_result b) {
        long long idx = fetch(d_index);
        return a.value == b.value && a.index == idx;
      },
      true);
  // an indexed fold over a 16-byte struct: CUB pairs each element with its index
  CustomPair *d_pair;
  CUDA_CHECK(cudaMalloc(&d_pair, sizeof(CustomPair)));
  run<Custom, CustomArg>("argmin16",
      [&](const Custom *in, size_t n, CustomArg *o) { return bench_absmin(in, n, o, d_temp, tb, s); },
      [&](const Custom *in, size_t n, CustomArg *) {
        size_t t = tb;
        cub::ArgIndexInputIterator<const Custom *, long long> it(in);
        const CustomPair none(LLONG_MAX, Custom{LLONG_MAX, 0});
        return cub::DeviceReduce::Reduce(d_temp, t, it, d_pair, (long long)n, CustomArgMin{}, none, s);
      },
      [&](CustomArg a, CustomArg) {
        CustomPair c;
        CUDA_CHECK(cudaMemcpy(&c, d_pair, sizeof c, cudaMemcpyDeviceToHost));
        return a.index == c.key && a.value.key == c.value.key && a.value.val == c.value.val;
      },
      true);
  // run-time params: the threshold travels with the call, as a CUB functor's member does
  const Threshold half = {0.5f};
  run<float, unsigned long long>("above",
      [&](const float *in, size_t n, unsigned long long *o) { return bench_above(in, n, &half, o, d_temp, tb, s); },
      [&](const float *in, size_t n, unsigned long long *o) {
        size_t t = tb;
        return cub::DeviceReduce::TransformReduce(d_temp, t, in, o, (long long)n, cuda::std::plus<unsigned long long>{},
                                                  IsAbove{half.limit}, 0ULL, s);
      },
      exact, true);
  run<int, MaxSub>("maxsub", [&](const int *in, size_t n, MaxSub *o) { return bench_maxsub(in, n, o, d_temp, tb, s); },
      [&](const int *, size_t, MaxSub *) { return cudaSuccess; }, exact, false);
  std::fclose(csv);
  return 0;
}
