#!/bin/sh
# nvcc compile time of the generated bench module against the same
# reductions written with CUB (cub_equiv.cu), for the same targets: the
# module's own -gencode flags. Best of three runs each.
# usage: compile_time.sh GENDIR
set -e
gen=$1
here=$(dirname "$0")
gencode=$(sed -n 's/^bench_GENCODE := //p' "$gen/bench.mk")
best() { # FILE INCLUDES...
  file=$1; shift
  b=""
  for i in 1 2 3; do
    s=$(date +%s.%N)
    nvcc -std=c++17 -O3 $gencode "$@" -c -o /dev/null "$file"
    e=$(date +%s.%N)
    t=$(awk -v s="$s" -v e="$e" 'BEGIN { print e - s }')
    if [ -z "$b" ] || awk -v t="$t" -v b="$b" 'BEGIN { exit !(t < b) }'; then b=$t; fi
  done
  echo "$b"
}
g=$(best "$gen/bench.cu" -I"$gen" -I"$here")
c=$(best "$here/cub_equiv.cu" -I"$here")
echo "targets:$gencode"
printf 'gpugen module (9 reductions): %6.2f s\n' "$g"
printf 'CUB equivalent (8 reductions): %6.2f s\n' "$c"
awk -v g="$g" -v c="$c" 'BEGIN { printf "ratio: %.2f (target <= 0.33)\n", g / c }'
