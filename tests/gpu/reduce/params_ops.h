/* User operators with run-time "params" and "indexed" folds, for the GPU
 * tests (r_params.json): a threshold count, argmin by a custom comparator,
 * the last maximum, both extremes, the first index where a predicate holds,
 * a position-weighted sum. Plain C, so r_params.h stays a C header. */
#ifndef PARAMS_OPS_H
#define PARAMS_OPS_H
#include <stdint.h>
#ifdef __CUDACC__
#define HD __host__ __device__
#else
#define HD
#endif

/* ---- run-time parameters ---- */

/* How many elements exceed a threshold (CUB's functor with a member). */
typedef struct Threshold { float limit; } Threshold;
static inline HD unsigned long long above_fold(unsigned long long a, float x, Threshold t) { return a + (x > t.limit); }
static inline HD unsigned long long count_combine(unsigned long long a, unsigned long long b) { return a + b; }

/* ---- index-aware folds ---- */

/* CUB's custom_type_t (16 bytes) and its abs_less argmin: the lowest |key|,
 * ties to the lower index. The fold gets the index, so the input need not
 * carry it. */
typedef struct Custom { long long key; long long val; } Custom;
typedef struct CustomArg { Custom value; long long index; } CustomArg;
static inline HD long long abs_ll(long long v) { return v < 0 ? -v : v; }
static inline HD int custom_better(Custom a, long long ia, Custom b, long long ib) { /* a before b */
  if (abs_ll(a.key) != abs_ll(b.key))
    return abs_ll(a.key) < abs_ll(b.key);
  return ia < ib;
}
static inline HD CustomArg absmin_fold(CustomArg a, Custom x, long long i) {
  if (a.index < 0 || custom_better(x, i, a.value, a.index)) {
    CustomArg r;
    r.value = x;
    r.index = i;
    return r;
  }
  return a;
}
static inline HD CustomArg absmin_combine(CustomArg a, CustomArg b) {
  if (b.index < 0)
    return a;
  if (a.index < 0)
    return b;
  return custom_better(b.value, b.index, a.value, a.index) ? b : a;
}

/* argmax that keeps the LAST index of the maximum. */
typedef struct LastMax { int value; long long index; } LastMax;
static inline HD LastMax lastmax_fold(LastMax a, int x, long long i) {
  if (a.index < 0 || x > a.value || (x == a.value && i > a.index)) {
    LastMax r;
    r.value = x;
    r.index = i;
    return r;
  }
  return a;
}
static inline HD LastMax lastmax_combine(LastMax a, LastMax b) {
  if (b.index < 0)
    return a;
  if (a.index < 0)
    return b;
  return b.value > a.value || (b.value == a.value && b.index > a.index) ? b : a;
}

/* Both extremes at once: the first minimum and the first maximum. */
typedef struct Extremes { float lo; long long lo_at; float hi; long long hi_at; } Extremes;
static inline HD Extremes extremes_fold(Extremes a, float x, long long i) {
  if (a.lo_at < 0 || x < a.lo) {
    a.lo = x;
    a.lo_at = i;
  }
  if (a.hi_at < 0 || x > a.hi) {
    a.hi = x;
    a.hi_at = i;
  }
  return a;
}
static inline HD Extremes extremes_combine(Extremes a, Extremes b) {
  if (b.lo_at >= 0 && (a.lo_at < 0 || b.lo < a.lo || (b.lo == a.lo && b.lo_at < a.lo_at))) {
    a.lo = b.lo;
    a.lo_at = b.lo_at;
  }
  if (b.hi_at >= 0 && (a.hi_at < 0 || b.hi > a.hi || (b.hi == a.hi && b.hi_at < a.hi_at))) {
    a.hi = b.hi;
    a.hi_at = b.hi_at;
  }
  return a;
}

/* The first index where a predicate holds (x == the params' target); none:
 * the identity INT64_MAX. Indexed and with params. */
typedef struct Target { int value; } Target;
static inline HD long long find_fold(long long a, int x, long long i, Target t) {
  return x == t.value && i < a ? i : a;
}
static inline HD long long min_index(long long a, long long b) { return b < a ? b : a; }

/* A position-weighted sum: sum of i * x (doubles; integer-valued inputs
 * keep it exact below 2^53). */
static inline HD double wsum_fold(double a, float x, long long i) { return a + (double)i * (double)x; }
static inline HD double dsum(double a, double b) { return a + b; }

/* Ordered (not commutative): the last index where x lies in [lo, hi], as a
 * "latest wins" state: combine(a, b) is b when b found one. Indexed and
 * with params. */
typedef struct Window { int lo, hi; } Window;
typedef struct Latest { long long at; int value; } Latest;
static inline HD Latest latest_fold(Latest a, int x, long long i, Window w) {
  if (x >= w.lo && x <= w.hi) {
    a.at = i;
    a.value = x;
  }
  return a;
}
static inline HD Latest latest_combine(Latest a, Latest b) { return b.at >= 0 ? b : a; }

/* Over two arrays, with params: sum of (alpha * x + beta) * y. */
typedef struct Affine { float alpha, beta; } Affine;
static inline HD float axpy_dot_fold(float a, float x, float y, Affine p) { return a + (p.alpha * x + p.beta) * y; }
static inline HD float fsum(float a, float b) { return a + b; }

#endif
