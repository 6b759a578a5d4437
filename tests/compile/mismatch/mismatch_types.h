/* The spec says sumsq is long long; this header, edited after generation, says short. */
typedef struct SumSq {
  int sum;
  short sumsq;
} SumSq;
