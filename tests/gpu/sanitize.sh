#!/usr/bin/env bash
# The reduction tests under compute-sanitizer: memcheck (with the leak check),
# racecheck, initcheck and synccheck, one line per tool.
#
# usage: tests/gpu/sanitize.sh [--build-only] [GEN]
#   GEN: a directory holding r_signed/ r_unsigned/ ... generated here by
#        ../../gpugen (the GPU machine cannot run gpugen); without it the
#        modules are generated with ./gpugen.
# Environment: BUILD (default build/gpu-sanitize), ARCH (default sm_90),
#   SANITIZER (the compute-sanitizer binary; found on PATH or beside nvcc),
#   TOOLS (default "memcheck racecheck initcheck synccheck"),
#   STRIDE_<tool> (run every K-th reduction case; defaults below),
#   TIMEOUT (seconds per tool, default 480).
# Runs `test_reduce --small`: n up to 2^18+3, two repeats, no 2^31 case, and
# every argument check (NULL pointers, small temp_bytes, misaligned pointers).
# Exit status 0 when every tool reports 0 errors and every check passed.
set -u
cd "$(dirname "$0")/../.."
build_only=false
if [ "${1:-}" = --build-only ]; then build_only=true; shift; fi
BUILD=${BUILD:-$PWD/build/gpu-sanitize}
ARCH=${ARCH:-sm_90}
TOOLS=${TOOLS:-memcheck racecheck initcheck synccheck}
TIMEOUT=${TIMEOUT:-480}
gen_arg=()
[ $# -gt 0 ] && gen_arg=(GEN="$(cd "$1" && pwd)")

# -lineinfo: sanitizer reports name source lines; -O3 as in the normal run.
if ! log=$(make -s -j"$(nproc)" -C tests/gpu/reduce BUILD="$BUILD" ARCH="$ARCH" EXTRA_NVFLAGS=-lineinfo "${gen_arg[@]}" \
    "$BUILD/test_reduce" 2>&1); then
  printf '%s\n' "$log"
  echo "sanitize: build FAILED"
  exit 1
fi
echo "sanitize: built $BUILD/test_reduce ($ARCH, -lineinfo)"
$build_only && exit 0

# SANITIZER names it; else PATH, then beside nvcc, then the usual CUDA places.
sanitizer=${SANITIZER:-$(command -v compute-sanitizer)}
nvcc_dir=$(dirname "$(command -v nvcc 2>/dev/null || echo /usr/local/cuda/bin/nvcc)")
for c in "$nvcc_dir/compute-sanitizer" "$nvcc_dir/../compute-sanitizer/compute-sanitizer" \
         /usr/local/cuda/bin/compute-sanitizer /usr/local/cuda/compute-sanitizer/compute-sanitizer; do
  [ -z "$sanitizer" ] && [ -x "$c" ] && sanitizer=$c
done
if [ -z "$sanitizer" ]; then
  echo "sanitize: compute-sanitizer not found (set SANITIZER=/path/to/compute-sanitizer)"
  exit 1
fi
echo "sanitize: $sanitizer ($("$sanitizer" --version 2>&1 | grep -m1 -o 'Version [0-9.]*'))"
failed=0
for tool in $TOOLS; do
  # racecheck tracks every shared-memory access: the slowest, so fewer cases.
  case $tool in
    memcheck) stride=${STRIDE_memcheck:-1}; extra=(--leak-check full) ;;
    racecheck) stride=${STRIDE_racecheck:-4}; extra=() ;;
    initcheck) stride=${STRIDE_initcheck:-2}; extra=() ;;
    synccheck) stride=${STRIDE_synccheck:-2}; extra=() ;;
    *) echo "sanitize: unknown tool '$tool'"; exit 2 ;;
  esac
  out=$BUILD/sanitize-$tool.log
  start=$(date +%s)
  timeout "$TIMEOUT" "$sanitizer" --tool "$tool" "${extra[@]}" --error-exitcode 99 \
    "$BUILD/test_reduce" --small --stride "$stride" > "$out" 2>&1
  status=$?
  secs=$(( $(date +%s) - start ))
  summary=$(grep -a 'ERROR SUMMARY' "$out" | tail -1 | sed 's/^=* *//')
  checks=$(grep -a '^reduce: [0-9]* passed' "$out" | tail -1)
  if [ $status -eq 0 ] && [ -n "$checks" ] && printf '%s' "$checks" | grep -q ', 0 failed$'; then
    echo "ok   $tool: ${summary:-no summary} | ${checks#reduce: } | cases: every $stride | ${secs} s"
  else
    failed=$((failed + 1))
    why="exit $status"
    [ $status -eq 124 ] && why="timed out after $TIMEOUT s"
    [ $status -eq 99 ] && why="sanitizer errors"
    echo "FAIL $tool: $why | ${summary:-no summary} | ${checks:-no test summary} | ${secs} s | log: $out"
    grep -a -m 20 '^========= \(Invalid\|Error\|Race\|Uninitialized\|Barrier\|Leaked\|    at\)' "$out" | sed 's/^/     | /'
  fi
done
exit $((failed > 0))
