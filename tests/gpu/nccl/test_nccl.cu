/* The reductions across GPUs (nccl_test.json), on real GPUs through NCCL.
 * (fdot and idot read two arrays: the multi-input forms across GPUs; above
 * takes run-time params.)
 * usage: test_nccl --threads [--big]         one process, ncclCommInitAll over
 *                                            every visible GPU, a thread each
 *        test_nccl --rank R --nranks N --id FILE [--big]
 *                                            one process per GPU; rank 0 writes
 *                                            the unique id to FILE
 * Every rank builds all ranks' data on the host (same seeds), so it checks
 * its result against nt_R_host over the concatenation, and compares its
 * bits with every other rank's through an all-gather. Each case runs twice:
 * through NCCL's host-launched collectives (M_R_nccl, M_R_combine_nccl)
 * and through the device path (M_R_nccl_window, M_R_combine_nccl_window,
 * one nt_nccl_window per rank). */
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>
#include <unistd.h>
#include "nt.h"
#include "nt.cuh"

#define CUDA_OK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(2); } } while (0)
#define NCCL_OK(x) do { ncclResult_t r_ = (x); if (r_ != ncclSuccess) { \
  fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, ncclGetErrorString(r_)); exit(2); } } while (0)

static bool big = false;

struct Rank {
  ncclComm_t comm;
  int rank, nranks;
  cudaStream_t stream;
  nt_nccl_window *win = nullptr; /* the device path's window, made in run_rank */
  int checks = 0, failures = 0;
  void check(bool ok, const std::string &what) {
    checks++;
    if (!ok) {
      failures++;
      if (failures <= 30)
        fprintf(stderr, "rank %d: FAIL %s\n", rank, what.c_str());
    }
  }
};

/* ---- data ---- */
static unsigned long long mix(unsigned long long x) {
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}
static void gen(int *x, size_t n, unsigned long long seed) {
  for (size_t i = 0; i < n; i++) x[i] = (int)(mix(seed * 1000003 + i) % 2001) - 1000;
}
static void gen(unsigned *x, size_t n, unsigned long long seed) {
  for (size_t i = 0; i < n; i++) x[i] = (unsigned)mix(seed * 1000003 + i);
}
/* multiples of 1/64 in [-8, 8): ties for argmin/argmax */
static void gen(float *x, size_t n, unsigned long long seed) {
  for (size_t i = 0; i < n; i++) x[i] = (float)((long long)(mix(seed * 1000003 + i) % 1024) - 512) / 64.0f;
}

/* ---- comparing results: bits without padding; floats within a bound ---- */
static bool same(const nt_famax_result &a, const nt_famax_result &b) {
  return memcmp(&a.value, &b.value, 4) == 0 && a.index == b.index;
}
static bool same(const nt_iamin_result &a, const nt_iamin_result &b) { return a.value == b.value && a.index == b.index; }
template <class T> static bool same(const T &a, const T &b) { return memcmp(&a, &b, sizeof(T)) == 0; }
static bool near(float a, float b, float scale) { return a == b || std::fabs(a - b) <= 1e-5f * scale + 1e-6f; }
template <class T> static bool close(const T &gpu, const T &host, double) { return same(gpu, host); }
static bool close(const float &gpu, const float &host, double abs_sum) { return near(gpu, host, (float)abs_sum); }
static bool close(const Welford &g, const Welford &h, double abs_sum) {
  return g.n == h.n && near(g.mean, h.mean, (float)(abs_sum / (h.n > 0 ? h.n : 1))) &&
         std::fabs(g.m2 - h.m2) <= 1e-4f * std::fabs(h.m2) + 1e-3f;
}
/* A global result against the CPU. Welford's is held to the same bound
 * against its exact statistics (in double) rather than against
 * nt_welford_host: the sequential float fold itself drifts past the bound
 * at this size (M2 2e-4 off at 585,354 elements, the "different n" case on 4
 * ranks), while the GPU's tree of combines stays within it. */
template <class IN, class ACC>
static bool global_close(const ACC &gpu, const ACC &host, const IN *, size_t, double scale, std::string *) {
  return close(gpu, host, scale);
}
static bool global_close(const Welford &g, const Welford &, const float *x, size_t n, double abs_sum,
                         std::string *detail) {
  double mean = 0, m2 = 0;
  for (size_t i = 0; i < n; i++) mean += x[i];
  mean = n ? mean / (double)n : 0;
  for (size_t i = 0; i < n; i++) m2 += (x[i] - mean) * (x[i] - mean);
  const double scale = abs_sum / (double)(n ? n : 1);
  char text[200];
  snprintf(text, sizeof text, " (n %.0f mean %.9g m2 %.9g; exact %zu %.9g %.9g)", g.n, g.mean, g.m2, n, mean, m2);
  *detail = text;
  return g.n == (float)n && std::fabs(g.mean - mean) <= 1e-5 * scale + 1e-6 && std::fabs(g.m2 - m2) <= 1e-4 * m2 + 1e-3;
}
static double abs_sum(const int *, size_t) { return 0; }
static double abs_sum(const unsigned *, size_t) { return 0; }
static double abs_sum(const float *x, size_t n) {
  double s = 0;
  for (size_t i = 0; i < n; i++) s += std::fabs(x[i]);
  return s;
}

/* Whether d_ptr holds the same `count` values (compared with same()) on
 * every rank: an all-gather of the bytes, then a comparison on the host. */
template <class T> static bool same_everywhere(Rank &R, const T *d_ptr, size_t count) {
  if (count == 0) return true;
  T *d_all;
  CUDA_OK(cudaMalloc(&d_all, sizeof(T) * count * R.nranks));
  NCCL_OK(ncclAllGather(d_ptr, d_all, sizeof(T) * count, ncclUint8, R.comm, R.stream));
  std::vector<T> all(count * R.nranks);
  CUDA_OK(cudaMemcpyAsync(all.data(), d_all, sizeof(T) * all.size(), cudaMemcpyDeviceToHost, R.stream));
  CUDA_OK(cudaStreamSynchronize(R.stream));
  CUDA_OK(cudaFree(d_all));
  for (int q = 1; q < R.nranks; q++)
    for (size_t i = 0; i < count; i++)
      if (!same(all[i], all[q * count + i])) return false;
  return true;
}

