/* A header whose macros would change the generated code: a function-like
 * macro named like the checked operator, and macros named like words the
 * code uses. tests/golden/macros shows them suspended. */
#ifndef MACROS_OPS_H
#define MACROS_OPS_H
#ifdef __CUDACC__
#define MACROS_HD __host__ __device__
#else
#define MACROS_HD
#endif

typedef struct Best { int value; int count; } Best;

static inline MACROS_HD Best best_combine(Best a, Best b) {
  Best r;
  r.value = a.value > b.value ? a.value : b.value;
  r.count = a.count + b.count;
  return r;
}
#define best_combine(a, b) (a)
#define min(a, b) ((a) < (b) ? (a) : (b))
#define value val
#define lane 0
#endif
