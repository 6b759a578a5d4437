#!/bin/sh
# nvcc compile time of the generated bench module against the same
# reductions written with CUB (cub_equiv.cu), for the same targets: the
# module's own -gencode flags. cub_equiv.cu is timed twice: against the
# toolkit's CUB and against the newest CCCL's headers (CCCL_INCLUDE, put in
# front with -I). Best of three runs each, alternating.
# usage: compile_time.sh GENDIR CCCL_INCLUDE
set -e
gen=$1
cccl=$2
here=$(dirname "$0")
gencode=$(sed -n 's/^bench_GENCODE := //p' "$gen/bench.mk")
# One timed nvcc run: FILE INCLUDES... (fails if nvcc does: a failed build
# must not be timed as a fast one)
seconds() {
  file=$1; shift
  s=$(date +%s.%N)
  nvcc -std=c++17 -O3 $gencode "$@" -c -o /dev/null "$file" >&2 || return 1
  e=$(date +%s.%N)
  awk -v s="$s" -v e="$e" 'BEGIN { print e - s }'
}
min() { awk -v a="$1" -v b="$2" 'BEGIN { print (b == "" || a < b) ? a : b }'; }
# CUB's version as the preprocessor sees it with INCLUDES..., e.g. 3.0.1
cub_version() {
  printf '#include <cub/version.cuh>\nint cub_version = CUB_VERSION;\n' |
    nvcc -std=c++17 -E -x cu "$@" - 2>/dev/null | grep -v "^#" | tr '\n' ' ' |
    sed -n 's/.*int cub_version = *\([0-9]*\).*/\1/p' |
    awk '{ v = $1; printf "%d.%d.%d\n", int(v / 100000), int(v / 100) % 1000, v % 100 }'
}
# The three alternate, so that a machine whose speed drifts (a shared VM)
# slows all alike; best of three each.
g=""; c=""; n=""
for i in 1 2 3; do
  t=$(seconds "$gen/bench.cu" -I"$gen" -I"$here") || { echo "nvcc failed on $gen/bench.cu" >&2; exit 1; }
  g=$(min "$t" "$g")
  t=$(seconds "$here/cub_equiv.cu" -I"$here") || { echo "nvcc failed on $here/cub_equiv.cu" >&2; exit 1; }
  c=$(min "$t" "$c")
  t=$(seconds "$here/cub_equiv.cu" -I"$cccl" -I"$here") ||
    { echo "nvcc failed on $here/cub_equiv.cu with $cccl" >&2; exit 1; }
  n=$(min "$t" "$n")
done
cv=$(cub_version)
nv=$(cub_version -I"$cccl")
echo "targets:$gencode"
printf 'gpugen module (9 reductions): %6.2f s\n' "$g"
printf 'CUB %s equivalent (8 reductions): %6.2f s\n' "$cv" "$c"
printf 'CUB %s equivalent (8 reductions): %6.2f s\n' "$nv" "$n"
awk -v g="$g" -v c="$c" -v v="$cv" 'BEGIN { printf "ratio against CUB %s: %.2f (target <= 0.33)\n", v, g / c }'
awk -v g="$g" -v c="$n" -v v="$nv" 'BEGIN { printf "ratio against CUB %s: %.2f (target <= 0.33)\n", v, g / c }'