template <class IN, class ACC> struct Reduction {
  const char *name;
  size_t (*temp_bytes)(size_t, int);
  ncclResult_t (*nccl)(const IN *, size_t, ACC *, void *, size_t, ncclComm_t, cudaStream_t);
  size_t (*combine_temp_bytes)(size_t, int);
  ncclResult_t (*combine_nccl)(const ACC *, size_t, ACC *, void *, size_t, ncclComm_t, cudaStream_t);
  ACC (*host)(const IN *, size_t);
  ACC (*combine)(const ACC &, const ACC &); /* the operator's, on the host */
  size_t (*window_bytes)(size_t, int);
  ncclResult_t (*nccl_window)(const IN *, size_t, ACC *, nt_nccl_window *, cudaStream_t);
  size_t (*combine_window_bytes)(size_t, int);
  ncclResult_t (*combine_window)(const ACC *, size_t, ACC *, nt_nccl_window *, cudaStream_t);
};
#define REDUCTION(R) {#R, nt_##R##_nccl_temp_bytes, nt_##R##_nccl, nt_##R##_combine_nccl_temp_bytes, \
                      nt_##R##_combine_nccl, nt_##R##_host, nt::detail::R##_op::combine, \
                      nt_##R##_nccl_window_bytes, nt_##R##_nccl_window, nt_##R##_combine_nccl_window_bytes, \
                      nt_##R##_combine_nccl_window}

/* Setup on the rank's stream: it is non-blocking, so cudaMemset and
 * cudaMemcpy on the legacy stream would race with the calls under test. */
static void upload(Rank &R, void *dst, const void *src, size_t bytes) {
  CUDA_OK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, R.stream));
  CUDA_OK(cudaStreamSynchronize(R.stream));
}
static void download(Rank &R, void *dst, const void *src, size_t bytes) {
  CUDA_OK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, R.stream));
  CUDA_OK(cudaStreamSynchronize(R.stream));
}
/* A garbage pattern for the temporary storage, different each call. */
static void spoil(Rank &R, void *d_temp, size_t bytes, int salt) {
  CUDA_OK(cudaMemsetAsync(d_temp, 0x5a ^ salt, bytes, R.stream));
}

/* The global reduction for the per-rank counts ns[]: result vs the host
 * fold of the concatenation, the same on every rank, the same on repeats,
 * and under graph capture and replay. */
template <class IN, class ACC>
static void global_case(Rank &R, const Reduction<IN, ACC> &red, const std::vector<size_t> &ns, unsigned long long seed,
                        const char *label, bool window) {
  size_t total = 0, mine = 0;
  for (int q = 0; q < R.nranks; q++) { if (q == R.rank) mine = total; total += ns[q]; }
  std::vector<IN> all(total ? total : 1);
  gen(all.data(), total, seed);
  const size_t n = ns[R.rank];
  IN *d_in = nullptr;
  ACC *d_out;
  void *d_temp;
  CUDA_OK(cudaMalloc(&d_in, sizeof(IN) * (n ? n : 1)));
  upload(R, d_in, all.data() + mine, sizeof(IN) * n);
  CUDA_OK(cudaMalloc(&d_out, sizeof(ACC) * 4));
  const size_t tb = red.temp_bytes(n, R.nranks);
  CUDA_OK(cudaMalloc(&d_temp, tb));
  const ACC expected = red.host(all.data(), total);
  const double scale = abs_sum(all.data(), total);
  std::string what = std::string(red.name) + (window ? "_nccl_window " : "_nccl ") + label;
  auto call = [&](ACC *out) {
    return window ? red.nccl_window(d_in, n, out, R.win, R.stream) : red.nccl(d_in, n, out, d_temp, tb, R.comm, R.stream);
  };
  ACC first{};
  for (int rep = 0; rep < 3; rep++) {
    spoil(R, d_temp, tb, rep);
    ncclResult_t res = call(d_out + rep);
    R.check(res == ncclSuccess, what + ": returns " + ncclGetErrorString(res));
    ACC got;
    CUDA_OK(cudaMemcpyAsync(&got, d_out + rep, sizeof got, cudaMemcpyDeviceToHost, R.stream));
    CUDA_OK(cudaStreamSynchronize(R.stream));
    if (rep == 0) {
      first = got;
      std::string detail;
      R.check(global_close(got, expected, all.data(), total, scale, &detail),
              what + ": differs from the host fold of the concatenation" + detail);
      R.check(same_everywhere(R, d_out, 1), what + ": ranks disagree");
    } else {
      R.check(same(got, first), what + ": a repeat differs");
    }
  }
  /* graph: captured once, replayed twice, into d_out[3] */
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  CUDA_OK(cudaStreamBeginCapture(R.stream, cudaStreamCaptureModeThreadLocal));
  ncclResult_t res = call(d_out + 3);
  CUDA_OK(cudaStreamEndCapture(R.stream, &graph));
  R.check(res == ncclSuccess, what + ": capture returns " + ncclGetErrorString(res));
  CUDA_OK(cudaGraphInstantiate(&exec, graph, 0));
  for (int rep = 0; rep < 2; rep++) {
    spoil(R, d_temp, tb, 7 + rep);
    CUDA_OK(cudaGraphLaunch(exec, R.stream));
    ACC got;
    CUDA_OK(cudaMemcpyAsync(&got, d_out + 3, sizeof got, cudaMemcpyDeviceToHost, R.stream));
    CUDA_OK(cudaStreamSynchronize(R.stream));
    R.check(same(got, first), what + ": graph replay differs");
  }
  CUDA_OK(cudaGraphExecDestroy(exec));
  CUDA_OK(cudaGraphDestroy(graph));
  CUDA_OK(cudaFree(d_in));
  CUDA_OK(cudaFree(d_out));
  CUDA_OK(cudaFree(d_temp));
}

/* Rank q's partials: the flat reduction's host fold of chunks of a stream,
 * so that the states are realistic (Welford counts, max-subarray sums). */
