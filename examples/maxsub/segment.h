/* Maximum subarray sum as a reduction: an associative but non-commutative
 * combine, which CUB's DeviceReduce cannot do. Each accumulator describes a
 * range: its sum, best prefix, best suffix and best subarray. */
#ifndef SEGMENT_H
#define SEGMENT_H
#ifdef __CUDACC__
#define HD __host__ __device__
#else
#define HD
#endif

typedef struct Segment {
  long long sum, best_prefix, best_suffix, best;
} Segment;

static inline HD long long larger(long long a, long long b) { return a > b ? a : b; }

/* a's range directly followed by b's */
static inline HD Segment segment_combine(Segment a, Segment b) {
  Segment r;
  r.sum = a.sum + b.sum;
  r.best_prefix = larger(a.best_prefix, a.sum + b.best_prefix);
  r.best_suffix = larger(b.best_suffix, b.sum + a.best_suffix);
  r.best = larger(larger(a.best, b.best), a.best_suffix + b.best_prefix);
  return r;
}

static inline HD Segment segment_fold(Segment acc, int x) {
  Segment one = {x, x, x, x};
  return segment_combine(acc, one);
}
#endif
