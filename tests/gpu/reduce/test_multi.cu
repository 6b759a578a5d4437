// Reductions over several arrays (r_multi.json): every result against the
// CPU reference (the left-to-right fold of M_R_host), bit for bit except the
// weighted Welford's mean and M2 (doubles, within 1e-9 relative). The inputs
// are chosen so that float sums are exact in any order (multiples of 1/8).
// Covers: arrays at different misalignments, aliased arrays, n = 0, 1, 31,
// ... 12M, n over 2^31 (int8 dot), garbage temp, repeats, two streams, graph
// capture, bad arguments, and the segmented and rows forms.
// Usage: test_multi [--small]  (--small: sizes for compute-sanitizer)
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <vector>
#include <cuda_runtime.h>
#include "r_multi.h"
#include "harness.h"

// ---- fills: one per input type --------------------------------------------
template <class T> static void fill_scalar(T &x, unsigned long long h) {
  if constexpr (std::is_floating_point<T>::value)
    x = T(int(h % 9) - 4) / T(8); // multiples of 1/8: sums of products stay exact
  else
    x = T(h);
}
static void fill_value(IPoint &p, unsigned long long h) { p = {int(h), int(h >> 20), int(h >> 40)}; }
static void fill_value(IPair &p, unsigned long long h) { p = {int(h), int(h >> 32)}; }
template <class T> static void fill_value(T &x, unsigned long long h) { fill_scalar(x, h); }
template <class T> static void fill(void *v, size_t n, unsigned long long seed) {
  T *p = static_cast<T *>(v);
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < n; i++)
    fill_value(p[i], mix(i ^ seed));
}

// ---- one reduction, through type-erased calls ------------------------------
typedef std::function<cudaError_t(const void *const *, size_t, void *, void *, size_t, cudaStream_t)> FlatRun;
typedef std::function<void(const void *const *, size_t, void *)> FlatHost;
typedef std::function<cudaError_t(const void *const *, const void *, size_t, void *, void *, size_t, cudaStream_t)> SegRun;
typedef std::function<void(const void *const *, const void *, size_t, void *)> SegHost;
typedef std::function<cudaError_t(const void *const *, size_t, size_t, void *, void *, size_t, cudaStream_t)> RowsRun;
typedef std::function<void(const void *const *, size_t, size_t, void *)> RowsHost;

struct Multi {
  const char *name;
  int k;                   // arrays
  size_t size[3], align[3];
  void (*fill[3])(void *, size_t, unsigned long long);
  size_t acc_size;
  bool (*same)(const void *, const void *); // NULL: bit for bit
  size_t (*temp_bytes)(size_t);
  FlatRun run;
  FlatHost host;
  bool segmented, offsets_int;
  size_t (*seg_temp)(size_t);
  SegRun seg;
  SegHost seg_host;
  size_t (*rows_temp)(size_t, size_t);
  RowsRun rows;
  RowsHost rows_host;
};