template <class IN, class ACC>
static void make_partials(const Reduction<IN, ACC> &red, int q, size_t count, unsigned long long seed, ACC *out) {
  IN x[4];
  for (size_t i = 0; i < count; i++) {
    size_t len = (mix(seed + 17 * i + (unsigned long long)q) % 5); /* 0..4 inputs: some identities */
    gen(x, len, seed * 31 + i * 64 + (unsigned long long)q);
    out[i] = red.host(x, len);
  }
}

/* The element-wise combine of `count` partials per rank, in place or not,
 * with garbage temp: against the host's fold in rank order, the same on
 * every rank. */
template <class IN, class ACC>
static void combine_case(Rank &R, const Reduction<IN, ACC> &red, size_t count, bool in_place, unsigned long long seed,
                         bool window) {
  std::vector<ACC> mine(count), expected(count), other(count);
  make_partials(red, R.rank, count, seed, mine.data());
  make_partials(red, 0, count, seed, expected.data());
  for (int q = 1; q < R.nranks; q++) {
    make_partials(red, q, count, seed, other.data());
    for (size_t i = 0; i < count; i++)
      expected[i] = red.combine(expected[i], other[i]);
  }
  ACC *d_partials, *d_out;
  void *d_temp;
  CUDA_OK(cudaMalloc(&d_partials, sizeof(ACC) * (count ? count : 1)));
  d_out = d_partials;
  if (!in_place)
    CUDA_OK(cudaMalloc(&d_out, sizeof(ACC) * (count ? count : 1)));
  const size_t tb = red.combine_temp_bytes(count, R.nranks);
  CUDA_OK(cudaMalloc(&d_temp, tb));
  spoil(R, d_temp, tb, (int)count);
  upload(R, d_partials, mine.data(), sizeof(ACC) * count);
  auto call = [&] {
    return window ? red.combine_window(d_partials, count, d_out, R.win, R.stream)
                  : red.combine_nccl(d_partials, count, d_out, d_temp, tb, R.comm, R.stream);
  };
  ncclResult_t res = call();
  std::string what = std::string(red.name) + (window ? " combine_nccl_window count " : " combine_nccl count ") +
                     std::to_string(count) + (in_place ? " in place" : "");
  R.check(res == ncclSuccess, what + ": returns " + ncclGetErrorString(res));
  std::vector<ACC> got(count);
  CUDA_OK(cudaMemcpyAsync(got.data(), d_out, sizeof(ACC) * count, cudaMemcpyDeviceToHost, R.stream));
  CUDA_OK(cudaStreamSynchronize(R.stream));
  size_t bad = 0;
  for (size_t i = 0; i < count; i++)
    if (!close(got[i], expected[i], 64.0 * R.nranks * 8)) bad++;
  R.check(bad == 0, what + ": " + std::to_string(bad) + " elements differ from the host fold in rank order");
  R.check(same_everywhere(R, d_out, count), what + ": ranks disagree");
  if (!in_place) { /* the partials are left as they were */
    std::vector<ACC> back(count);
    download(R, back.data(), d_partials, sizeof(ACC) * count);
    R.check(count == 0 || memcmp(back.data(), mine.data(), sizeof(ACC) * count) == 0, what + ": partials changed");
  }
  if (count == 1000 && !in_place) { /* graph capture and replay */
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    CUDA_OK(cudaMemsetAsync(d_out, 0, sizeof(ACC) * count, R.stream));
    CUDA_OK(cudaStreamBeginCapture(R.stream, cudaStreamCaptureModeThreadLocal));
    res = call();
    CUDA_OK(cudaStreamEndCapture(R.stream, &graph));
    R.check(res == ncclSuccess, what + ": capture returns " + ncclGetErrorString(res));
    CUDA_OK(cudaGraphInstantiate(&exec, graph, 0));
    for (int rep = 0; rep < 2; rep++) {
      spoil(R, d_temp, tb, 3 + rep);
      CUDA_OK(cudaGraphLaunch(exec, R.stream));
      std::vector<ACC> again(count);
      CUDA_OK(cudaMemcpyAsync(again.data(), d_out, sizeof(ACC) * count, cudaMemcpyDeviceToHost, R.stream));
      CUDA_OK(cudaStreamSynchronize(R.stream));
      size_t diff = 0;
      for (size_t i = 0; i < count; i++) diff += !same(again[i], got[i]);
      R.check(diff == 0, what + ": graph replay differs");
    }
    CUDA_OK(cudaGraphExecDestroy(exec));
    CUDA_OK(cudaGraphDestroy(graph));
  }
  CUDA_OK(cudaFree(d_partials));
  if (!in_place) CUDA_OK(cudaFree(d_out));
  CUDA_OK(cudaFree(d_temp));
}

/* After refused calls: d_out still holds its 0x77 sentinel. */
static void expect_untouched(Rank &R, const void *d_out, size_t bytes, const std::string &what) {
  CUDA_OK(cudaStreamSynchronize(R.stream));
  std::vector<unsigned char> back(bytes);
  download(R, back.data(), d_out, back.size());
  bool untouched = true;
  for (unsigned char b : back) untouched = untouched && b == 0x77;
  R.check(untouched, what + "d_out was written");
}

/* Bad arguments: ncclInvalidArgument, nothing launched (d_out keeps its
 * sentinel, and the communicator still works: the next call would hang or
 * fail if a rank had started a collective). */
