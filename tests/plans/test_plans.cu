/* The host's plans and dispatch, on the CPU (tests/run.sh plans): the
 * generated module of plans.json is compiled into this file, which is
 * linked with fake_cuda.cpp instead of the CUDA runtime. Its pure plan
 * functions run against made-up kernels and devices: every expectation in
 * the tables was worked out by hand from the rules in
 * templates/policy.cuh.tmpl and plans.cuh.tmpl (the comments give the
 * steps), and the sweeps check what must hold of every plan. Then the
 * module's C API runs on a made-up device: each launch it makes must be
 * what the plans chose, and bad arguments launch nothing. With --kernels
 * it prints every kernel the module registers (the explain suite compares
 * them with explain --resources). No GPU is needed or touched. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
extern "C" {
#include <cmocka.h>
}
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>
#include "pl.cu"
#include "fake_cuda.h"

using namespace pl::detail;

/* The architectures of plans.json's targets: every plan is made for each. */
static const int spec_archs[] = {75, 80, 90};

/* ---- the flat grid rule ---- */

/* balanced_parts: every block it launches gets a share, it never launches
 * more than it may, and its busiest SM never holds more tiles than the full
 * grid's would. */
static void test_balanced_parts(void **state) {
  (void)state;
  assert_int_equal(balanced_parts(1024, 396, 132), 256); /* 3 blocks an SM: 256 blocks of 4 tiles, not 342 of 3 */
  assert_int_equal(balanced_parts(16384, 396, 132), 391);
  for (size_t sms : {1, 7, 132})
    for (size_t most : {1, 2, 131, 132, 264, 396, 528, 2047})
      for (size_t tiles = 1; tiles <= 5000; ++tiles) {
        const size_t cap = tiles < most ? tiles : most;
        const size_t b = balanced_parts(tiles, cap, sms);
        const size_t full = busy_parts(tiles, cap);
        assert_true(b >= 1 && ceil_div(tiles, ceil_div(tiles, b)) == b);
        assert_true(b <= cap);
        assert_true(ceil_div(b, sms) * ceil_div(tiles, b) <= ceil_div(full, sms) * ceil_div(tiles, full));
      }
}

static LaunchConfig config(int block, int items, int grid, int sms, int arch) {
  LaunchConfig c;
  c.block = block;
  c.items = items;
  c.grid = grid;
  c.sms = sms;
  c.local = false;
  c.arch = arch;
  return c;
}

/* plan_flat: 256 threads and 16 items make a tile of 256 * 4 groups of 16
 * bytes (4 ints each) on the vector path, 256 * 4 elements off it. */
static void test_plan_flat(void **state) {
  (void)state;
  const read_shape ints = {4, 16, 4};
  struct Row {
    size_t n, head;
    bool vector, commutative;
    int grid, sms;
    size_t groups;
    unsigned int want;
  } rows[] = {
      {0, 0, true, true, 528, 132, 0, 1},            /* nothing to read: one block publishes the identity */
      {5, 3, true, true, 528, 132, 0, 1},            /* all head */
      {1024 * 4, 0, true, true, 528, 132, 1024, 1},  /* one tile */
      {1024 * 4 + 1, 1, true, true, 528, 132, 1024, 1},
      {1024 * 4 * 10, 0, true, true, 528, 132, 10240, 10},
      {1024 * 4 * 1024, 0, true, true, 396, 132, 1048576, 256}, /* balanced: 256 blocks of 4 tiles */
      {1024 * 4 * 16384, 0, true, true, 396, 132, 16777216, 391},
      {(size_t)1 << 40, 0, true, true, 2048, 132, (size_t)1 << 38, 2046}, /* at most max_grid - 2 */
      {1024 * 10, 0, false, true, 528, 132, 10240, 10},  /* off the vector path: tiles of 1024 elements */
      /* ordered: each of a block's 8 warps an equal run of groups */
      {1024 * 4 * 10, 0, true, false, 528, 132, 10240, 10},
      /* 1000 tiles over 528 blocks' 4224 warps: runs of 243 groups, 4214 warps, 527 blocks */
      {1024 * 4 * 1000, 0, true, false, 528, 132, 1024000, 527},
      {4 * 100, 0, true, false, 528, 132, 100, 1},
  };
  for (int arch : spec_archs)
    for (const Row &r : rows) {
      const flat_plan p = plan_flat(r.n, r.head, r.vector, ints, config(256, 16, r.grid, r.sms, arch), r.commutative);
      assert_int_equal(p.groups, r.groups);
      assert_int_equal(p.grid, r.want);
    }
}

