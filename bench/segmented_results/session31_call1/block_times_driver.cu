// Per-block phase times of the segmented kernels on the bench's power-law mix (experiment, session 31).
#include <cmath>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>
#include "benchseg.h"
extern "C" void benchseg_timing(unsigned long long *h);
extern "C" void benchseg_timing_clear();
static std::vector<unsigned long long> t(8192 * 8);
static void dump(const char *name, int grid) {
  benchseg_timing(t.data());
  unsigned long long t0 = ~0ull;
  for (int b = 0; b < grid; ++b) if (t[b * 8] && t[b * 8] < t0) t0 = t[b * 8];
  for (int b = 0; b < grid; ++b) {
    unsigned long long *r = &t[b * 8];
    if (!r[0]) continue;
    printf("%s b=%d segs=%llu start=%.1f", name, b, r[7], (r[0] - t0) / 1e3);
    unsigned long long prev = r[0];
    for (int k = 1; k <= 6; ++k) {
      if (r[k]) { printf(" p%d=%.1f", k, (r[k] - prev) / 1e3); prev = r[k]; } else printf(" p%d=-", k);
    }
    printf(" total=%.1f\n", (prev - r[0]) / 1e3);
  }
}
int main(int argc, char **argv) {
  const size_t n = (size_t)1 << 28;
  std::vector<long long> off(1, 0);
  unsigned long long h = 0x5eed;
  while ((size_t)off.back() < n) {
    h = h * 6364136223846793005ULL + 1442695040888963407ULL;
    double u = ((h >> 11) + 1) * (1.0 / 9007199254740992.0);
    size_t len = (size_t)std::pow(u, -1.5);
    len = len > n / 16 ? n / 16 : len;
    off.push_back((long long)((size_t)off.back() + len < n ? (size_t)off.back() + len : n));
  }
  size_t segs = off.size() - 1;
  int *in; long long *doff; void *out, *tmp;
  cudaMalloc(&in, n * 4); cudaMemset(in, 1, n * 4);
  cudaMalloc(&doff, off.size() * 8); cudaMemcpy(doff, off.data(), off.size() * 8, cudaMemcpyHostToDevice);
  cudaMalloc(&out, segs * 32);
  size_t tb = benchseg_maxsub_segmented_temp_bytes(segs) + benchseg_isum_segmented_temp_bytes(segs) + (1 << 20);
  cudaMalloc(&tmp, tb);
  cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  for (int which = 0; which < 3; ++which) {
    const char *name = which == 0 ? "isum" : which == 1 ? "welford" : "maxsub";
    for (int rep = 0; rep < 4; ++rep) {
      benchseg_timing_clear();
      cudaEventRecord(e0);
      cudaError_t err = which == 0 ? benchseg_isum_segmented(in, doff, segs, (int *)out, tmp, tb, 0)
                      : which == 1 ? benchseg_welford_segmented((const float *)in, doff, segs, (Welford *)out, tmp, tb, 0)
                                   : benchseg_maxsub_segmented(in, doff, segs, (MaxSub *)out, tmp, tb, 0);
      cudaEventRecord(e1); cudaEventSynchronize(e1);
      float ms; cudaEventElapsedTime(&ms, e0, e1);
      if (err || cudaGetLastError()) { printf("error\n"); return 1; }
      printf("# %s rep %d: %.1f us\n", name, rep, ms * 1e3);
    }
    dump(name, 8192);
  }
  return 0;
}
