// GPU tests of the generated reductions (cases.inc, from make_cases.py).
// For every case: n in {0, 1, 31, 32, 33, 1023, 1024, 1025, 65537, 2^20+7,
// 2^26+3} against the CPU reference with garbage in the temporary storage and
// the output, and again with the temp as the last call left it (the two ways
// the blocks find their merger), an input at d_in + 1, two streams at once
// with their own temp,
// 10 repeated runs bitwise equal, bad arguments refused with nothing launched,
// and NULL d_in with n = 0 and a misaligned d_temp accepted; then one temp
// shared in turn by sums and a min after garbage. Integer and
// ordered results must equal the CPU reference bit for bit; float inputs
// are chosen so every summation order is exact, except the REAL cases,
// which are checked against the documented error bound. One int8 sum runs
// over more than 2^31 elements.
// `test_reduce --small [--stride K]` is the run for compute-sanitizer
// (tests/gpu/sanitize.sh): n up to 2^18+3, 2 repeats, no 2^31 case, and
// with --stride only every K-th case.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <type_traits>
#include <vector>
#include "r_floats.cuh"
#include "r_signed.cuh"
#include "r_structs.cuh"
#include "r_unsigned.cuh"
#include "r_user.cuh"
#include "r_vectors.cuh"
#include "inputs.h"