template <class IN, class ACC> static void bad_arguments(Rank &R, const Reduction<IN, ACC> &red) {
  const size_t n = 100, tb = red.temp_bytes(n, R.nranks), ctb = red.combine_temp_bytes(n, R.nranks);
  IN *d_in;
  ACC *d_out, *d_part;
  char *d_temp;
  CUDA_OK(cudaMalloc(&d_in, sizeof(IN) * n));
  CUDA_OK(cudaMalloc(&d_out, sizeof(ACC) * (n + 1)));
  CUDA_OK(cudaMalloc(&d_part, sizeof(ACC) * (n + 1)));
  CUDA_OK(cudaMalloc(&d_temp, tb > ctb ? tb : ctb));
  CUDA_OK(cudaMemsetAsync(d_out, 0x77, sizeof(ACC) * (n + 1), R.stream));
  CUDA_OK(cudaStreamSynchronize(R.stream));
  std::string what = std::string(red.name) + " bad arguments: ";
  struct { const char *name; ncclResult_t res; } flat[] = {
    {"NULL comm", red.nccl(d_in, n, d_out, d_temp, tb, nullptr, R.stream)},
    {"NULL d_in", red.nccl(nullptr, n, d_out, d_temp, tb, R.comm, R.stream)},
    {"NULL d_out", red.nccl(d_in, n, nullptr, d_temp, tb, R.comm, R.stream)},
    {"NULL d_temp", red.nccl(d_in, n, d_out, nullptr, tb, R.comm, R.stream)},
    {"short temp", red.nccl(d_in, n, d_out, d_temp, tb - 1, R.comm, R.stream)},
    {"misaligned d_in", red.nccl((const IN *)((const char *)d_in + 1), n - 1, d_out, d_temp, tb, R.comm, R.stream)},
    {"misaligned d_out", red.nccl(d_in, n, (ACC *)((char *)d_out + 1), d_temp, tb, R.comm, R.stream)},
    {"combine NULL comm", red.combine_nccl(d_part, n, d_out, d_temp, ctb, nullptr, R.stream)},
    {"combine NULL partials", red.combine_nccl(nullptr, n, d_out, d_temp, ctb, R.comm, R.stream)},
    {"combine NULL d_out", red.combine_nccl(d_part, n, nullptr, d_temp, ctb, R.comm, R.stream)},
    /* (where no temp is needed these are valid calls: in place, so d_out stays untouched) */
    {"combine NULL d_temp", red.combine_nccl(d_part, n, ctb ? d_out : d_part, nullptr, ctb, R.comm, R.stream)},
    {"combine short temp", red.combine_nccl(d_part, n, ctb ? d_out : d_part, d_temp, ctb ? ctb - 1 : 0, R.comm, R.stream)},
    {"combine misaligned", red.combine_nccl(d_part, n, (ACC *)((char *)d_out + 1), d_temp, ctb, R.comm, R.stream)},
    {"combine partly overlapping", red.combine_nccl(d_out, n, d_out + 1, d_temp, ctb, R.comm, R.stream)},
  };
  for (auto &c : flat) {
    /* a combine that needs no temp (ncclAllReduce) takes any d_temp */
    bool no_temp = ctb == 0 && (!strcmp(c.name, "combine NULL d_temp") || !strcmp(c.name, "combine short temp"));
    if (no_temp) {
      R.check(c.res == ncclSuccess, what + c.name + " (needs no temp) returns " + ncclGetErrorString(c.res));
      continue;
    }
    R.check(c.res == ncclInvalidArgument, what + c.name + " returns " + ncclGetErrorString(c.res));
  }
  expect_untouched(R, d_out, sizeof(ACC) * (n + 1), what);
  CUDA_OK(cudaFree(d_in));
  CUDA_OK(cudaFree(d_out));
  CUDA_OK(cudaFree(d_part));
  CUDA_OK(cudaFree(d_temp));
}

/* The device path's bad arguments: ncclInvalidArgument with nothing
 * launched and d_out untouched (every rank makes the same calls, so none
 * waits at a barrier for a peer that was refused). */
template <class IN, class ACC> static void bad_window_arguments(Rank &R, const Reduction<IN, ACC> &red) {
  const size_t n = 100;
  IN *d_in;
  ACC *d_out, *d_part;
  CUDA_OK(cudaMalloc(&d_in, sizeof(IN) * n));
  CUDA_OK(cudaMalloc(&d_out, sizeof(ACC) * (n + 1)));
  CUDA_OK(cudaMalloc(&d_part, sizeof(ACC) * (n + 1)));
  CUDA_OK(cudaMemsetAsync(d_out, 0x77, sizeof(ACC) * (n + 1), R.stream));
  CUDA_OK(cudaStreamSynchronize(R.stream));
  const std::string what = std::string(red.name) + " window bad arguments: ";
  const size_t too_many = (size_t)1 << 40; /* more than the window holds */
  struct { const char *name; ncclResult_t res; } cases[] = {
    {"NULL window", red.nccl_window(d_in, n, d_out, nullptr, R.stream)},
    {"NULL d_in", red.nccl_window(nullptr, n, d_out, R.win, R.stream)},
    {"NULL d_out", red.nccl_window(d_in, n, nullptr, R.win, R.stream)},
    {"misaligned d_in", red.nccl_window((const IN *)((const char *)d_in + 1), n - 1, d_out, R.win, R.stream)},
    {"misaligned d_out", red.nccl_window(d_in, n, (ACC *)((char *)d_out + 1), R.win, R.stream)},
    {"combine NULL window", red.combine_window(d_part, n, d_out, nullptr, R.stream)},
    {"combine NULL partials", red.combine_window(nullptr, n, d_out, R.win, R.stream)},
    {"combine NULL d_out", red.combine_window(d_part, n, nullptr, R.win, R.stream)},
    {"combine misaligned", red.combine_window(d_part, n, (ACC *)((char *)d_out + 1), R.win, R.stream)},
    {"combine partly overlapping", red.combine_window(d_out, n, d_out + 1, R.win, R.stream)},
    /* in place, so that only the window's size refuses it */
    {"combine more than the window holds", red.combine_window(d_part, too_many, d_part, R.win, R.stream)},
  };
  for (auto &c : cases)
    R.check(c.res == ncclInvalidArgument, what + c.name + " returns " + ncclGetErrorString(c.res));
  expect_untouched(R, d_out, sizeof(ACC) * (n + 1), what);
  CUDA_OK(cudaFree(d_in));
  CUDA_OK(cudaFree(d_out));
  CUDA_OK(cudaFree(d_part));
}

/* Holds the stream up for about `ns` nanoseconds. */
__global__ void hold_up(unsigned long long ns) {
  unsigned long long start, now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do {
    __nanosleep(1000);
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - start < ns);
}

/* Calls back to back, with no host synchronisation between them: `calls`
 * global calls, each followed by a combine of `count` states when the
 * operator's combine may be compared, with ranks held up before some calls
 * (`steady`: rank (i mod nranks) for 30 µs before call i; otherwise a
 * pseudo-random quarter of the calls, 10 or 20 µs, each rank its own). The
 * ranks run out of step, so a fast rank's next call meets a slow rank still
 * in the last one (the window's two record buffers; a combine that stores
 * into a rank whose global call has not returned). Every global result must
 * equal the first (checked against the host fold) and every combine the
 * first combine (checked against the fold in rank order), on every rank. */
