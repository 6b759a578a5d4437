/* SyncBatchNorm's statistics across GPUs, in C: each GPU holds its own
 * N x C x H x W float activation (NCHW); every GPU gets each channel's
 * count, mean and variance over all GPUs' data.
 *
 * One process per GPU: the parent forks one child per GPU; child 0 makes
 * NCCL's unique id and passes it to the others through pipes; each child
 * joins the communicator with ncclCommInitRank. On each GPU:
 *   1. syncbn_stats_rows: a Welford state per (image, channel) row of H*W;
 *   2. a strided copy gathers each channel's N states into a row;
 *   3. syncbn_merge_rows: the channel's state on this GPU;
 *   4. syncbn_merge_combine_nccl: the channels' states combined across GPUs,
 *      in rank order, the same bits on every GPU;
 *   5. the same through the device path: a window made by every rank
 *      together, then syncbn_merge_combine_nccl_window, whose exchange runs
 *      inside the kernel; it must give the bits of step 4. Where the window
 *      is refused (no NCCL device API, another library version than the
 *      headers', GPUs that are not peers) the example says why and goes on.
 * Each child checks its result against the host fold of every GPU's data.
 * usage: demo_syncbn [GPUS]   (default: every visible GPU) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "syncbn.h"

enum { N = 8, C = 32, H = 28, W = 28, HW = H * W };

#define CUDA(call)                                                                                   \
  do {                                                                                               \
    cudaError_t e_ = (call);                                                                         \
    if (e_ != cudaSuccess) {                                                                         \
      fprintf(stderr, "rank %d: %s at %s:%d\n", rank, cudaGetErrorString(e_), __FILE__, __LINE__);   \
      return 1;                                                                                      \
    }                                                                                                \
  } while (0)
#define NCCL(call)                                                                                   \
  do {                                                                                               \
    ncclResult_t r_ = (call);                                                                        \
    if (r_ != ncclSuccess) {                                                                         \
      fprintf(stderr, "rank %d: %s at %s:%d\n", rank, ncclGetErrorString(r_), __FILE__, __LINE__);   \
      return 1;                                                                                      \
    }                                                                                                \
  } while (0)

/* GPU `rank`'s activation: values that differ per GPU in mean and spread. */
static float value(int rank, size_t i) {
  unsigned x = (unsigned)(i * 2654435761u) ^ (unsigned)(rank * 40503u);
  return (float)rank + (float)(x % 1000) / 250.0f * (1.0f + 0.5f * (float)rank);
}

