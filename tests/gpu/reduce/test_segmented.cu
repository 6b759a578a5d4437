// GPU tests of the segmented reductions (seg_cases.inc, from make_cases.py):
// M_R_segmented and M_R_rows against M_R_segmented_host / M_R_rows_host,
// segment by segment, for every operator kind and both offset types.
// r_seg_k2 runs four of r_seg_user's operators again under blocks of 128 and
// 8 items a thread, where the row forms' bounds that depend on the tuning
// move (ordered rows take the grouped tiles up to 64 groups, not 128).
// Layouts: a mix of every length (empty, 1, thread-, warp- and block-sized,
// and segments spread over many blocks), all empty, many tiny ones, a
// single long one, heaps of empty ones between long ones, num_segments = 0,
// inputs at d_in + 1 (every segment start unaligned), offsets past 2^40 (for
// long long offsets: d_in points 2^40 elements before the data), and rows of
// many shapes. Garbage in temp and out, two streams at once, repeats
// bitwise equal, bad arguments refused with nothing launched. Without
// --small: one segment longer than 2^31 (int8), more than 2^31 rows
// (unsigned char bit_or, length 1), and short warp-sized segments in
// launches of more than 64 MiB (the warp pass's L2 prefetch), and segments
// of 32 to 64 KiB where blocks own many (the warp pass takes them there).
#include <memory>
#include <vector>
#include "r_seg.cuh"
#include "r_seg_user.cuh"
#include "r_seg_k2.cuh"
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

template <class IN, class ACC, class OFF> struct SegCase {
  const char *name;
  cudaError_t (*seg)(const IN *, const OFF *, size_t, ACC *, void *, size_t, cudaStream_t);
  void (*seg_host)(const IN *, const OFF *, size_t, ACC *);
  size_t (*seg_temp)(size_t);
  cudaError_t (*rows)(const IN *, size_t, size_t, ACC *, void *, size_t, cudaStream_t);
  void (*rows_host)(const IN *, size_t, size_t, ACC *);
  size_t (*rows_temp)(size_t, size_t);
  bool (*equal)(const ACC &, const ACC &); // the module's bits_equal
  InputClass cls;
  Compare cmp;
};

static bool small_run;

// Segment lengths of each layout for elements of `size` bytes; the mix has
// every kind of length, in a random order, and three segments that span
// many blocks.
static std::vector<size_t> layout(int which, size_t size) {
  std::vector<size_t> len;
  unsigned long long h = 0x1a7 + which;
  switch (which) {
  case 0: // the mix
    for (int i = 0; i < (small_run ? 3000 : 10000); i++) {
      h = mix(h);
      int kind = (int)(h % 10);
      size_t r = mix(h + 1);
      len.push_back(kind < 2 ? 0 : kind < 3 ? 1 : kind < 5 ? r % 9 : kind < 8 ? 9 + r % 600 : 600 + r % 6000);
      if (i % 4000 == 1500)
        len.push_back((small_run ? 200000 : 1500000) + r % 1000000);
    }
    break;
  case 1: // all empty
    len.assign(5000, 0);
    break;
  case 2: // many tiny ones
    for (int i = 0; i < 100000; i++)
      len.push_back(mix(h + i) % 4);
    break;
  case 3: // one long segment
    len.push_back(small_run ? (1u << 18) + 3 : (1u << 22) + 3);
    break;
  case 4: // heaps of empty segments between long ones: CSR shares count a
          // cost per segment, so whole shares fall on one position, and a
          // segment that begins there runs through many blocks
    for (size_t x : {50000, 0, 70001, 1, 0, 3, 30000, 0})
      if (x)
        len.push_back(x);
      else
        len.insert(len.end(), 60000, 0);
    break;
  case 5: { // fewer segments than the grid has blocks (an H100 has 132 SMs),
            // none longer than two warps' worth: index shares with one
            // segment a block, which a warp reduces up to warp_max (32 KiB)
            // and the block past it; empty ones give the identity
    const size_t warp_max = size < 128 ? 32768 / size : 256;
    const size_t kinds[] = {0, 1, 5, warp_max / 2, warp_max, warp_max + 1, 2 * warp_max - 64};
    for (int i = 0; i < 100; i++)
      len.push_back(kinds[mix(h + i) % 7]);
    break;
  }
  case 6: // many short segments with a warp's among them (65 to 320
          // elements, a tenth of them): a block owns hundreds of segments,
          // so the warps' batches of offsets (32 segments a round) come
          // full, mixed and cut short by the block's last segment
    for (int i = 0; i < (small_run ? 60000 : 150000); i++) {
      const unsigned long long r = mix(h + i);
      len.push_back(r % 10 == 0 ? 65 + (r >> 8) % 256 : (r >> 8) % 4);
    }
    break;
  case 7:   // short segments averaging up to 2 threads' worth, a tenth longer: pairs of lanes, then
  case 8:   // quads and groups of 8; 0 to 8 threads' worth (4 on average): quads first; 0 to 4
  case 9: { // threads' worth (2 on average), half of them longer than a pair's
    const size_t per = size >= 32 ? 1 : size <= 4 ? 8 : 32 / size; // a thread's elements
    for (int i = 0; i < (small_run ? 40000 : 150000); i++) {
      const unsigned long long r = mix(h + i), pick = r % 20, x = r >> 8;
      len.push_back(which == 8   ? x % (8 * per)
                    : which == 9 ? x % (4 * per + 1)
                    : pick < 18  ? x % (2 * per + 1)
                    : pick < 19  ? 2 * per + 1 + x % (2 * per)
                                 : 4 * per + 1 + x % (4 * per));
    }
    break;
  }
  }
  return len;
}
static const int layouts = 10;

