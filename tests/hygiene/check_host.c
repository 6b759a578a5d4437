/* The hygiene suite's driver: every CPU reference of hygiene.json against a
 * sequential loop written here, and a digest of every result, which must be
 * the same whatever traps the module was built with. Plain C11. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "hyg.h"

enum { N = 97, ROWS = 7, ROW_LENGTH = 13, SEGMENTS = 5 };
static const long long offsets[SEGMENTS + 1] = {0, 0, 1, 40, 40, 97};

static unsigned int state = 12345u;
static int next_int(int range) {
  state = state * 1103515245u + 12345u;
  return (int)((state >> 8) % (unsigned int)(2 * range + 1)) - range;
}

static int failures;
static void check(const char *what, const void *got, const void *want, size_t bytes) {
  if (memcmp(got, want, bytes) != 0) {
    printf("FAIL %s\n", what);
    failures++;
  }
}

/* FNV-1a over every result, printed at the end */
static unsigned long long digest = 1469598103934665603ull;
static void add_digest(const void *p, size_t bytes) {
  for (size_t i = 0; i < bytes; i++)
    digest = (digest ^ ((const unsigned char *)p)[i]) * 1099511628211ull;
}

static Outer outer_max_ref(const Outer *in, size_t n) {
  Outer r;
  memset(&r, 0, sizeof r); /* the padding bytes, so that whole structs compare */
  for (int a = 0; a < 3; a++) {
    r.a[a].v[0] = r.a[a].v[1] = -2147483647 - 1;
    r.a[a].w = -INFINITY;
  }
  r.k = -32768;
  for (size_t i = 0; i < n; i++) {
    for (int a = 0; a < 3; a++) {
      for (int j = 0; j < 2; j++)
        if (in[i].a[a].v[j] > r.a[a].v[j])
          r.a[a].v[j] = in[i].a[a].v[j];
      r.a[a].w = fmaxf(r.a[a].w, in[i].a[a].w);
    }
    if (in[i].k > r.k)
      r.k = in[i].k;
  }
  return r;
}

static void compare_outer(const char *what, Outer got, Outer want) {
  /* field by field: padding is not part of the result */
  int same = got.k == want.k;
  for (int a = 0; a < 3; a++)
    same = same && got.a[a].v[0] == want.a[a].v[0] && got.a[a].v[1] == want.a[a].v[1] &&
           memcmp(&got.a[a].w, &want.a[a].w, sizeof(float)) == 0;
  if (!same) {
    printf("FAIL %s\n", what);
    failures++;
  }
  add_digest(&got.k, sizeof got.k);
  for (int a = 0; a < 3; a++)
    add_digest(&got.a[a], sizeof got.a[a]);
}

static Stats stats_ref(const Pair *in, size_t n, Scale s) {
  Stats a = {0, 0, -1, -1};
  for (size_t i = 0; i < n; i++) {
    if (a.n == 0)
      a.first_index = (int)i;
    a.last_index = (int)i;
    a.n += 1;
    a.sum += (long long)in[i].lo * s.mul + in[i].hi;
  }
  return a;
}

