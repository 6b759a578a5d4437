// The bench's reductions written with CUB, as a user would without gpugen:
// the same operators and types, a C-callable function each. Only compiled,
// to compare nvcc compile time with the generated module (make bench-compile).
// CUB cannot do the ordered max-subarray reduction, so it is left out here
// (the gpugen module keeps it: the comparison favours CUB).
#include <cub/cub.cuh>
#include <cuda/std/functional>
#include "cub_ops.cuh"

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
extern "C" cudaError_t cub_f4sum(const float4 *in, size_t n, float4 *out, void *temp, size_t *bytes, cudaStream_t s) {
  return cub::DeviceReduce::Reduce(temp, *bytes, in, out, (long long)n, Float4Add{}, make_float4(0, 0, 0, 0), s);
}
extern "C" cudaError_t cub_absmin(const Custom *in, size_t n, CustomPair *out, void *temp, size_t *bytes,
                                  cudaStream_t s) {
  cub::ArgIndexInputIterator<const Custom *, long long> it(in);
  return cub::DeviceReduce::Reduce(temp, *bytes, it, out, (long long)n, CustomArgMin{},
                                   CustomPair(0x7fffffffffffffffLL, Custom{0x7fffffffffffffffLL, 0}), s);
}
extern "C" cudaError_t cub_above(const float *in, size_t n, const Threshold *t, unsigned long long *out, void *temp,
                                 size_t *bytes, cudaStream_t s) {
  return cub::DeviceReduce::TransformReduce(temp, *bytes, in, out, (long long)n, cuda::std::plus<unsigned long long>{},
                                            IsAbove{t->limit}, 0ULL, s);
}