/* ---- M_R_rows ---- */

/* Made-up kernels: a 256-thread block of 16 items, each kernel's filling
 * grid on 132 SMs, and whether the dense short-row build spills. */
struct Kernels {
  int sms = 132, arch = 90;
  int groups_grid = 528, blocks_grid = 1056, tiles_grid = 528, rows_grid = 396, split_grid = 396;
  bool dense_spills = false;
  std::vector<int> asked; /* kernels asked for, as rows_kernel values (row tiles: 10 + form) */
  cudaError_t operator()(rows_kernel k, int form, LaunchConfig *c) {
    asked.push_back(k == rows_kernel::row_tiles ? 10 + form : (int)k);
    const int grid = k == rows_kernel::row_groups   ? groups_grid
                     : k == rows_kernel::row_blocks ? blocks_grid
                     : k == rows_kernel::row_tiles  ? tiles_grid
                     : k == rows_kernel::rows       ? rows_grid
                                                    : split_grid;
    *c = config(256, 16, grid, sms, arch);
    c->local = k == rows_kernel::row_tiles && form == (int)row_form::dense_short_rows && dense_spills;
    return cudaSuccess;
  }
};

struct RowsCase {
  const char *what;
  int op; /* 0 isum, 1 dmax, 2 welford (12 bytes), 3 maxsub (16 bytes, ordered) */
  size_t num_rows, row_length;
  bool aligned;
  rows_route route;
  int form;          /* row_tiles */
  unsigned int grid;
  size_t parts;      /* row_groups */
};

static size_t elem_size(int op) { return op == 1 ? 8 : 4; }
static read_shape shape_of(int op) { return op == 1 ? read_shape{2, 16, 8} : read_shape{4, 16, 4}; }
static size_t acc_size(int op) { return op == 2 ? 12 : op == 3 ? 16 : op == 1 ? 8 : 4; }

static rows_plan plan_for(int op, size_t num_rows, size_t row_length, bool aligned, Kernels &k) {
  const size_t size = elem_size(op);
  const bool scratch = rows_scratch_slots(policy_for(k.arch), num_rows, row_length, size) != 0;
  const rows_shape s = {num_rows, row_length, shape_of(op), aligned, scratch};
  rows_plan p;
  cudaError_t err = op == 0   ? plan_rows<isum_op>(s, k, &p)
                    : op == 1 ? plan_rows<dmax_op>(s, k, &p)
                    : op == 2 ? plan_rows<welford_op>(s, k, &p)
                              : plan_rows<maxsub_op>(s, k, &p);
  assert_int_equal(err, cudaSuccess);
  return p;
}

static void check_case(const RowsCase &c, int arch, bool dense_spills = false) {
  Kernels k;
  k.arch = arch;
  k.dense_spills = dense_spills;
  const rows_plan p = plan_for(c.op, c.num_rows, c.row_length, c.aligned, k);
  if (p.route != c.route || (c.route == rows_route::row_tiles && p.form != c.form) || p.grid != c.grid ||
      (c.route == rows_route::row_groups && p.parts != c.parts)) {
    print_error("%s (sm_%d): route %d form %d grid %u parts %zu; expected route %d form %d grid %u parts %zu\n",
                c.what, arch, (int)p.route, p.form, p.grid, p.parts, (int)c.route, c.form, c.grid, c.parts);
    fail();
  }
}

/* Every route, worked out by hand: 4-byte elements make groups of U = 4,
 * segment_chunk_min and segment_warp_max are 8192 of them (32 KiB), the
 * tiles' K is groups_per_lane(16, 16) = 4, and a block of 256 has 8 warps. */
