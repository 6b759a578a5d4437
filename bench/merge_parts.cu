// Where the ticket merge's time goes (issue 15, target 3). merge_floor.cu
// found that the ticket merge leaves 66 to 80 % of the read ceiling at 2^20
// to 2^23 elements and a merge folded into one atomic 87 to 103 %; this
// takes the ticket merge apart, one step at a time, on the same stream:
//   relaxed      thread 0 takes a relaxed ticket; the last block writes its own
//                partial (a wrong result: timing only)
//   release      thread 0 stores its partial and takes an acq_rel ticket
//                (timing only)
//   barrier      + the block waits for thread 0's ticket (timing only)
//   loads        + the last block loads every partial (a run a thread, all
//                at once), no block fold (timing only)
//   merged       + the block fold: merge_floor.cu's read_merged (checked)
//   warp         release, then warp 0 alone merges: no second barrier, the
//                partials loaded by 32 lanes and folded by shuffles (checked)
//   stored       thread 0 stores its partial and takes a relaxed ticket
//                (timing only: the release's share of "release")
//   early        every block loads every partial before it knows whether it
//                is last, beside its own relaxed ticket: each partial rides
//                in a 16-byte word with the call's tag, so the last block
//                reloads only the words that were not yet there (checked)
// Each runs on 1, 2, 4 and 8 blocks per SM and the table keeps each one's
// best grid. Writes a table to stdout and CSV to argv[1].
#include <algorithm>
#include <vector>
#include "ceiling.cuh"
#include "probe.cuh"

enum Step { RELAXED, RELEASE, BARRIER, LOADS, MERGED, WARP, STORED, EARLY, STEPS };
static const char *step_name[STEPS] = {"relaxed", "release", "barrier", "loads", "merged", "warp", "stored", "early"};

__device__ __forceinline__ unsigned int ticket_acq_rel(unsigned int *ticket) {
  unsigned int t;
  asm volatile("atom.acq_rel.gpu.global.add.u32 %0, [%1], 1;" : "=r"(t) : "l"(ticket) : "memory");
  return t;
}
__device__ __forceinline__ unsigned int ticket_relaxed(unsigned int *ticket) {
  unsigned int t;
  asm volatile("atom.relaxed.gpu.global.add.u32 %0, [%1], 1;" : "=r"(t) : "l"(ticket) : "memory");
  return t;
}

/* Threads of the last block that found a word not yet there (early). */
__device__ unsigned int late_words;

