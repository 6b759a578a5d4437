/* Types and operators for the hygiene suite (tests/run.sh hygiene): every
 * kind of reduction over types with nested arrays. The suite writes
 * hygiene_traps.h beside it: nothing for the reference build, then macros
 * or deleted functions named like every identifier the generated code
 * uses, which must change neither the build nor a result. */
#ifndef HYGIENE_TYPES_H
#define HYGIENE_TYPES_H
#ifdef __CUDACC__
#define HYG_HD __host__ __device__
#else
#define HYG_HD
#endif

typedef struct Inner { int v[2]; float w; } Inner;
typedef struct Outer { Inner a[3]; short k; } Outer;
typedef struct Pair { int lo; int hi; } Pair;
typedef struct Stats { long long n; long long sum; int first_index; int last_index; } Stats;
typedef struct Scale { int mul; } Scale;

/* the highest lo and the sum of hi: commutative */
static inline HYG_HD Pair pair_combine(Pair a, Pair b) {
  Pair r;
  r.lo = a.lo > b.lo ? a.lo : b.lo;
  r.hi = (int)((unsigned)a.hi + (unsigned)b.hi);
  return r;
}
/* ordered: the first and last index folded, sums of scaled values */
static inline HYG_HD Stats stats_fold(Stats a, Pair x, long long index, Scale s) {
  if (a.n == 0)
    a.first_index = (int)index;
  a.last_index = (int)index;
  a.n += 1;
  a.sum += (long long)x.lo * s.mul + x.hi;
  return a;
}
static inline HYG_HD Stats stats_combine(Stats a, Stats b) {
  if (a.n == 0)
    return b;
  if (b.n == 0)
    return a;
  Stats r;
  r.n = a.n + b.n;
  r.sum = a.sum + b.sum;
  r.first_index = a.first_index;
  r.last_index = b.last_index;
  return r;
}
/* two arrays: sum of products into a pair */
static inline HYG_HD Pair dot_fold(Pair a, int x, int y) {
  a.lo = (int)((unsigned)a.lo + (unsigned)x * (unsigned)y);
  a.hi += 1;
  return a;
}

/* Operators named like functions of gpugen's own namespace: the generated
 * code must call these, not gpugen's. min_of is no minimum. */
static inline HYG_HD Pair min_of(Pair a, Pair b) { return pair_combine(a, b); }
static inline HYG_HD Pair shfl_sync(Pair a, int x) {
  a.lo = (int)((unsigned)a.lo + (unsigned)x);
  a.hi ^= x;
  return a;
}
static inline HYG_HD Pair sum_of(Pair a, Pair b) {
  a.lo = (int)((unsigned)a.lo + (unsigned)b.lo);
  a.hi ^= b.hi;
  return a;
}

/* Operators named like the members of gpugen's operator structs. */
static inline HYG_HD Pair fold(Pair a, int x) {
  a.lo = (int)((unsigned)a.lo + (unsigned)x);
  a.hi += 1;
  return a;
}
static inline HYG_HD Pair combine(Pair a, Pair b) {
  a.lo = (int)((unsigned)a.lo + (unsigned)b.lo);
  a.hi += b.hi;
  return a;
}
static inline HYG_HD Pair identity(Pair a, Pair b) { return a.lo >= b.lo ? a : b; }

#include "hygiene_traps.h"
#endif