static void test_plan_rows_routes(void **state) {
  (void)state;
  const rows_route none = rows_route::none, flat = rows_route::flat, blocks = rows_route::row_blocks,
                   groups = rows_route::row_groups, tiles = rows_route::row_tiles, rows = rows_route::rows,
                   split = rows_route::split_rows;
  const RowsCase cases[] = {
      {"no rows", 0, 0, 100, true, none, 0, 0, 0},
      /* rows of 1: short rows, 32 * short_rows_per_lane(4, 4) = 512 rows a tile, 2 tiles, one block */
      {"1000 rows of 1 int", 0, 1000, 1, true, tiles, (int)row_form::short_rows, 1, 0},
      /* 3 is neither a multiple nor a divisor of U: the segmented rows kernel, one chunk */
      {"1000 rows of 3 ints", 0, 1000, 3, true, rows, 0, 1, 0},
      /* 16 groups, one chunk: grouped, 4 * 32 / 16 = 8 rows a tile, 125 tiles, 16 blocks */
      {"1000 rows of 64 ints", 0, 1000, 64, true, tiles, (int)row_form::grouped_rows, 16, 0},
      /* 256 groups, commutative: wide rows of 16 lanes, 2 rows a tile, 500 tiles, 63 blocks */
      {"1000 rows of 1024 ints", 0, 1000, 1024, true, tiles, (int)row_form::wide_rows, 63, 0},
      /* 16 KiB rows of an accumulator of 4 bytes: the row groups take them, and one block tile
       * (1024 groups) holds a row: a block a row */
      {"1000 rows of 4096 ints", 0, 1000, 4096, true, blocks, 0, 1000, 0},
      /* off a 16-byte boundary the row tiles cannot, so a group of one block a row */
      {"1000 rows of 4096 ints, unaligned", 0, 1000, 4096, false, groups, 0, 1000, 1},
      /* rows past 64 KiB: 400,004 bytes, at most 6 blocks a row, 53 to fill the grid: 6 */
      {"10 rows of 100001 ints", 0, 10, 100001, false, groups, 0, 60, 6},
      /* one long row that needs scratch: the flat reduction */
      {"1 row of 2^20 ints", 0, 1, (size_t)1 << 20, true, flat, 0, 0, 0},
      /* one short row: grouped tiles (25 groups), 4 * 32 / 32 = 4 rows a tile, one block */
      {"1 row of 100 ints", 0, 1, 100, true, tiles, (int)row_form::grouped_rows, 1, 0},
      /* Welford, 12 bytes: rows of 1 stage their results, so the dense build, every tile a block:
       * 32 * short_rows_per_lane(4, 12) = 32 * 10 = 320 rows a tile, 4 tiles, one block */
      {"1000 Welford rows of 1", 2, 1000, 1, true, tiles, (int)row_form::dense_short_rows, 1, 0},
      /* Welford rows of 64 KiB, up to 8192 of them, try the long-row tiles first: 4096 groups a row,
       * one row a tile, 4096 tiles, 512 blocks (under the grid of 528) */
      {"4096 Welford rows of 16384", 2, 4096, 16384, true, tiles, (int)row_form::long_rows, 512, 0},
      {"8192 Welford rows of 16384", 2, 8192, 16384, true, tiles, (int)row_form::long_rows, 528, 0},
      /* one more row than long_row_groups_min_rows: the row groups, a block a row */
      {"8193 Welford rows of 16384", 2, 8193, 16384, true, groups, 0, 8193, 1},
      /* tried first, not taken (unaligned): the row groups */
      {"4096 Welford rows of 16384, unaligned", 2, 4096, 16384, false, groups, 0, 4096, 1},
      /* max-subarray, ordered: 256 groups of 16 bytes are 4 KiB of runs: run rows, a row a tile */
      {"1000 maxsub rows of 1024", 3, 1000, 1024, true, tiles, (int)row_form::run_rows, 125, 0},
      /* 64 groups, a power of two up to 128: the grouped tiles, 2 rows a tile, 500 tiles */
      {"1000 maxsub rows of 256", 3, 1000, 256, true, tiles, (int)row_form::grouped_rows, 63, 0},
      /* ordered rows of 4 KiB from DRAM (20.48 M ints > 64 MiB / 4) take the segmented rows
       * kernel: 2500 chunks of 8192, the grid of 396 */
      {"20000 maxsub rows of 1024", 3, 20000, 1024, true, rows, 0, 396, 0},
      /* longer than a warp takes (8192) and not the row groups' (ordered, 16 bytes): split rows */
      {"100 maxsub rows of 9000, unaligned", 3, 100, 9000, false, split, 0, 110, 0},
      /* 2^31 + 5 rows of 1: 512 rows a tile, 524,289 blocks, many waves: every block */
      {"2^31 + 5 rows of 1 int", 0, ((size_t)1 << 31) + 5, 1, true, tiles, (int)row_form::short_rows, 524289, 0},
      /* 2^20 rows of 2^20 (2^40 elements): groups of 16 blocks (256 KiB each) */
      {"2^20 rows of 2^20 ints", 0, (size_t)1 << 20, (size_t)1 << 20, true, groups, 0, (unsigned int)1 << 24, 16},
      /* doubles, 8 bytes: 16 KiB rows of an 8-byte accumulator take a block a row */
      {"100 rows of 2048 doubles", 1, 100, 2048, true, blocks, 0, 100, 0},
  };
  for (int arch : spec_archs)
    for (const RowsCase &c : cases)
      check_case(c, arch);
  /* where the dense build spills, short rows of staged results keep the short-row kernel */
  for (int arch : spec_archs)
    check_case({"1000 Welford rows of 1, dense build spills", 2, 1000, 1, true, rows_route::row_tiles,
                (int)row_form::short_rows, 1, 0},
               arch, true);
}

