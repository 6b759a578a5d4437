// CUB's side of the benchmark: the bench's operators (bench_ops.h) as the
// functors CUB takes. Shared by bench.cu (timed) and cub_equiv.cu (compile
// time), so that both compile the same CUB code.
#ifndef BENCH_CUB_OPS_CUH
#define BENCH_CUB_OPS_CUH
#include <cub/cub.cuh>
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
struct Float4Add { // CUDA's float4, component-wise
  __device__ float4 operator()(const float4 &a, const float4 &b) const {
    return make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
  }
};
struct Short3Add {
  __device__ Short3 operator()(const Short3 &a, const Short3 &b) const {
    return Short3{(short)(a.a + b.a), (short)(a.b + b.b), (short)(a.c + b.c)};
  }
};

// A functor with a member, CUB's form of run-time parameters.
struct IsAbove {
  float limit;
  __device__ unsigned long long operator()(float x) const { return x > limit; }
};

// CUB's way to an argmin under a custom order: Reduce over
// ArgIndexInputIterator's {index, value} pairs, as its custom_type_t tests do.
typedef cub::KeyValuePair<long long, Custom> CustomPair;
struct CustomArgMin {
  __device__ CustomPair operator()(const CustomPair &a, const CustomPair &b) const {
    return custom_before(b.value, b.key, a.value, a.key) ? b : a;
  }
};
#endif
