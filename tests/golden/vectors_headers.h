/* A user header whose structs hold CUDA's vector types. */
#ifndef VECTORS_HEADERS_H
#define VECTORS_HEADERS_H
#include <vector_types.h>

#ifdef __CUDACC__
#define VH_HD __host__ __device__
#else
#define VH_HD
#endif

typedef struct Particle {
  float4 pos;     /* 16-byte aligned: the struct is too */
  uchar3 color;
  double2 range;
} Particle;

/* a sum of squares of a float4, component-wise, by user functions */
typedef struct Moments {
  float4 sum;
  float4 sumsq;
} Moments;

static inline VH_HD Moments moments_fold(Moments a, float4 x) {
  a.sum.x += x.x; a.sum.y += x.y; a.sum.z += x.z; a.sum.w += x.w;
  a.sumsq.x += x.x * x.x; a.sumsq.y += x.y * x.y; a.sumsq.z += x.z * x.z; a.sumsq.w += x.w * x.w;
  return a;
}
static inline VH_HD Moments moments_combine(Moments a, Moments b) {
  a.sum.x += b.sum.x; a.sum.y += b.sum.y; a.sum.z += b.sum.z; a.sum.w += b.sum.w;
  a.sumsq.x += b.sumsq.x; a.sumsq.y += b.sumsq.y; a.sumsq.z += b.sumsq.z; a.sumsq.w += b.sumsq.w;
  return a;
}
#endif