#define T_(i, T) static_cast<const T *>(in[i])
#define MULTI2(red, T0, T1, ACC, SAME)                                                                              \
  Multi {                                                                                                          \
    #red, 2, {sizeof(T0), sizeof(T1), 0}, {alignof(T0), alignof(T1), 1}, {fill<T0>, fill<T1>, NULL}, sizeof(ACC), \
        SAME, r_multi_##red##_temp_bytes,                                                                          \
        [](const void *const *in, size_t n, void *out, void *t, size_t tb, cudaStream_t s) {                      \
          return r_multi_##red(T_(0, T0), T_(1, T1), n, (ACC *)out, t, tb, s);                                     \
        },                                                                                                         \
        [](const void *const *in, size_t n, void *out) { *(ACC *)out = r_multi_##red##_host(T_(0, T0), T_(1, T1), n); }
#define MULTI3(red, T0, T1, T2, ACC, SAME)                                                                           \
  Multi {                                                                                                           \
    #red, 3, {sizeof(T0), sizeof(T1), sizeof(T2)}, {alignof(T0), alignof(T1), alignof(T2)},                        \
        {fill<T0>, fill<T1>, fill<T2>}, sizeof(ACC), SAME, r_multi_##red##_temp_bytes,                              \
        [](const void *const *in, size_t n, void *out, void *t, size_t tb, cudaStream_t s) {                       \
          return r_multi_##red(T_(0, T0), T_(1, T1), T_(2, T2), n, (ACC *)out, t, tb, s);                           \
        },                                                                                                          \
        [](const void *const *in, size_t n, void *out) {                                                            \
          *(ACC *)out = r_multi_##red##_host(T_(0, T0), T_(1, T1), T_(2, T2), n);                                   \
        }
#define FLAT_ONLY , false, false, NULL, NULL, NULL, NULL, NULL, NULL }
// INS: the input arguments, e.g. T_(0, float), T_(1, float)
#define SEGMENTED(red, OFF, ACC, ...)                                                                                 \
  , true, sizeof(OFF) == 4, r_multi_##red##_segmented_temp_bytes,                                                     \
      [](const void *const *in, const void *off, size_t ns, void *out, void *t, size_t tb, cudaStream_t s) {          \
        return r_multi_##red##_segmented(__VA_ARGS__, (const OFF *)off, ns, (ACC *)out, t, tb, s);                    \
      },                                                                                                              \
      [](const void *const *in, const void *off, size_t ns, void *out) {                                              \
        r_multi_##red##_segmented_host(__VA_ARGS__, (const OFF *)off, ns, (ACC *)out);                                \
      },                                                                                                              \
      r_multi_##red##_rows_temp_bytes,                                                                                \
      [](const void *const *in, size_t nr, size_t len, void *out, void *t, size_t tb, cudaStream_t s) {               \
        return r_multi_##red##_rows(__VA_ARGS__, nr, len, (ACC *)out, t, tb, s);                                      \
      },                                                                                                              \
      [](const void *const *in, size_t nr, size_t len, void *out) {                                                   \
        r_multi_##red##_rows_host(__VA_ARGS__, nr, len, (ACC *)out);                                                  \
      }                                                                                                               \
  }

// Relative, with an absolute floor: a weighted mean near 0 comes out as
// 0 in one order and 2e-17 in another (values here are of order 1).
static bool close_rel(double a, double b, double tol) {
  return a == b || std::fabs(a - b) <= tol * (std::fabs(a) + std::fabs(b)) + 1e-12;
}
static bool same_wwelford(const void *a, const void *b) {
  const WWelford *x = (const WWelford *)a, *y = (const WWelford *)b;
  return x->w == y->w && close_rel(x->mean, y->mean, 1e-9) && close_rel(x->m2, y->m2, 1e-9);
}

// The fused statistics' inputs: 0 or 1/8, so that the sum of (x - y)^2
// (multiples of 1/64, at most 2^24 / 64 in all at 12M elements) stays exact.
static void fill_eighths(void *v, size_t n, unsigned long long seed) {
  float *p = static_cast<float *>(v);
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < n; i++)
    p[i] = (mix(i ^ seed) & 1) ? 0.125f : 0.0f;
}

static std::vector<Multi> all_reductions() {
  std::vector<Multi> all = {
      MULTI2(sdot, float, float, float, NULL) SEGMENTED(sdot, long long, float, T_(0, float), T_(1, float)),
      MULTI2(fddot, float, float, double, NULL) SEGMENTED(fddot, int, double, T_(0, float), T_(1, float)),
      MULTI2(ddot, double, double, double, NULL) FLAT_ONLY,
      MULTI2(i8dot, int8_t, int8_t, long long, NULL) SEGMENTED(i8dot, long long, long long, T_(0, int8_t), T_(1, int8_t)),
      MULTI2(idot, int, short, long long, NULL) FLAT_ONLY,
      MULTI2(wwelford, float, float, WWelford, same_wwelford)
          SEGMENTED(wwelford, long long, WWelford, T_(0, float), T_(1, float)),
      MULTI2(pairhash, int, int16_t, PairHash, NULL) SEGMENTED(pairhash, long long, PairHash, T_(0, int), T_(1, int16_t)),
      MULTI2(wpoint, IPoint, int8_t, LSum3, NULL) FLAT_ONLY,
      MULTI2(wpair, IPair, int, LSum3, NULL) SEGMENTED(wpair, long long, LSum3, T_(0, IPair), T_(1, int)),
      MULTI3(masked, int, short, uint8_t, Masked, NULL)
          SEGMENTED(masked, long long, Masked, T_(0, int), T_(1, short), T_(2, uint8_t)),
      MULTI2(diffstats, float, float, DiffStats, NULL) FLAT_ONLY,
  };
  all.back().fill[0] = all.back().fill[1] = fill_eighths;
  return all;
}

static bool same_acc(const Multi &m, const void *a, const void *b) {
  return m.same ? m.same(a, b) : std::memcmp(a, b, m.acc_size) == 0;
}

static bool small_run;
static const size_t slack = 64; // elements before each array, for the offsets

// The arrays on the device and the host, each with room for an offset.
struct Arrays {
  void *d[3] = {}, *h[3] = {};
  size_t cap = 0;
};
static void alloc_arrays(const Multi &m, Arrays &a, size_t n, unsigned long long seed) {
  a.cap = n + slack;
  for (int i = 0; i < m.k; i++) {
    CUDA_CHECK(cudaMalloc(&a.d[i], a.cap * m.size[i]));
    a.h[i] = std::malloc(a.cap * m.size[i]);
    m.fill[i](a.h[i], a.cap, seed * 31 + (unsigned)i);
    CUDA_CHECK(cudaMemcpy(a.d[i], a.h[i], a.cap * m.size[i], cudaMemcpyHostToDevice));
  }
}
static void free_arrays(const Multi &m, Arrays &a) {
  for (int i = 0; i < m.k; i++) {
    CUDA_CHECK(cudaFree(a.d[i]));
    std::free(a.h[i]);
  }
}

// Offsets per array (elements) of each layout: aligned, misaligned
// differently (d_in0 + 1, d_in1 + 3), misaligned alike, and the reverse.
static const size_t offsets[][3] = {{0, 0, 0}, {1, 3, 2}, {5, 5, 5}, {3, 1, 7}};

static void run_flat(const Multi &m, size_t n, bool alias) {
  Arrays a;
  alloc_arrays(m, a, n, n * 7 + 1);
  const size_t temp_bytes = m.temp_bytes(n);
  void *d_temp, *d_out;
  CUDA_CHECK(cudaMalloc(&d_temp, temp_bytes));
  CUDA_CHECK(cudaMalloc(&d_out, 4 * m.acc_size));
  std::vector<unsigned char> want(m.acc_size), got(m.acc_size), again(m.acc_size);
  char what[160];
  for (const auto &off : offsets) {
    const void *din[3], *hin[3];
    for (int i = 0; i < m.k; i++) {
      const int src = alias ? 0 : i; // aliased: every input reads array 0 (same types only)
      din[i] = (const char *)a.d[src] + off[alias ? 0 : i] * m.size[i];
      hin[i] = (const char *)a.h[src] + off[alias ? 0 : i] * m.size[i];
    }
    m.host(hin, n, want.data());
    CUDA_CHECK(cudaMemset(d_temp, 0xA5, temp_bytes)); // garbage temp
    CUDA_CHECK(cudaMemset(d_out, 0x5A, 4 * m.acc_size));
    check(m.run(din, n, d_out, d_temp, temp_bytes, 0) == cudaSuccess, m.name, "launch", n);
    CUDA_CHECK(cudaMemcpy(got.data(), d_out, m.acc_size, cudaMemcpyDeviceToHost));
    std::snprintf(what, sizeof what, "result vs host fold, offsets %zu/%zu/%zu%s", off[0], off[1], off[2],
                  alias ? ", aliased" : "");
    check(same_acc(m, got.data(), want.data()), m.name, what, n);
    // repeats: the same bits
    for (int r = 0; r < 2; r++) {
      check(m.run(din, n, d_out, d_temp, temp_bytes, 0) == cudaSuccess, m.name, "repeat launch", n);
      CUDA_CHECK(cudaMemcpy(again.data(), d_out, m.acc_size, cudaMemcpyDeviceToHost));
      check(std::memcmp(again.data(), got.data(), m.acc_size) == 0, m.name, "repeat is bitwise equal", n);
    }
    if (alias)
      break;
  }
  // two streams at once, each with its own temp
  {
    const void *din[3] = {a.d[0], a.d[1], a.d[2]};
    void *t2;
    CUDA_CHECK(cudaMalloc(&t2, temp_bytes));
    cudaStream_t s1, s2;
    CUDA_CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
    CUDA_CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    check(m.run(din, n, d_out, d_temp, temp_bytes, s1) == cudaSuccess &&
              m.run(din, n, (char *)d_out + m.acc_size, t2, temp_bytes, s2) == cudaSuccess,
          m.name, "two streams launch", n);
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<unsigned char> two(2 * m.acc_size);
    CUDA_CHECK(cudaMemcpy(two.data(), d_out, 2 * m.acc_size, cudaMemcpyDeviceToHost));
    m.host((const void *const *)a.h, n, want.data());
    check(same_acc(m, two.data(), want.data()) && same_acc(m, two.data() + m.acc_size, want.data()), m.name,
          "two streams", n);
    // graph capture, replayed twice
    cudaGraph_t g;
    cudaGraphExec_t ge;
    CUDA_CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
    cudaError_t e = m.run(din, n, (char *)d_out + 2 * m.acc_size, d_temp, temp_bytes, s1);
    CUDA_CHECK(cudaStreamEndCapture(s1, &g));
    check(e == cudaSuccess, m.name, "captured launch", n);
    CUDA_CHECK(cudaGraphInstantiate(&ge, g, 0));
    for (int r = 0; r < 2; r++) {
      CUDA_CHECK(cudaMemset(d_out, 0, 4 * m.acc_size));
      CUDA_CHECK(cudaGraphLaunch(ge, s1));
      CUDA_CHECK(cudaStreamSynchronize(s1));
      CUDA_CHECK(cudaMemcpy(got.data(), (char *)d_out + 2 * m.acc_size, m.acc_size, cudaMemcpyDeviceToHost));
      check(same_acc(m, got.data(), want.data()), m.name, "graph replay", n);
    }
    CUDA_CHECK(cudaGraphExecDestroy(ge));
    CUDA_CHECK(cudaGraphDestroy(g));
    CUDA_CHECK(cudaStreamDestroy(s1));
    CUDA_CHECK(cudaStreamDestroy(s2));
    CUDA_CHECK(cudaFree(t2));
  }
  CUDA_CHECK(cudaFree(d_temp));
  CUDA_CHECK(cudaFree(d_out));
  free_arrays(m, a);
}

// cudaErrorInvalidValue, and no launch, for bad arguments: any input NULL
// or misaligned for its type, temp too small, out NULL.
static void run_bad_args(const Multi &m) {
  const size_t n = 100;
  Arrays a;
  alloc_arrays(m, a, n, 3);
  void *d_temp, *d_out;
  const size_t tb = m.temp_bytes(n);
  CUDA_CHECK(cudaMalloc(&d_temp, tb));
  CUDA_CHECK(cudaMalloc(&d_out, m.acc_size));
  for (int i = 0; i < m.k; i++) {
    const void *din[3] = {a.d[0], a.d[1], a.d[2]};
    din[i] = NULL;
    check(m.run(din, n, d_out, d_temp, tb, 0) == cudaErrorInvalidValue, m.name, "a NULL input is refused", n);
    if (m.align[i] > 1) {
      din[i] = (const char *)a.d[i] + 1;
      check(m.run(din, n, d_out, d_temp, tb, 0) == cudaErrorInvalidValue, m.name, "a misaligned input is refused", n);
    }
  }
  const void *din[3] = {a.d[0], a.d[1], a.d[2]};
  check(m.run(din, n, d_out, d_temp, tb - 1, 0) == cudaErrorInvalidValue, m.name, "a small temp is refused", n);
  check(m.run(din, n, NULL, d_temp, tb, 0) == cudaErrorInvalidValue, m.name, "a NULL out is refused", n);
  const void *none[3] = {NULL, NULL, NULL};
  check(m.run(none, 0, d_out, d_temp, tb, 0) == cudaSuccess, m.name, "n = 0 takes NULL inputs", 0);
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaFree(d_temp));
  CUDA_CHECK(cudaFree(d_out));
  free_arrays(m, a);
}

