#!/bin/sh
# Writes a CUDA file that calls every emitted device function of a module
# (so nvcc and ptxas compile all of them), one kernel per type and use.
# usage: exercise.sh MODULE.cuh > exercise.cu
set -e
cuh=$1
module=$(basename "$cuh" .cuh)
echo "#include \"$module.cuh\""
echo "using namespace $module;"
sed -n 's/^template <> struct SharedMem<\([^>]*\)> {.*/\1/p' "$cuh" | while read -r type; do
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
# Every reduction's pieces for the user's own kernels, in each of their
# forms (docs/emitted.md, "For your own kernels").
sed -n 's/^__device__ __forceinline__ \(.*\) \([A-Za-z0-9_]*\)_identity() {.*/\1|\2/p' "$cuh" | while IFS='|' read -r acc r; do
  cat <<K
__global__ void pieces_$r(const $acc *in, $acc *out, int valid) {
  const $acc v = in[threadIdx.x];
  const $acc items[3] = {v, in[threadIdx.x + 32], ${r}_identity()};
  out[threadIdx.x] = ${r}_warp(v);
  out[threadIdx.x + 32] = ${r}_warp<8>(v);
  out[threadIdx.x + 64] = ${r}_warp<1>(v, valid);
  out[threadIdx.x + 96] = ${r}_warp<16>(items);
  out[threadIdx.x + 128] = ${r}_block(v);
  out[threadIdx.x + 160] = ${r}_block(v, valid);
  out[threadIdx.x + 192] = ${r}_block(items);
  out[threadIdx.x + 224] = ${r}_block<7, 9>(v);
  out[threadIdx.x + 256] = ${r}_block<3, 5, 7>(v, valid);
  out[threadIdx.x + 288] = ${r}_warp<4>(items, valid);
  out[threadIdx.x + 320] = ${r}_block(items, valid);
}
K
done
# A #pragma pack that the user's headers leave active ends with the
# generated files: code after them is laid out as usual.
cat <<'K'
struct gpugen_pack_probe { char c; int i; };
static_assert(sizeof(gpugen_pack_probe) == 2 * sizeof(int), "a #pragma pack of the spec's headers reaches past the generated files");
K
