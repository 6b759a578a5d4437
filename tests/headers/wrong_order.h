typedef struct SumSq {
  long long sumsq;
  int sum;
} SumSq;
