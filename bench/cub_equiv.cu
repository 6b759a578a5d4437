// The bench's reductions written with CUB, as a user would without gpugen:
// the same operators and types, a C-callable function each. Only compiled,
// to compare nvcc compile time with the generated module (make bench-compile).
// CUB cannot do the ordered max-subarray reduction, so it is left out here
// (the gpugen module keeps it: the comparison favours CUB).
#include <cub/cub.cuh>
#include <cuda/std/functional>
#include "bench_ops.h"

struct ToSumSq {
  __device__ SumSq operator()(int x) const { return sumsq_fold(SumSq{0, 0}, x); }
};
struct SumSqCombine {
  __device__ SumSq operator()(const SumSq &a, const SumSq &b) const { return sumsq_combine(a, b); }
};
struct ToWelford {
  __device__ Welford operator()(float x) const { return Welford{1.0f, x, 0.0f}; }
};
struct WelfordCombine {
  __device__ Welford operator()(const Welford &a, const Welford &b) const { return welford_combine(a, b); }
};
struct Float3Add {
  __device__ Float3 operator()(const Float3 &a, const Float3 &b) const { return Float3{a.x + b.x, a.y + b.y, a.z + b.z}; }
};
struct Short3Add {
  __device__ Short3 operator()(const Short3 &a, const Short3 &b) const {
    return Short3{(short)(a.a + b.a), (short)(a.b + b.b), (short)(a.c + b.c)};
  }
};

extern "C" cudaError_t cub_isum(const int *in, size_t n, int *out, void *temp, size_t *bytes, cudaStream_t s) {
  return cub::DeviceReduce::Sum(temp, *bytes, in, out, (long long)n, s);
}
extern "C" cudaError_t cub_fsum(const float *in, size_t n, float *out, void *temp, size_t *bytes, cudaStream_t s) {
  return cub::DeviceReduce::Sum(temp, *bytes, in, out, (long long)n, s);
}
extern "C" cudaError_t cub_dsum(const double *in, size_t n, double *out, void *temp, size_t *bytes, cudaStream_t s) {
  return cub::DeviceReduce::Sum(temp, *bytes, in, out, (long long)n, s);
}
extern "C" cudaError_t cub_sumsq(const int *in, size_t n, SumSq *out, void *temp, size_t *bytes, cudaStream_t s) {
  return cub::DeviceReduce::TransformReduce(temp, *bytes, in, out, (long long)n, SumSqCombine{}, ToSumSq{}, SumSq{0, 0}, s);
}
extern "C" cudaError_t cub_welford(const float *in, size_t n, Welford *out, void *temp, size_t *bytes, cudaStream_t s) {
  return cub::DeviceReduce::TransformReduce(temp, *bytes, in, out, (long long)n, WelfordCombine{}, ToWelford{},
                                            Welford{0, 0, 0}, s);
}
extern "C" cudaError_t cub_f3sum(const Float3 *in, size_t n, Float3 *out, void *temp, size_t *bytes, cudaStream_t s) {
  return cub::DeviceReduce::Reduce(temp, *bytes, in, out, (long long)n, Float3Add{}, Float3{0, 0, 0}, s);
}
extern "C" cudaError_t cub_s3sum(const Short3 *in, size_t n, Short3 *out, void *temp, size_t *bytes, cudaStream_t s) {
  return cub::DeviceReduce::Reduce(temp, *bytes, in, out, (long long)n, Short3Add{}, Short3{0, 0, 0}, s);
}
extern "C" cudaError_t cub_fargmax(const float *in, size_t n, float *value, long long *index, void *temp, size_t *bytes,
                                   cudaStream_t s) {
  return cub::DeviceReduce::ArgMax(temp, *bytes, in, value, index, (long long)n, s);
}
struct Float4Add {
  __device__ float4 operator()(const float4 &a, const float4 &b) const {
    return make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
  }
};
extern "C" cudaError_t cub_f4sum(const float4 *in, size_t n, float4 *out, void *temp, size_t *bytes, cudaStream_t s) {
  return cub::DeviceReduce::Reduce(temp, *bytes, in, out, (long long)n, Float4Add{}, make_float4(0, 0, 0, 0), s);
}
typedef cub::KeyValuePair<long long, Custom> CustomPair;
struct CustomArgMin {
  __device__ CustomPair operator()(const CustomPair &a, const CustomPair &b) const {
    return custom_before(b.value, b.key, a.value, a.key) ? b : a;
  }
};
extern "C" cudaError_t cub_absmin(const Custom *in, size_t n, CustomPair *out, void *temp, size_t *bytes,
                                  cudaStream_t s) {
  cub::ArgIndexInputIterator<const Custom *, long long> it(in);
  return cub::DeviceReduce::Reduce(temp, *bytes, it, out, (long long)n, CustomArgMin{},
                                   CustomPair(0x7fffffffffffffffLL, Custom{0x7fffffffffffffffLL, 0}), s);
}
struct IsAbove {
  float limit;
  __device__ unsigned long long operator()(float x) const { return x > limit; }
};
extern "C" cudaError_t cub_above(const float *in, size_t n, const Threshold *t, unsigned long long *out, void *temp,
                                 size_t *bytes, cudaStream_t s) {
  return cub::DeviceReduce::TransformReduce(temp, *bytes, in, out, (long long)n, cuda::std::plus<unsigned long long>{},
                                            IsAbove{t->limit}, 0ULL, s);
}
