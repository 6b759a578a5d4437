/* A wide accumulator over a scalar input, for shared_too_big.json. */
typedef struct Wide { float v[400]; } Wide;
__host__ __device__ inline Wide wide_fold(Wide a, float x) { a.v[0] += x; return a; }
__host__ __device__ inline Wide wide_combine(Wide a, Wide b) { for (int i = 0; i < 400; i++) a.v[i] += b.v[i]; return a; }
