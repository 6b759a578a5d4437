/* User types for headers.json: gpugen includes this header and checks the
 * layout with static_asserts instead of defining the structs. */
#ifndef HEADERS_H
#define HEADERS_H
#include <stdint.h>
#include "ops.h"

typedef struct MaxSub {
  long long sum, best_prefix, best_suffix, best;
} MaxSub;

typedef struct Welford {
  float n, mean, m2;
} Welford;

static inline OPS_HD MaxSub maxsub_combine(MaxSub a, MaxSub b) {
  MaxSub r;
  r.sum = a.sum + b.sum;
  r.best_prefix = a.best_prefix > a.sum + b.best_prefix ? a.best_prefix : a.sum + b.best_prefix;
  r.best_suffix = b.best_suffix > b.sum + a.best_suffix ? b.best_suffix : b.sum + a.best_suffix;
  r.best = a.best > b.best ? a.best : b.best;
  if (a.best_suffix + b.best_prefix > r.best)
    r.best = a.best_suffix + b.best_prefix;
  return r;
}

static inline OPS_HD MaxSub maxsub_fold(MaxSub acc, int x) {
  MaxSub one = {x, x, x, x};
  return maxsub_combine(acc, one);
}

static inline OPS_HD Welford welford_fold(Welford acc, float x) {
  acc.n += 1.0f;
  float delta = x - acc.mean;
  acc.mean += delta / acc.n;
  acc.m2 += delta * (x - acc.mean);
  return acc;
}

static inline OPS_HD Welford welford_combine(Welford a, Welford b) {
  float n = a.n + b.n;
  if (n == 0.0f)
    return a;
  float delta = b.mean - a.mean;
  Welford r = {n, a.mean + delta * b.n / n, a.m2 + b.m2 + delta * delta * a.n * b.n / n};
  return r;
}
#endif