template <Step S>
__global__ void read_step(const int4 *__restrict__ p, size_t n4, int *partials, unsigned int *ticket, int *out,
                          int *sink, unsigned long long *words, unsigned long long tag) {
  __shared__ int s[32];
  __shared__ bool last;
  const int4 acc = stream_fold(p, n4);
  const int v = block_fold(acc.x ^ acc.y ^ acc.z ^ acc.w, s);
  if constexpr (S == EARLY) {
    constexpr int MOST = 5; /* words per thread: grids of up to 1280 blocks */
    unsigned int t = 0;
    if (threadIdx.x == 0) {
      store_word(words + 2 * blockIdx.x, (unsigned int)v, tag);
      t = ticket_relaxed(ticket);
    }
    unsigned long long got[MOST], seen[MOST];
#pragma unroll
    for (int j = 0; j < MOST; ++j)
      if (threadIdx.x + j * blockDim.x < gridDim.x)
        got[j] = load_word(words + 2 * (threadIdx.x + j * blockDim.x), &seen[j]);
    if (threadIdx.x == 0)
      last = t == gridDim.x - 1;
    __syncthreads();
    if (!last)
      return;
    int m = 0, late = 0;
#pragma unroll
    for (int j = 0; j < MOST; ++j) {
      const unsigned int i = threadIdx.x + j * blockDim.x;
      if (i < gridDim.x) {
        late += seen[j] != tag;
        while (seen[j] != tag)
          got[j] = load_word(words + 2 * i, &seen[j]);
        m ^= (int)(unsigned int)got[j];
      }
    }
    late = __syncthreads_count(late != 0);
    if (threadIdx.x == 0)
      atomicAdd(&late_words, (unsigned int)late);
    m = block_fold(m, s);
    if (threadIdx.x == 0) {
      *out = m;
      *ticket = 0;
    }
  } else if constexpr (S == RELAXED || S == RELEASE || S == STORED) {
    if (threadIdx.x == 0) {
      unsigned int t;
      if constexpr (S == RELAXED) {
        t = ticket_relaxed(ticket);
      } else if constexpr (S == STORED) {
        partials[blockIdx.x] = v;
        t = ticket_relaxed(ticket);
      } else {
        partials[blockIdx.x] = v;
        t = ticket_acq_rel(ticket);
      }
      if (t == gridDim.x - 1) {
        *out = v;
        *ticket = 0;
      }
    }
    return;
  } else if constexpr (S == WARP) {
    if (threadIdx.x >= 32)
      return;
    unsigned int t = 0;
    if (threadIdx.x == 0) {
      partials[blockIdx.x] = v;
      t = ticket_acq_rel(ticket);
    }
    t = __shfl_sync(0xffffffffu, t, 0);
    if (t != gridDim.x - 1)
      return;
    __syncwarp(); /* passes thread 0's acquire on to the warp */
    int m = 0;
#pragma unroll
    for (unsigned int j = 0; j < 40; ++j) /* grids of up to 1280 blocks, loaded at once */
      if (threadIdx.x + 32 * j < gridDim.x)
        m ^= __ldcg(partials + threadIdx.x + 32 * j);
    for (int o = 16; o > 0; o >>= 1)
      m ^= __shfl_xor_sync(0xffffffffu, m, o);
    if (threadIdx.x == 0) {
      *out = m;
      *ticket = 0;
    }
  } else {
    if (threadIdx.x == 0) {
      partials[blockIdx.x] = v;
      last = ticket_acq_rel(ticket) == gridDim.x - 1;
    }
    __syncthreads();
    if (!last)
      return;
    if constexpr (S == BARRIER) {
      if (threadIdx.x == 0) {
        *out = v;
        *ticket = 0;
      }
      return;
    }
    int m = 0; /* a run of partials a thread, loaded at once as the generated merge does */
    const unsigned int run = (gridDim.x + blockDim.x - 1) / blockDim.x, first = threadIdx.x * run;
#pragma unroll
    for (unsigned int j = 0; j < 8; ++j)
      if (j < run && first + j < gridDim.x)
        m ^= __ldcg(partials + first + j);
    if constexpr (S == LOADS) {
      if (m == 0x7fffffff) /* keeps the loads */
        *sink = m;
      __syncthreads(); /* every load in before the ticket is cleared */
      if (threadIdx.x == 0) {
        *out = v;
        *ticket = 0;
      }
      return;
    }
    m = block_fold(m, s);
    if (threadIdx.x == 0) {
      *out = m;
      *ticket = 0;
    }
  }
}

struct Buffers {
  const int *in;
  size_t n4;
  int *partials, *out, *sink;
  unsigned int *ticket;
  unsigned long long *words, tag;
};
template <Step S> static void launch(int blocks, Buffers &b) {
  read_step<S><<<blocks, 256>>>((const int4 *)b.in, b.n4, b.partials, b.ticket, b.out, b.sink, b.words, ++b.tag);
}
typedef void (*Launcher)(int, Buffers &);
static const Launcher launchers[STEPS] = {launch<RELAXED>, launch<RELEASE>, launch<BARRIER>, launch<LOADS>,
                                          launch<MERGED>,  launch<WARP>,    launch<STORED>,  launch<EARLY>};
static const bool checked[STEPS] = {false, false, false, false, true, true, false, true};

