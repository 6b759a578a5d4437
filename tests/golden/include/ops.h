/* Helpers for headers.h, found through the spec's include_dirs. */
#ifndef OPS_H
#define OPS_H
#ifdef __CUDACC__
#define OPS_HD __host__ __device__
#else
#define OPS_HD
#endif
#endif
