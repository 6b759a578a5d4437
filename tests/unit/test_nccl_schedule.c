/* The cross-GPU schedule of M_R_combine_nccl (templates/nccl.cu.tmpl, block
 * "schedule"), run on the CPU for 1 to 64 ranks with a test transport: every
 * rank runs each step, then the transport delivers what was sent. The
 * operator is the 2x2 integer matrix product (wrapping), which does not
 * commute, so every result must equal the sequential fold in rank order. */
#include <stdlib.h>
#include "unit.h"
#include "nccl_schedule.inc" /* the template's plain-C block (Makefile) */

typedef struct { uint32_t a, b, c, d; } Mat;

static Mat mat_mul(Mat x, Mat y) {
  Mat r = {x.a * y.a + x.b * y.c, x.a * y.b + x.b * y.d, x.c * y.a + x.d * y.c, x.c * y.b + x.d * y.d};
  return r;
}

static bool mat_eq(Mat x, Mat y) { return x.a == y.a && x.b == y.b && x.c == y.c && x.d == y.d; }

enum { MAX_RANKS = 64 };

/* At most one message from each rank to each other rank per exchange step. */
typedef struct {
  int nranks;
  size_t box_bytes;           /* capacity of each mailbox */
  unsigned char *box;         /* [from][to] mailboxes */
  size_t sent[MAX_RANKS][MAX_RANKS];
  bool has_sent[MAX_RANKS][MAX_RANKS];
  void *recv_buf[MAX_RANKS][MAX_RANKS]; /* [to][from] */
  size_t recv_bytes[MAX_RANKS][MAX_RANKS];
  bool has_recv[MAX_RANKS][MAX_RANKS];
  bool in_group[MAX_RANKS];
  int combines, copies;
  int fail_send;              /* a transport error to inject (0: none) */
} World;

typedef struct { World *w; int rank; } RankCtx;

static int t_group_begin(void *ctx) {
  RankCtx *c = ctx;
  assert_false(c->w->in_group[c->rank]);
  c->w->in_group[c->rank] = true;
  return 0;
}
static int t_group_end(void *ctx) {
  RankCtx *c = ctx;
  assert_true(c->w->in_group[c->rank]);
  c->w->in_group[c->rank] = false;
  return 0;
}
static int t_send(void *ctx, int peer, const void *buf, size_t bytes) {
  RankCtx *c = ctx;
  World *w = c->w;
  if (w->fail_send)
    return w->fail_send;
  assert_true(w->in_group[c->rank]);
  assert_true(peer >= 0 && peer < w->nranks && peer != c->rank);
  assert_false(w->has_sent[c->rank][peer]);
  assert_true(bytes > 0 && bytes <= w->box_bytes);
  memcpy(w->box + ((size_t)c->rank * (size_t)w->nranks + (size_t)peer) * w->box_bytes, buf, bytes);
  w->sent[c->rank][peer] = bytes;
  w->has_sent[c->rank][peer] = true;
  return 0;
}
static int t_recv(void *ctx, int peer, void *buf, size_t bytes) {
  RankCtx *c = ctx;
  World *w = c->w;
  assert_true(w->in_group[c->rank]);
  assert_true(peer >= 0 && peer < w->nranks && peer != c->rank);
  assert_false(w->has_recv[c->rank][peer]);
  w->recv_buf[c->rank][peer] = buf;
  w->recv_bytes[c->rank][peer] = bytes;
  w->has_recv[c->rank][peer] = true;
  return 0;
}
/* What the GPU kernel does: rank order, q = 0 .. nranks - 1. */
static int t_combine(void *ctx, const gpugen_nccl_plan *p, size_t offset, size_t length) {
  RankCtx *c = ctx;
  assert_false(c->w->in_group[c->rank]);
  c->w->combines++;
  Mat *out = (Mat *)p->out + offset;
  for (size_t i = 0; i < length; i++) {
    Mat acc = ((const Mat *)gpugen_nccl_source(p, 0))[i];
    for (int q = 1; q < p->nranks; q++)
      acc = mat_mul(acc, ((const Mat *)gpugen_nccl_source(p, q))[i]);
    out[i] = acc;
  }
  return 0;
}
static int t_copy(void *ctx, void *dst, const void *src, size_t bytes) {
  RankCtx *c = ctx;
  c->w->copies++;
  memmove(dst, src, bytes);
  return 0;
}

/* After every rank ran a step: each receive gets exactly one send of the
 * same size, and nothing is left undelivered. */
static void deliver(World *w) {
  for (int from = 0; from < w->nranks; from++)
    for (int to = 0; to < w->nranks; to++) {
      assert_int_equal(w->has_sent[from][to], w->has_recv[to][from]);
      if (!w->has_sent[from][to])
        continue;
      assert_int_equal(w->sent[from][to], w->recv_bytes[to][from]);
      memcpy(w->recv_buf[to][from], w->box + ((size_t)from * (size_t)w->nranks + (size_t)to) * w->box_bytes,
             w->sent[from][to]);
      w->has_sent[from][to] = w->has_recv[to][from] = false;
    }
}

static uint32_t next_random(uint64_t *state) {
  *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (uint32_t)(*state >> 33);
}

