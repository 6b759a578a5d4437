typedef struct WSum { double w, s; } WSum;
static inline __host__ __device__ WSum wsum_fold(WSum acc, float w) { acc.w += w; return acc; }
static inline __host__ __device__ WSum wsum_fold3(WSum acc, float w, double x, int k) { acc.w += w * x * k; return acc; }
static inline __host__ __device__ WSum wsum_combine(WSum a, WSum b) { a.w += b.w; a.s += b.s; return a; }
static inline __host__ __device__ WSum wsum_fold2(WSum acc, const float &w, float x) { acc.s += w * x; return acc; }
