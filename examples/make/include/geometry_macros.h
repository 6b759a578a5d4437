/* One function body for the host and the GPU. */
#ifndef GEOMETRY_MACROS_H
#define GEOMETRY_MACROS_H
#include <math.h>
#ifdef __CUDACC__
#define GEOMETRY_FN __host__ __device__
#else
#define GEOMETRY_FN
#endif
#endif
