/* Per-row statistics of a 4096 x 1000 float matrix on the GPU, from plain
 * C11: mean and variance of every row (Welford, M_R_rows), then the maximum
 * of ragged rows given by CSR offsets (M_R_segmented). Checked against
 * gpugen's CPU references. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "rowstats.h" /* the generated header; it includes stats.h */

#define CHECK(call)                                                        \
  do {                                                                     \
    cudaError_t e_ = (call);                                               \
    if (e_ != cudaSuccess) {                                               \
      printf("CUDA error %s at line %d\n", cudaGetErrorString(e_), __LINE__); \
      return 1;                                                            \
    }                                                                      \
  } while (0)

int main(void) {
  const size_t rows = 4096, cols = 1000, n = rows * cols;
  float *h = malloc(n * sizeof *h);
  unsigned x = 12345;
  for (size_t i = 0; i < n; i++) {
    x = x * 1103515245u + 12345u;
    h[i] = (float)((x >> 8) & 0xffff) / 65536.0f + (float)(i / cols % 7); /* row r has mean about r % 7 + 0.5 */
  }
  /* ragged rows: row r holds r % 37 values (some are empty) */
  const size_t ragged = 20000;
  int *h_off = malloc((ragged + 1) * sizeof *h_off);
  h_off[0] = 0;
  for (size_t r = 0; r < ragged; r++)
    h_off[r + 1] = h_off[r] + (int)(r % 37);

  Stats *want = malloc(rows * sizeof *want), *got = malloc(rows * sizeof *got);
  float *want_peak = malloc(ragged * sizeof *want_peak), *got_peak = malloc(ragged * sizeof *got_peak);
  rowstats_stats_rows_host(h, rows, cols, want);
  rowstats_peak_segmented_host(h, h_off, ragged, want_peak);

  float *d_in;
  if (cudaMalloc((void **)&d_in, n * sizeof *h) != cudaSuccess) {
    printf("no usable GPU; CPU reference: row 0 mean %.4f, variance %.4f\n", want[0].mean, want[0].m2 / want[0].n);
    return 0;
  }
  Stats *d_stats;
  float *d_peak;
  int *d_off;
  void *d_temp;
  /* one scratch buffer, big enough for both calls */
  size_t temp_bytes = rowstats_stats_rows_temp_bytes(rows, cols);
  if (rowstats_peak_segmented_temp_bytes(ragged) > temp_bytes)
    temp_bytes = rowstats_peak_segmented_temp_bytes(ragged);
  CHECK(cudaMalloc((void **)&d_stats, rows * sizeof *d_stats));
  CHECK(cudaMalloc((void **)&d_peak, ragged * sizeof *d_peak));
  CHECK(cudaMalloc((void **)&d_off, (ragged + 1) * sizeof *d_off));
  CHECK(cudaMalloc(&d_temp, temp_bytes ? temp_bytes : 1));
  CHECK(cudaMemcpy(d_in, h, n * sizeof *h, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_off, h_off, (ragged + 1) * sizeof *d_off, cudaMemcpyHostToDevice));
  CHECK(rowstats_stats_rows(d_in, rows, cols, d_stats, d_temp, temp_bytes, 0));
  CHECK(rowstats_peak_segmented(d_in, d_off, ragged, d_peak, d_temp, temp_bytes, 0));
  CHECK(cudaMemcpy(got, d_stats, rows * sizeof *got, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(got_peak, d_peak, ragged * sizeof *got_peak, cudaMemcpyDeviceToHost));

  /* Welford merges in another order than the CPU's fold: close, not equal */
  size_t bad = 0;
  for (size_t r = 0; r < rows; r++)
    bad += got[r].n != want[r].n || fabsf(got[r].mean - want[r].mean) > 1e-4f * (fabsf(want[r].mean) + 1) ||
           fabsf(got[r].m2 - want[r].m2) > 1e-3f * (want[r].m2 + 1);
  size_t bad_peak = 0; /* max is exact; an empty row gives the identity, -inf */
  for (size_t r = 0; r < ragged; r++)
    bad_peak += got_peak[r] != want_peak[r];
  printf("row 0: mean %.4f, variance %.4f; row 4095: mean %.4f, variance %.4f\n", got[0].mean, got[0].m2 / got[0].n,
         got[rows - 1].mean, got[rows - 1].m2 / got[rows - 1].n);
  printf("%zu rows of statistics, %zu differ from the CPU; %zu ragged maxima, %zu differ\n", rows, bad, ragged, bad_peak);
  cudaFree(d_in);
  cudaFree(d_stats);
  cudaFree(d_peak);
  cudaFree(d_off);
  cudaFree(d_temp);
  free(h);
  free(h_off);
  free(want);
  free(got);
  free(want_peak);
  free(got_peak);
  return bad || bad_peak ? 1 : 0;
}
