typedef struct WSum { double w, s; } WSum;
__host__ __device__ WSum wsum_fold(WSum acc, float w);
__host__ __device__ WSum wsum_fold3(WSum acc, float w, double x, int k);
__host__ __device__ WSum wsum_combine(WSum a, WSum b);
__host__ __device__ WSum wsum_fold2(WSum acc, const float &w, float x);