/* The boundaries of the thresholds, one element either side. */
static void test_plan_rows_thresholds(void **state) {
  (void)state;
  for (int arch : spec_archs) {
    const policy_values p = policy_for(arch);
    Kernels k;
    k.arch = arch;
    /* row_tiles_max_bytes: ints' rows of up to 16 KiB keep the tiles however few; past it, too
     * few rows (2 * count < 528 * 8 warps) go to the row groups for a Welford accumulator */
    const size_t at = p.row_tiles_max_bytes / 4;
    assert_int_equal((int)plan_for(2, 100, at, true, k).route, (int)rows_route::row_tiles);
    assert_int_equal((int)plan_for(2, 100, at + 4, true, k).route, (int)rows_route::row_groups);
    /* enough_long_rows: 2112 rows fill every other warp of 4224, 2111 do not */
    assert_int_equal((int)plan_for(2, 2112, at + 4, true, k).route, (int)rows_route::row_tiles);
    assert_int_equal((int)plan_for(2, 2111, at + 4, true, k).route, (int)rows_route::row_groups);
    /* long_row_tiles_max_bytes: ordered rows of 64 KiB take the tiles, one group more take the
     * row groups, which take every row past it */
    const size_t longest = p.long_row_tiles_max_bytes / 4;
    assert_int_equal((int)plan_for(3, 4096, longest, true, k).route, (int)rows_route::row_tiles);
    assert_int_equal((int)plan_for(3, 4096, longest + 4, true, k).route, (int)rows_route::row_groups);
    /* segment_warp_max: up to 8192 ints a row the rows kernel, one more the split kernel */
    const size_t warp = segment_warp_max(p, 4);
    assert_int_equal((int)plan_for(3, 100, warp, false, k).route, (int)rows_route::rows);
    assert_int_equal((int)plan_for(3, 100, warp + 1, false, k).route, (int)rows_route::split_rows);
    /* ordered_rows_take_segments: 2 KiB rows from DRAM take the rows kernel, 2 KiB less 4 bytes
     * keep the tiles (unaligned lengths aside), and 2 KiB rows from L2 keep them too */
    const size_t dram_rows = p.segment_prefetch_min_bytes / 2048 + 1;
    assert_int_equal((int)plan_for(3, dram_rows, 512, true, k).route, (int)rows_route::rows);
    assert_int_equal((int)plan_for(3, dram_rows - 1, 512, true, k).route, (int)rows_route::row_tiles);
    /* rows of up to one block tile take a block a row, one group more a group of blocks */
    assert_int_equal((int)plan_for(0, 100, 4096, true, k).route, (int)rows_route::row_blocks);
    assert_int_equal((int)plan_for(0, 100, 4100, true, k).route, (int)rows_route::row_groups);
    /* the grid's x limit: rows that would need more blocks than it allows do not take the groups */
    const size_t too_many = row_groups_max_blocks + 1;
    const rows_plan beyond = plan_for(0, too_many, 4100, true, k);
    assert_true(beyond.route != rows_route::row_groups);
  }
}

/* What must hold of every plan: it launches something for every row, its
 * grid fits the launch, the kernels' preconditions hold, and the scratch
 * that _rows_temp_bytes asks for covers every slot the launch uses. */
