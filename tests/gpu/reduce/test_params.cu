// Run-time "params" and "indexed" folds (r_params.json, params_ops.h):
// every result of the flat, segmented and rows forms against the CPU
// reference (M_R_host and its segmented/rows forms), field by field and
// bit for bit: every operator here is exact in any order (counts, integer
// or order-free picks, sums of integer-valued floats or of multiples of
// 1/128 that stay below 2^24 units).
// Also: the index is the position in d_in, or within the segment; params
// are read at call time (changed right after the call, before the stream
// runs); a captured graph keeps the params it was captured with; a NULL or
// misaligned params is cudaErrorInvalidValue, with no launch.
// Usage: test_params [--small]  (--small: sizes for compute-sanitizer)
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <vector>
#include <cuda_runtime.h>
#include "r_params.h"
#include "harness.h"

// ---- equality, field by field (the structs have padding) -------------------
static bool same(unsigned long long a, unsigned long long b) { return a == b; }
static bool same(long long a, long long b) { return a == b; }
static bool same(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }
static bool same(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }
static bool same(const CustomArg &a, const CustomArg &b) {
  return a.index == b.index && a.value.key == b.value.key && a.value.val == b.value.val;
}
static bool same(const LastMax &a, const LastMax &b) { return a.index == b.index && a.value == b.value; }
static bool same(const Extremes &a, const Extremes &b) {
  return same(a.lo, b.lo) && a.lo_at == b.lo_at && same(a.hi, b.hi) && a.hi_at == b.hi_at;
}
static bool same(const Latest &a, const Latest &b) { return a.at == b.at && a.value == b.value; }

// ---- inputs ---------------------------------------------------------------
static void fill_value(float &x, unsigned long long h) { x = float(int(h % 9) - 4) / 8.0f; }
static void fill_value(int &x, unsigned long long h) { x = int(h % 1000); }
static void fill_value(Custom &x, unsigned long long h) { x = {(long long)(h % 2001) - 1000, (long long)(h >> 20)}; }

static bool small_run;
static const size_t slack = 8; // elements before the data, for misaligned starts

// One input array on both sides, with room for an offset.
template <class IN> struct Data {
  std::vector<IN> h;
  IN *d = nullptr;
  Data(size_t n, unsigned long long seed, void (*fill)(IN &, unsigned long long)) : h(n + slack) {
    for (size_t i = 0; i < h.size(); i++)
      fill(h[i], mix(i ^ seed));
    CUDA_CHECK(cudaMalloc(&d, h.size() * sizeof(IN)));
    CUDA_CHECK(cudaMemcpy(d, h.data(), h.size() * sizeof(IN), cudaMemcpyHostToDevice));
  }
  ~Data() { cudaFree(d); }
};

// The forms of one reduction, with its params (if any) bound by the caller.
template <class IN, class ACC> struct Forms {
  const char *name;
  std::function<size_t(size_t)> temp;
  std::function<cudaError_t(const IN *, size_t, ACC *, void *, size_t, cudaStream_t)> run;
  std::function<ACC(const IN *, size_t)> host;
  // segmented and rows: empty when the reduction has no such forms
  std::function<size_t(size_t)> seg_temp;
  std::function<cudaError_t(const IN *, const void *, size_t, ACC *, void *, size_t, cudaStream_t)> seg;
  std::function<void(const IN *, const void *, size_t, ACC *)> seg_host;
  bool offsets_int;
  std::function<size_t(size_t, size_t)> rows_temp;
  std::function<cudaError_t(const IN *, size_t, size_t, ACC *, void *, size_t, cudaStream_t)> rows;
  std::function<void(const IN *, size_t, size_t, ACC *)> rows_host;
};

static void *garbage_temp(size_t bytes) {
  void *t = nullptr;
  CUDA_CHECK(cudaMalloc(&t, bytes ? bytes : 1));
  CUDA_CHECK(cudaMemset(t, 0xa5, bytes ? bytes : 1));
  return t;
}

