typedef struct SumSq { int sum; long long sumsq; } SumSq;
__host__ __device__ SumSq sumsq_fold(SumSq acc, float x);
__host__ __device__ SumSq sumsq_combine(SumSq &a, const SumSq &b);
template <class T> __device__ T any_combine(T a, T b);
