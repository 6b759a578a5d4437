/* The operators of bench_multi.json: the fused residual statistics and the
 * two reductions a user would otherwise call one after the other. */
#ifndef BENCH_MULTI_OPS_H
#define BENCH_MULTI_OPS_H
#include <math.h>
#ifdef __CUDACC__
#define HD __host__ __device__
#else
#define HD
#endif
typedef struct DiffStats { float sumsq, maxabs; } DiffStats;
static inline HD DiffStats diff_fold(DiffStats a, float x, float y) {
  float d = x - y;
  a.sumsq += d * d;
  a.maxabs = fmaxf(a.maxabs, fabsf(d));
  return a;
}
static inline HD DiffStats diff_combine(DiffStats a, DiffStats b) {
  DiffStats r = {a.sumsq + b.sumsq, fmaxf(a.maxabs, b.maxabs)};
  return r;
}
static inline HD float sqdiff_fold(float a, float x, float y) { return a + (x - y) * (x - y); }
static inline HD float sqdiff_combine(float a, float b) { return a + b; }
static inline HD float maxdiff_fold(float a, float x, float y) { return fmaxf(a, fabsf(x - y)); }
static inline HD float maxdiff_combine(float a, float b) { return fmaxf(a, b); }
#endif