static void test_plan_rows_sweep(void **state) {
  (void)state;
  const size_t counts[] = {1, 2, 3, 7, 64, 255, 1000, 2111, 2112, 4096, 8192, 8193, 65536, (size_t)1 << 20};
  const size_t lengths[] = {1, 2, 3, 4, 5, 8, 16, 31, 64, 100, 128, 256, 512, 1024, 2048, 4095, 4096, 4100,
                            8192, 8193, 16384, 16388, 32768, 100001, (size_t)1 << 20};
  long plans = 0;
  for (int arch : spec_archs)
    for (int op = 0; op < 4; op++)
      for (size_t count : counts)
        for (size_t length : lengths)
          for (bool aligned : {true, false})
            for (bool spills : {false, true}) {
              Kernels k;
              k.arch = arch;
              k.dense_spills = spills;
              const policy_values p = policy_for(arch);
              const size_t size = elem_size(op), slots = rows_scratch_slots(p, count, length, size);
              const rows_plan r = plan_for(op, count, length, aligned, k);
              plans++;
              const bool commutative = op != 3;
              switch (r.route) {
              case rows_route::none:
                fail();
                break;
              case rows_route::flat:
                assert_true(count == 1 && slots != 0);
                break;
              case rows_route::row_blocks:
                assert_true(commutative && acc_size(op) <= 8 && aligned && r.grid == count);
                break;
              case rows_route::row_groups:
                assert_true(r.parts >= 1 && r.grid == count * r.parts);
                assert_true(r.parts == 1 || slots >= r.grid); /* each block's slot is in the scratch */
                break;
              case rows_route::row_tiles:
                assert_true(aligned && length * size <= p.long_row_tiles_max_bytes);
                assert_true(r.form != (int)row_form::wide_rows || commutative);
                assert_true(r.form != (int)row_form::run_rows || !commutative);
                assert_true(r.form != (int)row_form::dense_short_rows || !spills);
                assert_true(r.grid >= 1 && (size_t)r.grid <= ceil_div(r.tiles.tiles, 8));
                break;
              case rows_route::rows:
              case rows_route::split_rows:
                assert_true(r.grid >= 1 && (int)r.grid <= r.config.grid);
                assert_true((r.route == rows_route::split_rows) == (length > segment_warp_max(p, size)));
                /* rows that cross a block's chunk merge through the flat scratch */
                assert_true(length <= segment_chunk_min(p, size) || slots >= max_grid);
                break;
              }
            }
  assert_int_equal(plans, 3 * 4 * 14 * 25 * 2 * 2);
}

/* rows_scratch_slots, the bound _rows_temp_bytes is made from. */
static void test_rows_scratch(void **state) {
  (void)state;
  const policy_values p = policy_for(90);
  assert_int_equal(rows_scratch_slots(p, 0, 100000, 4), 0);
  assert_int_equal(rows_scratch_slots(p, 1000, 8192, 4), 0);        /* a row fits a block's chunk */
  assert_int_equal(rows_scratch_slots(p, 1000, 8193, 4), max_grid);  /* rows up to 64 KiB: the flat amount */
  assert_int_equal(rows_scratch_slots(p, 1, (size_t)1 << 30, 4), max_grid);
  assert_int_equal(rows_scratch_slots(p, 1000, 100001, 4), 6000);    /* 6 blocks a row at most */
  assert_int_equal(rows_scratch_slots(p, 100, 100001, 4), max_grid); /* 600 slots: the flat amount is more */
  assert_int_equal(rows_scratch_slots(p, (size_t)1 << 20, (size_t)1 << 20, 4), (size_t)1 << 26);
  assert_int_equal(rows_scratch_slots(p, (size_t)1 << 30, 100001, 4), max_grid); /* past the grid's limit */
  assert_int_equal(rows_scratch_slots(p, 2, SIZE_MAX / 2, 4), max_grid);        /* a row past SIZE_MAX bytes */
}

/* Every architecture takes sm_90's values, and the device constants are those values. */
static void test_policy(void **state) {
  (void)state;
  for (int arch : spec_archs) {
    const policy_values p = policy_for(arch);
    assert_int_equal(p.row_tiles_max_bytes, 16384);
    assert_int_equal(p.long_row_tiles_max_bytes, 65536);
    assert_int_equal(p.long_row_groups_min_rows, 8192);
    assert_int_equal(p.row_group_bytes, 262144);
  }
  assert_int_equal(row_tiles_max_bytes, policy_for(compiled_arch).row_tiles_max_bytes);
  assert_int_equal(segment_chunk_min((size_t)4), 8192);
  assert_int_equal(segment_warp_max((size_t)8), 4096);
}

/* ---- dispatch on a made-up device ---- */

/* Blocks of a kernel an SM holds on the made-up device: fewer for the
 * kernels that ask for more registers, so that grids differ by kernel. */
