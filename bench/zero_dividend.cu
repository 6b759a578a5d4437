// Does a zero dividend send an IEEE float division to its slow path? One
// thread, 2000 dependent divisions per dividend, timed with clock64 (the
// cause of the identity rule in templates/reduce.cuh.tmpl; bench/RESULTS.md).
// nvcc -arch=sm_90 -O3 -o zero_dividend zero_dividend.cu && ./zero_dividend
#include <cstdio>
__global__ void chain(float num, float den, int iters, float *out, long long *cycles) {
  float acc = 0.0f, d = den;
  long long t0 = clock64();
  for (int i = 0; i < iters; ++i) {
    float q = num / d;     /* IEEE division (no fast-math) */
    acc += q;
    d = d + 1.0f + acc * 0.0f; /* keeps the next division dependent on this one */
  }
  long long t1 = clock64();
  *out = acc;
  *cycles = t1 - t0;
}
int main() {
  float *o; long long *c;
  cudaMalloc(&o, 4); cudaMalloc(&c, 8);
  const float nums[] = {1.0f, 0.0f, 3.0f};
  for (int rep = 0; rep < 2; ++rep)
    for (float num : nums) {
      chain<<<1, 1>>>(num, 7.0f, 2000, o, c);
      long long h; cudaMemcpy(&h, c, 8, cudaMemcpyDeviceToHost);
      if (rep) std::printf("dividend %g: %.1f cycles per dependent division\n", num, h / 2000.0);
    }
  return 0;
}