/* Runs the schedule on nranks simulated ranks for count matrices each. */
static void run_world(int nranks, size_t count, bool in_place, uint64_t seed) {
  static World w;
  memset(&w, 0, sizeof w);
  w.nranks = nranks;
  const size_t slot = gpugen_nccl_slot_elems(count, nranks);
  w.box_bytes = (slot ? slot : 1) * sizeof(Mat);
  w.box = malloc((size_t)nranks * (size_t)nranks * w.box_bytes);
  Mat *partials[MAX_RANKS], *out[MAX_RANKS], *slots[MAX_RANKS];
  Mat *expected = malloc((count ? count : 1) * sizeof(Mat));
  uint64_t state = seed;
  for (int r = 0; r < nranks; r++) {
    partials[r] = malloc((count ? count : 1) * sizeof(Mat));
    out[r] = in_place ? partials[r] : malloc((count ? count : 1) * sizeof(Mat));
    slots[r] = malloc((size_t)nranks * (slot ? slot : 1) * sizeof(Mat));
    for (size_t i = 0; i < count; i++)
      partials[r][i] = (Mat){next_random(&state), next_random(&state), next_random(&state), next_random(&state)};
  }
  for (size_t i = 0; i < count; i++) { /* the sequential fold, before in-place runs overwrite the partials */
    expected[i] = partials[0][i];
    for (int r = 1; r < nranks; r++)
      expected[i] = mat_mul(expected[i], partials[r][i]);
  }
  RankCtx ctx[MAX_RANKS];
  gpugen_nccl_transport t[MAX_RANKS];
  gpugen_nccl_plan plan[MAX_RANKS];
  for (int r = 0; r < nranks; r++) {
    ctx[r] = (RankCtx){&w, r};
    t[r] = (gpugen_nccl_transport){&ctx[r], t_group_begin, t_group_end, t_send, t_recv, t_combine, t_copy};
    plan[r] = (gpugen_nccl_plan){r, nranks, count, sizeof(Mat), partials[r], out[r], slots[r]};
  }
  for (int step = 0; step < GPUGEN_NCCL_STEPS; step++) {
    for (int r = 0; r < nranks; r++)
      assert_int_equal(gpugen_nccl_combine_step(&plan[r], step, &t[r]), 0);
    deliver(&w);
  }
  for (int r = 0; r < nranks; r++) {
    for (size_t i = 0; i < count; i++)
      if (!mat_eq(out[r][i], expected[i]))
        fail_msg("%d ranks, %zu elements%s: rank %d element %zu differs from the fold in rank order", nranks, count,
                 in_place ? " in place" : "", r, i);
    free(slots[r]);
    if (!in_place)
      free(out[r]);
    free(partials[r]);
  }
  /* one combine per rank with a non-empty chunk; a copy only for 1 rank out of place */
  assert_int_equal(w.combines, nranks > 1 ? (int)(count < (size_t)nranks ? count : (size_t)nranks) : 0);
  assert_int_equal(w.copies, nranks == 1 && !in_place && count ? 1 : 0);
  free(expected);
  free(w.box);
}

/* The chunks tile [0, count) in rank order, and differ in length by at most one. */
static void test_chunks_tile(void **state) {
  (void)state;
  for (int p = 1; p <= MAX_RANKS; p++)
    for (size_t count = 0; count <= 1000; count++) {
      size_t next = 0;
      for (int j = 0; j < p; j++) {
        size_t offset, length;
        gpugen_nccl_chunk(count, p, j, &offset, &length);
        assert_int_equal(offset, next);
        assert_true(length <= gpugen_nccl_slot_elems(count, p));
        assert_true(length + 1 >= gpugen_nccl_slot_elems(count, p));
        next += length;
      }
      assert_int_equal(next, count);
    }
}

/* Every count 0..1000 for these rank counts, in place and not. */
static void test_every_count(void **state) {
  (void)state;
  static const int ranks[] = {1, 2, 3, 4, 5, 7, 8, 13, 16, 31, 64};
  for (size_t k = 0; k < sizeof ranks / sizeof ranks[0]; k++)
    for (size_t count = 0; count <= 1000; count++)
      run_world(ranks[k], count, count % 2 == 1, count * 131 + (size_t)ranks[k]);
}

/* Every rank count 1..64 with the counts around its chunking edges. */
static void test_every_rank_count(void **state) {
  (void)state;
  for (int p = 1; p <= MAX_RANKS; p++) {
    const size_t up = (size_t)p;
    const size_t counts[] = {0, 1, 2, up - 1, up, up + 1, 2 * up - 1, 2 * up + 1, 3 * up + up / 2, 999, 1000};
    for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++) {
      run_world(p, counts[k], false, (uint64_t)p * 7919 + k);
      run_world(p, counts[k], true, (uint64_t)p * 7919 + k + 1);
    }
  }
}

/* A transport error comes back from the step, and the group is closed. */
static void test_transport_error(void **state) {
  (void)state;
  static World w;
  memset(&w, 0, sizeof w);
  w.nranks = 4;
  w.fail_send = 5;
  Mat partials[8] = {{0}}, slots[4 * 2];
  RankCtx ctx = {&w, 1};
  gpugen_nccl_transport t = {&ctx, t_group_begin, t_group_end, t_send, t_recv, t_combine, t_copy};
  gpugen_nccl_plan plan = {1, 4, 8, sizeof(Mat), partials, partials, slots};
  assert_int_equal(gpugen_nccl_combine_step(&plan, 0, &t), 5);
  assert_false(w.in_group[1]);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_chunks_tile),
    cmocka_unit_test(test_every_count),
    cmocka_unit_test(test_every_rank_count),
    cmocka_unit_test(test_transport_error),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