template <class IN, class ACC, class OFF> static void run_case(const SegCase<IN, ACC, OFF> &c) {
  // the largest layout decides the buffer
  size_t max_n = 0;
  for (int l = 0; l < layouts; l++) {
    size_t n = 0;
    for (size_t x : layout(l, sizeof(IN)))
      n += x;
    max_n = n > max_n ? n : max_n;
  }
  const size_t max_rows_n = small_run ? (1u << 20) : (17u << 20);
  max_n = max_n > max_rows_n ? max_n : max_rows_n;
  std::unique_ptr<IN[]> h_buf(new IN[max_n]);
  IN *h_in = h_buf.get();
  fill(h_in, max_n, c.cls, 0x5e9);
  IN *d_buf;
  CUDA_CHECK(cudaMalloc(&d_buf, (max_n + 1) * sizeof(IN)));
  CUDA_CHECK(cudaMemcpy(d_buf, h_in, max_n * sizeof(IN), cudaMemcpyHostToDevice));
  const size_t max_segments = 200000;
  OFF *d_off;
  ACC *d_out, *d_out2;
  CUDA_CHECK(cudaMalloc(&d_off, (max_segments + 1) * sizeof(OFF)));
  CUDA_CHECK(cudaMalloc(&d_out, max_segments * sizeof(ACC)));
  CUDA_CHECK(cudaMalloc(&d_out2, max_segments * sizeof(ACC)));
  // rows: (num_rows, row_length), short rows to rows spread over many blocks.
  // At d_buf (16-byte aligned) rows that line up with the 16-byte groups take
  // the row tiles: several rows a group (lengths 1 to 8, the last group cut
  // short by odd counts), a lane group a row (16 to 128: powers of two and
  // 24, 100), chunks of 32 groups (132, 256, 1000: a partial last chunk; 2048
  // and 4000: long enough for several chains per lane with 4-byte elements;
  // 1280 and 1536: whole chunks only, in 5 and 6 rounds of 2 chains for
  // 4-byte elements, which reduce_full_rows takes for accumulators of more
  // than 8 bytes), and
  // many rows (200000 x 1, 131072 x 16, 49152 x 128: a tile of 4 to 8 rows
  // each, more tiles than the grid has warps); rows of 16 to 64 KiB take
  // them too, for accumulators of more than 8 bytes, where there are as
  // many as half the grid's warps (2200 x 4100: a last chunk of one group
  // for 4-byte elements; 70 x 8200 and 1000 x 4100 are too few for them
  // and take a block each, the row groups), and a block each for
  // accumulators of up to 8 bytes, at d_buf + 1 too; rows of 64 KiB (24 x 16384 for 4-byte
  // elements) a block each for commutative accumulators of up to 16 bytes
  // too; d_buf + 1 and the other lengths of up to
  // 64 KiB take the split path. Longer rows take a
  // group of blocks each: 16 x 50000, 120 x 70000 and 5 x 100003 (an odd
  // length: every row has its own head and tail at d_buf + 1) give one to
  // a few blocks a row by element size, 3 x (2^21 + 5) up to 256; a single
  // row is the flat reduction. Rows of 16 KiB (200 x 4096, 33 x 8192 and
  // 20 x 2048 by element size) fit one block tile and take a block each in
  // a kernel of their own, for commutative accumulators of up to 8 bytes.
  // Ordered rows of 2 to 8 KiB that read more than 64 MiB take the
  // segmented rows kernel (33000 x 512 and 17000 x 1024: 4-byte elements,
  // and 8-byte ones in the first). Ordered rows of 64 and 128 groups take
  // the grouped tiles, a lane 4 groups (65 x 256 and 40001 x 256 for 4-byte
  // elements: a partial last tile, the second in more tiles than the grid
  // has warps; 33 x 512 and 64 x 256 for 4- and 8-byte ones). At most
  // max_segments rows.
  const size_t shapes[][2] = {{7, 0},      {1000, 1},  {1001, 2},    {777, 4},     {555, 8},         {1023, 16},
                              {300, 24},   {257, 32},  {129, 64},    {1024, 100},  {65, 132},        {64, 256},
                              {40, 1000},  {24, 2048}, {40, 4000},   {333, 7},     {100, 3001},      {16, 50000},
                              {200000, 1}, {131072, 16},
                              {49152, 128}, {70, 8200},  {1000, 4100}, {2200, 4100}, {3, (1u << 21) + 5},
                              {1, (1u << 22) + 1}, {120, 70000}, {5, 100003}, {24, 16384},
                              {50, 1280},  {40, 1536}, {200, 4096}, {33, 8192}, {20, 2048},
                              {33000, 512}, {17000, 1024}, {65, 256},  {40001, 256}, {33, 512}};
  // scratch for the largest need of any call below
  size_t tb = c.seg_temp(max_segments) > c.rows_temp(1, max_rows_n) ? c.seg_temp(max_segments)
                                                                     : c.rows_temp(1, max_rows_n);
  for (auto &shape : shapes) {
    const size_t rows = shape[0], length = rows * shape[1] > max_n ? max_n / rows : shape[1];
    tb = c.rows_temp(rows, length) > tb ? c.rows_temp(rows, length) : tb;
  }
  void *d_temp, *d_temp2;
  CUDA_CHECK(cudaMalloc(&d_temp, tb + 16));
  CUDA_CHECK(cudaMalloc(&d_temp2, tb));
  std::vector<ACC> got(max_segments), want(max_segments);

  // compares d_out[0, count) with the reference for segments at h_data + offsets
  auto compare = [&](const ACC *d, size_t count, const IN *h_data, const std::vector<size_t> &begin,
                     const std::vector<size_t> &len, const char *what) {
    CUDA_CHECK(cudaMemcpy(got.data(), d, count * sizeof(ACC), cudaMemcpyDeviceToHost));
    bool ok = true;
    for (size_t s = 0; s < count && ok; s++)
      ok = close_to(c.cmp, c.equal, got[s], want[s], h_data + begin[s], len[s]);
    check(ok, c.name, what, count);
  };
  auto garbage = [&](void *temp, ACC *out, size_t count, cudaStream_t s) {
    CUDA_CHECK(cudaMemsetAsync(temp, 0xA5, tb, s));
    CUDA_CHECK(cudaMemsetAsync(out, 0x5A, count * sizeof(ACC), s));
  };

  for (int l = 0; l < layouts; l++) {
    std::vector<size_t> len = layout(l, sizeof(IN)), begin(len.size());
    std::vector<OFF> off(len.size() + 1);
    size_t pos = 0;
    for (size_t s = 0; s < len.size(); s++) {
      begin[s] = pos;
      off[s] = (OFF)pos;
      pos += len[s];
    }
    off[len.size()] = (OFF)pos;
    const size_t count = len.size();
    CUDA_CHECK(cudaMemcpy(d_off, off.data(), off.size() * sizeof(OFF), cudaMemcpyHostToDevice));
    c.seg_host(h_in, off.data(), count, want.data());
    char what[96];
    std::snprintf(what, sizeof what, "layout %d matches the CPU reference per segment", l);
    garbage(d_temp, d_out, count, 0);
    CUDA_CHECK(c.seg(d_buf, d_off, count, d_out, d_temp, tb, 0));
    compare(d_out, count, h_in, begin, len, what);
    // the same values one element further on: every start moves off its alignment
    CUDA_CHECK(cudaMemcpy(d_buf + 1, h_in, pos * sizeof(IN), cudaMemcpyHostToDevice));
    garbage((char *)d_temp + 1, d_out, count, 0);
    CUDA_CHECK(c.seg(d_buf + 1, d_off, count, d_out, (char *)d_temp + 1, tb, 0));
    std::snprintf(what, sizeof what, "layout %d at d_in + 1 and d_temp + 1", l);
    compare(d_out, count, h_in, begin, len, what);
    CUDA_CHECK(cudaMemcpy(d_buf, h_in, max_n * sizeof(IN), cudaMemcpyHostToDevice));
    // offsets past 2^40: d_in points 2^40 elements before the data
    if (sizeof(OFF) == 8 && l == 0) {
      const size_t shift = 1ull << 40;
      std::vector<OFF> far(off);
      for (OFF &o : far)
        o = (OFF)((size_t)o + shift);
      CUDA_CHECK(cudaMemcpy(d_off, far.data(), far.size() * sizeof(OFF), cudaMemcpyHostToDevice));
      garbage(d_temp, d_out, count, 0);
      const IN *d_far = (const IN *)((uintptr_t)d_buf - shift * sizeof(IN));
      CUDA_CHECK(c.seg(d_far, d_off, count, d_out, d_temp, tb, 0));
      compare(d_out, count, h_in, begin, len, "offsets past 2^40");
      CUDA_CHECK(cudaMemcpy(d_off, off.data(), off.size() * sizeof(OFF), cudaMemcpyHostToDevice));
    }
    if (l != 0 && l != 3)
      continue;
    // two streams at once, each with its own temp and output
    cudaStream_t s1, s2;
    CUDA_CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
    CUDA_CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    garbage(d_temp, d_out, count, s1);
    garbage(d_temp2, d_out2, count, s2);
    CUDA_CHECK(c.seg(d_buf, d_off, count, d_out, d_temp, tb, s1));
    CUDA_CHECK(c.seg(d_buf, d_off, count, d_out2, d_temp2, tb, s2));
    CUDA_CHECK(cudaDeviceSynchronize());
    compare(d_out, count, h_in, begin, len, "stream 1 of 2");
    compare(d_out2, count, h_in, begin, len, "stream 2 of 2");
    CUDA_CHECK(cudaStreamDestroy(s1));
    CUDA_CHECK(cudaStreamDestroy(s2));
    // run to run: bitwise the same
    std::vector<ACC> first(count);
    CUDA_CHECK(cudaMemcpy(first.data(), d_out, count * sizeof(ACC), cudaMemcpyDeviceToHost));
    bool same = true;
    for (int r = 0; r < (small_run ? 2 : 5); r++) {
      garbage(r % 2 ? d_temp : d_temp2, d_out, count, 0);
      CUDA_CHECK(c.seg(d_buf, d_off, count, d_out, r % 2 ? d_temp : d_temp2, tb, 0));
      CUDA_CHECK(cudaMemcpy(got.data(), d_out, count * sizeof(ACC), cudaMemcpyDeviceToHost));
      for (size_t s = 0; s < count; s++)
        same = same && c.equal(got[s], first[s]);
    }
    check(same, c.name, "repeated runs are bitwise equal", count);
  }

  for (auto &shape : shapes) {
    size_t rows = shape[0], length = shape[1];
    if (rows > max_segments)
      continue;
    if (rows * length > max_n)
      length = max_n / rows;
    std::vector<size_t> begin(rows), len(rows, length);
    for (size_t r = 0; r < rows; r++)
      begin[r] = r * length;
    c.rows_host(h_in, rows, length, want.data());
    for (int shift = 0; shift < 2; shift++) {
      if (shift)
        CUDA_CHECK(cudaMemcpy(d_buf + 1, h_in, rows * length * sizeof(IN), cudaMemcpyHostToDevice));
      garbage(d_temp, d_out, rows, 0);
      CUDA_CHECK(c.rows(d_buf + shift, rows, length, d_out, d_temp, c.rows_temp(rows, length), 0));
      char what[96];
      std::snprintf(what, sizeof what, "rows %zu x %zu%s match the CPU reference", rows, length,
                    shift ? " at d_in + 1" : "");
      compare(d_out, rows, h_in, begin, len, what);
    }
    CUDA_CHECK(cudaMemcpy(d_buf, h_in, max_n * sizeof(IN), cudaMemcpyHostToDevice));
  }

  // rows from a captured graph, replayed (70 x 8200: a block a row, and
  // at d_buf + 1 the split path for most element sizes; 5 x 100003: a group
  // of blocks a row; a replay reuses the tag it was captured with)
  const size_t graph_cases[][2] = {{8200, 0}, {8200, 1}, {100003, 0}}; /* length, shift */
  for (auto &graph_case : graph_cases) {
    const size_t length = graph_case[0], rows = length == 8200 ? 70 : 5;
    const int shifted = (int)graph_case[1];
    const IN *d_rows = d_buf + shifted;
    if (shifted)
      CUDA_CHECK(cudaMemcpy(d_buf + 1, h_in, rows * length * sizeof(IN), cudaMemcpyHostToDevice));
    std::vector<size_t> begin(rows), len(rows, length);
    for (size_t r = 0; r < rows; r++)
      begin[r] = r * length;
    c.rows_host(h_in, rows, length, want.data());
    cudaStream_t s;
    CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    garbage(d_temp, d_out, rows, s);
    cudaGraph_t g;
    cudaGraphExec_t ge;
    CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    CUDA_CHECK(c.rows(d_rows, rows, length, d_out, d_temp, c.rows_temp(rows, length), s));
    CUDA_CHECK(cudaStreamEndCapture(s, &g));
    CUDA_CHECK(cudaGraphInstantiate(&ge, g, 0));
    for (int replay = 0; replay < 3; replay++) {
      CUDA_CHECK(cudaMemsetAsync(d_out, 0x5A, rows * sizeof(ACC), s));
      CUDA_CHECK(cudaGraphLaunch(ge, s));
      CUDA_CHECK(cudaStreamSynchronize(s));
      char what[96];
      std::snprintf(what, sizeof what, "rows %zu x %zu at d_in + %d from a captured graph, each replay", rows,
                    length, shifted);
      compare(d_out, rows, h_in, begin, len, what);
    }
    CUDA_CHECK(cudaGraphExecDestroy(ge));
    CUDA_CHECK(cudaGraphDestroy(g));
    CUDA_CHECK(cudaStreamDestroy(s));
    if (shifted)
      CUDA_CHECK(cudaMemcpy(d_buf, h_in, max_n * sizeof(IN), cudaMemcpyHostToDevice));
  }

  // nothing to do: no segments, no rows; NULL pointers and temp_bytes 0 are fine
  CUDA_CHECK(cudaMemset(d_out, 0x5A, 4 * sizeof(ACC)));
  check(c.seg_temp(0) == 0 && c.seg(nullptr, nullptr, 0, nullptr, nullptr, 0, 0) == cudaSuccess &&
            c.rows_temp(0, 100) == 0 && c.rows(nullptr, 0, 100, nullptr, nullptr, 0, 0) == cudaSuccess &&
            c.rows_temp(5, 1) == 0 && c.rows(d_buf, 5, 1, d_out, nullptr, 0, 0) == cudaSuccess,
        c.name, "num_segments = 0 and short rows need no temp", 0);
  CUDA_CHECK(cudaDeviceSynchronize());

  // bad arguments: cudaErrorInvalidValue, and nothing launched
  const size_t out_bytes = 4 * sizeof(ACC);
  std::vector<unsigned char> out_after(out_bytes);
  auto refused = [&](cudaError_t e, const char *what) {
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(out_after.data(), d_out, out_bytes, cudaMemcpyDeviceToHost));
    bool untouched = true;
    for (unsigned char b : out_after)
      untouched = untouched && b == 0x5A;
    check(e == cudaErrorInvalidValue && untouched && cudaGetLastError() == cudaSuccess, c.name, what, 4);
  };
  std::vector<OFF> four = {0, 1, 5, 9, 12};
  CUDA_CHECK(cudaMemcpy(d_off, four.data(), four.size() * sizeof(OFF), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(d_out, 0x5A, out_bytes));
  const size_t t4 = c.seg_temp(4);
  refused(c.seg(d_buf, d_off, 4, nullptr, d_temp, t4, 0), "segmented: NULL d_out refused");
  refused(c.seg(nullptr, d_off, 4, d_out, d_temp, t4, 0), "segmented: NULL d_in refused");
  refused(c.seg(d_buf, nullptr, 4, d_out, d_temp, t4, 0), "segmented: NULL d_offsets refused");
  refused(c.seg(d_buf, d_off, 4, d_out, nullptr, t4, 0), "segmented: NULL d_temp refused");
  refused(c.seg(d_buf, d_off, 4, d_out, d_temp, t4 - 1, 0), "segmented: temp_bytes one too small refused");
  if (alignof(IN) > 1)
    refused(c.seg((const IN *)((const char *)d_buf + 1), d_off, 4, d_out, d_temp, t4, 0),
            "segmented: misaligned d_in refused");
  refused(c.seg(d_buf, (const OFF *)((const char *)d_off + 1), 4, d_out, d_temp, t4, 0),
          "segmented: misaligned d_offsets refused");
  if (alignof(ACC) > 1)
    refused(c.seg(d_buf, d_off, 4, (ACC *)((char *)d_out + 1), d_temp, t4, 0), "segmented: misaligned d_out refused");
  const size_t long_rows = c.rows_temp(2, 1u << 20);
  check(long_rows > 0, c.name, "long rows need temp", 2);
  refused(c.rows(d_buf, 2, 1u << 20, d_out, d_temp, long_rows - 1, 0), "rows: temp_bytes one too small refused");
  refused(c.rows(d_buf, 2, 1u << 20, d_out, nullptr, long_rows, 0), "rows: NULL d_temp refused");
  refused(c.rows(nullptr, 4, 3, d_out, d_temp, tb, 0), "rows: NULL d_in refused");
  refused(c.rows(d_buf, 4, 3, nullptr, d_temp, tb, 0), "rows: NULL d_out refused");
  refused(c.rows(d_buf, (size_t)1 << 40, (size_t)1 << 40, d_out, d_temp, tb, 0), "rows: overflowing size refused");
  if (alignof(IN) > 1)
    refused(c.rows((const IN *)((const char *)d_buf + 1), 4, 3, d_out, d_temp, tb, 0), "rows: misaligned d_in refused");

  CUDA_CHECK(cudaFree(d_buf));
  CUDA_CHECK(cudaFree(d_off));
  CUDA_CHECK(cudaFree(d_out));
  CUDA_CHECK(cudaFree(d_out2));
  CUDA_CHECK(cudaFree(d_temp));
  CUDA_CHECK(cudaFree(d_temp2));
}

