#!/bin/sh
# Writes a CUDA file that calls every emitted device function of a module
# (so nvcc and ptxas compile all of them), one kernel per type and use.
# usage: exercise.sh MODULE.cuh > exercise.cu
set -e
cuh=$1
module=$(basename "$cuh" .cuh)
echo "#include \"$module.cuh\""
echo "using namespace $module;"
sed -n 's/^template <> struct SharedMem<\(.*\)> {$/\1/p' "$cuh" | while read -r type; do
  id=$(echo "$type" | tr ' ' '_')
  cat <<K
__global__ void shfl_idx_$id(const $type *in, $type *out, int src, int width) {
  out[threadIdx.x] = shfl_sync(0xffffffffu, in[threadIdx.x], src, width);
}
__global__ void shfl_others_$id(const $type *in, $type *out, int d, int width) {
  $type v = in[threadIdx.x];
  out[threadIdx.x] = shfl_up_sync(0xffffffffu, v, d, width);
  out[threadIdx.x + 32] = shfl_down_sync(0xffffffffu, v, d, width);
  out[threadIdx.x + 64] = shfl_xor_sync(0xffffffffu, v, d, width);
}
__global__ void ldg_$id(const $type *__restrict__ in, $type *out) {
  $type *s = SharedMem<$type>().getPointer();
  s[threadIdx.x] = ldg(in + threadIdx.x);
  __syncthreads();
  out[threadIdx.x] = s[blockDim.x - 1 - threadIdx.x];
  if (!bits_equal(s[0], s[0])) out[0] = s[1];
}
K
done