template <class IN, class ACC>
static void burst_case(Rank &R, const Reduction<IN, ACC> &red, bool with_combine, bool window, int calls,
                       size_t count, bool steady) {
  std::vector<size_t> ns(R.nranks);
  size_t total = 0, mine = 0;
  for (int q = 0; q < R.nranks; q++) {
    ns[q] = 200000 + 1000 * (size_t)q;
    if (q == R.rank) mine = total;
    total += ns[q];
  }
  const size_t n = ns[R.rank];
  std::vector<IN> all(total);
  gen(all.data(), total, 41);
  std::vector<ACC> partials(count), expected(count), other(count);
  make_partials(red, R.rank, count, 43, partials.data());
  make_partials(red, 0, count, 43, expected.data());
  for (int q = 1; q < R.nranks; q++) {
    make_partials(red, q, count, 43, other.data());
    for (size_t i = 0; i < count; i++) expected[i] = red.combine(expected[i], other[i]);
  }
  IN *d_in;
  ACC *d_out, *d_partials, *d_combined;
  void *d_temp;
  const size_t tb = std::max(red.temp_bytes(n, R.nranks), red.combine_temp_bytes(count, R.nranks));
  CUDA_OK(cudaMalloc(&d_in, sizeof(IN) * n));
  CUDA_OK(cudaMalloc(&d_out, sizeof(ACC) * calls));
  CUDA_OK(cudaMalloc(&d_partials, sizeof(ACC) * count));
  CUDA_OK(cudaMalloc(&d_combined, sizeof(ACC) * count * calls));
  CUDA_OK(cudaMalloc(&d_temp, tb));
  upload(R, d_in, all.data() + mine, sizeof(IN) * n);
  upload(R, d_partials, partials.data(), sizeof(ACC) * count);
  spoil(R, d_temp, tb, 9);
  const std::string what = std::string(red.name) + (window ? " window" : " host path") + " burst of " +
                           std::to_string(calls) + (with_combine ? " global calls and combines" : " global calls");
  int failed = 0;
  for (int i = 0; i < calls; i++) {
    const unsigned long long dice = mix(7919ull * (unsigned long long)i + (unsigned long long)R.rank);
    const unsigned long long hold = steady ? (i % R.nranks == R.rank ? 30000 : 0) : dice % 4 ? 0 : 10000 * (1 + dice / 4 % 2);
    if (hold) {
      hold_up<<<1, 1, 0, R.stream>>>(hold);
      CUDA_OK(cudaPeekAtLastError());
    }
    ncclResult_t res = window ? red.nccl_window(d_in, n, d_out + i, R.win, R.stream)
                              : red.nccl(d_in, n, d_out + i, d_temp, tb, R.comm, R.stream);
    failed += res != ncclSuccess;
    if (with_combine) {
      ACC *out = d_combined + (size_t)i * count;
      res = window ? red.combine_window(d_partials, count, out, R.win, R.stream)
                   : red.combine_nccl(d_partials, count, out, d_temp, tb, R.comm, R.stream);
      failed += res != ncclSuccess;
    }
  }
  R.check(failed == 0, what + ": " + std::to_string(failed) + " calls failed");
  std::vector<ACC> got(calls), combined(with_combine ? count * calls : 0);
  download(R, got.data(), d_out, sizeof(ACC) * calls);
  std::string detail;
  R.check(global_close(got[0], red.host(all.data(), total), all.data(), total, abs_sum(all.data(), total), &detail),
          what + ": the first differs from the host fold of the concatenation" + detail);
  int differ = 0;
  for (int i = 1; i < calls; i++) differ += !same(got[i], got[0]);
  R.check(differ == 0, what + ": " + std::to_string(differ) + " global results differ from the first");
  R.check(same_everywhere(R, d_out, calls), what + ": ranks disagree");
  if (with_combine) {
    download(R, combined.data(), d_combined, sizeof(ACC) * count * calls);
    size_t bad = 0, changed = 0;
    for (size_t k = 0; k < count; k++) {
      bad += !close(combined[k], expected[k], 64.0 * R.nranks * 8);
      for (int i = 1; i < calls; i++) changed += !same(combined[(size_t)i * count + k], combined[k]);
    }
    R.check(bad == 0, what + ": " + std::to_string(bad) + " elements of the first combine differ from the host fold");
    R.check(changed == 0, what + ": " + std::to_string(changed) + " combined elements differ from the first combine's");
    R.check(same_everywhere(R, d_combined, count * calls), what + ": ranks disagree on the combines");
  }
  CUDA_OK(cudaFree(d_in));
  CUDA_OK(cudaFree(d_out));
  CUDA_OK(cudaFree(d_partials));
  CUDA_OK(cudaFree(d_combined));
  CUDA_OK(cudaFree(d_temp));
}

template <class IN, class ACC> static void all_cases(Rank &R, const Reduction<IN, ACC> &red, bool float_combine_ok) {
  const int p = R.nranks;
  for (int window = 0; window < (R.win ? 2 : 1); window++) {
    std::vector<size_t> ns(p);
    for (int q = 0; q < p; q++) ns[q] = 1000;
    global_case(R, red, ns, 1, "equal n", window);
    for (int q = 0; q < p; q++) ns[q] = (size_t)(mix((unsigned long long)q + 5) % 300000) + (size_t)q;
    global_case(R, red, ns, 2, "different n", window);
    for (int q = 0; q < p; q++) ns[q] = q == p - 1 ? 0 : 4097 + (size_t)q;
    global_case(R, red, ns, 3, "last rank empty", window);
    for (int q = 0; q < p; q++) ns[q] = q == 0 ? 0 : 777;
    global_case(R, red, ns, 4, "first rank empty", window);
    for (int q = 0; q < p; q++) ns[q] = 0;
    global_case(R, red, ns, 5, "all empty", window);
    for (int q = 0; q < p; q++) ns[q] = 1;
    global_case(R, red, ns, 6, "one each", window);
    if (float_combine_ok) {
      static const size_t counts[] = {0, 1, 2, 3, 7, 1000, 65537, 1u << 20};
      for (size_t c : counts) {
        combine_case(R, red, c, false, 10 + c, window);
        combine_case(R, red, c, true, 20 + c, window);
      }
    }
    burst_case(R, red, float_combine_ok, window, 24, 4096, true);
    burst_case(R, red, float_combine_ok, window, 2000, 64, false);
  }
  bad_arguments(R, red);
  if (R.win)
    bad_window_arguments(R, red);
}

