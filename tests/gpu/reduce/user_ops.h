/* User operators for the reduction tests (r_user.json). */
#ifndef USER_OPS_H
#define USER_OPS_H
#include <stdint.h>
#ifdef __CUDACC__
#define HD __host__ __device__
#else
#define HD
#endif

typedef struct SumSq { int sum; long long sumsq; } SumSq;
typedef struct Welford { float n, mean, m2; } Welford;
typedef struct MaxSub { long long sum, best_prefix, best_suffix, best; } MaxSub;
/* polynomial hash of the sequence: associative, not commutative */
typedef struct Hash { unsigned long long h, p; } Hash;
typedef struct Bytes17 { uint8_t b[17]; } Bytes17;

static inline HD SumSq sumsq_fold(SumSq a, int x) {
  a.sum = (int)((unsigned)a.sum + (unsigned)x);
  a.sumsq += (long long)x * x;
  return a;
}
static inline HD SumSq sumsq_combine(SumSq a, SumSq b) {
  a.sum = (int)((unsigned)a.sum + (unsigned)b.sum);
  a.sumsq += b.sumsq;
  return a;
}

/* Welford's update: one IEEE division per element. */
static inline HD Welford welford_fold(Welford a, float x) {
  a.n += 1.0f;
  float delta = x - a.mean;
  a.mean += delta / a.n;
  a.m2 += delta * (x - a.mean);
  return a;
}
static inline HD Welford welford_combine(Welford a, Welford b) {
  float n = a.n + b.n;
  if (n == 0.0f)
    return a;
  float delta = b.mean - a.mean;
  Welford r;
  r.n = n;
  r.mean = a.mean + delta * (b.n / n);
  r.m2 = a.m2 + b.m2 + delta * delta * (a.n * b.n / n);
  return r;
}

static inline HD long long max_ll(long long a, long long b) { return a > b ? a : b; }
static inline HD MaxSub maxsub_combine(MaxSub a, MaxSub b) {
  MaxSub r;
  r.sum = a.sum + b.sum;
  r.best_prefix = max_ll(a.best_prefix, a.sum + b.best_prefix);
  r.best_suffix = max_ll(b.best_suffix, b.sum + a.best_suffix);
  r.best = max_ll(max_ll(a.best, b.best), a.best_suffix + b.best_prefix);
  return r;
}
static inline HD MaxSub maxsub_fold(MaxSub a, int x) {
  MaxSub one = {x, x, x, x};
  return maxsub_combine(a, one);
}

/* A sum that counts the combines with the identity (n == 0) on either side.
 * The CPU reference only folds, so its count is 0, and the exact comparison
 * fails on any such combine in the GPU's merges: the generated kernels
 * promise none for commutative operators (docs/emitted.md, "Merging"). */
typedef struct Counted { long long n, sum, identity_combines; } Counted;
static inline HD Counted counted_fold(Counted a, int x) {
  a.n += 1;
  a.sum += x;
  return a;
}
static inline HD Counted counted_combine(Counted a, Counted b) {
  Counted r = {a.n + b.n, a.sum + b.sum, a.identity_combines + b.identity_combines + (a.n == 0 || b.n == 0)};
  return r;
}

#define HASH_P 1099511628211ULL
static inline HD Hash hash_combine(Hash a, Hash b) {
  Hash r = {a.h * b.p + b.h, a.p * b.p};
  return r;
}
static inline HD Hash hash_fold(Hash a, int x) {
  Hash r = {a.h * HASH_P + (unsigned long long)(unsigned)x, a.p * HASH_P};
  return r;
}
static inline HD Hash bytes_fold(Hash a, Bytes17 x) {
  for (int i = 0; i < 17; i++) {
    a.h = a.h * HASH_P + x.b[i];
    a.p = a.p * HASH_P;
  }
  return a;
}
#endif
