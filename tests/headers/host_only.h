typedef struct SumSq { int sum; long long sumsq; } SumSq;
/* forgot __host__ __device__: a kernel cannot call these */
static inline SumSq sumsq_fold(SumSq acc, int x) { acc.sum += x; acc.sumsq += (long long)x * x; return acc; }
static inline SumSq sumsq_combine(SumSq a, SumSq b) { a.sum += b.sum; a.sumsq += b.sumsq; return a; }
__global__ void sumsq_kernel(SumSq acc, SumSq b);
