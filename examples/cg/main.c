/* A few conjugate-gradient steps from plain C11 for the 1-D Poisson system
 * A x = b (A = tridiag(-1, 2, -1)): the vector updates run on the host, and
 * every reduction of a step runs on the GPU through the generated API:
 *   cg_dot(r, r)         the residual's squared norm (one array passed twice)
 *   cg_dot(p, Ap)        the step length's denominator
 *   cg_sqdiff(x, x_old)  how far the step moved x
 * Each GPU result is checked against the generated CPU fold (cg_*_host).
 * Prints "GPU and CPU agree" and exits 0 when every one agrees to 1e-10. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime.h>
#include "cg.h"

#define N (1 << 20)
#define STEPS 8

static int failures;

static void cuda_check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) {
    fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    exit(2);
  }
}

static void agree(const char *what, int step, double gpu, double cpu) {
  double err = fabs(gpu - cpu), scale = fabs(cpu) > 1e-300 ? fabs(cpu) : 1.0;
  int ok = err <= 1e-10 * scale;
  printf("step %d %-12s GPU %.17g  CPU %.17g  %s\n", step, what, gpu, cpu, ok ? "ok" : "DIFFERENT");
  failures += !ok;
}

static void matvec(const double *x, double *y) { /* y = A x */
  for (size_t i = 0; i < N; i++)
    y[i] = 2 * x[i] - (i > 0 ? x[i - 1] : 0) - (i + 1 < N ? x[i + 1] : 0);
}

/* Copies the host arrays to the device and runs one reduction there. */
typedef struct {
  double *d_a, *d_b, *d_out;
  void *d_temp;
  size_t temp_bytes;
} Device;

static double gpu_dot(Device *d, const double *a, const double *b) {
  cuda_check(cudaMemcpy(d->d_a, a, N * sizeof(double), cudaMemcpyHostToDevice), "copy");
  const double *d_b = d->d_a;
  if (b != a) { /* the same array twice: pass one device pointer twice */
    cuda_check(cudaMemcpy(d->d_b, b, N * sizeof(double), cudaMemcpyHostToDevice), "copy");
    d_b = d->d_b;
  }
  cuda_check(cg_dot(d->d_a, d_b, N, d->d_out, d->d_temp, d->temp_bytes, 0), "cg_dot");
  double r;
  cuda_check(cudaMemcpy(&r, d->d_out, sizeof r, cudaMemcpyDeviceToHost), "copy back");
  return r;
}

static double gpu_sqdiff(Device *d, const double *a, const double *b) {
  cuda_check(cudaMemcpy(d->d_a, a, N * sizeof(double), cudaMemcpyHostToDevice), "copy");
  cuda_check(cudaMemcpy(d->d_b, b, N * sizeof(double), cudaMemcpyHostToDevice), "copy");
  cuda_check(cg_sqdiff(d->d_a, d->d_b, N, d->d_out, d->d_temp, d->temp_bytes, 0), "cg_sqdiff");
  double r;
  cuda_check(cudaMemcpy(&r, d->d_out, sizeof r, cudaMemcpyDeviceToHost), "copy back");
  return r;
}

int main(void) {
  double *x = calloc(N, sizeof *x), *x_old = malloc(N * sizeof *x), *r = malloc(N * sizeof *r);
  double *p = malloc(N * sizeof *p), *ap = malloc(N * sizeof *ap);
  if (!x || !x_old || !r || !p || !ap)
    return 2;
  for (size_t i = 0; i < N; i++) /* b = r = p with x = 0 */
    r[i] = p[i] = sin(0.001 * (double)i) + 0.5;
  Device d;
  d.temp_bytes = cg_dot_temp_bytes(N) > cg_sqdiff_temp_bytes(N) ? cg_dot_temp_bytes(N) : cg_sqdiff_temp_bytes(N);
  cuda_check(cudaMalloc((void **)&d.d_a, N * sizeof(double)), "cudaMalloc");
  cuda_check(cudaMalloc((void **)&d.d_b, N * sizeof(double)), "cudaMalloc");
  cuda_check(cudaMalloc((void **)&d.d_out, sizeof(double)), "cudaMalloc");
  cuda_check(cudaMalloc(&d.d_temp, d.temp_bytes), "cudaMalloc");

  double rr = gpu_dot(&d, r, r);
  agree("r.r", 0, rr, cg_dot_host(r, r, N));
  for (int step = 1; step <= STEPS; step++) {
    matvec(p, ap);
    double pap = gpu_dot(&d, p, ap);
    agree("p.Ap", step, pap, cg_dot_host(p, ap, N));
    double alpha = rr / pap;
    memcpy(x_old, x, N * sizeof *x);
    for (size_t i = 0; i < N; i++) {
      x[i] += alpha * p[i];
      r[i] -= alpha * ap[i];
    }
    double moved = gpu_sqdiff(&d, x, x_old);
    agree("|dx|^2", step, moved, cg_sqdiff_host(x, x_old, N));
    double rr_new = gpu_dot(&d, r, r);
    agree("r.r", step, rr_new, cg_dot_host(r, r, N));
    for (size_t i = 0; i < N; i++)
      p[i] = r[i] + rr_new / rr * p[i];
    rr = rr_new;
  }
  printf("residual norm after %d steps: %.6g\n", STEPS, sqrt(rr));
  cudaFree(d.d_a);
  cudaFree(d.d_b);
  cudaFree(d.d_out);
  cudaFree(d.d_temp);
  free(x), free(x_old), free(r), free(p), free(ap);
  if (failures) {
    printf("%d results differ\n", failures);
    return 1;
  }
  printf("GPU and CPU agree\n");
  return 0;
}
