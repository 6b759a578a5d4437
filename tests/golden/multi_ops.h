/* User operators of multi.json: folds over several arrays. */
#ifndef GOLDEN_MULTI_OPS_H
#define GOLDEN_MULTI_OPS_H
#ifdef __CUDACC__
#define HD __host__ __device__
#else
#define HD
#endif
typedef struct Masked { long long sum, count; } Masked;
static inline HD Masked masked_fold(Masked a, int x, short y, unsigned char mask) {
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
/* in input order: a polynomial hash of the pairs */
typedef struct PairHash { unsigned long long h, p; } PairHash;
static inline HD PairHash pairhash_combine(PairHash a, PairHash b) {
  PairHash r = {a.h * b.p + b.h, a.p * b.p};
  return r;
}
static inline HD PairHash pairhash_fold(PairHash a, int x, int y) {
  PairHash one = {(unsigned long long)(unsigned)x * 65537ULL + (unsigned)y + 1ULL, 1099511628211ULL};
  return pairhash_combine(a, one);
}
#endif
