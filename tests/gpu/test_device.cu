// GPU tests of gputest.cuh: every shuffle variant over all lanes, every
// width 2..32 and every lane/delta/mask argument, SharedMem round trips,
// and ldg (aligned and from an offset pointer), each checked on the CPU.
#include <cstdio>
#include <cstring>
#include <vector>
#include "gputest.cuh"

#define CUDA_CHECK(call)                                                                   \
  do {                                                                                     \
    cudaError_t e_ = (call);                                                               \
    if (e_ != cudaSuccess) {                                                               \
      std::printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); \
      std::exit(1);                                                                        \
    }                                                                                      \
  } while (0)

static int passed, failed;
static void report(bool ok, const char *type, const char *what) {
  if (ok) {
    passed++;
  } else {
    failed++;
    std::printf("FAIL %s: %s\n", type, what);
  }
}

enum Variant { IDX, UP, DOWN, XOR };
static const char *variant_names[] = {"shfl_sync", "shfl_up_sync", "shfl_down_sync", "shfl_xor_sync"};

// Block b uses argument b (source lane, delta or lane mask) for its one warp.
template <class T>
__global__ void shuffle_kernel(const T *in, T *out, int variant, int width) {
  int lane = threadIdx.x, arg = blockIdx.x;
  T v = in[arg * 32 + lane];
  T r;
  switch (variant) {
  case IDX: r = gputest::shfl_sync(0xffffffffu, v, arg, width); break;
  case UP: r = gputest::shfl_up_sync(0xffffffffu, v, (unsigned)arg, width); break;
  case DOWN: r = gputest::shfl_down_sync(0xffffffffu, v, (unsigned)arg, width); break;
  default: r = gputest::shfl_xor_sync(0xffffffffu, v, arg, width); break;
  }
  out[arg * 32 + lane] = r;
}

// The PTX shfl.sync rules: the source lane, or the lane's own when outside.
static int source_lane(int variant, int lane, int arg, int width) {
  int first = lane & ~(width - 1), last = first + width - 1, j;
  switch (variant) {
  case IDX: return first + (arg & (width - 1));
  case UP: j = lane - arg; return j < first ? lane : j;
  case DOWN: j = lane + arg; return j > last ? lane : j;
  default: j = lane ^ arg; return j > last ? lane : j;
  }
}