#define FILL_BEGIN(type)                                                    \
  static void fill_struct(type &x, unsigned long long h, InputClass cls) { \
    std::memset(&x, 0xA5, sizeof x); /* padding holds noise */             \
    int field = 0;
#define FILL_FIELD(f, count) fill_field(x.f, h, cls, field);
#define FILL_END }
#define CASE(...)
#include "cases.inc"
#undef CASE
#undef FILL_BEGIN
#undef FILL_FIELD
#undef FILL_END

// ---- one case ---------------------------------------------------------------
template <class IN, class ACC> struct Case {
  const char *name;
  cudaError_t (*run)(const IN *, size_t, ACC *, void *, size_t, cudaStream_t);
  ACC (*host)(const IN *, size_t);
  size_t (*temp_bytes)(size_t);
  bool (*equal)(const ACC &, const ACC &); // the module's bits_equal
  InputClass cls;
  Compare cmp;
};

template <class IN, class ACC>
static bool close_enough(const Case<IN, ACC> &c, const ACC &got, const ACC &want, const IN *in, size_t n) {
  return close_to(c.cmp, c.equal, got, want, in, n);
}

static size_t sizes[] = {0, 1, 31, 32, 33, 1023, 1024, 1025, 65537, (1u << 20) + 7, (1u << 26) + 3};
static const size_t small_sizes[] = {0, 1, 31, 32, 33, 1023, 1024, 1025, 4099, 65537, (1u << 18) + 3};
static size_t max_n = sizes[10];
static int repeats = 10;

template <class IN, class ACC> static void run_case(const Case<IN, ACC> &c) {
  std::unique_ptr<IN[]> h_buf(new IN[max_n]); // left uninitialised: fill writes every byte
  IN *h_in = h_buf.get();
  fill(h_in, max_n, c.cls, 0x5eed);
  IN *d_buf;
  CUDA_CHECK(cudaMalloc(&d_buf, (max_n + 1) * sizeof(IN)));
  CUDA_CHECK(cudaMemcpy(d_buf, h_in, max_n * sizeof(IN), cudaMemcpyHostToDevice));
  size_t tb = c.temp_bytes(max_n);
  void *d_temp, *d_temp2;
  ACC *d_out;
  CUDA_CHECK(cudaMalloc(&d_temp, tb + 16)); // room for d_temp + 1
  CUDA_CHECK(cudaMalloc(&d_temp2, tb));
  CUDA_CHECK(cudaMalloc(&d_out, 4 * sizeof(ACC)));
  auto gpu = [&](const IN *in, size_t n, void *temp, cudaStream_t s, ACC *out) {
    CUDA_CHECK(cudaMemsetAsync(temp, 0xA5, tb, s)); // garbage in temp and out
    CUDA_CHECK(cudaMemsetAsync(out, 0x5A, sizeof(ACC), s));
    CUDA_CHECK(c.run(in, n, out, temp, tb, s));
  };
  auto fetch = [&](ACC *out) {
    ACC r;
    CUDA_CHECK(cudaMemcpy(&r, out, sizeof r, cudaMemcpyDeviceToHost));
    return r;
  };
  std::vector<ACC> want(sizeof sizes / sizeof sizes[0]);
  for (size_t i = 0; i < want.size(); i++)
    want[i] = c.host(h_in, sizes[i]);

  for (size_t i = 0; i < want.size(); i++) {
    gpu(d_buf, sizes[i], d_temp, 0, d_out);
    check(close_enough(c, fetch(d_out), want[i], h_in, sizes[i]), c.name, "matches the CPU reference", sizes[i]);
  }
  // temp reused as the last call left it: the ticket word is clean, so the
  // last block to finish merges (the calls above saw garbage: block 0 waited)
  for (size_t i = 0; i < want.size(); i++) {
    CUDA_CHECK(c.run(d_buf, sizes[i], d_out, d_temp, tb, 0));
    check(close_enough(c, fetch(d_out), want[i], h_in, sizes[i]), c.name, "temp reused as it is", sizes[i]);
  }
  // d_in + 1: the same values one element further on
  CUDA_CHECK(cudaMemcpy(d_buf + 1, h_in, sizes[9] * sizeof(IN), cudaMemcpyHostToDevice));
  for (size_t i : {7, 8, 9}) {
    gpu(d_buf + 1, sizes[i], d_temp, 0, d_out);
    check(close_enough(c, fetch(d_out), want[i], h_in, sizes[i]), c.name, "input at d_in + 1", sizes[i]);
  }
  CUDA_CHECK(cudaMemcpy(d_buf, h_in, max_n * sizeof(IN), cudaMemcpyHostToDevice));
  // two streams at once, each with its own temp
  cudaStream_t s1, s2;
  CUDA_CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  CUDA_CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  gpu(d_buf, max_n, d_temp, s1, d_out);
  gpu(d_buf, sizes[9], d_temp2, s2, d_out + 1);
  CUDA_CHECK(cudaDeviceSynchronize());
  check(close_enough(c, fetch(d_out), want[10], h_in, max_n), c.name, "stream 1 of 2", max_n);
  check(close_enough(c, fetch(d_out + 1), want[9], h_in, sizes[9]), c.name, "stream 2 of 2", sizes[9]);
  CUDA_CHECK(cudaStreamDestroy(s1));
  CUDA_CHECK(cudaStreamDestroy(s2));
  // run to run: bitwise the same
  for (size_t n : {sizes[9], max_n}) {
    gpu(d_buf, n, d_temp, 0, d_out);
    ACC first = fetch(d_out);
    bool same = true;
    for (int r = 0; r < repeats; r++) {
      if (r % 2) /* garbage, then temp as the last call left it: both merges give the same bits */
        gpu(d_buf, n, d_temp2, 0, d_out);
      else
        CUDA_CHECK(c.run(d_buf, n, d_out, d_temp, tb, 0));
      same = same && c.equal(fetch(d_out), first);
    }
    check(same, c.name, "repeated runs are bitwise equal", n);
  }
  // d_temp may have any alignment (docs/emitted.md): d_temp + 1 with tb bytes
  for (size_t i : {7, 9}) {
    gpu(d_buf, sizes[i], (char *)d_temp + 1, 0, d_out);
    check(close_enough(c, fetch(d_out), want[i], h_in, sizes[i]), c.name, "temp at d_temp + 1", sizes[i]);
  }
  // NULL d_in is fine when n = 0: the identity
  CUDA_CHECK(cudaMemset(d_out, 0x5A, sizeof(ACC)));
  check(c.run(nullptr, 0, d_out, d_temp, tb, 0) == cudaSuccess &&
            close_enough(c, fetch(d_out), want[0], h_in, 0), c.name, "NULL d_in with n = 0 gives the identity", 0);
  // bad arguments: cudaErrorInvalidValue, and nothing launched (d_out keeps its bytes, no error pending)
  const size_t out_bytes = 4 * sizeof(ACC);
  std::vector<unsigned char> out_after(out_bytes);
  auto refused = [&](cudaError_t got, const char *what) {
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(out_after.data(), d_out, out_bytes, cudaMemcpyDeviceToHost));
    bool untouched = true;
    for (unsigned char b : out_after)
      untouched = untouched && b == 0x5A;
    check(got == cudaErrorInvalidValue && untouched && cudaGetLastError() == cudaSuccess, c.name, what, 10);
  };
  const IN *in_misaligned = reinterpret_cast<const IN *>(reinterpret_cast<const char *>(d_buf) + 1);
  ACC *out_misaligned = reinterpret_cast<ACC *>(reinterpret_cast<char *>(d_out) + 1);
  CUDA_CHECK(cudaMemset(d_out, 0x5A, out_bytes));
  refused(c.run(d_buf, 10, nullptr, d_temp, tb, 0), "NULL d_out refused");
  refused(c.run(nullptr, 10, d_out, d_temp, tb, 0), "NULL d_in with n > 0 refused");
  refused(c.run(d_buf, 10, d_out, nullptr, tb, 0), "NULL d_temp refused");
  refused(c.run(d_buf, 10, d_out, nullptr, 0, 0), "NULL d_temp with temp_bytes 0 refused");
  refused(c.run(d_buf, 10, d_out, d_temp, tb - 1, 0), "temp_bytes one too small refused");
  refused(c.run(d_buf, 10, d_out, d_temp, 0, 0), "temp_bytes 0 refused");
  if (alignof(IN) > 1)
    refused(c.run(in_misaligned, 10, d_out, d_temp, tb, 0), "d_in not aligned to alignof(IN) refused");
  if (alignof(ACC) > 1)
    refused(c.run(d_buf, 10, out_misaligned, d_temp, tb, 0), "d_out not aligned to alignof(ACC) refused");
  CUDA_CHECK(cudaFree(d_buf));
  CUDA_CHECK(cudaFree(d_temp));
  CUDA_CHECK(cudaFree(d_temp2));
  CUDA_CHECK(cudaFree(d_out));
}

