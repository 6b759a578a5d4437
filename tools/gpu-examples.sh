#!/bin/sh
# The Make and CMake example projects on a GPU machine, which has nvcc but
# neither gpugen's build dependencies nor cmake:
#   tools/gpu-examples.sh build   # here: builds both into build/gpu-examples/
#   tools/gpu-examples.sh run     # there (carry build/gpu-examples): runs them
# Each program sums a bounding box of 2^20 points on the GPU and compares it
# with gpugen's CPU reference; it prints "GPU and CPU equal" and exits 0.
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
  echo "built $out/make-app and $out/cmake-app" ;;
run)
  status=0
  for app in make-app cmake-app; do
    echo "== $app"
    "$out/$app" | tee "$out/$app.log"
    grep -q 'GPU and CPU equal' "$out/$app.log" || { echo "FAIL $app"; status=1; }
  done
  exit $status ;;
*)
  echo "usage: tools/gpu-examples.sh build|run" >&2
  exit 2 ;;
esac
