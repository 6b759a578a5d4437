// The block pieces for users' own kernels (bench_fsum_block with the shape
// read at run time and bench_fsum_block<BX, BY, BZ>, docs/emitted.md "For
// your own kernels") against CUB's BlockReduce with the same shape as
// template parameters, in one process. Each block makes a chain of dependent
// calls (each result feeds the next call), so the figure is the latency of
// one call; every thread needs the result, so CUB's side adds the broadcast
// through shared memory that its thread-0-only result needs. Prints the time
// per call and the ratio. Usage: device_api [calls]
#include <cub/block/block_reduce.cuh>
#include <cstdio>
#include <cstdlib>
#include "bench.cuh"

#define CUDA_CHECK(call)                                                                   \
  do {                                                                                     \
    cudaError_t e_ = (call);                                                               \
    if (e_ != cudaSuccess) {                                                               \
      std::printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); \
      std::exit(2);                                                                        \
    }                                                                                      \
  } while (0)

__device__ int rank_in_block() { return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z); }

__global__ void gpugen_chain(float *out, int calls) {
  const int t = rank_in_block();
  float v = (float)t;
  for (int i = 0; i < calls; i++)
    v = bench_fsum_block(v) * 1e-3f + (float)t;
  if (t == 0)
    out[blockIdx.x] = v;
}

// The shape as template arguments, as CUB takes it.
template <int BX, int BY, int BZ> __global__ void gpugen_shaped_chain(float *out, int calls) {
  const int t = rank_in_block();
  float v = (float)t;
  for (int i = 0; i < calls; i++)
    v = bench_fsum_block<BX, BY, BZ>(v) * 1e-3f + (float)t;
  if (t == 0)
    out[blockIdx.x] = v;
}

template <int BX, int BY, int BZ> __global__ void cub_chain(float *out, int calls) {
  typedef cub::BlockReduce<float, BX, cub::BLOCK_REDUCE_WARP_REDUCTIONS, BY, BZ> Reduce;
  __shared__ typename Reduce::TempStorage temp;
  __shared__ float result;
  const int t = rank_in_block();
  float v = (float)t;
  for (int i = 0; i < calls; i++) {
    float r = Reduce(temp).Sum(v);
    if (t == 0)
      result = r;
    __syncthreads(); // the broadcast, which also frees temp for the next call
    v = result * 1e-3f + (float)t;
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = v;
}

template <class K> static double us_per_call(K kernel, dim3 block, int grid, int calls, float *out) {
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

template <int BX, int BY, int BZ> static void shape(int calls, float *out, int sms) {
  const dim3 block(BX, BY, BZ);
  const int threads = BX * BY * BZ, grid = sms * (threads >= 512 ? 2 : 8);
  double g = us_per_call(gpugen_chain, block, grid, calls, out);
  double f = us_per_call(gpugen_shaped_chain<BX, BY, BZ>, block, grid, calls, out);
  double c = us_per_call(cub_chain<BX, BY, BZ>, block, grid, calls, out);
  std::printf("%4dx%-3dx%-3d %5d threads  gpugen %7.4f  gpugen<BX,BY,BZ> %7.4f  CUB %7.4f us/call  t/t_cub %5.2fx, "
              "shaped %5.2fx\n", BX, BY, BZ, threads, g, f, c, g / c, f / c);
}

int main(int argc, char **argv) {
  const int calls = argc > 1 ? std::atoi(argv[1]) : 2000;
  cudaDeviceProp prop;
  CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("# %s; %d dependent calls per block, best of 5; CUB %d\n", prop.name, calls, CUB_VERSION);
  float *out;
  CUDA_CHECK(cudaMalloc(&out, 4096 * sizeof(float)));
  const int sms = prop.multiProcessorCount;
  shape<32, 1, 1>(calls, out, sms);
  shape<65, 1, 1>(calls, out, sms);
  shape<256, 1, 1>(calls, out, sms);
  shape<1024, 1, 1>(calls, out, sms);
  shape<7, 9, 1>(calls, out, sms);
  shape<32, 8, 1>(calls, out, sms);
  shape<3, 5, 7>(calls, out, sms);
  CUDA_CHECK(cudaFree(out));
  return 0;
}