// A segment longer than 2^31 (int8 into long long, long long offsets) and
// more than 2^31 rows (unsigned char bit_or rows of length 1).
static void run_huge() {
  const size_t n = (1ull << 31) + 100;
  std::unique_ptr<int8_t[]> h(new int8_t[n]);
  fill(h.get(), n, GENERAL, 0xb16);
  const long long off[] = {0, 5, 5 + (1ll << 31) + 3, (long long)n};
  long long want[3], got[3];
  r_seg_user_widen_segmented_host(h.get(), off, 3, want);
  int8_t *d;
  long long *d_off, *d_out;
  CUDA_CHECK(cudaMalloc(&d, n));
  CUDA_CHECK(cudaMalloc(&d_off, sizeof off));
  CUDA_CHECK(cudaMalloc(&d_out, sizeof got));
  CUDA_CHECK(cudaMemcpy(d, h.get(), n, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_off, off, sizeof off, cudaMemcpyHostToDevice));
  size_t tb = r_seg_user_widen_segmented_temp_bytes(3);
  void *temp;
  CUDA_CHECK(cudaMalloc(&temp, tb));
  CUDA_CHECK(r_seg_user_widen_segmented(d, d_off, 3, d_out, temp, tb, 0));
  CUDA_CHECK(cudaMemcpy(got, d_out, sizeof got, cudaMemcpyDeviceToHost));
  check(got[0] == want[0] && got[1] == want[1] && got[2] == want[2], "widen", "a segment longer than 2^31", n);
  CUDA_CHECK(cudaFree(d_off));
  CUDA_CHECK(cudaFree(d_out));
  CUDA_CHECK(cudaFree(temp));

  const size_t rows = (1ull << 31) + 5;
  std::unique_ptr<uint8_t[]> h_want(new uint8_t[rows]), h_got(new uint8_t[rows]);
  const uint8_t *h_u8 = reinterpret_cast<const uint8_t *>(h.get());
  r_seg_bit_or_uint8_t_rows_host(h_u8, rows, 1, h_want.get());
  uint8_t *d_rows_out;
  CUDA_CHECK(cudaMalloc(&d_rows_out, rows));
  tb = r_seg_bit_or_uint8_t_rows_temp_bytes(rows, 1);
  CUDA_CHECK(cudaMalloc(&temp, tb ? tb : 1));
  CUDA_CHECK(r_seg_bit_or_uint8_t_rows(reinterpret_cast<const uint8_t *>(d), rows, 1, d_rows_out, temp, tb, 0));
  CUDA_CHECK(cudaMemcpy(h_got.get(), d_rows_out, rows, cudaMemcpyDeviceToHost));
  check(std::memcmp(h_got.get(), h_want.get(), rows) == 0, "bit_or_uint8_t", "more than 2^31 rows", rows);
  CUDA_CHECK(cudaFree(d));
  CUDA_CHECK(cudaFree(d_rows_out));
  CUDA_CHECK(cudaFree(temp));
}

