// session 24: the driver that bench/ncu/session24_segmented_2p22_*.txt profiled.
// Built on the GPU machine against bench_segmented.json's module (main at 41699ae):
//   nvcc -std=c++17 -O3 -arch=sm_90 -lineinfo -Igen -Ibench -o prof session24_prof.cu gen/benchseg.cu
//   ncu --cache-control none --clock-control none --launch-skip 4 --section ... ./prof L
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cub/cub.cuh>
#include "benchseg.h"
int main(int argc, char **argv) {
  const size_t n = (size_t)1 << 22, L = (size_t)atoll(argv[1]), count = n / L;
  std::vector<long long> off(count + 1);
  for (size_t i = 0; i <= count; ++i) off[i] = (long long)(i * L);
  std::vector<int> h(n);
  for (size_t i = 0; i < n; ++i) h[i] = (int)(i % 7);
  int *d_in, *d_out; long long *d_off; void *temp; size_t tb = 64 << 20;
  cudaMalloc(&d_in, n * 4); cudaMalloc(&d_out, count * 4); cudaMalloc(&d_off, (count + 1) * 8); cudaMalloc(&temp, tb);
  cudaMemcpy(d_in, h.data(), n * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(d_off, off.data(), (count + 1) * 8, cudaMemcpyHostToDevice);
  for (int r = 0; r < 3; ++r) {
    benchseg_isum_segmented(d_in, d_off, count, d_out, temp, tb, 0);
    size_t cb = tb;
    cub::DeviceSegmentedReduce::Sum(temp, cb, d_in, d_out, (int)count, d_off, d_off + 1, 0);
  }
  cudaError_t e = cudaDeviceSynchronize();
  std::printf("L=%zu %s\n", L, cudaGetErrorString(e));
  return 0;
}
