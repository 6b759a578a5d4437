// A user kernel over a user struct with gpugen's device helpers: each warp
// finds the particle with the largest x by shuffling whole Particles, and
// stages its block's particles in shared memory with SharedMem<Particle>.
#include <cstdio>
#include "mytypes.cuh"

__global__ void farthest_per_warp(const Particle *__restrict__ in, Particle *out, int n) {
  Particle *stage = mytypes::SharedMem<Particle>().getPointer();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  Particle p = {};
  if (i < n)
    p = mytypes::ldg(in + i); // read-only load, 5 x 4 bytes
  stage[threadIdx.x] = p;
  __syncwarp();
  Particle best = stage[threadIdx.x];
  for (int offset = 16; offset > 0; offset /= 2) {
    Particle other = mytypes::shfl_down_sync(0xffffffffu, best, offset);
    if (other.pos[0] > best.pos[0])
      best = other;
  }
  if (threadIdx.x % 32 == 0)
    out[i / 32] = best;
}

int main() {
  const int n = 1 << 10;
  Particle *h = new Particle[n];
  for (int i = 0; i < n; i++)
    h[i] = Particle{{(float)((i * 37) % n), 0.0f, 0.0f}, i, (unsigned char)(i & 0xff)};
  Particle *d_in, *d_out;
  cudaMalloc(&d_in, n * sizeof(Particle));
  cudaMalloc(&d_out, n / 32 * sizeof(Particle));
  cudaMemcpy(d_in, h, n * sizeof(Particle), cudaMemcpyHostToDevice);
  farthest_per_warp<<<n / 128, 128, 128 * sizeof(Particle)>>>(d_in, d_out, n);
  Particle warp_best[n / 32];
  cudaError_t err = cudaMemcpy(warp_best, d_out, sizeof warp_best, cudaMemcpyDeviceToHost);
  if (err != cudaSuccess) {
    std::printf("CUDA error: %s\n", cudaGetErrorString(err));
    return 1;
  }
  int wrong = 0;
  for (int w = 0; w < n / 32; w++) {
    int best = w * 32;
    for (int i = w * 32; i < w * 32 + 32; i++)
      if (h[i].pos[0] > h[best].pos[0])
        best = i;
    wrong += warp_best[w].id != h[best].id;
  }
  std::printf("farthest particle per warp: %d warps, %d wrong\n", n / 32, wrong);
  delete[] h;
  return wrong ? 1 : 0;
}
