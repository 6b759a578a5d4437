/* Header layouts gpugen must accept: a tagged struct without typedef, a
 * typedef of an anonymous struct, nesting, arrays, operators taking const
 * references (C++ only), and a GPU-only operator (no CPU reference). */
#ifndef TAGGED_H
#define TAGGED_H
#ifdef __CUDACC__
#define HD __host__ __device__
#define DEV __device__
#else
#define HD
#define DEV
#endif

struct Span {             /* tagged: C code must write 'struct Span' */
  int lo, hi;
};

typedef struct {          /* anonymous, known by its typedef */
  struct Span spans[2];
  unsigned char flags[3];
} Window;

typedef struct MinMax {
  float lo;
  float hi;
} MinMax;

#ifdef __cplusplus
HD inline MinMax minmax_combine(const MinMax &a, const MinMax &b) {
  MinMax r = {a.lo < b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi};
  return r;
}
DEV inline MinMax minmax_fold(MinMax acc, const float &x) {
  MinMax r = {acc.lo < x ? acc.lo : x, acc.hi > x ? acc.hi : x};
  return r;
}
/* with run-time params: x clamped into [bounds.lo, bounds.hi] first */
DEV inline MinMax clamped_fold(MinMax acc, float x, const MinMax &bounds) {
  return minmax_fold(acc, x < bounds.lo ? bounds.lo : x > bounds.hi ? bounds.hi : x);
}
HD inline Window window_combine(Window a, Window b) {
  a.spans[1] = b.spans[1];
  return a;
}
#endif
#endif
