// Per-block phase times of a `_segmented` call, from a module stamped by
// block_times.py (bench/block_times.sh builds it): where a launch's time
// goes when some blocks finish long after others.
//
//   block_times REDUCTION SHAPE LOG2_N
//
// REDUCTION is isum, fsum, welford or maxsub (bench_segmented.json), SHAPE
// power-law, giant or L=LENGTH (the bench's layouts), LOG2_N the elements in
// all, 10 to 28. Calls it four times and prints, for the last, a line per
// block that started: the segments it owns, its start after the first
// block's, the microseconds of each phase (bounds and crossing pieces, the
// thread, lane-group, warp and block passes, the merge; "-" where it left
// before) and its total; then the call times and a summary. The stamps
// change the kernel's registers, so its times are near, not equal, to the
// bench's.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include "benchseg.h"
#include "cuda_check.cuh"
#include "skewed_offsets.h"
#include "segmented_inputs.cuh"

extern "C" void benchseg_block_times(unsigned long long *host);
extern "C" void benchseg_block_times_clear();

static const int max_blocks = 8192, slots = 8, phases = 6;

static int usage() {
  std::fprintf(stderr, "usage: block_times isum|fsum|welford|maxsub power-law|giant|L=LENGTH LOG2_N (10 to 28)\n");
  return 2;
}

int main(int argc, char **argv) {
  if (argc != 4)
    return usage();
  const char *reduction = argv[1], *shape = argv[2];
  const int log2_n = std::atoi(argv[3]);
  const int which = !std::strcmp(reduction, "isum")      ? 0
                    : !std::strcmp(reduction, "fsum")    ? 1
                    : !std::strcmp(reduction, "welford") ? 2
                    : !std::strcmp(reduction, "maxsub")  ? 3
                                                         : -1;
  if (which < 0 || log2_n < 10 || log2_n > 28)
    return usage();
  const size_t n = (size_t)1 << log2_n;
  std::vector<long long> off;
  if (!std::strcmp(shape, "power-law")) {
    off = power_law_offsets(n);
  } else if (!std::strcmp(shape, "giant")) {
    off = giant_offsets(n);
  } else if (!std::strncmp(shape, "L=", 2) && std::atoll(shape + 2) > 0 && (size_t)std::atoll(shape + 2) <= n) {
    const size_t length = (size_t)std::atoll(shape + 2);
    for (size_t at = 0; at + length <= n; at += length)
      off.push_back((long long)at);
    off.push_back((long long)(n / length * length));
  } else {
    return usage();
  }
  const size_t segments = off.size() - 1;
  void *in, *out, *temp;
  long long *d_off;
  CUDA_CHECK(cudaMalloc(&in, n * 4));
  // the bench's data: all zeros took Welford's division to its slow path
  if (which == 1 || which == 2)
    fill_float<<<1024, 256>>>((float *)in, n);
  else
    fill_int<<<1024, 256>>>((int *)in, n);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMalloc(&d_off, off.size() * sizeof(long long)));
  CUDA_CHECK(cudaMemcpy(d_off, off.data(), off.size() * sizeof(long long), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMalloc(&out, segments * sizeof(MaxSub)));
  const size_t temp_bytes = which == 0   ? benchseg_isum_segmented_temp_bytes(segments)
                            : which == 1 ? benchseg_fsum_segmented_temp_bytes(segments)
                            : which == 2 ? benchseg_welford_segmented_temp_bytes(segments)
                                         : benchseg_maxsub_segmented_temp_bytes(segments);
  CUDA_CHECK(cudaMalloc(&temp, temp_bytes ? temp_bytes : 1));
  cudaEvent_t e0, e1;
  CUDA_CHECK(cudaEventCreate(&e0));
  CUDA_CHECK(cudaEventCreate(&e1));
  float ms[4];
  for (int call = 0; call < 4; ++call) {
    benchseg_block_times_clear();
    CUDA_CHECK(cudaEventRecord(e0));
    CUDA_CHECK(which == 0   ? benchseg_isum_segmented((const int *)in, d_off, segments, (int *)out, temp, temp_bytes, 0)
               : which == 1 ? benchseg_fsum_segmented((const float *)in, d_off, segments, (float *)out, temp, temp_bytes, 0)
               : which == 2 ? benchseg_welford_segmented((const float *)in, d_off, segments, (Welford *)out, temp,
                                                         temp_bytes, 0)
                            : benchseg_maxsub_segmented((const int *)in, d_off, segments, (MaxSub *)out, temp,
                                                        temp_bytes, 0));
    CUDA_CHECK(cudaEventRecord(e1));
    CUDA_CHECK(cudaEventSynchronize(e1));
    CUDA_CHECK(cudaEventElapsedTime(&ms[call], e0, e1));
  }
  std::vector<unsigned long long> t((size_t)max_blocks * slots);
  benchseg_block_times(t.data());
  CUDA_CHECK(cudaGetLastError());
  unsigned long long first = ~0ULL;
  for (int b = 0; b < max_blocks; ++b)
    if (t[b * slots] && t[b * slots] < first)
      first = t[b * slots];
  int started = 0, owning = 0;
  double sum = 0, owning_sum = 0, most = 0;
  for (int b = 0; b < max_blocks; ++b) {
    const unsigned long long *r = &t[(size_t)b * slots];
    if (!r[0])
      continue;
    std::printf("block %d segments %llu start %.1f", b, r[7], (r[0] - first) / 1e3);
    unsigned long long last = r[0];
    for (int k = 1; k <= phases; ++k) {
      if (r[k]) {
        std::printf(" p%d %.1f", k, (r[k] - last) / 1e3);
        last = r[k];
      } else {
        std::printf(" p%d -", k);
      }
    }
    const double total = (last - r[0]) / 1e3;
    std::printf(" total %.1f\n", total);
    ++started;
    sum += total;
    most = total > most ? total : most;
    if (r[7]) {
      ++owning;
      owning_sum += total;
    }
  }
  std::printf("# %s %s 2^%d: %zu segments; calls %.1f %.1f %.1f %.1f us\n", reduction, shape, log2_n, segments,
              ms[0] * 1e3, ms[1] * 1e3, ms[2] * 1e3, ms[3] * 1e3);
  std::printf("# %d blocks started: mean %.1f us, slowest %.1f; %d owned segments, mean %.1f\n", started,
              started ? sum / started : 0.0, most, owning, owning ? owning_sum / owning : 0.0);
  return 0;
}
