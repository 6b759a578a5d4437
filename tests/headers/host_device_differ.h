/* a field that exists only in the GPU's view of the struct */
typedef struct SumSq {
  int sum;
  long long sumsq;
#ifdef __CUDA_ARCH__
  int debug_counter;
#endif
} SumSq;
