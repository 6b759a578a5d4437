/* The bounding box of a million points on the GPU, from plain C11,
 * checked against gpugen's CPU reference. */
#include <stdio.h>
#include <stdlib.h>
#include "points.h" /* the generated header; it includes geometry.h */

int main(void) {
  const size_t n = 1u << 20;
  Point *h = malloc(n * sizeof *h);
  for (size_t i = 0; i < n; i++)
    h[i] = (Point){(float)(i % 1000) - 500.0f, (float)(i % 777) * 0.5f, (int)i};
  Box want = points_bounds_host(h, n);

  Point *d_in;
  Box *d_out, got;
  void *d_temp;
  size_t temp_bytes = points_bounds_temp_bytes(n);
  if (cudaMalloc((void **)&d_in, n * sizeof *h) != cudaSuccess) {
    printf("no usable GPU; CPU reference: x in [%g, %g], y in [%g, %g]\n", want.lo[0], want.hi[0], want.lo[1],
           want.hi[1]);
    free(h);
    return 0;
  }
  cudaMalloc((void **)&d_out, sizeof got);
  cudaMalloc(&d_temp, temp_bytes);
  cudaMemcpy(d_in, h, n * sizeof *h, cudaMemcpyHostToDevice);
  cudaError_t err = points_bounds(d_in, n, d_out, d_temp, temp_bytes, 0);
  if (err == cudaSuccess)
    err = cudaMemcpy(&got, d_out, sizeof got, cudaMemcpyDeviceToHost);
  if (err != cudaSuccess) {
    printf("CUDA error: %s\n", cudaGetErrorString(err));
    return 1;
  }
  int same = got.lo[0] == want.lo[0] && got.lo[1] == want.lo[1] && got.hi[0] == want.hi[0] && got.hi[1] == want.hi[1];
  printf("x in [%g, %g], y in [%g, %g]: GPU and CPU %s\n", got.lo[0], got.hi[0], got.lo[1], got.hi[1],
         same ? "equal" : "DIFFERENT");
  cudaFree(d_in);
  cudaFree(d_out);
  cudaFree(d_temp);
  free(h);
  return same ? 0 : 1;
}