static int run_rank(int rank, int nranks, ncclUniqueId id) {
  const size_t total = (size_t)N * C * HW;
  float *h_x = malloc(total * sizeof(float));
  for (size_t i = 0; i < total; i++)
    h_x[i] = value(rank, i);

  CUDA(cudaSetDevice(rank));
  ncclComm_t comm;
  NCCL(ncclCommInitRank(&comm, nranks, id, rank));
  cudaStream_t stream;
  CUDA(cudaStreamCreate(&stream));
  float *d_x;
  Welford *d_rows, *d_by_channel, *d_channel, *d_window_channel;
  CUDA(cudaMalloc((void **)&d_x, total * sizeof(float)));
  CUDA(cudaMalloc((void **)&d_rows, (size_t)N * C * sizeof(Welford)));
  CUDA(cudaMalloc((void **)&d_by_channel, (size_t)N * C * sizeof(Welford)));
  CUDA(cudaMalloc((void **)&d_channel, (size_t)C * sizeof(Welford)));
  CUDA(cudaMalloc((void **)&d_window_channel, (size_t)C * sizeof(Welford)));
  size_t bytes = syncbn_stats_rows_temp_bytes((size_t)N * C, HW);
  size_t b2 = syncbn_merge_rows_temp_bytes(C, N), b3 = syncbn_merge_combine_nccl_temp_bytes(C, nranks);
  if (b2 > bytes) bytes = b2;
  if (b3 > bytes) bytes = b3;
  void *d_temp;
  CUDA(cudaMalloc(&d_temp, bytes));
  CUDA(cudaMemcpyAsync(d_x, h_x, total * sizeof(float), cudaMemcpyHostToDevice, stream));

  /* 1. row (n, c) of H*W values -> d_rows[n * C + c] */
  CUDA(syncbn_stats_rows(d_x, (size_t)N * C, HW, d_rows, d_temp, bytes, stream));
  /* 2. d_by_channel[c * N + n] = d_rows[n * C + c]: one strided copy per channel */
  for (int c = 0; c < C; c++)
    CUDA(cudaMemcpy2DAsync(d_by_channel + (size_t)c * N, sizeof(Welford), d_rows + c, C * sizeof(Welford),
                           sizeof(Welford), N, cudaMemcpyDeviceToDevice, stream));
  /* 3. this GPU's state per channel */
  CUDA(syncbn_merge_rows(d_by_channel, C, N, d_channel, d_temp, bytes, stream));
  /* 4. across GPUs, in place (a copy of this GPU's states is kept for step 5) */
  CUDA(cudaMemcpyAsync(d_window_channel, d_channel, (size_t)C * sizeof(Welford), cudaMemcpyDeviceToDevice, stream));
  NCCL(syncbn_merge_combine_nccl(d_channel, C, d_channel, d_temp, bytes, comm, stream));
  Welford got[C];
  CUDA(cudaMemcpyAsync(got, d_channel, sizeof got, cudaMemcpyDeviceToHost, stream));
  CUDA(cudaStreamSynchronize(stream));

  /* 5. the device path: every rank makes the window together, and frees it together */
  const char *device_path = "refused";
  syncbn_nccl_window *win = NULL;
  ncclResult_t made = syncbn_nccl_window_create(comm, syncbn_merge_combine_nccl_window_bytes(C, nranks), &win);
  if (made == ncclSuccess) {
    NCCL(syncbn_merge_combine_nccl_window(d_window_channel, C, d_window_channel, win, stream));
    Welford again[C];
    CUDA(cudaMemcpyAsync(again, d_window_channel, sizeof again, cudaMemcpyDeviceToHost, stream));
    CUDA(cudaStreamSynchronize(stream));
    NCCL(syncbn_nccl_window_destroy(win));
    device_path = memcmp(again, got, sizeof got) == 0 ? "the same bits" : "DIFFERENT bits";
  } else if (made == ncclInvalidUsage) {
    int version = 0;
    ncclGetVersion(&version);
    fprintf(stderr, "rank %d: no window for the device path (NCCL %d loaded, headers %d, or GPUs not peers)\n", rank,
            version, NCCL_VERSION_CODE);
  } else {
    NCCL(made);
  }

  /* the host fold of every GPU's data, in rank order, per channel */
  int bad = 0;
  for (int c = 0; c < C; c++) {
    Welford want = {0, 0, 0};
    for (int q = 0; q < nranks; q++)
      for (int n = 0; n < N; n++)
        for (int i = 0; i < HW; i++)
          want = welford_fold(want, value(q, ((size_t)n * C + c) * HW + i));
    double var = got[c].m2 / got[c].n, want_var = want.m2 / want.n;
    if (got[c].n != want.n || fabs(got[c].mean - want.mean) > 1e-4 * (1 + fabs(want.mean)) ||
        fabs(var - want_var) > 1e-3 * want_var) {
      fprintf(stderr, "rank %d channel %d: n %.0f mean %.6f var %.6f, host fold n %.0f mean %.6f var %.6f\n", rank, c,
              got[c].n, got[c].mean, var, want.n, want.mean, want_var);
      bad++;
    }
  }
  printf("rank %d of %d: %d channels over %d x %d x %d x %d per GPU; channel 0: mean %.4f var %.4f; %s; device path: %s\n",
         rank, nranks, C, N, C, H, W, got[0].mean, got[0].m2 / got[0].n,
         bad ? "DIFFERS from the host fold" : "equal to the host fold", device_path);
  bad += strcmp(device_path, "DIFFERENT bits") == 0;
  cudaFree(d_x);
  cudaFree(d_rows);
  cudaFree(d_by_channel);
  cudaFree(d_channel);
  cudaFree(d_window_channel);
  cudaFree(d_temp);
  ncclCommDestroy(comm);
  free(h_x);
  return bad != 0;
}

int main(int argc, char **argv) {
  int nranks = argc > 1 ? atoi(argv[1]) : 0;
  if (nranks <= 0) { /* every visible GPU, asked in a child so the parent never initializes CUDA */
    int fds[2];
    if (pipe(fds) != 0)
      return 1;
    pid_t pid = fork();
    if (pid == 0) {
      int count = 0;
      if (cudaGetDeviceCount(&count) != cudaSuccess)
        count = 0;
      _exit(write(fds[1], &count, sizeof count) == sizeof count ? 0 : 1);
    }
    if (read(fds[0], &nranks, sizeof nranks) != sizeof nranks)
      nranks = 0;
    waitpid(pid, NULL, 0);
    if (nranks <= 0) {
      fprintf(stderr, "demo_syncbn: no GPU\n");
      return 1;
    }
  }
  /* pipes[r]: the unique id from rank 0 to rank r */
  int(*pipes)[2] = calloc((size_t)nranks, sizeof *pipes);
  for (int r = 1; r < nranks; r++)
    if (pipe(pipes[r]) != 0)
      return 1;
  pid_t *pids = calloc((size_t)nranks, sizeof *pids);
  for (int rank = 0; rank < nranks; rank++) {
    pids[rank] = fork();
    if (pids[rank] != 0)
      continue;
    ncclUniqueId id;
    if (rank == 0) {
      if (ncclGetUniqueId(&id) != ncclSuccess)
        _exit(1);
      for (int r = 1; r < nranks; r++)
        if (write(pipes[r][1], &id, sizeof id) != sizeof id)
          _exit(1);
    } else if (read(pipes[rank][0], &id, sizeof id) != sizeof id) {
      _exit(1);
    }
    int failed = run_rank(rank, nranks, id);
    fflush(stdout); /* _exit does not flush, and stdout may be a pipe */
    fflush(stderr);
    _exit(failed);
  }
  int failed = 0;
  for (int rank = 0; rank < nranks; rank++) {
    int status = 0;
    waitpid(pids[rank], &status, 0);
    failed += !WIFEXITED(status) || WEXITSTATUS(status) != 0;
  }
  printf("%s\n", failed ? "syncbn: FAILED" : "syncbn: every GPU equal to the host fold");
  free(pipes);
  free(pids);
  return failed != 0;
}