template <class IN, class ACC> static void test_flat(const Forms<IN, ACC> &f, const Data<IN> &data, size_t n, size_t off) {
  ACC *d_out;
  CUDA_CHECK(cudaMalloc(&d_out, sizeof(ACC)));
  void *t = garbage_temp(f.temp(n));
  ACC want = f.host(data.h.data() + off, n), got;
  for (int rep = 0; rep < 2; rep++) { // the same bits run after run
    CUDA_CHECK(f.run(data.d + off, n, d_out, t, f.temp(n), 0));
    CUDA_CHECK(cudaMemcpy(&got, d_out, sizeof(ACC), cudaMemcpyDeviceToHost));
    char what[64];
    std::snprintf(what, sizeof what, "flat, offset %zu, run %d", off, rep);
    check(same(got, want), f.name, what, n);
  }
  CUDA_CHECK(cudaFree(t));
  CUDA_CHECK(cudaFree(d_out));
}

// Segment lengths: empty, one element, a warp's worth, a block's worth and
// a few long ones, in a seeded order.
template <class OFF> static std::vector<OFF> make_offsets(size_t total_max, unsigned long long seed) {
  static const size_t lengths[] = {0, 1, 2, 7, 31, 32, 33, 100, 257, 1000, 4096, 5000, 70000};
  std::vector<OFF> o(1, 0);
  for (size_t i = 0;; i++) {
    size_t len = lengths[mix(seed + i) % (sizeof lengths / sizeof lengths[0])];
    if (!small_run && i % 97 == 13)
      len = 300000 + mix(seed ^ i) % 1000;
    if ((size_t)o.back() + len > total_max)
      break;
    o.push_back((OFF)(o.back() + len));
  }
  return o;
}