// M_R_warp and M_R_block in a user kernel, with an ordered operator: each
// thread folds its element, then warps and the block combine in order.
__global__ void warp_block_kernel(const int *in, Hash *warp_out, Hash *block_out) {
  Hash mine = hash_fold(r_user_polyhash_identity(), in[blockIdx.x * blockDim.x + threadIdx.x]);
  Hash w = r_user_polyhash_warp(mine);
  Hash b = r_user_polyhash_block(mine);
  if (threadIdx.x % 32 == 0)
    warp_out[(blockIdx.x * blockDim.x + threadIdx.x) / 32] = w;
  if (threadIdx.x == 0)
    block_out[blockIdx.x] = b;
}

static void run_warp_block() {
  const int blocks = 4, threads = 256, n = blocks * threads;
  std::vector<int> h(n);
  fill(h.data(), n, GENERAL, 0x3a3a);
  int *d;
  Hash *dw, *db;
  CUDA_CHECK(cudaMalloc(&d, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&dw, n / 32 * sizeof(Hash)));
  CUDA_CHECK(cudaMalloc(&db, blocks * sizeof(Hash)));
  CUDA_CHECK(cudaMemcpy(d, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  warp_block_kernel<<<blocks, threads>>>(d, dw, db);
  std::vector<Hash> w(n / 32), b(blocks);
  CUDA_CHECK(cudaMemcpy(w.data(), dw, w.size() * sizeof(Hash), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(b.data(), db, b.size() * sizeof(Hash), cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int i = 0; i < n / 32; i++)
    ok = ok && r_user::bits_equal(w[i], r_user_polyhash_host(h.data() + 32 * i, 32));
  check(ok, "polyhash", "r_user_polyhash_warp in lane order", 32);
  ok = true;
  for (int i = 0; i < blocks; i++)
    ok = ok && r_user::bits_equal(b[i], r_user_polyhash_host(h.data() + threads * i, threads));
  check(ok, "polyhash", "r_user_polyhash_block in thread order", threads);
  CUDA_CHECK(cudaFree(d));
  CUDA_CHECK(cudaFree(dw));
  CUDA_CHECK(cudaFree(db));
}

// One temp shared in turn by reductions that merge in different ways: the
// integer sums fold their partials into the ticket's atomic (a sum word
// beside the ticket, packs_in_ticket), min takes the ticket and merges the
// partials. Each must leave both words as the next one needs them, after
// garbage and after each other.
static void run_shared_temp() {
  const size_t n = (1u << 20) + 7;
  std::unique_ptr<int32_t[]> h32(new int32_t[n]);
  std::unique_ptr<int8_t[]> h8(new int8_t[n]);
  fill(h32.get(), n, GENERAL, 0x7e3);
  fill(h8.get(), n, GENERAL, 0x7e4);
  const int32_t want_sum = r_signed_sum_int32_t_host(h32.get(), n), want_min = r_signed_min_int32_t_host(h32.get(), n);
  const int8_t want_sum8 = r_signed_sum_int8_t_host(h8.get(), n);
  int32_t *d32;
  int8_t *d8;
  CUDA_CHECK(cudaMalloc(&d32, n * sizeof(int32_t)));
  CUDA_CHECK(cudaMalloc(&d8, n));
  CUDA_CHECK(cudaMemcpy(d32, h32.get(), n * sizeof(int32_t), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d8, h8.get(), n, cudaMemcpyHostToDevice));
  size_t tb = r_signed_sum_int32_t_temp_bytes(n);
  tb = tb > r_signed_min_int32_t_temp_bytes(n) ? tb : r_signed_min_int32_t_temp_bytes(n);
  tb = tb > r_signed_sum_int8_t_temp_bytes(n) ? tb : r_signed_sum_int8_t_temp_bytes(n);
  void *temp;
  int32_t *out;
  CUDA_CHECK(cudaMalloc(&temp, tb));
  CUDA_CHECK(cudaMalloc(&out, 2 * sizeof(int32_t)));
  int8_t *out8 = reinterpret_cast<int8_t *>(out + 1);
  bool sums = true, mins = true, sums8 = true;
  for (int round = 0; round < 12; ++round) {
    if (round % 4 == 0)
      CUDA_CHECK(cudaMemset(temp, 0xA5, tb)); /* garbage now and then */
    CUDA_CHECK(cudaMemset(out, 0x5A, 2 * sizeof(int32_t)));
    int32_t got = 0;
    int8_t got8 = 0;
    switch (round % 3) {
    case 0:
      CUDA_CHECK(r_signed_sum_int32_t(d32, n, out, temp, tb, 0));
      CUDA_CHECK(cudaMemcpy(&got, out, sizeof got, cudaMemcpyDeviceToHost));
      sums = sums && got == want_sum;
      break;
    case 1:
      CUDA_CHECK(r_signed_min_int32_t(d32, n, out, temp, tb, 0));
      CUDA_CHECK(cudaMemcpy(&got, out, sizeof got, cudaMemcpyDeviceToHost));
      mins = mins && got == want_min;
      break;
    default:
      CUDA_CHECK(r_signed_sum_int8_t(d8, n, out8, temp, tb, 0));
      CUDA_CHECK(cudaMemcpy(&got8, out8, sizeof got8, cudaMemcpyDeviceToHost));
      sums8 = sums8 && got8 == want_sum8;
    }
  }
  check(sums, "shared temp", "int32 sums (merged in the ticket's atomic) after garbage and other reductions", n);
  check(mins, "shared temp", "int32 mins (ticket merge) after garbage and the sums", n);
  check(sums8, "shared temp", "int8 sums (merged in the ticket's atomic) after garbage and other reductions", n);
  CUDA_CHECK(cudaFree(d32));
  CUDA_CHECK(cudaFree(d8));
  CUDA_CHECK(cudaFree(temp));
  CUDA_CHECK(cudaFree(out));
}

// More than 2^31 elements: 64-bit indexing.
static void run_huge() {
  const size_t n = (1ull << 31) + 5;
  std::unique_ptr<int8_t[]> h(new int8_t[n]);
  fill(h.get(), n, GENERAL, 0xb16);
  long long want = r_user_widen_host(h.get(), n);
  int8_t *d;
  CUDA_CHECK(cudaMalloc(&d, n));
  CUDA_CHECK(cudaMemcpy(d, h.get(), n, cudaMemcpyHostToDevice));
  size_t tb = r_user_widen_temp_bytes(n);
  void *temp;
  long long *out, got = 0;
  CUDA_CHECK(cudaMalloc(&temp, tb));
  CUDA_CHECK(cudaMalloc(&out, sizeof got));
  CUDA_CHECK(r_user_widen(d, n, out, temp, tb, 0));
  CUDA_CHECK(cudaMemcpy(&got, out, sizeof got, cudaMemcpyDeviceToHost));
  check(got == want, "widen", "int8 sum over more than 2^31 elements", n);
  CUDA_CHECK(cudaFree(d));
  CUDA_CHECK(cudaFree(temp));
  CUDA_CHECK(cudaFree(out));
}

static int case_stride = 1, case_index;
static const char *only_module; // --only M: the cases of module M, nothing else
#define CASE(module, red, in_t, acc_t, cls, cmp)                                                              \
  if ((!only_module || std::strcmp(only_module, #module) == 0) && case_index++ % case_stride == 0) {         \
    Case<in_t, acc_t> c = {#module "_" #red, module##_##red, module##_##red##_host, module##_##red##_temp_bytes, \
                           [](const acc_t &a, const acc_t &b) { return module::bits_equal(a, b); }, cls, cmp}; \
    long before = failed;                                                                                    \
    run_case(c);                                                                                             \
    std::printf("%s %s\n", failed == before ? "ok  " : "FAIL", c.name);                                      \
    std::fflush(stdout);                                                                                     \
  }
#define FILL_BEGIN(type)
#define FILL_FIELD(f, count)
#define FILL_END

int main(int argc, char **argv) {
  cudaDeviceProp prop;
  CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("reduce: %s (sm_%d%d, %d SMs)\n", prop.name, prop.major, prop.minor, prop.multiProcessorCount);
  bool small = false;
  for (int i = 1; i < argc; i++) {
    if (std::strcmp(argv[i], "--small") == 0) {
      small = true;
    } else if (std::strcmp(argv[i], "--stride") == 0 && i + 1 < argc && std::atoi(argv[i + 1]) > 0) {
      case_stride = std::atoi(argv[++i]);
    } else if (std::strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
      only_module = argv[++i];
    } else {
      std::printf("usage: test_reduce [--small] [--stride K] [--only MODULE]\n");
      return 2;
    }
  }
  if (small) {
    std::memcpy(sizes, small_sizes, sizeof sizes);
    max_n = sizes[10];
    repeats = 2;
  }
#include "cases.inc"
  if (only_module) {
    std::printf("reduce: %ld passed, %ld failed\n", passed, failed);
    return failed ? 1 : 0;
  }
  run_warp_block();
  run_shared_temp();
  if (!small)
    run_huge();
  std::printf("reduce: %ld passed, %ld failed\n", passed, failed);
  return failed ? 1 : 0;
}