// Segments of mixed lengths (empty, 1, short, warp-sized, block-sized and
// longer than a block's chunk), starting at unaligned offsets; then rows.
static void run_segmented(const Multi &m) {
  const size_t max_len = small_run ? 3000 : 300000;
  std::vector<long long> off(1, 0);
  const size_t lens[] = {0, 1, 3, 17, 0, 250, 1000, 5, max_len, 64, 33000 % (max_len + 1), 2, max_len / 3};
  for (int rep = 0; rep < (small_run ? 2 : 20); rep++)
    for (size_t l : lens)
      off.push_back(off.back() + (long long)l);
  const size_t ns = off.size() - 1, n = (size_t)off.back();
  Arrays a;
  alloc_arrays(m, a, n, 99);
  std::vector<int> off32(off.begin(), off.end());
  const void *h_off = m.offsets_int ? (const void *)off32.data() : (const void *)off.data();
  const size_t off_size = m.offsets_int ? 4 : 8;
  void *d_off, *d_out, *d_temp;
  CUDA_CHECK(cudaMalloc(&d_off, (ns + 1) * off_size));
  CUDA_CHECK(cudaMemcpy(d_off, h_off, (ns + 1) * off_size, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMalloc(&d_out, ns * m.acc_size));
  const size_t tb = m.seg_temp(ns);
  CUDA_CHECK(cudaMalloc(&d_temp, tb ? tb : 1));
  std::vector<unsigned char> want(ns * m.acc_size), got(ns * m.acc_size);
  for (const auto &o : offsets) {
    const void *din[3], *hin[3];
    for (int i = 0; i < m.k; i++) {
      din[i] = (const char *)a.d[i] + o[i] * m.size[i];
      hin[i] = (const char *)a.h[i] + o[i] * m.size[i];
    }
    m.seg_host(hin, h_off, ns, want.data());
    CUDA_CHECK(cudaMemset(d_temp, 0xA5, tb ? tb : 1));
    check(m.seg(din, d_off, ns, d_out, d_temp, tb, 0) == cudaSuccess, m.name, "segmented launch", ns);
    CUDA_CHECK(cudaMemcpy(got.data(), d_out, ns * m.acc_size, cudaMemcpyDeviceToHost));
    size_t bad = 0;
    for (size_t s = 0; s < ns; s++)
      bad += !same_acc(m, got.data() + s * m.acc_size, want.data() + s * m.acc_size);
    check(bad == 0, m.name, "segmented: every segment vs host", ns);
  }
  // rows: short and long rows, at offsets {0, 0, 0} (the row tiles where the
  // rows line up with the groups; 80 x 8200, over 16 KiB a row for 4-byte
  // elements, too few for them: the split path) and {1, 3, 2}
  const size_t shapes[][2] = {{1000, 7}, {1001, 1}, {1001, 2}, {1000, 8}, {513, 64}, {77, 200}, {30, 2000},
                              {37, 5000}, {80, 8200}, {3, small_run ? (size_t)4000 : (size_t)200000}, {0, 5}, {5, 0}};
  for (int at = 0; at < 2; at++) {
    for (const auto &sh : shapes) {
      const size_t nr = sh[0], len = sh[1];
      if (nr * len + 8 > n)
        continue;
      const void *din[3], *hin[3];
      for (int i = 0; i < m.k; i++) {
        din[i] = (const char *)a.d[i] + offsets[at][i] * m.size[i];
        hin[i] = (const char *)a.h[i] + offsets[at][i] * m.size[i];
      }
      std::vector<unsigned char> rw(nr * m.acc_size + 1), rg(nr * m.acc_size + 1);
      m.rows_host(hin, nr, len, rw.data());
      const size_t rtb = m.rows_temp(nr, len);
      void *rt, *d_rows;
      CUDA_CHECK(cudaMalloc(&rt, rtb ? rtb : 1));
      CUDA_CHECK(cudaMalloc(&d_rows, nr * m.acc_size + 1));
      CUDA_CHECK(cudaMemset(rt, 0xA5, rtb ? rtb : 1));
      check(m.rows(din, nr, len, d_rows, rt, rtb, 0) == cudaSuccess, m.name, "rows launch", nr);
      CUDA_CHECK(cudaMemcpy(rg.data(), d_rows, nr * m.acc_size, cudaMemcpyDeviceToHost));
      size_t bad = 0;
      for (size_t r = 0; r < nr; r++)
        bad += !same_acc(m, rg.data() + r * m.acc_size, rw.data() + r * m.acc_size);
      check(bad == 0, m.name, "rows: every row vs host", nr);
      CUDA_CHECK(cudaFree(rt));
      CUDA_CHECK(cudaFree(d_rows));
    }
  }
  CUDA_CHECK(cudaFree(d_off));
  CUDA_CHECK(cudaFree(d_out));
  CUDA_CHECK(cudaFree(d_temp));
  free_arrays(m, a);
}

// n over 2^31: an int8 dot of an array with itself (aliased) into long long.
static void run_huge() {
  const size_t n = (1ULL << 31) + 77;
  int8_t *h = (int8_t *)std::malloc(n), *d;
  for (size_t i = 0; i < n; i++)
    h[i] = (int8_t)((int)(mix(i) % 255) - 127);
  CUDA_CHECK(cudaMalloc(&d, n));
  CUDA_CHECK(cudaMemcpy(d, h, n, cudaMemcpyHostToDevice));
  const size_t tb = r_multi_i8dot_temp_bytes(n);
  void *t;
  long long *d_out, got = 0;
  CUDA_CHECK(cudaMalloc(&t, tb));
  CUDA_CHECK(cudaMalloc(&d_out, sizeof(long long)));
  check(r_multi_i8dot(d, d, n, d_out, t, tb, 0) == cudaSuccess, "i8dot", "launch over 2^31", n);
  CUDA_CHECK(cudaMemcpy(&got, d_out, sizeof got, cudaMemcpyDeviceToHost));
  const long long want = r_multi_i8dot_host(h, h, n);
  check(got == want, "i8dot", "over 2^31 elements, aliased, vs host", n);
  CUDA_CHECK(cudaFree(d));
  CUDA_CHECK(cudaFree(t));
  CUDA_CHECK(cudaFree(d_out));
  std::free(h);
}

int main(int argc, char **argv) {
  small_run = argc > 1 && std::strcmp(argv[1], "--small") == 0;
  std::vector<size_t> sizes = {0, 1, 2, 3, 15, 16, 17, 31, 32, 33, 1000, 4097, 65543};
  if (!small_run) {
    sizes.push_back((1 << 20) + 3);
    sizes.push_back(3 << 22);
  }
  for (const Multi &m : all_reductions()) {
    for (size_t n : sizes)
      run_flat(m, n, false);
    bool same_types = true;
    for (int i = 1; i < m.k; i++)
      same_types = same_types && m.size[i] == m.size[0] && m.fill[i] == m.fill[0];
    if (same_types)
      for (size_t n : {(size_t)1, (size_t)33, (size_t)65543})
        run_flat(m, n, true);
    run_bad_args(m);
    if (m.segmented)
      run_segmented(m);
  }
  if (!small_run)
    run_huge();
  std::printf("test_multi: %ld passed, %ld failed\n", passed, failed);
  return failed ? 1 : 0;
}
