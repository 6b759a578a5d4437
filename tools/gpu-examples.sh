#!/bin/sh
# The Make and CMake example projects on a GPU machine, which has nvcc but
# neither gpugen's build dependencies nor cmake:
#   tools/gpu-examples.sh build   # here: builds both into build/gpu-examples/
#   tools/gpu-examples.sh run     # there (carry build/gpu-examples): runs them
# Each program sums a bounding box of 2^20 points on the GPU and compares it
# with gpugen's CPU reference; it prints "GPU and CPU equal" and exits 0.
# cg-app (examples/cg) runs CG steps whose reductions over two arrays run on
# the GPU, each checked against the CPU fold; it prints "GPU and CPU agree".
set -eu
cd "$(dirname "$0")/.."
out=build/gpu-examples
case "${1:-}" in
build)
  rm -rf "$out" && mkdir -p "$out"
  cp -r examples/make "$out/make-project" && rm -rf "$out/make-project/gen"
  (cd "$out/make-project" && ../../../gpugen -o gen points.json && make GPUGEN="$PWD/../../../gpugen")
  cmake -S examples/cmake -B "$out/cmake-build" -G Ninja -Dgpugen_DIR="$PWD/cmake"
  cmake --build "$out/cmake-build"
  cp "$out/make-project/app" "$out/make-app" && cp "$out/cmake-build/app" "$out/cmake-app"
  # examples/cg: the CG steps' dot products from plain C (gcc -std=c11)
  ./gpugen -o "$out/cg" examples/cg/cg.json
  make -s -f tools/demo.mk OUT="$PWD/$out/cg" MODULE=cg cg_SPEC_DIR="$PWD/examples/cg/" "$PWD/$out/cg/demo_cg"
  cp "$out/cg/demo_cg" "$out/cg-app"
  echo "built $out/make-app, $out/cmake-app and $out/cg-app" ;;
run)
  status=0
  for app in make-app cmake-app cg-app; do
    echo "== $app"
    "$out/$app" | tee "$out/$app.log"
    grep -q 'GPU and CPU \(equal\|agree\)' "$out/$app.log" || { echo "FAIL $app"; status=1; }
  done
  exit $status ;;
*)
  echo "usage: tools/gpu-examples.sh build|run" >&2
  exit 2 ;;
esac
