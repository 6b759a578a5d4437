// 16 MiB of ints in 1024 rows of 16 KiB, a block per row: 256 threads x 4 loads or 128 threads x 8
// loads of 16 bytes; each block reduces its row and writes it. run() holds the blocks an SM with
// dynamic shared memory (0: as many as fit). A probe of session 33, kept with its output (waves.txt).
#include <cstdio>
#include <cstdint>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s\n", cudaGetErrorString(e)); return 1; } } while (0)
template <int BLOCK, int LOADS, int MINB>
__global__ void __launch_bounds__(BLOCK, MINB) rows(const uint4 *in, int *out) {
  const uint4 *p = in + (size_t)blockIdx.x * 1024 + threadIdx.x;
  uint4 x[LOADS];
#pragma unroll
  for (int k = 0; k < LOADS; ++k) x[k] = __ldg(p + k * BLOCK);
  int s = 0;
#pragma unroll
  for (int k = 0; k < LOADS; ++k) s += x[k].x + x[k].y + x[k].z + x[k].w;
  for (int d = 16; d; d /= 2) s += __shfl_xor_sync(~0u, s, d);
  __shared__ int w[BLOCK / 32];
  if ((threadIdx.x & 31) == 0) w[threadIdx.x / 32] = s;
  __syncthreads();
  if (threadIdx.x < 32) {
    s = threadIdx.x < BLOCK / 32 ? w[threadIdx.x] : 0;
    for (int d = 16; d; d /= 2) s += __shfl_xor_sync(~0u, s, d);
    if (threadIdx.x == 0) out[blockIdx.x] = s;
  }
}
template <class F> float t(F f) {
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  f(); cudaDeviceSynchronize();
  float best = 1e9;
  for (int r = 0; r < 5; ++r) {
    cudaEventRecord(a);
    for (int i = 0; i < 200; ++i) f();
    cudaEventRecord(b); cudaEventSynchronize(b);
    float ms; cudaEventElapsedTime(&ms, a, b); if (ms / 200 < best) best = ms / 200;
  }
  return best * 1000;
}

template <int BLOCK, int LOADS> void run(uint4 *in, int *out, int per_sm) {
  auto k = rows<BLOCK, LOADS, 1>;
  const int smem = per_sm ? (224 * 1024) / per_sm - 1024 : 0;
  cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, smem > 0 ? smem : 0);
  int occ;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, k, BLOCK, smem);
  printf("%dx%d, %d blocks/SM: %.2f us\n", BLOCK, LOADS, occ, t([&] { k<<<1024, BLOCK, smem>>>(in, out); }));
}
int main() {
  uint4 *in; int *out;
  CK(cudaMalloc(&in, 16 << 20)); CK(cudaMalloc(&out, 4096 * 4)); CK(cudaMemset(in, 1, 16 << 20));
  for (int rep = 0; rep < 2; ++rep) {
    run<256, 4>(in, out, 4);
    run<256, 4>(in, out, 8);
    run<128, 8>(in, out, 8);
    run<128, 8>(in, out, 16);
    run<256, 4>(in, out, 0);
  }
  CK(cudaGetLastError());
  return 0;
}
