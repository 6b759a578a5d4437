#!/bin/sh
# A/B runs of the segmented bench: builds of the generator's segmented
# kernels, each linked with the same bench object, run alternately in one
# lease and compared by their least time (bench/RESULTS.md's method since
# session 17). $AB is the directory to carry to the GPU machine
# (.gpucarry-ab unless set: tests/gpu/carry.sh empties the directory it is
# given, often .gpucarry); objects go beside it, in $AB.build.
#
#   sh bench/segmented_ab.sh build NAME
#       here (needs ./gpugen): generates bench_segmented.json with the
#       working tree's gpugen into $AB.build/gen_NAME, compiles its module
#       (ptxas -v into $AB/NAME.ptxas.txt) and links $AB/bs_NAME. The bench
#       object is built once, against the pinned CCCL, and again when
#       bench_segmented.cu or a header of its own is newer.
#   sh bench/segmented_ab.sh run RUNS "NAME ..." [SHAPES]
#       on the GPU machine: RUNS rounds, each build once a round, in the
#       order given in odd rounds and reversed in even ones (on an H100 the
#       second of two builds of the same kernels timed up to 4 % slower at
#       2^22 elements in every round, session 29), into
#       $AB/NAME.ROUND.csv and .txt (SHAPES: bench_segmented's list, such
#       as L=256,power-law; all shapes without it); with $OUT set, the
#       results also go to $OUT/ab.tgz.
#   python3 bench/segmented_ab.py $AB BASE,NAME ...
set -e
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
AB=${AB:-$root/.gpucarry-ab}
ARCH=${ARCH:-sm_90}
NVCC=${NVCC:-nvcc}
usage() {
  echo "usage: segmented_ab.sh build NAME | run RUNS \"NAME ...\" [SHAPES]" >&2
  exit 1
}
case "$1" in
build)
  [ $# -eq 2 ] || usage
  name=$2
  case "$name" in *[!A-Za-z0-9_-]* | "") echo "segmented_ab.sh: a build's name is letters, digits, _ and -" >&2; exit 1 ;; esac
  objects=$AB.build
  gen=$objects/gen_$name
  mkdir -p "$AB" "$objects"
  rm -rf "$gen"
  (cd "$here" && "$root/gpugen" -o "$gen" bench_segmented.json)
  if [ ! -f "$objects/main.o" ] || [ -n "$(find "$here/bench_segmented.cu" "$here/segmented_inputs.cuh" "$here/segmented_bench.cuh" "$here/event_timer.cuh" "$here/skewed_offsets.h" -newer "$objects/main.o")" ]; then
    cccl=$(sh "$here/fetch_cccl.sh")
    "$NVCC" -std=c++17 -O3 -arch="$ARCH" -I"$cccl" -I"$gen" -I"$here" -c -o "$objects/main.o" \
      "$here/bench_segmented.cu"
  fi
  "$NVCC" -std=c++17 -O3 -arch="$ARCH" -I"$gen" -I"$here" -Xptxas -v -c -o "$objects/$name.o" "$gen/benchseg.cu" \
    2> "$AB/$name.ptxas.txt" || { cat "$AB/$name.ptxas.txt" >&2; exit 1; }
  "$NVCC" -arch="$ARCH" -o "$AB/bs_$name" "$objects/main.o" "$objects/$name.o"
  echo "$AB/bs_$name"
  ;;
run)
  [ $# -eq 3 ] || [ $# -eq 4 ] || usage
  runs=$2 names=$3 shapes=${4:-}
  case "$runs" in *[!0-9]* | "" | 0) echo "segmented_ab.sh: RUNS is a count of rounds" >&2; exit 1 ;; esac
  for name in $names; do
    [ -x "$AB/bs_$name" ] || { echo "segmented_ab.sh: no $AB/bs_$name (build it first)" >&2; exit 1; }
  done
  cd "$AB"
  failed=0
  round=1
  reversed=
  for name in $names; do reversed="$name $reversed"; done
  while [ "$round" -le "$runs" ]; do
    order=$names
    [ $((round % 2)) -eq 0 ] && order=$reversed
    for name in $order; do
      if [ -n "$shapes" ]; then
        "./bs_$name" "$name.$round.csv" "$shapes" > "$name.$round.txt" 2>&1 || failed=1
      else
        "./bs_$name" "$name.$round.csv" > "$name.$round.txt" 2>&1 || failed=1
      fi
    done
    round=$((round + 1))
  done
  if [ -n "${OUT:-}" ]; then
    tar czf "$OUT/ab.tgz" ./*.csv ./*.txt
  fi
  [ "$failed" -eq 0 ] || { echo "segmented_ab.sh: a run failed; see $AB/*.txt" >&2; exit 1; }
  ;;
*)
  usage
  ;;
esac
