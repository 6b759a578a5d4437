// make bench-nccl: the reductions across GPUs (bench_nccl.json) on every
// visible GPU, one process driving all of them, a thread each. Each figure
// is the mean time per call over back-to-back calls after warm-up (CUDA
// events on rank 0's stream; the collectives keep the ranks in step).
// Prints the ratios of the issue's targets 1 to 3, target 4's side of
// gpugen (bench/peers_nccl.py times PyTorch's), and CSV to argv[1]. Each
// gpugen row comes twice: through NCCL's host-launched collectives (_nccl)
// and through the device path (_nccl_window, one bn_nccl_window per rank),
// whose results are compared bit for bit with the first.
#include <cub/cub.cuh>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>
#include "bn.h"
#include "bn.cuh"

#define CUDA_CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(2); } } while (0)
#define NCCL_CHECK(x) do { ncclResult_t r_ = (x); if (r_ != ncclSuccess) { \
  printf("NCCL error %s at %s:%d\n", ncclGetErrorString(r_), __FILE__, __LINE__); exit(2); } } while (0)

static int nranks;
static FILE *csv;

// A reusable barrier for the rank threads (C++17 has none).
static std::mutex mu;
static std::condition_variable cv;
static int arrived, generation;
static void barrier() {
  std::unique_lock<std::mutex> lock(mu);
  int gen = generation;
  if (++arrived == nranks) { arrived = 0; generation++; cv.notify_all(); }
  else cv.wait(lock, [&] { return gen != generation; });
}

struct Rank {
  int rank;
  ncclComm_t comm;
  cudaStream_t stream;
  cudaEvent_t start, stop;
};

// Mean microseconds per call of f on this rank's stream (all ranks call it
// together; reps after 3 warm-ups).
static double time_us(Rank &R, int reps, const std::function<void()> &f) {
  barrier();
  for (int i = 0; i < 3; i++) f();
  CUDA_CHECK(cudaStreamSynchronize(R.stream));
  barrier();
  CUDA_CHECK(cudaEventRecord(R.start, R.stream));
  for (int i = 0; i < reps; i++) f();
  CUDA_CHECK(cudaEventRecord(R.stop, R.stream));
  CUDA_CHECK(cudaEventSynchronize(R.stop));
  float ms = 0;
  CUDA_CHECK(cudaEventElapsedTime(&ms, R.start, R.stop));
  barrier();
  return 1000.0 * ms / reps;
}

static void report(Rank &R, const char *what, double us, const char *note) {
  if (R.rank != 0) return;
  printf("%-58s %10.1f us  %s\n", what, us, note);
  fprintf(csv, "\"%s\",%.3f,\"%s\"\n", what, us, note);
  fflush(stdout);
}

struct MaxSubPlus {
  __device__ MaxSub operator()(const MaxSub &a, const MaxSub &b) const { return maxsub_combine(a, b); }
};
struct WelfordPlus {
  __device__ Welford operator()(const Welford &a, const Welford &b) const { return welford_combine(a, b); }
};

// The all-gather peer of target 3: every rank's states gathered, then each
// element folded over the ranks in rank order.
__global__ void fold_gathered(const Welford *all, size_t count, int p, Welford *out) {
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += (size_t)gridDim.x * blockDim.x) {
    Welford acc = all[i];
    for (int q = 1; q < p; q++) acc = welford_combine(acc, all[(size_t)q * count + i]);
    out[i] = acc;
  }
}

// rows[n * C + c] -> out[c * N + n]: each channel's N states in a row
__global__ void transpose_states(const Welford *rows, size_t N, size_t C, Welford *out) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N * C) out[(i % C) * N + i / C] = rows[i];
}

__global__ void fill_ints(int *x, size_t n) {
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    x[i] = (int)((i * 2654435761u) % 201) - 100;
}
__global__ void fill_floats(float *x, size_t n) {
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    x[i] = (float)((i * 2654435761u) % 1000) / 1000.0f;
}
__global__ void fill_welford(Welford *x, size_t n) {
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    x[i] = Welford{(float)(1 + i % 7), (float)(i % 13), (float)(i % 5)};
}

