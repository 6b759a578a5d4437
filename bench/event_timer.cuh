// The event timer of the segmented and two-array benches
// (bench_segmented.cu, bench_multi.cu). Create ev0 and ev1
// before the first call.
#pragma once
#include "cuda_check.cuh"

static cudaEvent_t ev0, ev1;
// Mean time per call: one warm-up call, one timed call to size the loop,
// then about 30 ms of back-to-back calls (3 to 2000).
template <class F> static double time_us(F call) {
  call();
  CUDA_CHECK(cudaEventRecord(ev0));
  call();
  CUDA_CHECK(cudaEventRecord(ev1));
  CUDA_CHECK(cudaEventSynchronize(ev1));
  float ms;
  CUDA_CHECK(cudaEventElapsedTime(&ms, ev0, ev1));
  int iters = (int)(30.0 / (ms > 1e-3f ? ms : 1e-3f));
  iters = iters < 3 ? 3 : iters > 2000 ? 2000 : iters;
  CUDA_CHECK(cudaEventRecord(ev0));
  for (int i = 0; i < iters; i++)
    call();
  CUDA_CHECK(cudaEventRecord(ev1));
  CUDA_CHECK(cudaEventSynchronize(ev1));
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaEventElapsedTime(&ms, ev0, ev1));
  return ms * 1000.0 / iters;
}