/* The per-rank counts of the two-array and params cases: all equal, random
 * below 200000 (salted), or rank 0 empty; with the total and this rank's
 * first place in the concatenation. */
static std::vector<size_t> rank_counts(const Rank &R, int pattern, unsigned long long salt, size_t *total,
                                       size_t *mine) {
  std::vector<size_t> ns(R.nranks);
  for (int q = 0; q < R.nranks; q++)
    ns[q] = pattern == 0 ? 5000 : pattern == 1 ? (size_t)(mix((unsigned long long)q + salt) % 200000) : (q == 0 ? 0 : 3001);
  *total = *mine = 0;
  for (int q = 0; q < R.nranks; q++) {
    if (q == R.rank)
      *mine = *total;
    *total += ns[q];
  }
  return ns;
}

/* A reduction over two arrays (multi-input) across GPUs: the dot product of
 * the concatenations, for different n per rank and an empty rank; the same
 * bits on every rank; integer exact, double within the flat bound. */
template <class IN, class ACC>
static void dot_case(Rank &R, const char *name, size_t (*temp_bytes)(size_t, int),
                     ncclResult_t (*nccl)(const IN *, const IN *, size_t, ACC *, void *, size_t, ncclComm_t, cudaStream_t),
                     ncclResult_t (*nccl_window)(const IN *, const IN *, size_t, ACC *, nt_nccl_window *, cudaStream_t),
                     ACC (*host)(const IN *, const IN *, size_t)) {
  const int p = R.nranks;
  for (int pattern = 0; pattern < (R.win ? 6 : 3); pattern++) {
    const bool window = pattern >= 3;
    size_t total, mine;
    const std::vector<size_t> ns = rank_counts(R, pattern % 3, 9, &total, &mine);
    std::vector<IN> a(total + 1), b(total + 1);
    gen(a.data(), total, 40 + pattern % 3);
    gen(b.data(), total, 50 + pattern % 3);
    const size_t n = ns[R.rank], tb = temp_bytes(n, p);
    IN *d_a, *d_b;
    ACC *d_out;
    void *d_temp;
    CUDA_OK(cudaMalloc(&d_a, sizeof(IN) * (n + 1)));
    CUDA_OK(cudaMalloc(&d_b, sizeof(IN) * (n + 1)));
    CUDA_OK(cudaMalloc(&d_out, sizeof(ACC)));
    CUDA_OK(cudaMalloc(&d_temp, tb));
    upload(R, d_a, a.data() + mine, sizeof(IN) * n);
    upload(R, d_b, b.data() + mine, sizeof(IN) * n);
    spoil(R, d_temp, tb, pattern);
    std::string what = std::string(name) + (window ? "_nccl_window" : "_nccl") + " (two arrays) pattern " +
                       std::to_string(pattern % 3);
    ncclResult_t res = window ? nccl_window(d_a, d_b, n, d_out, R.win, R.stream)
                              : nccl(d_a, d_b, n, d_out, d_temp, tb, R.comm, R.stream);
    R.check(res == ncclSuccess, what + ": returns " + ncclGetErrorString(res));
    ACC got;
    download(R, &got, d_out, sizeof got);
    const ACC want = host(a.data(), b.data(), total);
    double scale = 0;
    for (size_t i = 0; i < total; i++) scale += std::fabs((double)a[i] * (double)b[i]);
    R.check(got == want || std::fabs((double)got - (double)want) <= 2.0 * (double)(total + p) * 1.2e-7 * scale,
            what + ": differs from the host dot of the concatenations");
    R.check(same_everywhere(R, d_out, 1), what + ": ranks disagree");
    R.check((window ? nccl_window(nullptr, d_b, n + 1, d_out, R.win, R.stream)
                    : nccl(nullptr, d_b, n + 1, d_out, d_temp, tb, R.comm, R.stream)) == ncclInvalidArgument,
            what + ": NULL first array accepted");
    CUDA_OK(cudaFree(d_a));
    CUDA_OK(cudaFree(d_b));
    CUDA_OK(cudaFree(d_out));
    CUDA_OK(cudaFree(d_temp));
  }
}

/* A fold with run-time params across GPUs (above: how many floats exceed
 * params->limit): against the host over the concatenation, the same bits
 * on every rank, the params read at each call (a second call with another
 * limit gives that limit's count), and a NULL params refused. */
static void params_case(Rank &R) {
  const int p = R.nranks;
  for (int pattern = 0; pattern < (R.win ? 6 : 3); pattern++) {
    const bool window = pattern >= 3;
    size_t total, mine;
    const std::vector<size_t> ns = rank_counts(R, pattern % 3, 19, &total, &mine);
    std::vector<float> x(total + 1);
    gen(x.data(), total, 60 + pattern % 3);
    const size_t n = ns[R.rank], tb = nt_above_nccl_temp_bytes(n, p);
    float *d_in;
    unsigned long long *d_out;
    void *d_temp;
    CUDA_OK(cudaMalloc(&d_in, sizeof(float) * (n + 1)));
    CUDA_OK(cudaMalloc(&d_out, sizeof(unsigned long long)));
    CUDA_OK(cudaMalloc(&d_temp, tb));
    upload(R, d_in, x.data() + mine, sizeof(float) * n);
    const std::string what = std::string(window ? "above_nccl_window" : "above_nccl") + " (params) pattern " +
                             std::to_string(pattern % 3);
    Threshold t = {0.25f};
    for (int call = 0; call < 2; call++) {
      spoil(R, d_temp, tb, pattern + call);
      ncclResult_t res = window ? nt_above_nccl_window(d_in, n, &t, d_out, R.win, R.stream)
                                : nt_above_nccl(d_in, n, &t, d_out, d_temp, tb, R.comm, R.stream);
      R.check(res == ncclSuccess, what + ": returns " + ncclGetErrorString(res));
      unsigned long long got;
      download(R, &got, d_out, sizeof got);
      const unsigned long long want = nt_above_host(x.data(), total, &t);
      R.check(got == want, what + " limit " + std::to_string(t.limit) + ": " + std::to_string(got) + ", host " +
                               std::to_string(want));
      R.check(same_everywhere(R, d_out, 1), what + ": ranks disagree");
      t.limit = -0.5f; /* read at the next call */
    }
    R.check((window ? nt_above_nccl_window(d_in, n, nullptr, d_out, R.win, R.stream)
                    : nt_above_nccl(d_in, n, nullptr, d_out, d_temp, tb, R.comm, R.stream)) == ncclInvalidArgument,
            what + ": NULL params accepted");
    CUDA_OK(cudaFree(d_in));
    CUDA_OK(cudaFree(d_out));
    CUDA_OK(cudaFree(d_temp));
  }
}

