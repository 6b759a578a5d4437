// make -C bench multi: reductions over two arrays, in one process on the same
// buffers. float and double dot: gpugen's "dot" against cublasSdot/cublasDdot
// (device pointer mode, so nothing syncs), CUB's DeviceReduce::TransformReduce
// over a zip iterator, and a two-array read ceiling (both arrays streamed
// with 16-byte loads), n = 2^10..2^28. Then the fused sum (x - y)^2 with
// max |x - y| (one pass) against the two separate gpugen calls, at 2^20..2^26.
// Each figure is the mean time per call over about 30 ms of back-to-back
// calls after a warm-up. Writes CSV to argv[1] and a table to stdout.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cublas_v2.h>
#include <cub/cub.cuh>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/tuple.h>
#include "benchmulti.h"

#include "cuda_check.cuh"
#include "event_timer.cuh"
#define CUBLAS_CHECK(call)                                                   \
  do {                                                                       \
    if ((call) != CUBLAS_STATUS_SUCCESS) {                                   \
      std::printf("cuBLAS error at %s:%d\n", __FILE__, __LINE__);            \
      std::exit(2);                                                          \
    }                                                                        \
  } while (0)

// Both arrays streamed with 16-byte loads, grid-stride, as the one-array
// ceiling of bench.cu does.
__global__ void read_ceiling2(const int4 *__restrict__ a, const int4 *__restrict__ b, size_t n4, int *sink) {
  int4 acc = make_int4(0, 0, 0, 0);
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += (size_t)gridDim.x * blockDim.x) {
    int4 x = __ldg(a + i), y = __ldg(b + i);
    acc.x ^= x.x ^ y.x, acc.y ^= x.y ^ y.y, acc.z ^= x.z ^ y.z, acc.w ^= x.w ^ y.w;
  }
  if ((acc.x ^ acc.y ^ acc.z ^ acc.w) == 0x7fffffff)
    *sink = acc.x;
}

__device__ unsigned int hash32(size_t i) {
  unsigned long long x = i * 0x9e3779b97f4a7c15ULL;
  x ^= x >> 31;
  x *= 0xbf58476d1ce4e5b9ULL;
  return (unsigned int)(x >> 32);
}
template <class T> __global__ void fill(T *p, size_t n, unsigned int seed) {
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    p[i] = (T)(hash32(i ^ seed) >> 8) * (T)(1.0 / 16777216.0);
}

template <class T> struct Product {
  __device__ T operator()(const thrust::tuple<T, T> &t) const { return thrust::get<0>(t) * thrust::get<1>(t); }
};

static FILE *csv;
static int ceiling_grid;
static int *d_sink;
static void *d_temp;
static const size_t temp_size = (size_t)64 << 20;
static cublasHandle_t blas;
static char cub_version[16];

static bool near(double a, double b) { return std::fabs(a - b) <= 1e-3 * (std::fabs(a) + std::fabs(b)) + 1e-6; }

template <class T> static void dot_case(const char *name, size_t n, const T *x, const T *y, T *d_out) {
  const double bytes = 2.0 * (double)n * sizeof(T);
  T got[3];
  auto ours = [&] { CUDA_CHECK(sizeof(T) == 4 ? benchmulti_sdot((const float *)x, (const float *)y, n, (float *)d_out, d_temp, temp_size, 0)
                                              : benchmulti_ddot((const double *)x, (const double *)y, n, (double *)d_out, d_temp, temp_size, 0)); };
  auto blas_call = [&] {
    if constexpr (sizeof(T) == 4)
      CUBLAS_CHECK(cublasSdot(blas, (int)n, (const float *)x, 1, (const float *)y, 1, (float *)d_out + 1));
    else
      CUBLAS_CHECK(cublasDdot(blas, (int)n, (const double *)x, 1, (const double *)y, 1, (double *)d_out + 1));
  };
  auto zip = thrust::make_zip_iterator(thrust::make_tuple(x, y));
  size_t cub_bytes = temp_size;
  auto cub_call = [&] {
    CUDA_CHECK(cub::DeviceReduce::TransformReduce(d_temp, cub_bytes, zip, d_out + 2, (int64_t)n, cuda::std::plus<T>(),
                                                  Product<T>(), T(0)));
  };
  ours();
  blas_call();
  cub_call();
  CUDA_CHECK(cudaMemcpy(got, d_out, sizeof got, cudaMemcpyDeviceToHost));
  const bool ok = near(got[0], got[1]) && near(got[0], got[2]);
  const double us = time_us(ours), blas_us = time_us(blas_call), cub_us = time_us(cub_call);
  const double ceil_us = time_us([&] {
    read_ceiling2<<<ceiling_grid, 256>>>((const int4 *)x, (const int4 *)y, n * sizeof(T) / 16, d_sink);
  });
  std::printf("%-6s %10zu %9.2f %9.2f %9.2f %9.2f %6.1f%% %6.2fx %6.2fx %s\n", name, n, us, blas_us, cub_us, ceil_us,
              100 * ceil_us / us, blas_us / us, cub_us / us, ok ? "same" : "DIFFERENT");
  std::fprintf(csv, "%s,%zu,%.0f,%.3f,%.3f,%.3f,%.3f,%s,%s\n", name, n, bytes, us, blas_us, cub_us, ceil_us,
               ok ? "same" : "DIFFERENT", cub_version);
  std::fflush(stdout);
}

