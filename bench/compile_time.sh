#!/bin/sh
# nvcc compile time of the generated bench module against the same
# reductions written with CUB (cub_equiv.cu), for the same targets: the
# module's own -gencode flags. Best of three runs each, alternating.
# usage: compile_time.sh GENDIR
set -e
gen=$1
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
# The two alternate, so that a machine whose speed drifts (a shared VM)
# slows both alike; best of three each.
g=""; c=""
for i in 1 2 3; do
  t=$(seconds "$gen/bench.cu" -I"$gen" -I"$here") || { echo "nvcc failed on $gen/bench.cu" >&2; exit 1; }
  g=$(min "$t" "$g")
  t=$(seconds "$here/cub_equiv.cu" -I"$here") || { echo "nvcc failed on $here/cub_equiv.cu" >&2; exit 1; }
  c=$(min "$t" "$c")
done
echo "targets:$gencode"
printf 'gpugen module (9 reductions): %6.2f s\n' "$g"
printf 'CUB equivalent (8 reductions): %6.2f s\n' "$c"
awk -v g="$g" -v c="$c" 'BEGIN { printf "ratio: %.2f (target <= 0.33)\n", g / c }'
