/* The user's own types and operators for specs/mytypes.json. */
#ifndef MYTYPES_USER_H
#define MYTYPES_USER_H

#include "hostdevice.h"

/* Sum and sum of squares of ints: the accumulator is wider than the input. */
typedef struct SumSq {
  int sum;
  long long sumsq;
} SumSq;

typedef struct Particle {
  float pos[3];
  int id;
  unsigned char flags;
} Particle;

static inline HOSTDEVICE SumSq sumsq_fold(SumSq acc, int x) {
  acc.sum += x;
  acc.sumsq += (long long)x * x;
  return acc;
}

static inline HOSTDEVICE SumSq sumsq_combine(SumSq a, SumSq b) {
  a.sum += b.sum;
  a.sumsq += b.sumsq;
  return a;
}

#endif
