/* Folds with run-time params and the element's index (params.json). C++:
 * arguments by const reference, as a functor's members would be. */
#ifndef GOLDEN_PARAMS_OPS_H
#define GOLDEN_PARAMS_OPS_H

struct Scale {
  float factor;
  float offset;
};
struct Pick {
  float value;
  long long index;
};

/* sum of factor * x + offset */
__host__ __device__ inline float scaled_fold(float a, float x, const Scale &p) { return a + p.factor * x + p.offset; }
__host__ __device__ inline float fsum(float a, float b) { return a + b; }

/* the last index of the maximum */
__host__ __device__ inline Pick last_max_fold(const Pick &a, float x, const long long &i) {
  return a.index < 0 || x >= a.value ? Pick{x, i} : a;
}
__host__ __device__ inline Pick last_max_combine(Pick a, Pick b) {
  return b.index >= 0 && (a.index < 0 || b.value > a.value || (b.value == a.value && b.index > a.index)) ? b : a;
}

/* ordered: the last element above the threshold, over two arrays (x where y > limit) */
__host__ __device__ inline Pick last_above_fold(Pick a, float x, float y, long long i, const Scale &limit) {
  return y > limit.offset ? Pick{x, i} : a;
}
__host__ __device__ inline Pick latest(Pick a, Pick b) { return b.index >= 0 ? b : a; }

#endif
