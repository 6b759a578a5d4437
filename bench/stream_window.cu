// How the order in which a grid's blocks walk 1 GiB changes the read rate:
// the question behind `_segmented`'s long segments, which stream at 95 to
// 96 % of the ceiling kernel on an H100 where `_rows` and CUB's block per
// segment reach 99 to 100 % (bench/RESULTS.md).
//
// Every kernel here reads the same 1 GiB of ints with 16-byte loads, four in
// flight a thread (a tile: 256 threads x 4 x 16 bytes = 16 KiB), and sums
// them; only the tiles each block takes, and in what order, differ:
//   turn      block b takes tiles b, b + G, b + 2G, ... (the flat kernels)
//   chunk     block b takes the b-th G-th of the tiles, in order (the
//             segmented kernel's searched shares and index shares)
//   rounds R  the tiles in R consecutive ranges; in each, block b takes the
//             b-th G-th of the range, so the grid reads within 1/R of the
//             input at a time
//   warps     block b's chunk as `chunk`, but warp w reads 16 KiB pieces w,
//             w + 8, ... of it, 2 KiB a round (the warp pass on segments of
//             4096 ints)
//   warps_tail       the same, each piece's sum reduced across the warp and
//                    stored, as a segment's is
//   warps_pipelined  the same, with the first round of the warp's next piece
//                    loaded before that reduction
// G is the SM count times blocks an SM (argv[1], 3 by default: the
// segmented kernel's occupancy for 4-byte sums). Prints, per order, the
// least of 3 timings of 10 launches back to back after a warm-up, and its
// rate against the `turn` order's.
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "cuda_check.cuh"

namespace {

constexpr int kBlock = 256, kLoads = 4, kLaunches = 10;
constexpr size_t kTileBytes = (size_t)kBlock * kLoads * 16;

enum Order { turn, chunk, rounds, warps, warps_tail, warps_pipelined };

__device__ __forceinline__ unsigned int sum_tile(const uint4 *in, size_t t) {
  const uint4 *p = in + t * (kTileBytes / 16) + threadIdx.x;
  uint4 x[kLoads];
#pragma unroll
  for (int k = 0; k < kLoads; ++k)
    x[k] = __ldg(p + k * kBlock);
  unsigned int sum = 0;
#pragma unroll
  for (int k = 0; k < kLoads; ++k)
    sum += x[k].x + x[k].y + x[k].z + x[k].w;
  return sum;
}

// chunk is rounds with one round
__global__ void __launch_bounds__(kBlock) read_tiles(const uint4 *in, size_t tiles, Order order, size_t r,
                                                     unsigned int *out) {
  const size_t g = gridDim.x, b = blockIdx.x;
  unsigned int sum = 0;
  if (order == turn) {
    for (size_t t = b; t < tiles; t += g)
      sum += sum_tile(in, t);
  } else {
    const size_t per_round = tiles / r, per_block = per_round / g;
    for (size_t round = 0; round < r; ++round)
      for (size_t k = 0; k < per_block; ++k)
        sum += sum_tile(in, round * per_round + b * per_block + k);
  }
  atomicAdd(out, sum);
}

// Block b's contiguous chunk in 16 KiB pieces, warp w taking pieces w, w + 8,
// ..., each read 2 KiB (32 lanes x 4 loads) a round. TAIL: each piece's sum
// is reduced across the warp (5 shuffles) and stored, as a segment's would
// be; PIPELINED: the first round of the warp's next piece is loaded before
// that reduction.
template <bool TAIL, bool PIPELINED>
__global__ void __launch_bounds__(kBlock) read_warp_pieces(const uint4 *in, size_t tiles, unsigned int *out,
                                                           unsigned int *pieces) {
  constexpr int kWarps = kBlock / 32;
  constexpr size_t kPiece = kTileBytes / 16; // uint4s in a 16 KiB piece
  constexpr size_t kRound = 32 * kLoads;     // uint4s a warp reads a round
  const size_t per_block = tiles / gridDim.x;
  const uint4 *block = in + (size_t)blockIdx.x * per_block * kPiece;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  unsigned int sum = 0;
  uint4 next[kLoads];
  if (PIPELINED && (size_t)warp < per_block)
#pragma unroll
    for (int k = 0; k < kLoads; ++k)
      next[k] = __ldg(block + warp * kPiece + k * 32 + lane);
  for (size_t piece = warp; piece < per_block; piece += kWarps) {
    unsigned int s = 0;
    for (size_t at = 0; at < kPiece; at += kRound) {
      uint4 x[kLoads];
#pragma unroll
      for (int k = 0; k < kLoads; ++k)
        x[k] = PIPELINED && at == 0 ? next[k] : __ldg(block + piece * kPiece + at + k * 32 + lane);
#pragma unroll
      for (int k = 0; k < kLoads; ++k)
        s += x[k].x + x[k].y + x[k].z + x[k].w;
    }
    if (PIPELINED && piece + kWarps < per_block)
#pragma unroll
      for (int k = 0; k < kLoads; ++k)
        next[k] = __ldg(block + (piece + kWarps) * kPiece + k * 32 + lane);
    if (TAIL) {
#pragma unroll
      for (int d = 16; d > 0; d /= 2)
        s += __shfl_xor_sync(0xffffffffu, s, d);
      if (lane == 0)
        pieces[(size_t)blockIdx.x * per_block + piece] = s;
    } else {
      sum += s;
    }
  }
  atomicAdd(out, sum);
}

} // namespace

