/* The squared distance's operators for examples/cg (cg.json). */
#ifndef CG_OPS_H
#define CG_OPS_H
#ifdef __CUDACC__
#define HD __host__ __device__
#else
#define HD
#endif
static inline HD double sqdiff_fold(double acc, double x, double y) { return acc + (x - y) * (x - y); }
static inline HD double sqdiff_combine(double a, double b) { return a + b; }
#endif