static void run_rank(Rank &R) {
  const size_t gib = (size_t)1 << 30, n = gib / 4; // 1 GiB of int32 or float
  int *d_int;
  float *d_float;
  CUDA_CHECK(cudaMalloc(&d_int, gib));
  CUDA_CHECK(cudaMalloc(&d_float, gib));
  fill_ints<<<4096, 256, 0, R.stream>>>(d_int, n);
  fill_floats<<<4096, 256, 0, R.stream>>>(d_float, n);
  size_t tb = bn_isum_nccl_temp_bytes(n, nranks);
  tb = std::max(tb, bn_welford_nccl_temp_bytes(n, nranks));
  tb = std::max(tb, bn_maxsub_nccl_temp_bytes(n, nranks));
  size_t cub_bytes = 0;
  int *d_sum = nullptr;
  CUDA_CHECK(cudaMalloc(&d_sum, 64));
  cub::DeviceReduce::Sum(nullptr, cub_bytes, d_int, d_sum, n);
  tb = std::max(tb, cub_bytes);
  void *d_temp;
  CUDA_CHECK(cudaMalloc(&d_temp, tb));
  char *d_out;
  CUDA_CHECK(cudaMalloc(&d_out, 256)); // [0, 128): the timed calls; [128, 256): the device path's check
  char note[200];
  // the device path's window: big enough for every call below
  const size_t count = (size_t)16 << 20, C = 256;
  size_t wb = std::max(bn_isum_nccl_window_bytes(n, nranks), bn_welford_nccl_window_bytes(n, nranks));
  wb = std::max(wb, bn_maxsub_nccl_window_bytes(n, nranks));
  wb = std::max(wb, bn_welford_combine_nccl_window_bytes(count, nranks));
  wb = std::max(wb, bn_merge_combine_nccl_window_bytes(C, nranks));
  bn_nccl_window *win = nullptr;
  // BENCH_NO_WINDOW=1 leaves the device path out
  const bool skip_window = getenv("BENCH_NO_WINDOW") && !strcmp(getenv("BENCH_NO_WINDOW"), "1");
  ncclResult_t wres = skip_window ? ncclSuccess : bn_nccl_window_create(R.comm, wb, &win);
  if (wres != ncclSuccess) {
    int v = 0;
    ncclGetVersion(&v);
    snprintf(note, sizeof note, "%s (NCCL %d loaded, built with %d): no _nccl_window rows", ncclGetErrorString(wres), v,
             NCCL_VERSION_CODE);
    report(R, "bn_nccl_window_create", 0, note);
  }
  // whether the two paths leave the same bytes at d_out and d_out + 128
  auto same_bits = [&](size_t bytes) {
    char a[128], b[128];
    CUDA_CHECK(cudaMemcpyAsync(a, d_out, bytes, cudaMemcpyDeviceToHost, R.stream));
    CUDA_CHECK(cudaMemcpyAsync(b, d_out + 128, bytes, cudaMemcpyDeviceToHost, R.stream));
    CUDA_CHECK(cudaStreamSynchronize(R.stream));
    return memcmp(a, b, bytes) == 0;
  };

  // ---- target 1: 1 GiB per GPU ----
  const int reps_big = 20;
  struct Big {
    const char *name;
    size_t bytes;
    std::function<void(size_t)> one;
    std::function<void(size_t, char *)> across, window;
  };
  Big bigs[] = {
    {"int32 sum", sizeof(int),
     [&](size_t m) { CUDA_CHECK(bn_isum(d_int, m, (int *)d_out, d_temp, tb, R.stream)); },
     [&](size_t m, char *o) { NCCL_CHECK(bn_isum_nccl(d_int, m, (int *)o, d_temp, tb, R.comm, R.stream)); },
     [&](size_t m, char *o) { NCCL_CHECK(bn_isum_nccl_window(d_int, m, (int *)o, win, R.stream)); }},
    {"Welford", sizeof(Welford),
     [&](size_t m) { CUDA_CHECK(bn_welford(d_float, m, (Welford *)d_out, d_temp, tb, R.stream)); },
     [&](size_t m, char *o) { NCCL_CHECK(bn_welford_nccl(d_float, m, (Welford *)o, d_temp, tb, R.comm, R.stream)); },
     [&](size_t m, char *o) { NCCL_CHECK(bn_welford_nccl_window(d_float, m, (Welford *)o, win, R.stream)); }},
    {"ordered max-subarray", sizeof(MaxSub),
     [&](size_t m) { CUDA_CHECK(bn_maxsub(d_int, m, (MaxSub *)d_out, d_temp, tb, R.stream)); },
     [&](size_t m, char *o) { NCCL_CHECK(bn_maxsub_nccl(d_int, m, (MaxSub *)o, d_temp, tb, R.comm, R.stream)); },
     [&](size_t m, char *o) { NCCL_CHECK(bn_maxsub_nccl_window(d_int, m, (MaxSub *)o, win, R.stream)); }},
  };
  static std::vector<double> alone(64);
  for (auto &b : bigs) {
    // one GPU alone over 1 GiB: each rank in turn while the others wait at
    // the barrier; `one` is rank 0's (the ratios), `slowest` the slowest
    // rank's, which a step across all of them cannot beat
    double one = 0, slowest = 0;
    for (int turn = 0; turn < nranks; turn++) {
      barrier();
      if (R.rank == turn) {
        for (int i = 0; i < 3; i++) b.one(n);
        CUDA_CHECK(cudaEventRecord(R.start, R.stream));
        for (int i = 0; i < reps_big; i++) b.one(n);
        CUDA_CHECK(cudaEventRecord(R.stop, R.stream));
        CUDA_CHECK(cudaEventSynchronize(R.stop));
        float ms;
        CUDA_CHECK(cudaEventElapsedTime(&ms, R.start, R.stop));
        alone[turn] = 1000.0 * ms / reps_big;
      }
    }
    barrier();
    one = alone[0];
    for (int q = 0; q < nranks; q++) slowest = std::max(slowest, alone[q]);
    double across = time_us(R, reps_big, [&] { b.across(n, d_out); });
    snprintf(note, sizeof note, "one GPU 1 GiB: %.1f us; throughput %.3fx one GPU; cross-GPU step %.1f us",
             one, nranks * one / across, across - one);
    report(R, (std::string("1 GiB per GPU, M_R_nccl ") + b.name).c_str(), across, note);
    if (!win)
      continue;
    double window = time_us(R, reps_big, [&] { b.window(n, d_out); });
    b.across(n, d_out);
    b.window(n, d_out + 128);
    snprintf(note, sizeof note, "throughput %.3fx one GPU; cross-GPU step %.1f us (%.1f past the slowest GPU alone, "
             "%.1f us); %.3fx M_R_nccl; result %s", nranks * one / window, window - one, window - slowest, slowest,
             across / window, same_bits(b.bytes) ? "same bits as M_R_nccl" : "DIFFERS from M_R_nccl");
    report(R, (std::string("1 GiB per GPU, M_R_nccl_window ") + b.name).c_str(), window, note);
  }
  { // CUB's sum of 1 GiB plus ncclAllReduce of the one int
    double cub = time_us(R, reps_big, [&] {
      CUDA_CHECK(cub::DeviceReduce::Sum(d_temp, cub_bytes, d_int, d_sum, n, R.stream));
      NCCL_CHECK(ncclAllReduce(d_sum, d_sum, 1, ncclInt32, ncclSum, R.comm, R.stream));
    });
    report(R, "1 GiB per GPU, CUB sum + ncclAllReduce of 1 int", cub, "the peer of target 1");
  }

  // ---- target 2: 1K elements per GPU ----
  const int reps_small = 2000;
  double ours = time_us(R, reps_small, [&] {
    NCCL_CHECK(bn_isum_nccl(d_int, 1024, (int *)d_out, d_temp, tb, R.comm, R.stream));
  });
  double peer = time_us(R, reps_small, [&] {
    CUDA_CHECK(cub::DeviceReduce::Sum(d_temp, cub_bytes, d_int, d_sum, 1024, R.stream));
    NCCL_CHECK(ncclAllReduce(d_sum, d_sum, 1, ncclInt32, ncclSum, R.comm, R.stream));
  });
  double local = time_us(R, reps_small, [&] { CUDA_CHECK(bn_isum(d_int, 1024, (int *)d_out, d_temp, tb, R.stream)); });
  double allreduce1 = time_us(R, reps_small, [&] {
    NCCL_CHECK(ncclAllReduce(d_sum, d_sum, 1, ncclInt32, ncclSum, R.comm, R.stream));
  });
  double gather16 = time_us(R, reps_small, [&] {
    NCCL_CHECK(ncclAllGather(d_sum, (char *)d_temp, 16, ncclUint8, R.comm, R.stream));
  });
  snprintf(note, sizeof note, "%.2fx CUB + ncclAllReduce (%.1f us); local M_R %.1f us", ours / peer, peer, local);
  report(R, "1K int32 per GPU, M_R_nccl int32 sum", ours, note);
  if (win) {
    double w = time_us(R, reps_small, [&] { NCCL_CHECK(bn_isum_nccl_window(d_int, 1024, (int *)d_out, win, R.stream)); });
    NCCL_CHECK(bn_isum_nccl(d_int, 1024, (int *)d_out, d_temp, tb, R.comm, R.stream));
    NCCL_CHECK(bn_isum_nccl_window(d_int, 1024, (int *)(d_out + 128), win, R.stream));
    snprintf(note, sizeof note, "%.2fx CUB + ncclAllReduce; cross-GPU step %.1f us; result %s", w / peer, w - local,
             same_bits(sizeof(int)) ? "same bits as M_R_nccl" : "DIFFERS from M_R_nccl");
    report(R, "1K int32 per GPU, M_R_nccl_window int32 sum", w, note);
    double wf = time_us(R, reps_small, [&] {
      NCCL_CHECK(bn_welford_nccl_window(d_float, 1024, (Welford *)d_out, win, R.stream));
    });
    double hf = time_us(R, reps_small, [&] {
      NCCL_CHECK(bn_welford_nccl(d_float, 1024, (Welford *)d_out, d_temp, tb, R.comm, R.stream));
    });
    snprintf(note, sizeof note, "M_R_nccl (all-gather + fold) %.1f us: %.2fx", hf, hf / wf);
    report(R, "1K floats per GPU, M_R_nccl_window Welford", wf, note);
  }
  report(R, "1K int32 per GPU, CUB sum + ncclAllReduce of 1 int", peer, "the peer of target 2");
  report(R, "ncclAllReduce of 1 int", allreduce1, "anchor");
  report(R, "ncclAllGather of 16 bytes per rank", gather16, "anchor");
  CUDA_CHECK(cudaFree(d_int));
  CUDA_CHECK(cudaFree(d_float));

  // ---- target 3: combine_nccl of 16M Welford states ----
  const size_t bytes = count * sizeof(Welford);
  Welford *d_states, *d_res, *d_all;
  CUDA_CHECK(cudaMalloc(&d_states, bytes));
  CUDA_CHECK(cudaMalloc(&d_res, bytes));
  CUDA_CHECK(cudaMalloc(&d_all, bytes * nranks));
  fill_welford<<<4096, 256, 0, R.stream>>>(d_states, count);
  size_t ctb = bn_welford_combine_nccl_temp_bytes(count, nranks);
  void *d_ctemp;
  CUDA_CHECK(cudaMalloc(&d_ctemp, ctb));
  const int reps_c = 20;
  const double bus = 2.0 * (nranks - 1) / nranks * (double)bytes; // bytes a ring all-reduce moves per rank
  double comb = time_us(R, reps_c, [&] {
    NCCL_CHECK(bn_welford_combine_nccl(d_states, count, d_res, d_ctemp, ctb, R.comm, R.stream));
  });
  double ar = time_us(R, reps_c, [&] {
    NCCL_CHECK(ncclAllReduce((const float *)d_states, (float *)d_res, bytes / 4, ncclFloat32, ncclSum, R.comm, R.stream));
  });
  double ag = time_us(R, reps_c, [&] {
    NCCL_CHECK(ncclAllGather(d_states, d_all, bytes, ncclUint8, R.comm, R.stream));
    fold_gathered<<<4096, 256, 0, R.stream>>>(d_all, count, nranks, d_res);
  });
  snprintf(note, sizeof note, "bus %.0f GB/s; %.2fx ncclAllReduce's bus bandwidth; %.2fx all-gather + combine",
           bus / comb / 1e3, ar / comb, ag / comb);
  report(R, "16M Welford states, M_R_combine_nccl", comb, note);
  snprintf(note, sizeof note, "bus %.0f GB/s", bus / ar / 1e3);
  report(R, "ncclAllReduce of the same bytes of floats (48M)", ar, note);
  snprintf(note, sizeof note, "bus-equivalent %.0f GB/s", bus / ag / 1e3);
  report(R, "ncclAllGather of 16M states + local combine kernel", ag, note);
  if (win) {
    double wc = time_us(R, reps_c, [&] {
      NCCL_CHECK(bn_welford_combine_nccl_window(d_states, count, d_all, win, R.stream));
    });
    // the same bits as the schedule's (d_res holds its last result)
    std::vector<Welford> a(count), b(count);
    CUDA_CHECK(cudaMemcpyAsync(a.data(), d_all, bytes, cudaMemcpyDeviceToHost, R.stream));
    NCCL_CHECK(bn_welford_combine_nccl(d_states, count, d_res, d_ctemp, ctb, R.comm, R.stream));
    CUDA_CHECK(cudaMemcpyAsync(b.data(), d_res, bytes, cudaMemcpyDeviceToHost, R.stream));
    CUDA_CHECK(cudaStreamSynchronize(R.stream));
    const bool same = memcmp(a.data(), b.data(), bytes) == 0;
    snprintf(note, sizeof note, "bus %.0f GB/s; %.2fx ncclAllReduce's bus bandwidth; %.2fx all-gather + combine; "
             "%.2fx M_R_combine_nccl; result %s", bus / wc / 1e3, ar / wc, ag / wc, comb / wc,
             same ? "same bits as M_R_combine_nccl" : "DIFFERS from M_R_combine_nccl");
    report(R, "16M Welford states, M_R_combine_nccl_window", wc, note);
  }
  CUDA_CHECK(cudaFree(d_states));
  CUDA_CHECK(cudaFree(d_res));
  CUDA_CHECK(cudaFree(d_all));
  CUDA_CHECK(cudaFree(d_ctemp));
  CUDA_CHECK(cudaFree(d_temp));

  // ---- target 4: SyncBatchNorm's statistics of a 64 x 256 x 56 x 56 NCHW
  // float activation per GPU (the peer: bench/peers_nccl.py) ----
  const size_t N = 64, HW = 56 * 56, rows = N * C;
  float *d_x;
  Welford *d_rows, *d_chan;
  CUDA_CHECK(cudaMalloc(&d_x, rows * HW * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_rows, rows * sizeof(Welford) * 2));
  CUDA_CHECK(cudaMalloc(&d_chan, C * sizeof(Welford)));
  fill_floats<<<4096, 256, 0, R.stream>>>(d_x, rows * HW);
  size_t sb = std::max(bn_chan_rows_temp_bytes(rows, HW), bn_merge_rows_temp_bytes(C, N));
  sb = std::max(sb, bn_merge_combine_nccl_temp_bytes(C, nranks));
  void *d_stemp;
  CUDA_CHECK(cudaMalloc(&d_stemp, sb));
  double bn_us = time_us(R, 20, [&] {
    CUDA_CHECK(bn_chan_rows(d_x, rows, HW, d_rows, d_stemp, sb, R.stream));
    transpose_states<<<(unsigned)((rows + 255) / 256), 256, 0, R.stream>>>(d_rows, N, C, d_rows + rows);
    CUDA_CHECK(bn_merge_rows(d_rows + rows, C, N, d_chan, d_stemp, sb, R.stream));
    NCCL_CHECK(bn_merge_combine_nccl(d_chan, C, d_chan, d_stemp, sb, R.comm, R.stream));
  });
  double local_us = time_us(R, 20, [&] {
    CUDA_CHECK(bn_chan_rows(d_x, rows, HW, d_rows, d_stemp, sb, R.stream));
    transpose_states<<<(unsigned)((rows + 255) / 256), 256, 0, R.stream>>>(d_rows, N, C, d_rows + rows);
    CUDA_CHECK(bn_merge_rows(d_rows + rows, C, N, d_chan, d_stemp, sb, R.stream));
  });
  double across_us = time_us(R, 200, [&] {
    NCCL_CHECK(bn_merge_combine_nccl(d_chan, C, d_chan, d_stemp, sb, R.comm, R.stream));
  });
  snprintf(note, sizeof note, "local rows+transpose+rows %.1f us; combine_nccl of 256 states %.1f us", local_us,
           across_us);
  report(R, "SyncBN stats 64x256x56x56 per GPU (per-channel Welford)", bn_us, note);
  if (win) {
    double bw_us = time_us(R, 20, [&] {
      CUDA_CHECK(bn_chan_rows(d_x, rows, HW, d_rows, d_stemp, sb, R.stream));
      transpose_states<<<(unsigned)((rows + 255) / 256), 256, 0, R.stream>>>(d_rows, N, C, d_rows + rows);
      CUDA_CHECK(bn_merge_rows(d_rows + rows, C, N, d_chan, d_stemp, sb, R.stream));
      NCCL_CHECK(bn_merge_combine_nccl_window(d_chan, C, d_chan, win, R.stream));
    });
    double wacross = time_us(R, 200, [&] { NCCL_CHECK(bn_merge_combine_nccl_window(d_chan, C, d_chan, win, R.stream)); });
    snprintf(note, sizeof note, "combine_nccl_window of 256 states %.1f us", wacross);
    report(R, "SyncBN stats, the same with M_R_combine_nccl_window", bw_us, note);
  }
  CUDA_CHECK(cudaFree(d_x));
  CUDA_CHECK(cudaFree(d_rows));
  CUDA_CHECK(cudaFree(d_chan));
  CUDA_CHECK(cudaFree(d_stemp));
  if (win)
    NCCL_CHECK(bn_nccl_window_destroy(win));
}