static void fused_case(size_t n, const float *x, const float *y, float *d_out) {
  DiffStats *d_stats = (DiffStats *)(d_out + 4);
  auto fused = [&] { CUDA_CHECK(benchmulti_diffstats(x, y, n, d_stats, d_temp, temp_size, 0)); };
  auto separate = [&] {
    CUDA_CHECK(benchmulti_sqdiff(x, y, n, d_out, d_temp, temp_size, 0));
    CUDA_CHECK(benchmulti_maxdiff(x, y, n, d_out + 1, d_temp, temp_size, 0));
  };
  fused();
  separate();
  DiffStats s;
  float two[2];
  CUDA_CHECK(cudaMemcpy(&s, d_stats, sizeof s, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(two, d_out, sizeof two, cudaMemcpyDeviceToHost));
  const bool ok = near(s.sumsq, two[0]) && s.maxabs == two[1];
  const double f_us = time_us(fused), s_us = time_us(separate);
  const double ceil_us = time_us([&] {
    read_ceiling2<<<ceiling_grid, 256>>>((const int4 *)x, (const int4 *)y, n * 4 / 16, d_sink);
  });
  std::printf("fused  %10zu %9.2f us fused, %9.2f us two calls: %5.2fx; fused at %5.1f%% of the ceiling %s\n", n, f_us,
              s_us, s_us / f_us, 100 * ceil_us / f_us, ok ? "same" : "DIFFERENT");
  std::fprintf(csv, "fused_diffstats,%zu,%.0f,%.3f,%.3f,,%.3f,%s,%s\n", n, 8.0 * n, f_us, s_us, ceil_us,
               ok ? "same" : "DIFFERENT", cub_version);
}

int main(int argc, char **argv) {
  csv = std::fopen(argc > 1 ? argv[1] : "multi.csv", "w");
  std::fprintf(csv, "case,n,bytes,gpugen_us,cublas_us,cub_us,ceiling_us,check,cub_version\n");
  std::snprintf(cub_version, sizeof cub_version, "%d.%d.%d", CUB_VERSION / 100000, CUB_VERSION / 100 % 1000,
                CUB_VERSION % 100);
  CUDA_CHECK(cudaEventCreate(&ev0));
  CUDA_CHECK(cudaEventCreate(&ev1));
  cudaDeviceProp prop;
  CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  int per_sm = 0;
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, read_ceiling2, 256, 0));
  ceiling_grid = prop.multiProcessorCount * per_sm;
  CUBLAS_CHECK(cublasCreate(&blas));
  CUBLAS_CHECK(cublasSetPointerMode(blas, CUBLAS_POINTER_MODE_DEVICE));
  std::printf("# %s, CUB %s; times in us; ceiling%% = two-array read ceiling time / gpugen time; ratios = their time / "
              "gpugen's\n", prop.name, cub_version);
  std::printf("%-6s %10s %9s %9s %9s %9s %7s %7s %7s\n", "case", "n", "gpugen", "cuBLAS", "CUB", "ceiling", "ceil%",
              "cuBLAS/", "CUB/");
  const size_t max_n = (size_t)1 << 28;
  double *x, *y, *d_out;
  CUDA_CHECK(cudaMalloc(&x, max_n * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&y, max_n * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&d_out, 16 * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&d_temp, temp_size));
  CUDA_CHECK(cudaMalloc(&d_sink, sizeof(int)));
  fill<float><<<1024, 256>>>((float *)x, max_n, 1);
  fill<float><<<1024, 256>>>((float *)y, max_n, 2);
  for (int p = 10; p <= 28; p++)
    dot_case<float>("sdot", (size_t)1 << p, (const float *)x, (const float *)y, (float *)d_out);
  fused_case((size_t)1 << 20, (const float *)x, (const float *)y, (float *)d_out);
  fused_case((size_t)1 << 22, (const float *)x, (const float *)y, (float *)d_out);
  fused_case((size_t)1 << 24, (const float *)x, (const float *)y, (float *)d_out);
  fused_case((size_t)1 << 26, (const float *)x, (const float *)y, (float *)d_out);
  fill<double><<<1024, 256>>>(x, max_n, 1);
  fill<double><<<1024, 256>>>(y, max_n, 2);
  for (int p = 10; p <= 28; p++)
    dot_case<double>("ddot", (size_t)1 << p, x, y, d_out);
  CUBLAS_CHECK(cublasDestroy(blas));
  std::fclose(csv);
  return 0;
}
