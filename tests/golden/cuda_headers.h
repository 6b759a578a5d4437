/* A header written for nvcc: CUDA's own headers, CCCL's cuda/std, and the
 * qualifiers nvcc defines. tests/golden/cuda_headers shows gpugen reading
 * it as nvcc does. */
#ifndef CUDA_HEADERS_H
#define CUDA_HEADERS_H
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda/std/cstdint>
#include <cuda/std/limits>

/* raised alignment through CUDA's macro, a field typed through cuda/std */
struct __align__(16) Span {
  float lo;
  float hi;
  cuda::std::int32_t count;
  __half last;
};

constexpr float span_empty = cuda::std::numeric_limits<float>::infinity();

__host__ __device__ __forceinline__ Span span_combine(const Span &a, const Span &b) {
  Span r;
  r.lo = a.lo < b.lo ? a.lo : b.lo;
  r.hi = a.hi > b.hi ? a.hi : b.hi;
  r.count = a.count + b.count;
  r.last = b.count ? b.last : a.last;
  return r;
}

#ifdef __CUDACC__
/* GPU only, and never inlined: no CPU reference for this reduction (and
 * only nvcc knows __noinline__) */
__device__ __noinline__ Span span_fold(Span acc, const float &x) {
  Span one;
  one.lo = x;
  one.hi = x;
  one.count = 1;
  one.last = __float2half(x);
  return span_combine(acc, one);
}

/* the user's own kernel beside the operators */
__global__ void __launch_bounds__(128) span_copy(const float *__restrict__ in, float *__restrict__ out) {
  out[threadIdx.x] = in[threadIdx.x];
}
#endif
/* left open on purpose: gpugen's own structs must not be packed by it */
#pragma pack(1)
#endif
