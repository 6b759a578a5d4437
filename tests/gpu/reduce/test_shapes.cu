// GPU tests of the pieces for the user's own kernels in every shape
// (docs/emitted.md, "For your own kernels"): M_R_warp with logical warps of
// 1 to 32 lanes, with valid_items and with item arrays; M_R_block with
// blocks of 1 to 1024 threads, 1-D, 2-D and 3-D, with valid_items and with
// item arrays. Every thread's result is compared bit for bit with the host:
// the ordered operators (polyhash, maxsub) and counted (which counts any
// combine with the identity) against the sequential fold in the documented
// order, and a float sum, whose bits depend on the order, against the
// documented tree run on the host.
// Each launch fills the lanes outside valid_items with values of their own:
// combining any of them changes the result.
#include <climits>
#include <cstdio>
#include <cstring>
#include <vector>
#include "r_floats.cuh"
#include "r_user.cuh"
#include "inputs.h"

// One reduction's device API, behind names the kernels below can share.
#define DEVICE_API(NAME, PREFIX, OP)                                                                           \
  struct NAME {                                                                                                \
    typedef OP op;                                                                                             \
    typedef OP::acc_type A;                                                                                    \
    static constexpr const char *name = #PREFIX;                                                               \
    static __device__ A warp(A v) { return PREFIX##_warp(v); }                                                 \
    template <int W> static __device__ A warp(A v) { return PREFIX##_warp<W>(v); }                             \
    template <int W> static __device__ A warp(A v, int valid) { return PREFIX##_warp<W>(v, valid); }           \
    template <int W, int N> static __device__ A warp(const A (&x)[N]) { return PREFIX##_warp<W>(x); }          \
    template <int W, int N> static __device__ A warp(const A (&x)[N], int valid) {                              \
      return PREFIX##_warp<W>(x, valid);                                                                       \
    }                                                                                                          \
    static __device__ A block(A v) { return PREFIX##_block(v); }                                               \
    static __device__ A block(A v, int valid) { return PREFIX##_block(v, valid); }                             \
    template <int N> static __device__ A block(const A (&x)[N]) { return PREFIX##_block(x); }                  \
    template <int N> static __device__ A block(const A (&x)[N], int valid) { return PREFIX##_block(x, valid); } \
    template <int BX, int BY, int BZ> static __device__ A block_shaped(A v) { return PREFIX##_block<BX, BY, BZ>(v); } \
    template <int BX, int BY, int BZ> static __device__ A block_shaped(A v, int valid) {                        \
      return PREFIX##_block<BX, BY, BZ>(v, valid);                                                             \
    }                                                                                                          \
  };
DEVICE_API(Polyhash, r_user_polyhash, r_user::detail::polyhash_op)
DEVICE_API(Maxsub, r_user_maxsub, r_user::detail::maxsub_op)
DEVICE_API(Counted_, r_user_counted, r_user::detail::counted_op)
DEVICE_API(SumFloat, r_floats_sum_float, r_floats::detail::sum_float_op)
#undef DEVICE_API

// Values whose every combination in a different order or with an extra
// operand gives other bits.
static Hash value_of(Polyhash, unsigned long long h) { return hash_fold(Polyhash::op::identity(), (int)h); }
static MaxSub value_of(Maxsub, unsigned long long h) {
  return maxsub_fold(Maxsub::op::identity(), (int)(h % 2001) - 1000);
}
static Counted value_of(Counted_, unsigned long long h) {
  return counted_fold(Counted_::op::identity(), (int)(h % 2001) - 1000);
}
static float value_of(SumFloat, unsigned long long h) { // magnitudes 2^-10 to 2^10: sums round
  return std::ldexp((float)(h >> 40) / 16777216.0f, (int)(h % 21) - 10) * ((h >> 20) & 1 ? 1.0f : -1.0f);
}

// The caller's place in its block, x fastest (docs/emitted.md).
__device__ int rank_in_block() { return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z); }
__device__ size_t global_rank() {
  return (size_t)blockIdx.x * (blockDim.x * blockDim.y * blockDim.z) + rank_in_block();
}

// W = 0: the call without a width; valid < 0: the call without valid_items.
template <class Api, int W> __global__ void warp_kernel(const typename Api::A *in, typename Api::A *out, int valid) {
  const size_t g = global_rank();
  if constexpr (W == 0)
    out[g] = Api::warp(in[g]);
  else
    out[g] = valid < 0 ? Api::template warp<W>(in[g]) : Api::template warp<W>(in[g], valid);
}
// The items kernels' valid argument for the call without valid_items (any
// negative count is a valid_items of its own, which gives the identity).
static const int no_valid_items = INT_MIN;
template <class Api, int W, int N>
__global__ void warp_items_kernel(const typename Api::A *in, typename Api::A *out, int valid) {
  const size_t g = global_rank();
  typename Api::A items[N];
  for (int i = 0; i < N; i++)
    items[i] = in[g * N + i];
  out[g] = valid == no_valid_items ? Api::template warp<W>(items) : Api::template warp<W>(items, valid);
}
template <class Api> __global__ void block_kernel(const typename Api::A *in, typename Api::A *out, int valid) {
  const size_t g = global_rank();
  out[g] = valid < 0 ? Api::block(in[g]) : Api::block(in[g], valid);
}
template <class Api, int BX, int BY, int BZ>
__global__ void block_shaped_kernel(const typename Api::A *in, typename Api::A *out, int valid) {
  const size_t g = global_rank();
  out[g] = valid < 0 ? Api::template block_shaped<BX, BY, BZ>(in[g]) : Api::template block_shaped<BX, BY, BZ>(in[g], valid);
}
template <class Api, int N> __global__ void block_items_kernel(const typename Api::A *in, typename Api::A *out, int valid) {
  const size_t g = global_rank();
  typename Api::A items[N];
  for (int i = 0; i < N; i++)
    items[i] = in[g * N + i];
  out[g] = valid == no_valid_items ? Api::block(items) : Api::block(items, valid);
}

// ---- the host's side -------------------------------------------------------
// The documented order: each thread's items in turn, then the ordered tree
// over lanes (at each step lane l, a multiple of 2 * offset, appends lane
// l + offset's value when l + offset < valid), then the same tree over the
// warps' results. Equal to the sequential fold for an associative operator.
template <class Op> static typename Op::acc_type thread_fold(const typename Op::acc_type *items, int n) {
  typename Op::acc_type r = items[0];
  for (int i = 1; i < n; i++)
    r = Op::combine(r, items[i]);
  return r;
}
template <class Op> static typename Op::acc_type tree(std::vector<typename Op::acc_type> v, int valid) {
  if (valid <= 0)
    return Op::identity();
  for (int offset = 1; offset < (int)v.size(); offset *= 2)
    for (int l = 0; l + offset < valid; l += 2 * offset)
      v[l] = Op::combine(v[l], v[l + offset]);
  return v[0];
}
// The values of threads [first, first + count) of in, N items each, of
// which only the first `items` of the group count: each thread's fold of its
// own (a thread's share may be cut short).
template <class Op>
static std::vector<typename Op::acc_type> thread_values(const typename Op::acc_type *in, int N, size_t first, int count,
                                                        int items) {
  std::vector<typename Op::acc_type> values(count, Op::identity());
  for (int t = 0; t < count; t++)
    values[t] = thread_fold<Op>(in + (first + t) * N, items - t * N < N ? items - t * N : N);
  return values;
}
// How the device reduces `count` thread values: a logical warp of `width`
// lanes runs the tree over them; a block runs it over each warp of 32, then
// over the warps' results.
template <class Op>
static typename Op::acc_type group_tree(const std::vector<typename Op::acc_type> &values, int count, int width,
                                        bool block) {
  typedef typename Op::acc_type A;
  auto lanes = [&](int from, int n, int lanes_of) {
    std::vector<A> v(lanes_of, Op::identity());
    for (int l = 0; l < n; l++)
      v[l] = values[from + l];
    return tree<Op>(v, n);
  };
  if (!block)
    return lanes(0, count, width);
  std::vector<A> warps(32, Op::identity());
  const int nwarps = (count + 31) / 32;
  for (int w = 0; w < nwarps; w++)
    warps[w] = lanes(32 * w, count - 32 * w < 32 ? count - 32 * w : 32, 32);
  return tree<Op>(warps, nwarps);
}
// What a group of `count` threads from `first` must give: the float sum's
// bits come from the tree, the others' from the sequential fold (their
// operators are associative, so any order-keeping tree gives these bits).
template <class Api>
static typename Api::A expected(const typename Api::A *in, int N, size_t first, int count, int width, bool block) {
  typedef typename Api::op Op;
  if (count <= 0)
    return Op::identity();
  if (!std::is_same<Api, SumFloat>::value)
    return thread_fold<Op>(in + first * N, count * N);
  return group_tree<Op>(thread_values<Op>(in, N, first, count, count * N), count, width, block);
}

// The items forms with valid_items: a group of `count` threads from `first`,
// N items each, of which only the group's first `valid` items count.
template <class Api>
static typename Api::A expected_items(const typename Api::A *in, int N, size_t first, int count, int valid, int width,
                                      bool block) {
  typedef typename Api::op Op;
  const int items = valid < count * N ? valid : count * N;
  if (items <= 0)
    return Op::identity();
  if (!std::is_same<Api, SumFloat>::value)
    return thread_fold<Op>(in + first * N, items);
  const int holding = (items + N - 1) / N; /* the threads holding some of them */
  return group_tree<Op>(thread_values<Op>(in, N, first, holding, items), holding, width, block);
}

struct Shape {
  unsigned x, y, z;
  unsigned threads() const { return x * y * z; }
};
static const char *shape_name(Shape s) {
  static char buf[32];
  std::snprintf(buf, sizeof buf, "%ux%ux%u", s.x, s.y, s.z);
  return buf;
}
static const int blocks = 3; // each block on its own

template <class Api> struct Bench {
  typedef typename Api::A A;
  std::vector<A> h_in;
  A *d_in, *d_out;
  size_t most; // threads
  explicit Bench(size_t most_threads) : most(most_threads) {
    h_in.resize(most * 4);
    for (size_t i = 0; i < h_in.size(); i++)
      h_in[i] = value_of(Api(), mix(i ^ 0x5a5eULL));
    CUDA_CHECK(cudaMalloc(&d_in, h_in.size() * sizeof(A)));
    CUDA_CHECK(cudaMalloc(&d_out, most * sizeof(A)));
    CUDA_CHECK(cudaMemcpy(d_in, h_in.data(), h_in.size() * sizeof(A), cudaMemcpyHostToDevice));
  }
  ~Bench() {
    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
  }
  // Every thread's result of the last launch against want(g) for thread g.
  template <class Want> void verify(size_t threads, const char *what, Want want) {
    CUDA_CHECK(cudaGetLastError());
    std::vector<A> got(threads);
    CUDA_CHECK(cudaMemcpy(got.data(), d_out, threads * sizeof(A), cudaMemcpyDeviceToHost));
    size_t bad = threads;
    for (size_t g = 0; g < threads && bad == threads; g++) {
      A w = want(g);
      if (std::memcmp(&got[g], &w, sizeof(A)) != 0)
        bad = g;
    }
    if (!check(bad == threads, Api::name, what, threads))
      std::printf("     first wrong thread %zu\n", bad);
  }
  void prepare(size_t threads) {
    if (threads > most)
      std::exit(3);
    CUDA_CHECK(cudaMemset(d_out, 0x5A, threads * sizeof(A)));
  }
};

// What thread g of a launch of logical warps of `width` lanes must get
// (ranks in a block fill the warps in order, and each block holds whole
// groups), N items a thread, lanes [0, valid) of each group counted.
template <class Api> static auto warp_want(const Bench<Api> &b, int width, int N, int valid) {
  return [&b, width, N, valid](size_t g) {
    return expected<Api>(b.h_in.data(), N, g / width * width, valid < width ? valid : width, width, false);
  };
}

template <class Api, int W> static void warp_width_parts(Bench<Api> &b, Shape shape);

// Logical warps of W lanes (0: the call without a width, 32 lanes) in a
// block of `shape` (whole warps, or one partial warp of whole groups).
template <class Api, int W> static void warp_width(Bench<Api> &b, Shape shape) {
  const int width = W ? W : 32;
  const size_t threads = (size_t)blocks * shape.threads();
  const dim3 grid(blocks), block(shape.x, shape.y, shape.z);
  char what[96];
  b.prepare(threads);
  warp_kernel<Api, W><<<grid, block>>>(b.d_in, b.d_out, -1);
  std::snprintf(what, sizeof what, "warp<%d> in a %s block", W, shape_name(shape));
  b.verify(threads, W ? what : "warp (no width) in a block", warp_want(b, width, 1, width));
  if constexpr (W > 0) {
    warp_width_parts<Api, W>(b, shape);
  }
}

// valid_items from 0 to W + 1 and arrays of 1, 3 and 4 items.
template <class Api, int W> static void warp_width_parts(Bench<Api> &b, Shape shape) {
  const int width = W;
  const size_t threads = (size_t)blocks * shape.threads();
  const dim3 grid(blocks), block(shape.x, shape.y, shape.z);
  char what[96];
  for (int valid = 0; valid <= width + 1; valid++) {
    b.prepare(threads);
    warp_kernel<Api, W><<<grid, block>>>(b.d_in, b.d_out, valid);
    std::snprintf(what, sizeof what, "warp<%d> with valid_items %d in a %s block", W, valid, shape_name(shape));
    b.verify(threads, what, warp_want(b, width, 1, valid));
  }
  auto items = [&](auto n) {
    constexpr int N = decltype(n)::value;
    b.prepare(threads);
    warp_items_kernel<Api, W, N><<<grid, block>>>(b.d_in, b.d_out, no_valid_items);
    std::snprintf(what, sizeof what, "warp<%d> over %d items in a %s block", W, N, shape_name(shape));
    b.verify(threads, what, warp_want(b, width, N, width));
    // the group's first valid items only: cuts inside a lane's items and between lanes
    const int valids[] = {-3, 0, 1, N - 1, N, N + 1, width * N / 2 + 1, width * N - 1, width * N, width * N + 1};
    for (int valid : valids) {
      b.prepare(threads);
      warp_items_kernel<Api, W, N><<<grid, block>>>(b.d_in, b.d_out, valid);
      std::snprintf(what, sizeof what, "warp<%d> over %d items, valid_items %d, in a %s block", W, N, valid,
                    shape_name(shape));
      b.verify(threads, what, [&](size_t g) {
        return expected_items<Api>(b.h_in.data(), N, g / width * width, width, valid, width, false);
      });
    }
  };
  items(std::integral_constant<int, 1>());
  items(std::integral_constant<int, 3>());
  items(std::integral_constant<int, 4>());
}

template <class Api> static void block_shape(Bench<Api> &b, Shape shape) {
  const int n = (int)shape.threads();
  const size_t threads = (size_t)blocks * n;
  const dim3 grid(blocks), block(shape.x, shape.y, shape.z);
  char what[96];
  auto want = [&](int N, int valid) {
    return [&, N, valid](size_t g) {
      return expected<Api>(b.h_in.data(), N, g / n * n, valid < n ? valid : n, 32, true);
    };
  };
  b.prepare(threads);
  block_kernel<Api><<<grid, block>>>(b.d_in, b.d_out, -1);
  std::snprintf(what, sizeof what, "block of %s", shape_name(shape));
  b.verify(threads, what, want(1, n));
  const int valids[] = {0, 1, 2, 31, 32, 33, 64, n / 2, n - 1, n, n + 1, 5000};
  for (int valid : valids) {
    if (valid < 0 || (valid > n + 1 && valid != 5000))
      continue;
    b.prepare(threads);
    block_kernel<Api><<<grid, block>>>(b.d_in, b.d_out, valid);
    std::snprintf(what, sizeof what, "block of %s with valid_items %d", shape_name(shape), valid);
    b.verify(threads, what, want(1, valid));
  }
  auto items = [&](auto c) {
    constexpr int N = decltype(c)::value;
    b.prepare(threads);
    block_items_kernel<Api, N><<<grid, block>>>(b.d_in, b.d_out, no_valid_items);
    std::snprintf(what, sizeof what, "block of %s over %d items", shape_name(shape), N);
    b.verify(threads, what, want(N, n));
    // the block's first valid items only: cuts inside a thread's items, at a warp's end and past the block
    const int valids[] = {-3, 0, 1, N + 1, 32 * N - 1, 32 * N + 1, n * N / 2, n * N - 1, n * N, n * N + 1, INT_MAX};
    for (int valid : valids) {
      if (valid > n * N + 1 && valid != INT_MAX)
        continue;
      b.prepare(threads);
      block_items_kernel<Api, N><<<grid, block>>>(b.d_in, b.d_out, valid);
      std::snprintf(what, sizeof what, "block of %s over %d items, valid_items %d", shape_name(shape), N, valid);
      b.verify(threads, what, [&](size_t g) {
        return expected_items<Api>(b.h_in.data(), N, g / n * n, n, valid, 32, true);
      });
    }
  };
  items(std::integral_constant<int, 1>());
  items(std::integral_constant<int, 3>());
  items(std::integral_constant<int, 4>());
}

// The shape as template arguments (M_R_block<BX, BY, BZ>): the same results
// as the run-time shape.
template <class Api, int BX, int BY, int BZ> static void block_shaped(Bench<Api> &b) {
  const int n = BX * BY * BZ;
  const size_t threads = (size_t)blocks * n;
  char what[96];
  const int valids[] = {-1, 0, 1, 33, n - 1, n + 1};
  for (int valid : valids) {
    if (valid == n - 1 && n == 1)
      continue;
    b.prepare(threads);
    block_shaped_kernel<Api, BX, BY, BZ><<<dim3(blocks), dim3(BX, BY, BZ)>>>(b.d_in, b.d_out, valid);
    std::snprintf(what, sizeof what, "block<%d, %d, %d> with valid_items %d", BX, BY, BZ, valid);
    const int count = valid < 0 || valid > n ? n : valid;
    b.verify(threads, what, [&](size_t g) { return expected<Api>(b.h_in.data(), 1, g / n * n, count, 32, true); });
  }
}

template <class Api> static void run_all() {
  Bench<Api> b((size_t)blocks * 1024);
  // whole warps, 1-D to 3-D, and a block of one partial warp (16 lanes)
  const Shape warp_shapes[] = {{64, 1, 1}, {16, 4, 1}, {4, 4, 4}, {8, 2, 2}, {16, 1, 1}};
  for (Shape s : warp_shapes) {
    if (s.threads() % 32 == 0)
      warp_width<Api, 0>(b, s);
    warp_width<Api, 1>(b, s);
    warp_width<Api, 2>(b, s);
    warp_width<Api, 4>(b, s);
    warp_width<Api, 8>(b, s);
    warp_width<Api, 16>(b, s);
    if (s.threads() % 32 == 0)
      warp_width<Api, 32>(b, s);
  }
  const Shape block_shapes[] = {{1, 1, 1},  {7, 1, 1}, {32, 1, 1}, {65, 1, 1},  {96, 1, 1},  {1024, 1, 1},
                                {8, 4, 1},  {7, 9, 1}, {4, 4, 4},  {3, 5, 7},   {33, 31, 1}, {1, 1, 64},
                                {2, 512, 1}, {5, 1, 1}, {33, 1, 1}, {48, 1, 1}, {100, 1, 1}, {160, 1, 1},
                                {1000, 1, 1}, {31, 1, 1}};
  for (Shape s : block_shapes)
    block_shape<Api>(b, s);
  block_shaped<Api, 1, 1, 1>(b);
  block_shaped<Api, 7, 1, 1>(b);
  block_shaped<Api, 32, 1, 1>(b);
  block_shaped<Api, 65, 1, 1>(b);
  block_shaped<Api, 1024, 1, 1>(b);
  block_shaped<Api, 7, 9, 1>(b);
  block_shaped<Api, 3, 5, 7>(b);
  block_shaped<Api, 33, 31, 1>(b);
  block_shaped<Api, 33, 1, 1>(b);
  block_shaped<Api, 48, 1, 1>(b);
  block_shaped<Api, 100, 1, 1>(b);
  block_shaped<Api, 160, 1, 1>(b);
  block_shaped<Api, 1000, 1, 1>(b);
  block_shaped<Api, 31, 1, 1>(b);
  block_shaped<Api, 17, 1, 1>(b);
}

// `test_shapes --only NAME` runs one reduction (the compute-sanitizer runs
// in remote.sh take r_user_polyhash).
int main(int argc, char **argv) {
  const char *only = argc == 3 && std::strcmp(argv[1], "--only") == 0 ? argv[2] : nullptr;
  if (argc != 1 && !only) {
    std::printf("usage: test_shapes [--only NAME]\n");
    return 2;
  }
  cudaDeviceProp prop;
  CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("shapes: %s (sm_%d%d)\n", prop.name, prop.major, prop.minor);
  auto run = [&](auto api) {
    typedef decltype(api) Api;
    if (!only || std::strcmp(only, Api::name) == 0)
      run_all<Api>();
  };
  run(Polyhash());
  run(Maxsub());
  run(Counted_());
  run(SumFloat());
  std::printf("shapes: %ld passed, %ld failed\n", passed, failed);
  return failed || passed == 0 ? 1 : 0;
}
