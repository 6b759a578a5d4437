/* User operators over several arrays for the multi-input tests (r_multi.json). */
#ifndef MULTI_OPS_H
#define MULTI_OPS_H
#include <math.h>
#include <stdint.h>
#ifdef __CUDACC__
#define HD __host__ __device__
#else
#define HD
#endif

/* Weighted Welford over (w, x) with weight |w|: the weight sum, the
 * weighted mean and M2. */
typedef struct WWelford { double w, mean, m2; } WWelford;
static inline HD WWelford wwelford_fold(WWelford a, float w_in, float x) {
  double w = fabs((double)w_in);
  if (w == 0.0)
    return a;
  double wn = a.w + w, delta = x - a.mean;
  a.mean += delta * (w / wn);
  a.m2 += w * delta * (x - a.mean);
  a.w = wn;
  return a;
}
static inline HD WWelford wwelford_combine(WWelford a, WWelford b) {
  double w = a.w + b.w;
  if (w == 0.0)
    return a;
  double delta = b.mean - a.mean;
  WWelford r;
  r.w = w;
  r.mean = a.mean + delta * (b.w / w);
  r.m2 = a.m2 + b.m2 + delta * delta * (a.w * b.w / w);
  return r;
}

/* An ordered one: a polynomial hash of the pairs (a, b), in input order
 * (associative, not commutative). */
typedef struct PairHash { unsigned long long h, p; } PairHash;
#define PAIR_P 1099511628211ULL
static inline HD PairHash pairhash_combine(PairHash a, PairHash b) {
  PairHash r = {a.h * b.p + b.h, a.p * b.p};
  return r;
}
static inline HD PairHash pairhash_fold(PairHash a, int x, int16_t y) {
  PairHash one = {(unsigned long long)(unsigned)x * 65537ULL + (unsigned long long)(uint16_t)y + 1ULL, PAIR_P};
  return pairhash_combine(a, one);
}

/* A struct input beside a scalar one: a weighted sum of points. */
typedef struct IPoint { int x, y, z; } IPoint;
typedef struct IPair { int a, b; } IPair;
typedef struct LSum3 { long long x, y, z; } LSum3;
static inline HD LSum3 lsum3_combine(LSum3 a, LSum3 b) {
  LSum3 r = {a.x + b.x, a.y + b.y, a.z + b.z};
  return r;
}
static inline HD LSum3 wpoint_fold(LSum3 a, IPoint p, int8_t w) {
  a.x += (long long)p.x * w;
  a.y += (long long)p.y * w;
  a.z += (long long)p.z * w;
  return a;
}
/* vector-friendly: an 8-byte struct beside an int */
static inline HD LSum3 wpair_fold(LSum3 a, IPair p, int w) {
  a.x += (long long)p.a * w;
  a.y += (long long)p.b * w;
  a.z += w;
  return a;
}

/* Three arrays: a masked sum of x * y over the elements whose mask is set,
 * and their count. */
typedef struct Masked { long long sum, count; } Masked;
static inline HD Masked masked_fold(Masked a, int x, short y, uint8_t mask) {
  if (mask & 1) {
    a.sum += (long long)x * y;
    a.count += 1;
  }
  return a;
}
static inline HD Masked masked_combine(Masked a, Masked b) {
  Masked r = {a.sum + b.sum, a.count + b.count};
  return r;
}

/* The fused residual statistics: sum of (x - y)^2 and max |x - y|. */
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
#endif