int main(int argc, char **argv) {
  const int per_sm = argc > 1 ? std::atoi(argv[1]) : 3;
  int sms = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  cudaDeviceProp prop;
  CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  const size_t bytes = (size_t)1 << 30, tiles = bytes / kTileBytes;
  const unsigned int grid = (unsigned int)(sms * per_sm);
  uint4 *in = nullptr;
  unsigned int *out = nullptr, *pieces = nullptr;
  CUDA_CHECK(cudaMalloc(&in, bytes));
  CUDA_CHECK(cudaMalloc(&out, sizeof(unsigned int)));
  CUDA_CHECK(cudaMalloc(&pieces, tiles * sizeof(unsigned int)));
  CUDA_CHECK(cudaMemset(in, 1, bytes));
  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  std::printf("# %s, %d SMs, %d blocks of %d an SM (grid %u), 1 GiB\n", prop.name, sms, per_sm, kBlock, grid);
  std::printf("order,rounds,MiB_read,us,GBps,vs_turn\n");
  double turn_rate = 0;
  const struct {
    Order order;
    size_t r;
  } runs[] = {{turn, 1},   {chunk, 1},  {rounds, 2},     {rounds, 8},         {rounds, 32},
               {rounds, 128}, {warps, 1}, {warps_tail, 1}, {warps_pipelined, 1}};
  for (const auto &run : runs) {
    const auto launch = [&] {
      if (run.order == warps)
        read_warp_pieces<false, false><<<grid, kBlock>>>(in, tiles, out, pieces);
      else if (run.order == warps_tail)
        read_warp_pieces<true, false><<<grid, kBlock>>>(in, tiles, out, pieces);
      else if (run.order == warps_pipelined)
        read_warp_pieces<true, true><<<grid, kBlock>>>(in, tiles, out, pieces);
      else
        read_tiles<<<grid, kBlock>>>(in, tiles, run.order, run.r, out);
    };
    launch(); // warm-up
    float best = 1e30f;
    for (int rep = 0; rep < 3; ++rep) {
      CUDA_CHECK(cudaEventRecord(start));
      for (int i = 0; i < kLaunches; ++i)
        launch();
      CUDA_CHECK(cudaEventRecord(stop));
      CUDA_CHECK(cudaEventSynchronize(stop));
      CUDA_CHECK(cudaGetLastError());
      float ms = 0;
      CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
      best = ms / kLaunches < best ? ms / kLaunches : best;
    }
    // the chunked orders leave out the tiles past a whole share each
    const size_t read = run.order == turn    ? tiles
                        : run.order >= warps ? tiles / grid * grid
                                             : run.r * (tiles / run.r / grid) * grid;
    const double us = best * 1e3, rate = read * kTileBytes / us / 1e3;
    if (run.order == turn)
      turn_rate = rate;
    static const char *names[] = {"turn", "chunk", "rounds", "warps", "warps_tail", "warps_pipelined"};
    std::printf("%s,%zu,%.1f,%.1f,%.0f,%.3f\n", names[run.order], run.r, read * kTileBytes / 1048576.0, us, rate,
                rate / turn_rate);
  }
  CUDA_CHECK(cudaFree(in));
  CUDA_CHECK(cudaFree(out));
  CUDA_CHECK(cudaFree(pieces));
  return 0;
}
