typedef struct SumSq {
  alignas(32) int sum;
  long long sumsq;
} SumSq;
