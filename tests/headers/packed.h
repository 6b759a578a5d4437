#pragma pack(push, 1)
typedef struct SumSq {
  int sum;
  long long sumsq;
} SumSq;
#pragma pack(pop)