static int per_sm(const std::string &kernel, int block) {
  const int threads = kernel.find("row_groups") != std::string::npos  ? 1024
                      : kernel.find("row_tiles") != std::string::npos ? 1536
                      : kernel.find("rows_kernel") != std::string::npos ||
                              kernel.find("segmented") != std::string::npos
                          ? 768
                          : 2048;
  return threads / block > 32 ? 32 : threads / block;
}

/* The kernel a route launches, as its name in the module ends. */
static bool launched_for(const std::string &kernel, rows_route route, int form) {
  char tiles[32];
  std::snprintf(tiles, sizeof tiles, "8row_formE%dEE", form); /* the template argument, mangled */
  switch (route) {
  case rows_route::row_blocks: return kernel.find("_row_blocks_kernel") != std::string::npos;
  case rows_route::row_groups: return kernel.find("_row_groups_kernel") != std::string::npos;
  case rows_route::row_tiles:
    return kernel.find("_row_tiles_kernelI") != std::string::npos && kernel.find(tiles) != std::string::npos;
  case rows_route::rows:
    return kernel.find("_rows_kernelP") != std::string::npos && kernel.find("_split_rows_kernel") == std::string::npos;
  case rows_route::split_rows: return kernel.find("_split_rows_kernel") != std::string::npos;
  case rows_route::flat: return kernel.find("_kernelI") != std::string::npos; /* the flat kernel, a template */
  default: return false;
  }
}

/* The plan of isum's _rows on the made-up device, asked through the same
 * launch_config as dispatch. */
static rows_plan plan_isum_rows(size_t count, size_t length, const int *in) {
  static unsigned long long caches[10][64];
  auto config = [&](rows_kernel k, int form, LaunchConfig *c) -> cudaError_t {
    const void *kernels[] = {
        (const void *)pl_isum_row_groups_kernel, (const void *)pl_isum_row_blocks_kernel,
        (const void *)pl_isum_rows_kernel, (const void *)pl_isum_split_rows_kernel};
    const void *tiles[] = {(const void *)pl_isum_row_tiles_kernel<row_form::short_rows>,
                           (const void *)pl_isum_row_tiles_kernel<row_form::grouped_rows>,
                           (const void *)pl_isum_row_tiles_kernel<row_form::long_rows>,
                           (const void *)pl_isum_row_tiles_kernel<row_form::wide_rows>,
                           (const void *)pl_isum_row_tiles_kernel<row_form::long_rows>,
                           (const void *)pl_isum_row_tiles_kernel<row_form::short_rows>};
    switch (k) {
    case rows_kernel::row_groups: return launch_config(kernels[0], caches[0], c);
    case rows_kernel::row_blocks: return launch_config(kernels[1], caches[1], c);
    case rows_kernel::rows: return launch_config(kernels[2], caches[2], c);
    case rows_kernel::split_rows: return launch_config(kernels[3], caches[3], c);
    case rows_kernel::row_tiles: return launch_config(tiles[form], caches[4 + form], c);
    }
    return cudaErrorInvalidValue;
  };
  size_t head = 0;
  const bool aligned = vector_head(in, 4, count * length, &head) && head == 0;
  const rows_shape s = {count, length, {4, 16, 4}, aligned, pl_isum_rows_temp_bytes(count, length) != 0};
  rows_plan p;
  assert_int_equal(plan_rows<isum_op>(s, config, &p), cudaSuccess);
  return p;
}

static void test_rows_launch_the_plan(void **state) {
  (void)state;
  fake_device.per_sm = per_sm;
  const size_t counts[] = {1, 3, 100, 2112, 8193, 100000};
  const size_t lengths[] = {1, 3, 4, 64, 1024, 4096, 4100, 16384, 100001, (size_t)1 << 20};
  long checked = 0;
  for (int sms : {132, 16})
    for (size_t count : counts)
      for (size_t length : lengths)
        for (uintptr_t offset : {0, 4}) {
          fake_device.sms = sms;
          fake_device_number = sms == 132 ? 1 : 2; /* a device of its own: launch_config asks again */
          const int *in = (const int *)(uintptr_t)(0x10000000 + offset);
          const rows_plan p = plan_isum_rows(count, length, in);
          fake_launches.clear();
          const size_t temp = pl_isum_rows_temp_bytes(count, length);
          assert_int_equal(pl_isum_rows(in, count, length, (int *)0x20000000, (void *)0x30000000, temp, 0), cudaSuccess);
          assert_int_equal(fake_launches.size(), 1);
          const FakeLaunch &l = fake_launches[0];
          if (!launched_for(l.kernel, p.route, p.form)) {
            print_error("%zu rows of %zu at +%zu on %d SMs: launched %s for route %d form %d\n", count, length,
                        (size_t)offset, sms, l.kernel.c_str(), (int)p.route, p.form);
            fail();
          }
          if (p.route != rows_route::flat) {
            assert_int_equal(l.grid.x, p.grid);
            assert_int_equal(l.block.x, p.config.block);
          }
          checked++;
        }
  assert_int_equal(checked, 2 * 6 * 10 * 2);
}

