// The block pieces for users' own kernels (bench_fsum_block and
// bench_welford_block, with the shape read at run time and as <BX, BY, BZ>,
// docs/emitted.md "For your own kernels") against CUB's BlockReduce with the same shape as
// template parameters, in one process. Each block makes a chain of dependent
// calls (each result feeds the next call), so the figure is the latency of
// one call; every thread needs the result, so CUB's side adds the broadcast
// through shared memory that its thread-0-only result needs. Prints the time
// per call and the ratio. Usage: device_api [calls]
#include <cub/block/block_reduce.cuh>
#include <cuda/std/functional>
#include <cstdio>
#include <cstdlib>
#include "bench.cuh"
#include "cub_ops.cuh"

#include "cuda_check.cuh"

__device__ int rank_in_block() { return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z); }

// The two operators timed: a float sum (a cheap combine) and Welford (a
// 12-byte state whose combine divides). Each says how a thread starts, how a
// result feeds its next call, and calls gpugen's pieces and CUB's.
struct FloatSum {
  typedef float T;
  static constexpr const char *name = "float sum";
  __device__ static T start(int t) { return (float)t; }
  __device__ static T next(T r, int t) { return r * 1e-3f + (float)t; }
  __device__ static T gpugen(T v) { return bench_fsum_block(v); }
  template <int BX, int BY, int BZ> __device__ static T gpugen_shaped(T v) { return bench_fsum_block<BX, BY, BZ>(v); }
  typedef cuda::std::plus<float> cub_op;
};
struct WelfordStats {
  typedef Welford T;
  static constexpr const char *name = "Welford";
  __device__ static T start(int t) { return Welford{1.0f, (float)t, 0.0f}; }
  __device__ static T next(T r, int t) { return Welford{1.0f, r.mean * 1e-3f + r.m2 * 1e-9f + (float)t, 0.0f}; }
  __device__ static T gpugen(T v) { return bench_welford_block(v); }
  template <int BX, int BY, int BZ> __device__ static T gpugen_shaped(T v) {
    return bench_welford_block<BX, BY, BZ>(v);
  }
  typedef WelfordCombine cub_op;
};

template <class C> __global__ void gpugen_chain(typename C::T *out, int calls) {
  const int t = rank_in_block();
  typename C::T v = C::start(t);
  for (int i = 0; i < calls; i++)
    v = C::next(C::gpugen(v), t);
  if (t == 0)
    out[blockIdx.x] = v;
}

// The shape as template arguments, as CUB takes it.
template <class C, int BX, int BY, int BZ> __global__ void gpugen_shaped_chain(typename C::T *out, int calls) {
  const int t = rank_in_block();
  typename C::T v = C::start(t);
  for (int i = 0; i < calls; i++)
    v = C::next(C::template gpugen_shaped<BX, BY, BZ>(v), t);
  if (t == 0)
    out[blockIdx.x] = v;
}

template <class C, int BX, int BY, int BZ> __global__ void cub_chain(typename C::T *out, int calls) {
  typedef typename C::T T;
  typedef cub::BlockReduce<T, BX, cub::BLOCK_REDUCE_WARP_REDUCTIONS, BY, BZ> Reduce;
  __shared__ typename Reduce::TempStorage temp;
  __shared__ T result;
  const int t = rank_in_block();
  T v = C::start(t);
  for (int i = 0; i < calls; i++) {
    T r = Reduce(temp).Reduce(v, typename C::cub_op());
    if (t == 0)
      result = r;
    __syncthreads(); // the broadcast, which also frees temp for the next call
    v = C::next(result, t);
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = v;
}

template <class K, class T> static double us_per_call(K kernel, dim3 block, int grid, int calls, T *out) {
  cudaEvent_t a, b;
  CUDA_CHECK(cudaEventCreate(&a));
  CUDA_CHECK(cudaEventCreate(&b));
  double best = 1e30;
  for (int rep = 0; rep < 5; rep++) {
    CUDA_CHECK(cudaEventRecord(a));
    kernel<<<grid, block>>>(out, calls);
    CUDA_CHECK(cudaEventRecord(b));
    CUDA_CHECK(cudaEventSynchronize(b));
    CUDA_CHECK(cudaGetLastError());
    float ms;
    CUDA_CHECK(cudaEventElapsedTime(&ms, a, b));
    best = ms * 1000.0 / calls < best ? ms * 1000.0 / calls : best;
  }
  CUDA_CHECK(cudaEventDestroy(a));
  CUDA_CHECK(cudaEventDestroy(b));
  return best;
}

template <class C, int BX, int BY, int BZ> static void shape(int calls, void *out, int sms) {
  typedef typename C::T T;
  const dim3 block(BX, BY, BZ);
  const int threads = BX * BY * BZ, grid = sms * (threads >= 512 ? 2 : 8);
  double g = us_per_call(gpugen_chain<C>, block, grid, calls, (T *)out);
  double f = us_per_call(gpugen_shaped_chain<C, BX, BY, BZ>, block, grid, calls, (T *)out);
  double c = us_per_call(cub_chain<C, BX, BY, BZ>, block, grid, calls, (T *)out);
  std::printf("%-9s %4dx%-3dx%-3d %5d threads  gpugen %7.4f  gpugen<BX,BY,BZ> %7.4f  CUB %7.4f us/call  "
              "t/t_cub %5.2fx, shaped %5.2fx\n", C::name, BX, BY, BZ, threads, g, f, c, g / c, f / c);
}

template <class C> static void shapes(int calls, void *out, int sms) {
  shape<C, 32, 1, 1>(calls, out, sms);
  shape<C, 33, 1, 1>(calls, out, sms);
  shape<C, 65, 1, 1>(calls, out, sms);
  shape<C, 100, 1, 1>(calls, out, sms);
  shape<C, 256, 1, 1>(calls, out, sms);
  shape<C, 1000, 1, 1>(calls, out, sms);
  shape<C, 1024, 1, 1>(calls, out, sms);
  shape<C, 7, 9, 1>(calls, out, sms);
  shape<C, 32, 8, 1>(calls, out, sms);
  shape<C, 3, 5, 7>(calls, out, sms);
}

int main(int argc, char **argv) {
  const int calls = argc > 1 ? std::atoi(argv[1]) : 2000;
  cudaDeviceProp prop;
  CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("# %s; %d dependent calls per block, best of 5; CUB %d\n", prop.name, calls, CUB_VERSION);
  void *out;
  CUDA_CHECK(cudaMalloc(&out, 4096 * sizeof(Welford)));
  const int sms = prop.multiProcessorCount;
  shapes<FloatSum>(calls, out, sms);
  shapes<WelfordStats>(calls, out, sms);
  CUDA_CHECK(cudaFree(out));
  return 0;
}
