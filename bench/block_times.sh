#!/bin/sh
# Builds bench/block_times.cu against bench_segmented.json's module with
# per-block phase stamps (block_times.py), here, for a run on the GPU
# machine (bench/RESULTS.md, session 31, shows what it finds).
#
#   sh bench/block_times.sh DIR
#       needs ./gpugen and nvcc: generates the module into DIR/gen, stamps
#       it and links DIR/block_times (ARCH, sm_90 unless set; NVCC).
#   DIR/block_times isum|fsum|welford|maxsub power-law|giant|L=LENGTH LOG2_N
#       on the GPU machine.
set -e
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
ARCH=${ARCH:-sm_90}
NVCC=${NVCC:-nvcc}
[ $# -eq 1 ] || { echo "usage: block_times.sh DIR" >&2; exit 2; }
mkdir -p "$1"
dir=$(cd "$1" && pwd)
rm -rf "$dir/gen"
(cd "$here" && "$root/gpugen" -o "$dir/gen" bench_segmented.json)
python3 "$here/block_times.py" "$dir/gen"
"$NVCC" -std=c++17 -O3 -arch="$ARCH" -I"$dir/gen" -I"$here" -o "$dir/block_times" "$here/block_times.cu" "$dir/gen/benchseg.cu"
echo "$dir/block_times"
