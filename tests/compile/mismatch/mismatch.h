/* The spec says sumsq is long long; this header says short. */
typedef struct SumSq {
  int sum;
  short sumsq;
} SumSq;
