#!/usr/bin/env bash
# There (a GPU machine with nvcc): every GPU check from the modules that
# tests/gpu/carry.sh generated into DIR. Prints one line per check and a
# closing "N passed, N failed". usage: [SANITIZE=0] tests/gpu/remote.sh DIR [BUILD]
set -u
cd "$(dirname "$0")/../.."
dir=$(cd "$1" && pwd)
build=${2:-/tmp/gpugen-gpu}
mkdir -p "$build"
# every build below in parallel: the reduction tests alone are ten nvcc runs,
# which one at a time take most of a 600 s device call
export MAKEFLAGS="${MAKEFLAGS:-} -j$(nproc)"
passed=0 failed=0
check() { # NAME COMMAND...: runs it, keeps its log, shows its last lines
  local name=$1
  shift
  if "$@" > "$build/$name.log" 2>&1; then passed=$((passed + 1)); echo "ok   $name"; else
    failed=$((failed + 1)); echo "FAIL $name"; fi
  tail -n 4 "$build/$name.log" | sed 's/^/     | /'
}
nvidia-smi -L
check device make -s -C tests/gpu GEN="$dir/gputest" BUILD="$build/device"
check reduce make -s -C tests/gpu/reduce GEN="$dir/reduce" BUILD="$build/reduce"
check memcheck-device compute-sanitizer --tool memcheck --error-exitcode 99 "$build/device/test_device"
[ "${SANITIZE:-1}" = 0 ] ||
  check memcheck-segmented compute-sanitizer --tool memcheck --error-exitcode 99 "$build/reduce/test_segmented" --small
[ "${SANITIZE:-1}" = 0 ] ||
  check memcheck-multi compute-sanitizer --tool memcheck --error-exitcode 99 "$build/reduce/test_multi" --small
[ "${SANITIZE:-1}" = 0 ] ||
  check memcheck-params compute-sanitizer --tool memcheck --error-exitcode 99 "$build/reduce/test_params" --small
[ "${SANITIZE:-1}" = 0 ] ||
  check racecheck-segmented compute-sanitizer --tool racecheck --error-exitcode 99 "$build/reduce/test_segmented" --small
# the device API's pieces in every shape: shared scratch and partial warps
[ "${SANITIZE:-1}" = 0 ] ||
  check racecheck-shapes compute-sanitizer --tool racecheck --error-exitcode 99 "$build/reduce/test_shapes" --only r_user_polyhash
[ "${SANITIZE:-1}" = 0 ] ||
  check synccheck-shapes compute-sanitizer --tool synccheck --error-exitcode 99 "$build/reduce/test_shapes" --only r_user_polyhash
# SANITIZE=0 leaves out the compute-sanitizer runs of the reductions (the longest part)
[ "${SANITIZE:-1}" = 0 ] || check sanitize env BUILD="$build/sanitize" tests/gpu/sanitize.sh "$dir/reduce"
check sass sh tests/gpu/sass_words.sh "$dir/gputest/exercise.cu" sm_90
# The fragments name the spec's directory where it was generated; here it is
# this checkout's (M_SPEC_DIR, see docs/integration.md).
check demo make -s -f tools/demo.mk OUT="$dir/demo" MODULE=mytypes mytypes_SPEC_DIR="$PWD/specs/"
check demo-maxsub make -s -f tools/demo.mk OUT="$dir/maxsub" MODULE=maxsub maxsub_SPEC_DIR="$PWD/examples/maxsub/" maxsub
check demo-rowstats make -s -f tools/demo.mk OUT="$dir/rowstats" MODULE=rowstats rowstats_SPEC_DIR="$PWD/examples/rowstats/" rowstats
check demo-cg make -s -f tools/demo.mk OUT="$dir/cg" MODULE=cg cg_SPEC_DIR="$PWD/examples/cg/" cg
# across GPUs: every way ranks start, on however many GPUs are here (1 included)
check nccl-build make -s -C tests/gpu/nccl GEN="$dir/nccl" BUILD="$build/nccl" "$build/nccl/test_nccl"
# The device path needs a window, which NCCL refuses on some machines (the
# 1-GPU H100s' system NCCL 2.28.3: "Communicator does not support symmetric
# memory"): there the check says so and tests the host path. Run
# tests/gpu/nccl/run.sh on 2 GPUs with a matching NCCL for the device path,
# or GPUGEN_WINDOW_OPTIONAL=0 to make a refused window a failure here too.
check nccl env BUILD="$build/nccl" GPUGEN_WINDOW_OPTIONAL="${GPUGEN_WINDOW_OPTIONAL:-1}" sh tests/gpu/nccl/run.sh
check demo-syncbn make -s -f tools/demo.mk OUT="$dir/syncbn" MODULE=syncbn syncbn_SPEC_DIR="$PWD/examples/syncbn/" syncbn
echo
echo "$passed passed, $failed failed"