int main(int argc, char **argv) {
  csv = fopen(argc > 1 ? argv[1] : "bench_nccl.csv", "w");
  if (!csv) { perror("csv"); return 2; }
  fprintf(csv, "case,us,note\n");
  CUDA_CHECK(cudaGetDeviceCount(&nranks));
  std::vector<ncclComm_t> comms(nranks);
  NCCL_CHECK(ncclCommInitAll(comms.data(), nranks, nullptr));
  int v = 0;
  ncclGetVersion(&v);
  cudaDeviceProp prop;
  CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  printf("%d x %s, NCCL %d, one process, a thread per GPU\n", nranks, prop.name, v);
  std::vector<Rank> ranks(nranks);
  std::vector<std::thread> pool;
  for (int r = 0; r < nranks; r++) {
    pool.emplace_back([&, r] {
      CUDA_CHECK(cudaSetDevice(r));
      Rank &R = ranks[r];
      R.rank = r;
      R.comm = comms[r];
      CUDA_CHECK(cudaStreamCreateWithFlags(&R.stream, cudaStreamNonBlocking));
      CUDA_CHECK(cudaEventCreate(&R.start));
      CUDA_CHECK(cudaEventCreate(&R.stop));
      run_rank(R);
    });
  }
  for (auto &t : pool) t.join();
  for (auto c : comms) ncclCommDestroy(c);
  fclose(csv);
  return 0;
}