/* n over 2^31 on rank 0: an int sum with a closed form, and an argmin
 * whose winner sits past 2^31 on rank 0 and ties with one on rank 1. */
__global__ void fill_pattern(int *x, size_t n) {
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    x[i] = (int)(i % 7) - 3;
}
static void big_case(Rank &R) {
  const size_t n = R.rank == 0 ? (1ull << 31) + 12345 : 1000;
  int *d_in;
  CUDA_OK(cudaMalloc(&d_in, sizeof(int) * n));
  fill_pattern<<<4096, 256, 0, R.stream>>>(d_in, n);
  const int low = -5000;
  const size_t at = R.rank == 0 ? (1ull << 31) + 3 : 10;
  CUDA_OK(cudaMemcpyAsync(d_in + at, &low, sizeof low, cudaMemcpyHostToDevice, R.stream));
  size_t tb = nt_isum_nccl_temp_bytes(n, R.nranks), tb2 = nt_iamin_nccl_temp_bytes(n, R.nranks);
  void *d_temp;
  CUDA_OK(cudaMalloc(&d_temp, tb > tb2 ? tb : tb2));
  int *d_sum;
  nt_iamin_result *d_min;
  CUDA_OK(cudaMalloc(&d_sum, sizeof(int)));
  CUDA_OK(cudaMalloc(&d_min, sizeof(nt_iamin_result)));
  for (int window = 0; window < (R.win ? 2 : 1); window++) {
  const std::string path = window ? " (window)" : "";
  R.check((window ? nt_isum_nccl_window(d_in, n, d_sum, R.win, R.stream)
                  : nt_isum_nccl(d_in, n, d_sum, d_temp, tb, R.comm, R.stream)) == ncclSuccess, "big isum returns" + path);
  R.check((window ? nt_iamin_nccl_window(d_in, n, d_min, R.win, R.stream)
                  : nt_iamin_nccl(d_in, n, d_min, d_temp, tb2, R.comm, R.stream)) == ncclSuccess,
          "big iamin returns" + path);
  int sum;
  nt_iamin_result mn;
  CUDA_OK(cudaMemcpyAsync(&sum, d_sum, sizeof sum, cudaMemcpyDeviceToHost, R.stream));
  CUDA_OK(cudaMemcpyAsync(&mn, d_min, sizeof mn, cudaMemcpyDeviceToHost, R.stream));
  CUDA_OK(cudaStreamSynchronize(R.stream));
  /* the closed form, in wrapping 32-bit arithmetic, over every rank */
  unsigned expect = 0;
  for (int q = 0; q < R.nranks; q++) {
    size_t nq = q == 0 ? (1ull << 31) + 12345 : 1000, atq = q == 0 ? (1ull << 31) + 3 : 10;
    unsigned long long s = 0;
    size_t full = nq / 7;
    s += (unsigned long long)full * 0; /* each run of 7 sums to 0 */
    for (size_t i = full * 7; i < nq; i++) s += (unsigned long long)(long long)((int)(i % 7) - 3);
    s += (unsigned long long)(long long)(low - ((int)(atq % 7) - 3));
    expect += (unsigned)s;
  }
  R.check((unsigned)sum == expect,
          "big isum" + path + ": " + std::to_string(sum) + " expected " + std::to_string((int)expect));
  R.check(mn.value == low && mn.index == (long long)((1ull << 31) + 3),
          "big iamin" + path + ": index " + std::to_string(mn.index) + " expected 2^31 + 3 (rank 0's, the lower of a tie)");
  }
  CUDA_OK(cudaFree(d_in));
  CUDA_OK(cudaFree(d_temp));
  CUDA_OK(cudaFree(d_sum));
  CUDA_OK(cudaFree(d_min));
}

/* The window for the device path, big enough for every case below; made by
 * every rank together. Without NCCL's device API (or with a library other
 * than the headers' version, or ranks that cannot reach each other's
 * memory) creation fails with ncclInvalidUsage: that fails the run unless
 * GPUGEN_WINDOW_OPTIONAL=1, which skips the device path's cases. */
static void make_window(Rank &R) {
  size_t bytes = 0;
  auto need = [&](size_t b) { bytes = b > bytes ? b : bytes; };
  need(nt_polyhash_combine_nccl_window_bytes(16u << 20, R.nranks));
  need(nt_welford_combine_nccl_window_bytes(16u << 20, R.nranks));
  need(nt_maxsub_combine_nccl_window_bytes(1u << 20, R.nranks));
  need(nt_famax_combine_nccl_window_bytes(1u << 20, R.nranks));
  need(nt_iamin_combine_nccl_window_bytes(1u << 20, R.nranks));
  need(nt_maxsub_nccl_window_bytes(1u << 20, R.nranks)); /* the flat temp grows slowly with n */
  need(nt_iamin_nccl_window_bytes((1ull << 31) + 12345, R.nranks));
  need(nt_isum_nccl_window_bytes((1ull << 31) + 12345, R.nranks));
  need(nt_fdot_nccl_window_bytes(1u << 20, R.nranks));
  ncclResult_t res = nt_nccl_window_create(R.comm, bytes, &R.win);
  int version = 0;
  ncclGetVersion(&version);
  const char *optional = getenv("GPUGEN_WINDOW_OPTIONAL");
  if (res != ncclSuccess && optional && !strcmp(optional, "1")) {
    printf("rank %d: the device path is skipped: nt_nccl_window_create returns %s (NCCL %d loaded, built with %d)\n",
           R.rank, ncclGetErrorString(res), version, NCCL_VERSION_CODE);
    return;
  }
  R.check(res == ncclSuccess && R.win, std::string("nt_nccl_window_create returns ") + ncclGetErrorString(res) +
                                           " (NCCL " + std::to_string(version) + " loaded, built with " +
                                           std::to_string(NCCL_VERSION_CODE) + ")");
  R.check(nt_nccl_window_create(R.comm, bytes, nullptr) == ncclInvalidArgument, "window create: NULL out accepted");
  nt_nccl_window *none = (nt_nccl_window *)&R;
  R.check(nt_nccl_window_create(nullptr, bytes, &none) == ncclInvalidArgument && !none,
          "window create: NULL comm accepted, or *out not cleared");
}

