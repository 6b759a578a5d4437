/* Operators of the plans suite's module (tests/plans/plans.json): one
 * commutative accumulator of 12 bytes and one ordered one of 16. */
#ifndef PLANS_OPS_H
#define PLANS_OPS_H
#ifdef __CUDACC__
#define PLANS_HD __host__ __device__
#else
#define PLANS_HD
#endif

typedef struct Welford { float n, mean, m2; } Welford;
typedef struct MaxSub { int sum, pre, suf, best; } MaxSub;

static inline PLANS_HD Welford welford_fold(Welford a, float x) {
  a.n += 1.0f;
  float delta = x - a.mean;
  a.mean += delta / a.n;
  a.m2 += delta * (x - a.mean);
  return a;
}
static inline PLANS_HD Welford welford_combine(Welford a, Welford b) {
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
static inline PLANS_HD int plans_max(int a, int b) { return a > b ? a : b; }
static inline PLANS_HD MaxSub maxsub_combine(MaxSub a, MaxSub b) {
  MaxSub r;
  r.sum = a.sum + b.sum;
  r.pre = plans_max(a.pre, a.sum + b.pre);
  r.suf = plans_max(b.suf, b.sum + a.suf);
  r.best = plans_max(plans_max(a.best, b.best), a.suf + b.pre);
  return r;
}
static inline PLANS_HD MaxSub maxsub_fold(MaxSub a, int x) {
  MaxSub one = {x, x, x, x};
  return maxsub_combine(a, one);
}
#endif