template <class IN, class ACC, class OFF>
static void test_segmented_as(const Forms<IN, ACC> &f, const Data<IN> &data, size_t total, size_t off) {
  std::vector<OFF> o = make_offsets<OFF>(total, total + off);
  const size_t ns = o.size() - 1;
  OFF *d_off;
  ACC *d_out;
  CUDA_CHECK(cudaMalloc(&d_off, o.size() * sizeof(OFF)));
  CUDA_CHECK(cudaMemcpy(d_off, o.data(), o.size() * sizeof(OFF), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMalloc(&d_out, (ns ? ns : 1) * sizeof(ACC)));
  void *t = garbage_temp(f.seg_temp(ns));
  std::vector<ACC> want(ns), got(ns);
  f.seg_host(data.h.data() + off, o.data(), ns, want.data());
  CUDA_CHECK(f.seg(data.d + off, d_off, ns, d_out, t, f.seg_temp(ns), 0));
  CUDA_CHECK(cudaMemcpy(got.data(), d_out, ns * sizeof(ACC), cudaMemcpyDeviceToHost));
  size_t bad = 0;
  for (size_t s = 0; s < ns; s++)
    bad += !same(got[s], want[s]);
  char what[96];
  std::snprintf(what, sizeof what, "segmented, %zu segments, offset %zu: %zu differ", ns, off, bad);
  check(bad == 0, f.name, what, o.back());
  CUDA_CHECK(cudaFree(t));
  CUDA_CHECK(cudaFree(d_out));
  CUDA_CHECK(cudaFree(d_off));
}

template <class IN, class ACC>
static void test_rows(const Forms<IN, ACC> &f, const Data<IN> &data, size_t nr, size_t len, size_t at) {
  ACC *d_out;
  CUDA_CHECK(cudaMalloc(&d_out, (nr ? nr : 1) * sizeof(ACC)));
  void *t = garbage_temp(f.rows_temp(nr, len));
  std::vector<ACC> want(nr), got(nr);
  f.rows_host(data.h.data() + at, nr, len, want.data());
  CUDA_CHECK(f.rows(data.d + at, nr, len, d_out, t, f.rows_temp(nr, len), 0));
  CUDA_CHECK(cudaMemcpy(got.data(), d_out, nr * sizeof(ACC), cudaMemcpyDeviceToHost));
  size_t bad = 0;
  for (size_t r = 0; r < nr; r++)
    bad += !same(got[r], want[r]);
  char what[96];
  std::snprintf(what, sizeof what, "rows at +%zu, %zu x %zu: %zu differ", at, nr, len, bad);
  check(bad == 0, f.name, what, nr * len);
  CUDA_CHECK(cudaFree(t));
  CUDA_CHECK(cudaFree(d_out));
}

static size_t big_n() { return small_run ? (1 << 16) + 3 : (1 << 22) + 5; }

template <class IN, class ACC> static void test_on(const Forms<IN, ACC> &f, const Data<IN> &data) {
  const size_t big = big_n();
  const size_t sizes[] = {0, 1, 2, 31, 32, 33, 1000, 4097, 65537, (size_t)1 << 20, big};
  for (size_t n : sizes)
    if (n <= big)
      for (size_t off : {(size_t)0, (size_t)1, (size_t)3})
        if (n + off <= big + slack)
          test_flat(f, data, n, off);
  if (!f.seg)
    return;
  for (size_t off : {(size_t)0, (size_t)1}) {
    if (f.offsets_int)
      test_segmented_as<IN, ACC, int>(f, data, big, off);
    else
      test_segmented_as<IN, ACC, long long>(f, data, big, off);
  }
  // at element 0 (16-byte aligned) rows of 1 to 1000 elements take the row
  // tiles where they line up with the groups; at element 1 the split path
  const size_t shapes[][2] = {{1000, 1}, {1001, 2}, {999, 4},   {1000, 7},   {500, 16},  {300, 64},
                              {70, 256}, {100, 1000}, {3, 70000}, {3, big / 4}, {2, big / 2}};
  for (auto &s : shapes)
    for (size_t at : {(size_t)0, (size_t)1})
      if (at + s[0] * s[1] <= big + slack)
        test_rows(f, data, s[0], s[1], at);
}

template <class IN, class ACC> static void test_all(const Forms<IN, ACC> &f, void (*fill)(IN &, unsigned long long)) {
  Data<IN> data(big_n(), 0x5eed ^ std::strlen(f.name), fill);
  test_on(f, data);
}

// ---- the reductions, with their params bound --------------------------------
#define FLAT(M, red, IN, ACC, ...)                                                                              \
  #red, M##_##red##_temp_bytes,                                                                                 \
      [=](const IN *d, size_t n, ACC *o, void *t, size_t tb, cudaStream_t s) { return M##_##red(d, n __VA_ARGS__, o, t, tb, s); }, \
      [=](const IN *h, size_t n) { return M##_##red##_host(h, n __VA_ARGS__); }
#define SEG(M, red, IN, ACC, OFF, ...)                                                                           \
  , M##_##red##_segmented_temp_bytes,                                                                            \
      [=](const IN *d, const void *o, size_t ns, ACC *out, void *t, size_t tb, cudaStream_t s) {                 \
        return M##_##red##_segmented(d, (const OFF *)o, ns __VA_ARGS__, out, t, tb, s);                          \
      },                                                                                                         \
      [=](const IN *h, const void *o, size_t ns, ACC *out) { M##_##red##_segmented_host(h, (const OFF *)o, ns __VA_ARGS__, out); }, \
      sizeof(OFF) == 4, M##_##red##_rows_temp_bytes,                                                             \
      [=](const IN *d, size_t nr, size_t len, ACC *out, void *t, size_t tb, cudaStream_t s) {                    \
        return M##_##red##_rows(d, nr, len __VA_ARGS__, out, t, tb, s);                                          \
      },                                                                                                         \
      [=](const IN *h, size_t nr, size_t len, ACC *out) { M##_##red##_rows_host(h, nr, len __VA_ARGS__, out); }

#define FLAT_ONLY , {}, {}, {}, false, {}, {}, {}

// Over two arrays: y is a second array, read at x's offset plus 2 (so the
// two are misaligned differently), through lambdas that know both bases.
static void test_axpy(const Affine *p) {
  Data<float> x(big_n(), 0xa, fill_value), y(big_n() + 2, 0xb, fill_value);
  const float *dx = x.d, *dy = y.d + 2, *hx = x.h.data(), *hy = y.h.data() + 2;
  Forms<float, float> f = {
      "axpy", r_params_axpy_temp_bytes,
      [=](const float *d, size_t n, float *o, void *t, size_t tb, cudaStream_t s) {
        return r_params_axpy(d, dy + (d - dx), n, p, o, t, tb, s);
      },
      [=](const float *h, size_t n) { return r_params_axpy_host(h, hy + (h - hx), n, p); },
      r_params_axpy_segmented_temp_bytes,
      [=](const float *d, const void *o, size_t ns, float *out, void *t, size_t tb, cudaStream_t s) {
        return r_params_axpy_segmented(d, dy + (d - dx), (const long long *)o, ns, p, out, t, tb, s);
      },
      [=](const float *h, const void *o, size_t ns, float *out) {
        r_params_axpy_segmented_host(h, hy + (h - hx), (const long long *)o, ns, p, out);
      },
      false, r_params_axpy_rows_temp_bytes,
      [=](const float *d, size_t nr, size_t len, float *out, void *t, size_t tb, cudaStream_t s) {
        return r_params_axpy_rows(d, dy + (d - dx), nr, len, p, out, t, tb, s);
      },
      [=](const float *h, size_t nr, size_t len, float *out) {
        r_params_axpy_rows_host(h, hy + (h - hx), nr, len, p, out);
      }};
  test_on(f, x);
}

// ---- the params' contract -----------------------------------------------------
static void test_params_contract() {
  const size_t n = 1 << 20;
  Data<float> data(n, 77, fill_value);
  Threshold p = {0.25f};
  const Threshold p0 = p;
  unsigned long long *d_out, got;
  CUDA_CHECK(cudaMalloc(&d_out, sizeof got));
  size_t tb = r_params_above_temp_bytes(n);
  void *t = garbage_temp(tb);
  const unsigned long long want = r_params_above_host(data.h.data(), n, &p0);
  check(want > 0 && want < n, "above", "the threshold splits the data (a test that can fail)", n);
  // read at call time: changing the struct after the call changes nothing
  cudaStream_t s;
  CUDA_CHECK(cudaStreamCreate(&s));
  CUDA_CHECK(r_params_above(data.d, n, &p, d_out, t, tb, s));
  p.limit = 100.0f;
  CUDA_CHECK(cudaStreamSynchronize(s));
  CUDA_CHECK(cudaMemcpy(&got, d_out, sizeof got, cudaMemcpyDeviceToHost));
  check(got == want, "above", "params are read at the call", n);
  // a graph keeps the params it was captured with
  p = p0;
  cudaGraph_t g;
  cudaGraphExec_t ge;
  CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  CUDA_CHECK(r_params_above(data.d, n, &p, d_out, t, tb, s));
  CUDA_CHECK(cudaStreamEndCapture(s, &g));
  CUDA_CHECK(cudaGraphInstantiate(&ge, g, 0));
  p.limit = -100.0f; // would count everything
  CUDA_CHECK(cudaMemset(d_out, 0, sizeof got));
  CUDA_CHECK(cudaGraphLaunch(ge, s));
  CUDA_CHECK(cudaStreamSynchronize(s));
  CUDA_CHECK(cudaMemcpy(&got, d_out, sizeof got, cudaMemcpyDeviceToHost));
  check(got == want, "above", "a captured graph keeps the captured params", n);
  CUDA_CHECK(r_params_above(data.d, n, &p, d_out, t, tb, s)); // and a new call sees the new ones
  CUDA_CHECK(cudaStreamSynchronize(s));
  CUDA_CHECK(cudaMemcpy(&got, d_out, sizeof got, cudaMemcpyDeviceToHost));
  check(got == n, "above", "a new call reads the new params", n);
  CUDA_CHECK(cudaGraphExecDestroy(ge));
  CUDA_CHECK(cudaGraphDestroy(g));
  // NULL or misaligned params: cudaErrorInvalidValue, in every form
  alignas(Threshold) char raw[2 * sizeof(Threshold)];
  const Threshold *odd = reinterpret_cast<const Threshold *>(raw + 1);
  check(r_params_above(data.d, n, NULL, d_out, t, tb, s) == cudaErrorInvalidValue, "above", "NULL params", n);
  check(r_params_above(data.d, 0, NULL, d_out, t, tb, s) == cudaErrorInvalidValue, "above", "NULL params, n = 0", 0);
  check(r_params_above(data.d, n, odd, d_out, t, tb, s) == cudaErrorInvalidValue, "above", "misaligned params", n);
  long long *d_off;
  CUDA_CHECK(cudaMalloc(&d_off, 2 * sizeof(long long)));
  check(r_params_above_segmented(data.d, d_off, 1, NULL, d_out, t, tb, s) == cudaErrorInvalidValue, "above",
        "segmented, NULL params", n);
  check(r_params_above_rows(data.d, 1, 8, NULL, d_out, t, tb, s) == cudaErrorInvalidValue, "above",
        "rows, NULL params", n);
  float *d_y;
  CUDA_CHECK(cudaMalloc(&d_y, n * sizeof(float)));
  check(r_params_axpy(data.d, d_y, n, NULL, (float *)d_out, t, tb, s) == cudaErrorInvalidValue, "axpy",
        "two arrays, NULL params", n);
  check(cudaStreamSynchronize(s) == cudaSuccess && cudaGetLastError() == cudaSuccess, "above",
        "no launch error after the refusals", n);
  CUDA_CHECK(cudaFree(d_y));
  CUDA_CHECK(cudaFree(d_off));
  CUDA_CHECK(cudaStreamDestroy(s));
  CUDA_CHECK(cudaFree(t));
  CUDA_CHECK(cudaFree(d_out));
}

// The index is the position: a fold that sees it gives what no index-free
// fold could (the last maximum of constant data is the last element).
static void test_index_meaning() {
  const size_t n = 100000;
  std::vector<int> h(n, 5);
  int *d;
  LastMax *d_out, got;
  CUDA_CHECK(cudaMalloc(&d, n * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(d, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMalloc(&d_out, sizeof got));
  void *t = garbage_temp(r_params_lastmax_temp_bytes(n));
  CUDA_CHECK(r_params_lastmax(d, n, d_out, t, r_params_lastmax_temp_bytes(n), 0));
  CUDA_CHECK(cudaMemcpy(&got, d_out, sizeof got, cudaMemcpyDeviceToHost));
  check(got.index == (long long)n - 1 && got.value == 5, "lastmax", "constant data: the last index", n);
  long long off[3] = {0, 40000, (long long)n};
  long long *d_o;
  LastMax seg[2];
  CUDA_CHECK(cudaMalloc(&d_o, sizeof off));
  CUDA_CHECK(cudaMemcpy(d_o, off, sizeof off, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaFree(d_out));
  CUDA_CHECK(cudaMalloc(&d_out, sizeof seg));
  void *ts = garbage_temp(r_params_lastmax_segmented_temp_bytes(2));
  CUDA_CHECK(r_params_lastmax_segmented(d, d_o, 2, d_out, ts, r_params_lastmax_segmented_temp_bytes(2), 0));
  CUDA_CHECK(cudaMemcpy(seg, d_out, sizeof seg, cudaMemcpyDeviceToHost));
  check(seg[0].index == 39999 && seg[1].index == 59999, "lastmax", "segmented: the index within the segment", n);
  CUDA_CHECK(cudaFree(ts));
  CUDA_CHECK(cudaFree(t));
  CUDA_CHECK(cudaFree(d_o));
  CUDA_CHECK(cudaFree(d_out));
  CUDA_CHECK(cudaFree(d));
}

int main(int argc, char **argv) {
  small_run = argc > 1 && std::strcmp(argv[1], "--small") == 0;
  const Threshold th = {0.25f};
  const Target target = {777}, absent = {-1};
  const Window window = {10, 12};
  const Affine affine = {0.5f, 0.25f};
  test_all(Forms<float, unsigned long long>{FLAT(r_params, above, float, unsigned long long, , &th)
                                                SEG(r_params, above, float, unsigned long long, long long, , &th)},
           fill_value);
  test_all(Forms<Custom, CustomArg>{FLAT(r_params, absmin, Custom, CustomArg)
                                        SEG(r_params, absmin, Custom, CustomArg, long long)},
           fill_value);
  test_all(Forms<int, LastMax>{FLAT(r_params, lastmax, int, LastMax) SEG(r_params, lastmax, int, LastMax, long long)},
           fill_value);
  test_all(Forms<float, Extremes>{FLAT(r_params, extremes, float, Extremes) FLAT_ONLY}, fill_value);
  test_all(Forms<int, long long>{FLAT(r_params, find, int, long long, , &target)
                                     SEG(r_params, find, int, long long, int, , &target)},
           fill_value);
  test_all(Forms<int, long long>{FLAT(r_params, find, int, long long, , &absent) FLAT_ONLY}, fill_value);
  test_all(Forms<float, double>{FLAT(r_params, wsum, float, double) FLAT_ONLY}, fill_value);
  test_all(Forms<int, Latest>{FLAT(r_params, latest, int, Latest, , &window)
                                  SEG(r_params, latest, int, Latest, long long, , &window)},
           fill_value);
  test_axpy(&affine);
  test_params_contract();
  test_index_meaning();
  std::printf("%ld passed, %ld failed\n", passed, failed);
  return failed ? 1 : 0;
}