static void test_flat_launches_the_plan(void **state) {
  (void)state;
  fake_device.per_sm = per_sm;
  for (int sms : {132, 16})
    for (size_t n : {(size_t)0, (size_t)5, (size_t)4096, (size_t)1 << 20, ((size_t)1 << 31) + 5})
      for (uintptr_t offset : {0, 4, 8}) {
        fake_device.sms = sms;
        fake_device_number = sms == 132 ? 3 : 4;
        const MaxSub *out = (const MaxSub *)0x20000000;
        const int *in = (const int *)(uintptr_t)(0x10000000 + offset);
        fake_launches.clear();
        assert_int_equal(pl_maxsub(in, n, (MaxSub *)out, (void *)0x30000000, pl_maxsub_temp_bytes(n), 0), cudaSuccess);
        assert_int_equal(fake_launches.size(), 1);
        static unsigned long long cache[64];
        LaunchConfig c;
        assert_int_equal(launch_config((const void *)pl_maxsub_kernel<store_result>, cache, &c), cudaSuccess);
        size_t head = 0;
        const bool vector = vector_head(in, 4, n, &head);
        const flat_plan p = plan_flat(n, head, vector, {4, 16, 4}, c, false);
        assert_int_equal(fake_launches[0].grid.x, p.grid);
        assert_int_equal(fake_launches[0].block.x, c.block);
      }
}

/* Bad arguments are refused before anything is launched. */
static void test_refusals_launch_nothing(void **state) {
  (void)state;
  fake_launches.clear();
  int *out = (int *)0x20000000;
  void *temp = (void *)0x30000000;
  const int *in = (const int *)0x10000000;
  assert_int_equal(pl_isum(in, 100, NULL, temp, pl_isum_temp_bytes(100), 0), cudaErrorInvalidValue);
  assert_int_equal(pl_isum(in, 100, out, temp, pl_isum_temp_bytes(100) - 1, 0), cudaErrorInvalidValue);
  assert_int_equal(pl_isum((const int *)0x10000001, 100, out, temp, pl_isum_temp_bytes(100), 0), cudaErrorInvalidValue);
  assert_int_equal(pl_isum_rows(in, 10, 100001, out, NULL, pl_isum_rows_temp_bytes(10, 100001), 0),
                   cudaErrorInvalidValue);
  assert_int_equal(pl_isum_rows(in, SIZE_MAX / 2, 3, out, temp, SIZE_MAX, 0), cudaErrorInvalidValue);
  assert_int_equal(pl_isum_rows(NULL, 10, 5, out, temp, 0, 0), cudaErrorInvalidValue);
  assert_int_equal(pl_isum_segmented(in, (const long long *)0x40000004, 3, out, temp,
                                     pl_isum_segmented_temp_bytes(3), 0),
                   cudaErrorInvalidValue); /* misaligned offsets */
  assert_int_equal(fake_launches.size(), 0);
}

int main(int argc, char **argv) {
  if (argc == 2 && std::strcmp(argv[1], "--kernels") == 0) {
    for (const std::string &k : fake_registered_kernels())
      std::printf("%s\n", k.c_str());
    return 0;
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_balanced_parts),     cmocka_unit_test(test_plan_flat),
      cmocka_unit_test(test_plan_rows_routes),   cmocka_unit_test(test_plan_rows_thresholds),
      cmocka_unit_test(test_plan_rows_sweep),    cmocka_unit_test(test_rows_scratch),
      cmocka_unit_test(test_policy),             cmocka_unit_test(test_rows_launch_the_plan),
      cmocka_unit_test(test_flat_launches_the_plan), cmocka_unit_test(test_refusals_launch_nothing),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