// One launch over n elements of `int` offsets whose lengths come from
// next_length(hash), cut at n, with the data at d_in + 1 (every segment start
// unaligned), compared bitwise with the CPU reference segment by segment.
template <class IN, class ACC, class Lengths>
static void run_generated(const char *name, const char *what, size_t n, InputClass cls, Lengths next_length,
                          cudaError_t (*seg)(const IN *, const int *, size_t, ACC *, void *, size_t, cudaStream_t),
                          void (*seg_host)(const IN *, const int *, size_t, ACC *), size_t (*seg_temp)(size_t),
                          bool (*equal)(const ACC &, const ACC &)) {
  std::vector<int> off(1, 0);
  unsigned long long h = 0x9f3;
  while ((size_t)off.back() < n) {
    h = mix(h);
    size_t len = next_length(h);
    len = len < n - (size_t)off.back() ? len : n - (size_t)off.back();
    off.push_back((int)((size_t)off.back() + len));
  }
  const size_t count = off.size() - 1;
  std::unique_ptr<IN[]> in(new IN[n]);
  fill(in.get(), n, cls, 0x9f4);
  std::vector<ACC> want(count), got(count);
  seg_host(in.get(), off.data(), count, want.data());
  IN *d;
  int *d_off;
  ACC *d_out;
  void *temp;
  const size_t tb = seg_temp(count);
  CUDA_CHECK(cudaMalloc(&d, (n + 1) * sizeof(IN)));
  CUDA_CHECK(cudaMalloc(&d_off, off.size() * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_out, count * sizeof(ACC)));
  CUDA_CHECK(cudaMalloc(&temp, tb ? tb : 1));
  CUDA_CHECK(cudaMemcpy(d + 1, in.get(), n * sizeof(IN), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_off, off.data(), off.size() * sizeof(int), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(d_out, 0xA5, count * sizeof(ACC)));
  CUDA_CHECK(seg(d + 1, d_off, count, d_out, temp, tb, 0));
  CUDA_CHECK(cudaMemcpy(got.data(), d_out, count * sizeof(ACC), cudaMemcpyDeviceToHost));
  size_t same = 0;
  for (size_t i = 0; i < count; i++)
    same += equal(got[i], want[i]);
  check(same == count, name, what, n);
  CUDA_CHECK(cudaFree(d));
  CUDA_CHECK(cudaFree(d_off));
  CUDA_CHECK(cudaFree(d_out));
  CUDA_CHECK(cudaFree(temp));
}

// Two launches of each case below, large enough for paths that only large
// launches take:
// - segments of up to 1 KiB that a warp reduces, in a launch of more than
//   64 MiB: the warp pass prefetches each next one into L2 there
//   (segment_prefetch_max_bytes). Some are thread-, lane-group- or longer
//   warp-sized, so the ballot's next segment is not always the neighbour,
//   and a segment's first line holds bytes before it. Accumulators of more
//   than 8 bytes take the warp pass's other branch (a lane keeps only the
//   ballot and loads a visited segment's offsets again).
// - segments of 32 to 64 KiB, in a launch where a block owns at least
//   segment_warp_many of them a warp (1 GiB: about 55 a block with 256
//   threads on 132 SMs at 3 blocks an SM, 80 at 2): with accumulators of
//   more than 8 bytes the warp pass takes them there
//   (segment_warp_max_many), the block path in smaller launches and for
//   smaller accumulators. A tenth are short or longer than 64 KiB, so
//   warps and the block path share the blocks' segments. A mutant whose
//   warps kept 32 KiB failed the two larger accumulators' checks here.
template <class IN, class ACC>
static void run_large(const char *name, size_t short_max, InputClass cls,
                      cudaError_t (*seg)(const IN *, const int *, size_t, ACC *, void *, size_t, cudaStream_t),
                      void (*seg_host)(const IN *, const int *, size_t, ACC *), size_t (*seg_temp)(size_t),
                      bool (*equal)(const ACC &, const ACC &)) {
  /* mostly short warp-sized (above group_max: 64 4-byte, 32 8-byte elements) */
  run_generated<IN, ACC>(
      name, "warp-sized segments of up to 1 KiB in a launch of more than 64 MiB (L2 prefetch)",
      ((size_t)80 << 20) / sizeof(IN), cls,
      [short_max](unsigned long long h) {
        const size_t r = mix(h + 1);
        return h % 8 == 0 ? r % 3000 : short_max / 4 + 1 + r % (short_max - short_max / 4);
      },
      seg, seg_host, seg_temp, equal);
  const size_t warp_max = 32768 / sizeof(IN), many_max = 65536 / sizeof(IN);
  run_generated<IN, ACC>(
      name, "segments of 32 to 64 KiB that warps take, in a launch of 1 GiB", ((size_t)1 << 30) / sizeof(IN), cls,
      [warp_max, many_max](unsigned long long h) {
        const size_t r = mix(h + 1);
        return h % 10 == 0 ? (r % 2 ? r % 300 : many_max + 1 + r % many_max)
                           : warp_max + 1 + r % (many_max - warp_max);
      },
      seg, seg_host, seg_temp, equal);
}

// Rows of 64 KiB (16384 4-byte elements) for commutative accumulators of 9
// to 16 bytes, at d_in: up to long_row_groups_min_rows (8192) of them try
// the long-row tiles first (row_tiles_first), more take a block a row. The
// layer-norm shape, 4096 rows, and 8200 rows check one route each, row by row.
template <class IN, class ACC>
static void run_long_rows(const char *name, InputClass cls, Compare cmp,
                          cudaError_t (*rows_fn)(const IN *, size_t, size_t, ACC *, void *, size_t, cudaStream_t),
                          void (*rows_host)(const IN *, size_t, size_t, ACC *), size_t (*rows_temp)(size_t, size_t),
                          bool (*equal)(const ACC &, const ACC &)) {
  const size_t length = 65536 / sizeof(IN);
  for (size_t count : {(size_t)4096, (size_t)8200}) {
    const size_t n = count * length;
    std::unique_ptr<IN[]> in(new IN[n]);
    fill(in.get(), n, cls, 0x64b + count);
    std::vector<ACC> want(count), got(count);
    rows_host(in.get(), count, length, want.data());
    IN *d;
    ACC *d_out;
    void *temp;
    const size_t tb = rows_temp(count, length);
    CUDA_CHECK(cudaMalloc(&d, n * sizeof(IN)));
    CUDA_CHECK(cudaMalloc(&d_out, count * sizeof(ACC)));
    CUDA_CHECK(cudaMalloc(&temp, tb ? tb : 1));
    CUDA_CHECK(cudaMemcpy(d, in.get(), n * sizeof(IN), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(d_out, 0xA5, count * sizeof(ACC)));
    CUDA_CHECK(rows_fn(d, count, length, d_out, temp, tb, 0));
    CUDA_CHECK(cudaMemcpy(got.data(), d_out, count * sizeof(ACC), cudaMemcpyDeviceToHost));
    size_t same = 0;
#pragma omp parallel for reduction(+ : same)
    for (size_t r = 0; r < count; r++)
      same += close_to(cmp, equal, got[r], want[r], in.get() + r * length, length);
    check(same == count, name,
          count <= 8192 ? "rows of 64 KiB, 4096 of them (the long-row tiles)" : "rows of 64 KiB, 8200 of them (a block a row)",
          n);
    CUDA_CHECK(cudaFree(d));
    CUDA_CHECK(cudaFree(d_out));
    CUDA_CHECK(cudaFree(temp));
  }
}

static const char *only_module; // --only M: the cases of module M, nothing else
#define SEG_CASE(module, red, in_t, acc_t, off_t, cls, cmp)                                                          \
  if (!only_module || std::strcmp(only_module, #module) == 0) {                                                    \
    SegCase<in_t, acc_t, off_t> c = {#module "_" #red " (" #cls ", " #off_t " offsets)",                           \
                                     module##_##red##_segmented, module##_##red##_segmented_host,                  \
                                     module##_##red##_segmented_temp_bytes, module##_##red##_rows,                 \
                                     module##_##red##_rows_host, module##_##red##_rows_temp_bytes,                 \
                                     [](const acc_t &a, const acc_t &b) { return module::bits_equal(a, b); }, cls, \
                                     cmp};                                                                         \
    long before = failed;                                                                                          \
    run_case(c);                                                                                                   \
    std::printf("%s %s\n", failed == before ? "ok  " : "FAIL", c.name);                                            \
    std::fflush(stdout);                                                                                           \
  }

int main(int argc, char **argv) {
  cudaDeviceProp prop;
  CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("segmented: %s (sm_%d%d, %d SMs)\n", prop.name, prop.major, prop.minor, prop.multiProcessorCount);
  for (int i = 1; i < argc; i++) {
    if (std::strcmp(argv[i], "--small") == 0) {
      small_run = true;
    } else if (std::strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
      only_module = argv[++i];
    } else {
      std::printf("usage: test_segmented [--small] [--only MODULE]\n");
      return 2;
    }
  }
#include "seg_cases.inc"
  if (!small_run && !only_module) {
    run_huge();
    run_large<int32_t, int32_t>("sum_int32_t", 256, GENERAL, r_seg_sum_int32_t_segmented,
                                     r_seg_sum_int32_t_segmented_host, r_seg_sum_int32_t_segmented_temp_bytes,
                                     [](const int32_t &a, const int32_t &b) { return r_seg::bits_equal(a, b); });
    run_large<double, double>("max_double", 128, TIES, r_seg_max_double_segmented,
                                   r_seg_max_double_segmented_host, r_seg_max_double_segmented_temp_bytes,
                                   [](const double &a, const double &b) { return r_seg::bits_equal(a, b); });
    run_large<int, SumSq>("user sumsq", 256, SMALL, r_seg_user_sumsq_segmented,
                               r_seg_user_sumsq_segmented_host, r_seg_user_sumsq_segmented_temp_bytes,
                               [](const SumSq &a, const SumSq &b) { return r_seg_user::bits_equal(a, b); });
    run_large<int, MaxSub>("user maxsub (ordered)", 256, SMALL,
                                r_seg_user_maxsub_segmented, r_seg_user_maxsub_segmented_host,
                                r_seg_user_maxsub_segmented_temp_bytes,
                                [](const MaxSub &a, const MaxSub &b) { return r_seg_user::bits_equal(a, b); });
    run_long_rows<float, Welford>("user welford", REAL, WELFORD, r_seg_user_welford_rows, r_seg_user_welford_rows_host,
                                  r_seg_user_welford_rows_temp_bytes,
                                  [](const Welford &a, const Welford &b) { return r_seg_user::bits_equal(a, b); });
    run_long_rows<int, SumSq>("user sumsq", SMALL, EXACT, r_seg_user_sumsq_rows, r_seg_user_sumsq_rows_host,
                              r_seg_user_sumsq_rows_temp_bytes,
                              [](const SumSq &a, const SumSq &b) { return r_seg_user::bits_equal(a, b); });
  }
  std::printf("segmented: %ld passed, %ld failed\n", passed, failed);
  return failed ? 1 : 0;
}