int main(int argc, char **argv) {
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 5;
  FILE *csv = std::fopen(argc > 1 ? argv[1] : "merge_parts.csv", "w");
  if (!csv || rounds < 1) {
    std::printf("usage: merge_parts [CSV] [ROUNDS]\n");
    return 1;
  }
  cudaDeviceProp prop;
  CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  int per_sm = 0;
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, read_ceiling, 256, 0));
  const int grid = prop.multiProcessorCount * per_sm;
  std::printf("%s, %d SMs; ceiling grid %d\n", prop.name, prop.multiProcessorCount, grid);
  CUDA_CHECK(cudaEventCreate(&ev0));
  CUDA_CHECK(cudaEventCreate(&ev1));
  const int logs[] = {16, 20, 21, 22, 23, 24};
  const int sizes = (int)(sizeof logs / sizeof logs[0]);
  const size_t most = (size_t)1 << logs[sizes - 1];
  int *in, *partials, *out, *sink;
  unsigned int *ticket;
  CUDA_CHECK(cudaMalloc(&in, most * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&partials, (size_t)8 * prop.multiProcessorCount * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&out, sizeof(int)));
  CUDA_CHECK(cudaMalloc(&sink, sizeof(int)));
  CUDA_CHECK(cudaMalloc(&ticket, sizeof(unsigned int)));
  CUDA_CHECK(cudaMemset(ticket, 0, sizeof(unsigned int)));
  Buffers b = {in, 0, partials, out, sink, ticket, nullptr, 0};
  CUDA_CHECK(cudaMalloc(&b.words, (size_t)8 * prop.multiProcessorCount * 16));
  CUDA_CHECK(cudaMemset(b.words, 0, (size_t)8 * prop.multiProcessorCount * 16));
  fill<<<1024, 256>>>(in, most);
  std::vector<int> host(most);
  CUDA_CHECK(cudaMemcpy(host.data(), in, most * sizeof(int), cudaMemcpyDeviceToHost));

  const int per_sm_tried[] = {1, 2, 4, 8};
  std::vector<double> ceiling_us(sizes, 1e30), step_us(sizes * STEPS, 1e30);
  std::vector<int> step_grid(sizes * STEPS, 0);
  std::vector<unsigned int> early_late(sizes, 0); /* at early's best grid, one call */
  bool all_same = true;
  for (int r = 0; r < rounds; ++r)
    for (int k = 0; k < sizes; ++k) {
      const size_t n = (size_t)1 << logs[k], bytes = n * sizeof(int), n4 = bytes / 16;
      int want = 0;
      for (size_t i = 0; i < n; ++i)
        want ^= host[i];
      ceiling_us[k] = std::min(ceiling_us[k], time_us([&] { read_ceiling<<<grid, 256>>>((const int4 *)in, n4, sink); },
                                                      bytes));
      for (int g : per_sm_tried)
        for (int s = 0; s < STEPS; ++s) {
          const int blocks = prop.multiProcessorCount * g;
          b.n4 = n4;
          const double t = time_us([&] { launchers[s](blocks, b); }, bytes);
          if (t < step_us[k * STEPS + s])
            step_us[k * STEPS + s] = t, step_grid[k * STEPS + s] = g;
          if (checked[s]) {
            const unsigned int zero = 0;
            CUDA_CHECK(cudaMemcpyToSymbol(late_words, &zero, sizeof zero));
            launchers[s](blocks, b);
            unsigned int late = 0;
            CUDA_CHECK(cudaMemcpyFromSymbol(&late, late_words, sizeof late));
            if (s == EARLY && t <= step_us[k * STEPS + s])
              early_late[k] = late;
            int got = 0;
            CUDA_CHECK(cudaMemcpy(&got, out, sizeof(int), cudaMemcpyDeviceToHost));
            if (got != want) {
              all_same = false;
              std::printf("n = 2^%d, %d blocks, %s: XOR %d, host %d: DIFFERENT\n", logs[k], blocks, step_name[s], got,
                          want);
            }
          }
        }
    }
  std::printf("%6s %8s", "n", "ceiling");
  std::fprintf(csv, "n,ceiling_us");
  for (int s = 0; s < STEPS; ++s) {
    std::printf(" %12s", step_name[s]);
    std::fprintf(csv, ",%s_us,%s_per_sm,%s_pct_of_ceiling", step_name[s], step_name[s], step_name[s]);
  }
  std::printf("  late\n  (us, best grid in blocks per SM, %% of ceiling; late: threads of early's last block that\n"
              "  found a word not yet there, one call on early's best grid)\n");
  std::fprintf(csv, ",early_late_threads,check\n");
  for (int k = 0; k < sizes; ++k) {
    std::printf("  2^%-3d %8.2f", logs[k], ceiling_us[k]);
    std::fprintf(csv, "%zu,%.3f", (size_t)1 << logs[k], ceiling_us[k]);
    for (int s = 0; s < STEPS; ++s) {
      const double t = step_us[k * STEPS + s], pct = 100.0 * ceiling_us[k] / t;
      std::printf(" %5.2f %dx %3.0f%%", t, step_grid[k * STEPS + s], pct);
      std::fprintf(csv, ",%.3f,%d,%.1f", t, step_grid[k * STEPS + s], pct);
    }
    std::printf(" %5u\n", early_late[k]);
    std::fprintf(csv, ",%u,%s\n", early_late[k], all_same ? "same" : "DIFFERENT");
  }
  std::printf("merged, warp and early against the host's XOR: %s\n", all_same ? "same" : "DIFFERENT");
  std::fclose(csv);
  return all_same ? 0 : 1;
}
