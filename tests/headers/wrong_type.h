typedef struct SumSq {
  int sum;
  short sumsq;
} SumSq;
