/* The maximum subarray sum of a million ints on the GPU, from plain C11,
 * checked against gpugen's CPU reference. */
#include <stdio.h>
#include <stdlib.h>
#include "maxsub.h" /* the generated header; it includes segment.h */

int main(void) {
  const size_t n = 1u << 20;
  int *h = malloc(n * sizeof *h);
  unsigned x = 12345;
  for (size_t i = 0; i < n; i++) {
    x = x * 1103515245u + 12345u;
    h[i] = (int)((x >> 16) % 2001) - 1000;
  }
  Segment want = maxsub_best_host(h, n);

  int *d_in;
  Segment *d_out, got;
  void *d_temp;
  size_t temp_bytes = maxsub_best_temp_bytes(n);
  if (cudaMalloc((void **)&d_in, n * sizeof *h) != cudaSuccess) {
    printf("no usable GPU; CPU reference: best subarray sum %lld\n", want.best);
    free(h);
    return 0;
  }
  cudaMalloc((void **)&d_out, sizeof got);
  cudaMalloc(&d_temp, temp_bytes);
  cudaMemcpy(d_in, h, n * sizeof *h, cudaMemcpyHostToDevice);
  cudaError_t err = maxsub_best(d_in, n, d_out, d_temp, temp_bytes, 0);
  if (err == cudaSuccess)
    err = cudaMemcpy(&got, d_out, sizeof got, cudaMemcpyDeviceToHost);
  if (err != cudaSuccess) {
    printf("CUDA error: %s\n", cudaGetErrorString(err));
    return 1;
  }
  printf("best subarray sum: GPU %lld, CPU %lld (%s)\n", got.best, want.best, got.best == want.best ? "equal" : "DIFFERENT");
  cudaFree(d_in);
  cudaFree(d_out);
  cudaFree(d_temp);
  free(h);
  return got.best == want.best ? 0 : 1;
}
