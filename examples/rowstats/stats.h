/* Per-row statistics as a reduction: Welford's running count, mean and sum
 * of squared deviations (one division per element, numerically stable), and
 * the combine of two partial results (Chan et al.). */
#ifndef STATS_H
#define STATS_H
#ifdef __CUDACC__
#define HD __host__ __device__
#else
#define HD
#endif

typedef struct Stats {
  float n, mean, m2;
} Stats;

static inline HD Stats stats_fold(Stats acc, float x) {
  acc.n += 1.0f;
  float delta = x - acc.mean;
  acc.mean += delta / acc.n;
  acc.m2 += delta * (x - acc.mean);
  return acc;
}

static inline HD Stats stats_combine(Stats a, Stats b) {
  float n = a.n + b.n;
  if (n == 0.0f)
    return a;
  float delta = b.mean - a.mean;
  Stats r = {n, a.mean + delta * b.n / n, a.m2 + b.m2 + delta * delta * a.n * b.n / n};
  return r;
}
#endif