static void run_rank(Rank &R) {
  CUDA_OK(cudaStreamCreateWithFlags(&R.stream, cudaStreamNonBlocking));
  make_window(R);
  static const Reduction<int, int> isum = REDUCTION(isum);
  static const Reduction<unsigned, unsigned> uxor = REDUCTION(uxor);
  static const Reduction<float, float> fsum = REDUCTION(fsum);
  static const Reduction<float, float> fmin_ = REDUCTION(fmin);
  static const Reduction<float, nt_famax_result> famax = REDUCTION(famax);
  static const Reduction<int, nt_iamin_result> iamin = REDUCTION(iamin);
  static const Reduction<float, Welford> welford = REDUCTION(welford);
  static const Reduction<int, MaxSub> maxsub = REDUCTION(maxsub);
  static const Reduction<int, Hash> polyhash = REDUCTION(polyhash);
  all_cases(R, isum, true);
  all_cases(R, uxor, true);
  all_cases(R, fsum, false); /* float sums of partials: checked through the global form */
  all_cases(R, fmin_, true);
  all_cases(R, famax, true);
  all_cases(R, iamin, true);
  all_cases(R, welford, true);
  all_cases(R, maxsub, true);
  all_cases(R, polyhash, true);
  dot_case<float, double>(R, "fdot", nt_fdot_nccl_temp_bytes, nt_fdot_nccl, nt_fdot_nccl_window, nt_fdot_host);
  dot_case<int, long long>(R, "idot", nt_idot_nccl_temp_bytes, nt_idot_nccl, nt_idot_nccl_window, nt_idot_host);
  params_case(R);
  for (int window = 0; window < (R.win ? 2 : 1); window++) {
    combine_case(R, polyhash, 16u << 20, false, 99, window); /* 16M ordered states (256 MiB) */
    combine_case(R, polyhash, 16u << 20, true, 98, window);
    combine_case(R, welford, 16u << 20, false, 97, window);
  }
  if (big) big_case(R);
  if (R.win)
    R.check(nt_nccl_window_destroy(R.win) == ncclSuccess, "window destroy");
  CUDA_OK(cudaStreamDestroy(R.stream));
  printf("rank %d of %d: %d checks, %d failed\n", R.rank, R.nranks, R.checks, R.failures);
}

int main(int argc, char **argv) {
  int rank = -1, nranks = 0;
  const char *id_file = nullptr;
  bool threads = false;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--threads")) threads = true;
    else if (!strcmp(argv[i], "--big")) big = true;
    else if (!strcmp(argv[i], "--rank") && i + 1 < argc) rank = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--nranks") && i + 1 < argc) nranks = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--id") && i + 1 < argc) id_file = argv[++i];
    else { fprintf(stderr, "usage: test_nccl --threads | --rank R --nranks N --id FILE  [--big]\n"); return 2; }
  }
  int failures = 0;
  if (threads) { /* one process drives every GPU, a thread each */
    int ndev = 0;
    CUDA_OK(cudaGetDeviceCount(&ndev));
    std::vector<ncclComm_t> comms(ndev);
    NCCL_OK(ncclCommInitAll(comms.data(), ndev, nullptr));
    std::vector<Rank> ranks(ndev);
    std::vector<std::thread> pool;
    for (int d = 0; d < ndev; d++) {
      ranks[d].comm = comms[d];
      ranks[d].rank = d;
      ranks[d].nranks = ndev;
      pool.emplace_back([&ranks, d] { CUDA_OK(cudaSetDevice(d)); run_rank(ranks[d]); });
    }
    for (auto &t : pool) t.join();
    for (int d = 0; d < ndev; d++) { failures += ranks[d].failures; ncclCommDestroy(comms[d]); }
  } else { /* one process per GPU; the unique id through a file */
    if (rank < 0 || nranks < 1 || !id_file) { fprintf(stderr, "need --rank, --nranks and --id\n"); return 2; }
    ncclUniqueId id;
    if (rank == 0) {
      NCCL_OK(ncclGetUniqueId(&id));
      std::string tmp = std::string(id_file) + ".tmp";
      FILE *f = fopen(tmp.c_str(), "wb");
      if (!f || fwrite(&id, sizeof id, 1, f) != 1 || fclose(f) != 0 || rename(tmp.c_str(), id_file) != 0) {
        perror(id_file);
        return 2;
      }
    } else {
      FILE *f = nullptr;
      for (int tries = 0; !f && tries < 600; tries++) { f = fopen(id_file, "rb"); if (!f) usleep(100000); }
      if (!f || fread(&id, sizeof id, 1, f) != 1) { fprintf(stderr, "no unique id in %s\n", id_file); return 2; }
      fclose(f);
    }
    int ndev = 0;
    CUDA_OK(cudaGetDeviceCount(&ndev));
    CUDA_OK(cudaSetDevice(rank % ndev));
    Rank R;
    R.rank = rank;
    R.nranks = nranks;
    NCCL_OK(ncclCommInitRank(&R.comm, nranks, id, rank));
    run_rank(R);
    failures = R.failures;
    ncclCommDestroy(R.comm);
  }
  return failures ? 1 : 0;
}