int main(void) {
  static Outer outers[N];
  static Pair pairs[N];
  static float floats[N], floats2[N];
  static int ints[N], ints2[N];
  static gpugen_half halves[N];
  static int4 vecs[N];
  memset(outers, 0, sizeof outers);
  for (int i = 0; i < N; i++) {
    for (int a = 0; a < 3; a++) {
      outers[i].a[a].v[0] = next_int(1000000);
      outers[i].a[a].v[1] = next_int(1000000);
      outers[i].a[a].w = (float)next_int(5000) / 8.0f;
    }
    outers[i].k = (short)next_int(30000);
    pairs[i].lo = next_int(100000);
    pairs[i].hi = next_int(100000);
    floats[i] = (float)next_int(1000) / 4.0f;
    floats2[i] = (float)next_int(1000) / 16.0f;
    ints[i] = next_int(40000);
    ints2[i] = next_int(40000);
    /* halves of small integers: exact, so the float sum of them is too */
    unsigned short h = 0;
    int v = next_int(64);
    if (v != 0) {
      int m = v < 0 ? -v : v, e = 0;
      while (m >= 2 << e)
        e++;
      h = (unsigned short)((v < 0 ? 0x8000 : 0) | (unsigned)(e + 15) << 10 | (unsigned)((m << (10 - e)) & 0x3ff));
    }
    memcpy(&halves[i], &h, sizeof h);
    vecs[i].x = next_int(1 << 30);
    vecs[i].y = next_int(1 << 30);
    vecs[i].z = next_int(1 << 30);
    vecs[i].w = next_int(1 << 30);
  }

  /* outer_max: flat, segmented and rows */
  compare_outer("outer_max_host", hyg_outer_max_host(outers, N), outer_max_ref(outers, N));
  Outer seg[SEGMENTS], rows[ROWS];
  hyg_outer_max_segmented_host(outers, offsets, SEGMENTS, seg);
  for (int s = 0; s < SEGMENTS; s++)
    compare_outer("outer_max_segmented_host", seg[s],
                  outer_max_ref(outers + offsets[s], (size_t)(offsets[s + 1] - offsets[s])));
  hyg_outer_max_rows_host(outers, ROWS, ROW_LENGTH, rows);
  for (int r = 0; r < ROWS; r++)
    compare_outer("outer_max_rows_host", rows[r], outer_max_ref(outers + r * ROW_LENGTH, ROW_LENGTH));

  /* outer_sum: integers wrap, floats in order */
  {
    Outer got = hyg_outer_sum_host(outers, N), want;
    memset(&want, 0, sizeof want);
    for (int i = 0; i < N; i++) {
      for (int a = 0; a < 3; a++) {
        for (int j = 0; j < 2; j++)
          want.a[a].v[j] = (int)((unsigned)want.a[a].v[j] + (unsigned)outers[i].a[a].v[j]);
        want.a[a].w = want.a[a].w + outers[i].a[a].w;
      }
      want.k = (short)(unsigned short)((unsigned)want.k + (unsigned)outers[i].k);
    }
    compare_outer("outer_sum_host", got, want);
  }

  /* pair_min */
  {
    Pair got = hyg_pair_min_host(pairs, N), want = {2147483647, 2147483647};
    for (int i = 0; i < N; i++) {
      want.lo = pairs[i].lo < want.lo ? pairs[i].lo : want.lo;
      want.hi = pairs[i].hi < want.hi ? pairs[i].hi : want.hi;
    }
    check("pair_min_host", &got, &want, sizeof got);
    add_digest(&got, sizeof got);
  }

  /* float_argmin: the first lowest */
  {
    hyg_float_argmin_result got = hyg_float_argmin_host(floats, N);
    long long best = 0;
    for (int i = 1; i < N; i++)
      if (floats[i] < floats[best])
        best = i;
    if (got.index != best || got.value != floats[best]) {
      printf("FAIL float_argmin_host\n");
      failures++;
    }
    add_digest(&got.index, sizeof got.index);
    add_digest(&got.value, sizeof got.value);
    hyg_float_argmin_result rows_got[ROWS];
    hyg_float_argmin_rows_host(floats, ROWS, ROW_LENGTH, rows_got);
    for (int r = 0; r < ROWS; r++) {
      long long b = 0;
      for (int i = 1; i < ROW_LENGTH; i++)
        if (floats[r * ROW_LENGTH + i] < floats[r * ROW_LENGTH + b])
          b = i;
      if (rows_got[r].index != b) {
        printf("FAIL float_argmin_rows_host\n");
        failures++;
      }
      add_digest(&rows_got[r].index, sizeof rows_got[r].index);
    }
  }

  /* half_sum: small integers, exact in float */
  {
    float got = hyg_half_sum_host(halves, N), want = 0.0f;
    for (int i = 0; i < N; i++) {
      unsigned short h;
      memcpy(&h, &halves[i], sizeof h);
      int e = (h >> 10) & 0x1f;
      float m = e ? (float)(0x400 | (h & 0x3ff)) * ldexpf(1.0f, e - 25) : 0.0f;
      want += (h & 0x8000) ? -m : m;
    }
    check("half_sum_host", &got, &want, sizeof got);
    add_digest(&got, sizeof got);
  }

  /* vec_max: component by component */
  {
    int4 got = hyg_vec_max_host(vecs, N), want = {INT32_MIN, INT32_MIN, INT32_MIN, INT32_MIN};
    for (int i = 0; i < N; i++) {
      want.x = vecs[i].x > want.x ? vecs[i].x : want.x;
      want.y = vecs[i].y > want.y ? vecs[i].y : want.y;
      want.z = vecs[i].z > want.z ? vecs[i].z : want.z;
      want.w = vecs[i].w > want.w ? vecs[i].w : want.w;
    }
    check("vec_max_host", &got, &want, sizeof got);
    add_digest(&got, sizeof got);
  }

  /* pairs: the user's combine, also the fold */
  {
    Pair got = hyg_pairs_host(pairs, N), want = {-2147483647 - 1, 0};
    for (int i = 0; i < N; i++) {
      want.lo = pairs[i].lo > want.lo ? pairs[i].lo : want.lo;
      want.hi = (int)((unsigned)want.hi + (unsigned)pairs[i].hi);
    }
    check("pairs_host", &got, &want, sizeof got);
    add_digest(&got, sizeof got);
  }

  /* stats: ordered, indexed, params */
  {
    Scale s = {3};
    Stats got = hyg_stats_host(pairs, N, &s), want = stats_ref(pairs, N, s);
    check("stats_host", &got, &want, sizeof got);
    add_digest(&got, sizeof got);
    Stats segs[SEGMENTS];
    hyg_stats_segmented_host(pairs, offsets, SEGMENTS, &s, segs);
    for (int k = 0; k < SEGMENTS; k++) {
      Stats w = stats_ref(pairs + offsets[k], (size_t)(offsets[k + 1] - offsets[k]), s);
      check("stats_segmented_host", &segs[k], &w, sizeof w);
      add_digest(&segs[k], sizeof segs[k]);
    }
  }

  /* dot_pair and dot: two arrays */
  {
    Pair got = hyg_dot_pair_host(ints, ints2, N), want = {0, 0};
    for (int i = 0; i < N; i++) {
      want.lo = (int)((unsigned)want.lo + (unsigned)ints[i] * (unsigned)ints2[i]);
      want.hi += 1;
    }
    check("dot_pair_host", &got, &want, sizeof got);
    add_digest(&got, sizeof got);
    double d = hyg_dot_host(floats, floats2, N), dw = 0.0;
    for (int i = 0; i < N; i++)
      dw = dw + (double)floats[i] * (double)floats2[i];
    check("dot_host", &d, &dw, sizeof d);
    add_digest(&d, sizeof d);
  }

  /* operators named like gpugen's own functions */
  {
    Pair got = hyg_named_min_of_host(pairs, N), want = {-2147483647 - 1, 0};
    for (int i = 0; i < N; i++) {
      want.lo = pairs[i].lo > want.lo ? pairs[i].lo : want.lo;
      want.hi = (int)((unsigned)want.hi + (unsigned)pairs[i].hi);
    }
    check("named_min_of_host", &got, &want, sizeof got);
    add_digest(&got, sizeof got);
    Pair rows_got[ROWS];
    hyg_named_shfl_rows_host(ints, ROWS, ROW_LENGTH, rows_got);
    for (int r = 0; r < ROWS; r++) {
      Pair w = {0, 0};
      for (int i = 0; i < ROW_LENGTH; i++) {
        w.lo = (int)((unsigned)w.lo + (unsigned)ints[r * ROW_LENGTH + i]);
        w.hi ^= ints[r * ROW_LENGTH + i];
      }
      check("named_shfl_rows_host", &rows_got[r], &w, sizeof w);
      add_digest(&rows_got[r], sizeof w);
    }
  }

  /* operators named like the members of gpugen's operator structs */
  {
    Pair got = hyg_named_fold_host(ints, N), want = {0, 0};
    for (int i = 0; i < N; i++) {
      want.lo = (int)((unsigned)want.lo + (unsigned)ints[i]);
      want.hi += 1;
    }
    check("named_fold_host", &got, &want, sizeof got);
    add_digest(&got, sizeof got);
    Pair best = hyg_named_identity_host(pairs, N), first = {-2147483647 - 1, 0};
    for (int i = 0; i < N; i++)
      first = first.lo >= pairs[i].lo ? first : pairs[i];
    check("named_identity_host", &best, &first, sizeof best);
    add_digest(&best, sizeof best);
  }

  printf("digest %016llx\n", digest);
  return failures ? 1 : 0;
}
