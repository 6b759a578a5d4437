typedef struct SumSq {
  int sum;
  int count;
} SumSq;
