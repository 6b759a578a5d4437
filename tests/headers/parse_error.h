typedef struct SumSq {
  int sum
  long long sumsq;
} SumSq;
#include "no_such_header.h"