template <class T>
__global__ void shared_kernel(const T *in, T *out, int *misaligned) {
  T *s = gputest::SharedMem<T>().getPointer();
  if (reinterpret_cast<size_t>(s) % alignof(T) != 0)
    *misaligned = 1;
  s[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = s[blockDim.x - 1 - threadIdx.x];
}

template <class T>
__global__ void ldg_kernel(const T *in, T *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = gputest::ldg(in + i);
}

// Distinct bytes per element (padding included); bools stay 0 or 1.
template <class T> static void fill(T *v, int n, int seed) {
  for (int e = 0; e < n; e++) {
    unsigned char *p = reinterpret_cast<unsigned char *>(&v[e]);
    for (size_t k = 0; k < sizeof(T); k++)
      p[k] = (unsigned char)(((unsigned)e * 131u + (unsigned)k * 29u + (unsigned)seed * 7u + 1u) & 0xffu);
  }
}
template <> void fill<bool>(bool *v, int n, int seed) {
  for (int e = 0; e < n; e++)
    v[e] = ((e * 7 + seed) >> 1) & 1;
}

template <class T> static void test_type(const char *name) {
  const int n = 32 * 32;
  std::vector<unsigned char> in_bytes(n * sizeof(T)), out_bytes(n * sizeof(T));
  T *host_in = reinterpret_cast<T *>(in_bytes.data());
  T *host_out = reinterpret_cast<T *>(out_bytes.data());
  fill(host_in, n, 3);
  T *d_in, *d_out;
  CUDA_CHECK(cudaMalloc(&d_in, (n + 1) * sizeof(T)));
  CUDA_CHECK(cudaMalloc(&d_out, (n + 1) * sizeof(T)));
  CUDA_CHECK(cudaMemcpy(d_in, host_in, n * sizeof(T), cudaMemcpyHostToDevice));

  char what[128];
  for (int variant = IDX; variant <= XOR; variant++) {
    for (int width = 2; width <= 32; width *= 2) {
      CUDA_CHECK(cudaMemset(d_out, 0, n * sizeof(T)));
      shuffle_kernel<T><<<32, 32>>>(d_in, d_out, variant, width);
      CUDA_CHECK(cudaGetLastError());
      CUDA_CHECK(cudaMemcpy(host_out, d_out, n * sizeof(T), cudaMemcpyDeviceToHost));
      bool ok = true;
      for (int arg = 0; arg < 32 && ok; arg++)
        for (int lane = 0; lane < 32 && ok; lane++) {
          const T &want = host_in[arg * 32 + source_lane(variant, lane, arg, width)];
          if (!gputest::bits_equal(host_out[arg * 32 + lane], want)) {
            ok = false;
            std::snprintf(what, sizeof what, "%s width %d arg %d lane %d", variant_names[variant], width, arg, lane);
          }
        }
      if (ok)
        std::snprintf(what, sizeof what, "%s width %d", variant_names[variant], width);
      report(ok, name, what);
    }
  }

  // SharedMem: write, reverse through shared memory, read back.
  int *d_flag, flag = 0;
  CUDA_CHECK(cudaMalloc(&d_flag, sizeof(int)));
  CUDA_CHECK(cudaMemset(d_flag, 0, sizeof(int)));
  const int block = 256;
  shared_kernel<T><<<1, block, block * sizeof(T)>>>(d_in, d_out, d_flag);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(host_out, d_out, block * sizeof(T), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&flag, d_flag, sizeof(int), cudaMemcpyDeviceToHost));
  bool ok = flag == 0;
  for (int i = 0; i < block && ok; i++)
    ok = gputest::bits_equal(host_out[i], host_in[block - 1 - i]);
  report(ok, name, "SharedMem round trip");

  // ldg from the buffer and from d_in + 1 (still aligned to alignof(T)).
  for (int offset = 0; offset <= 1; offset++) {
    CUDA_CHECK(cudaMemcpy(d_in + offset, host_in, n * sizeof(T), cudaMemcpyHostToDevice));
    ldg_kernel<T><<<(n + 127) / 128, 128>>>(d_in + offset, d_out, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(host_out, d_out, n * sizeof(T), cudaMemcpyDeviceToHost));
    ok = true;
    for (int i = 0; i < n && ok; i++)
      ok = gputest::bits_equal(host_out[i], host_in[i]);
    report(ok, name, offset ? "ldg from in + 1" : "ldg");
  }
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));
  CUDA_CHECK(cudaFree(d_flag));
}

// bits_equal ignores padding and sees every field byte.
static void test_bits_equal() {
  IntLL a, b;
  std::memset(&a, 0x11, sizeof a);
  std::memset(&b, 0x22, sizeof b);
  a.i = b.i = 7;
  a.ll = b.ll = 9;
  bool ok = gputest::bits_equal(a, b);
  b.ll = 10;
  ok = ok && !gputest::bits_equal(a, b);
  report(ok, "IntLL", "bits_equal ignores padding only");
}

int main() {
  int device = 0;
  cudaDeviceProp prop;
  CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  std::printf("gpu: %s (sm_%d%d)\n", prop.name, prop.major, prop.minor);
  gputest_tuning t;
  CUDA_CHECK(gputest_device_tuning(device, &t));
  report(t.block == 256 && t.items_per_thread == 16, "gputest_tuning", "device tuning is the default");
  test_bits_equal();
#define T(type) test_type<type>(#type);
  T(bool) T(char) T(signed char) T(unsigned char) T(short) T(unsigned short) T(int) T(unsigned int)
  T(long) T(unsigned long) T(long long) T(unsigned long long) T(float) T(double) T(__half) T(__nv_bfloat16)
  T(Byte1) T(Rgb) T(Short3) T(Float3) T(Odd17) T(IntLL) T(CharDouble) T(Nest) T(HalfMix) T(Big48) T(Vec4) T(CudaVecs)
#undef T
  std::printf("gpu: %d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
