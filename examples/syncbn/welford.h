/* Welford's running mean and sum of squared deviations (examples/syncbn). */
#ifndef SYNCBN_WELFORD_H
#define SYNCBN_WELFORD_H
#ifdef __CUDACC__
#define HD __host__ __device__
#else
#define HD
#endif

typedef struct Welford { float n, mean, m2; } Welford;

static inline HD Welford welford_fold(Welford a, float x) {
  a.n += 1.0f;
  float delta = x - a.mean;
  a.mean += delta / a.n;
  a.m2 += delta * (x - a.mean);
  return a;
}

/* Chan et al.'s merge of two states; the empty state is the identity. */
static inline HD Welford welford_combine(Welford a, Welford b) {
  float n = a.n + b.n;
  if (b.n == 0.0f)
    return a;
  if (a.n == 0.0f)
    return b;
  float delta = b.mean - a.mean;
  Welford r;
  r.n = n;
  r.mean = a.mean + delta * (b.n / n);
  r.m2 = a.m2 + b.m2 + delta * delta * (a.n * b.n / n);
  return r;
}
#endif
