#!/usr/bin/env bash
# gpugen's test driver. usage: tests/run.sh SUITE...   (all = every suite)
# Suites: unit golden errors cli compile valgrind gpu bench
# Prints "ok"/"FAIL" per check and closes with "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
ROOT=$PWD
GPUGEN=$ROOT/gpugen
WORK=$(mktemp -d "${TMPDIR:-/tmp}/gpugen-test.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
passed=0
failed=0
skipped=0

ok() { passed=$((passed + 1)); echo "ok   $1"; }
fail() {
  failed=$((failed + 1))
  echo "FAIL $1"
  [ $# -gt 1 ] && printf '%s\n' "$2" | sed 's/^/     | /' | head -40
  return 0
}
# A listing of every file under a directory with its checksum and mtime.
snapshot() { (cd "$1" && find . -type f -exec stat -c '%n %Y' {} + | sort && find . -type f -exec md5sum {} + | sort); }

suite_unit() {
  for t in build/tests/test_*; do
    out=$("$t" 2>&1)
    status=$?
    n=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p')
    if [ $status -eq 0 ]; then
      passed=$((passed + ${n:-0}))
      echo "ok   unit $(basename "$t") (${n:-0} tests)"
    else
      fail "unit $(basename "$t")" "$out"
    fi
  done
}

# tests/golden/NAME.json -> tests/golden/NAME/ (the expected files).
suite_golden() {
  for spec in tests/golden/*.json; do
    name=$(basename "$spec" .json)
    # inside the repository, so the relative #include paths are the same in every clone
    out=$ROOT/build/golden/$name
    rm -rf "$out"
    if ! err=$(cd tests/golden && "$GPUGEN" -o "$out" "$name.json" 2>&1); then
      fail "golden $name: gpugen failed" "$err"
      continue
    fi
    if [ "${UPDATE:-}" = 1 ]; then
      rm -rf "tests/golden/$name" && cp -r "$out" "tests/golden/$name"
      echo "updated tests/golden/$name"
      continue
    fi
    if d=$(diff -ru "tests/golden/$name" "$out" 2>&1); then
      ok "golden $name"
    else
      fail "golden $name (run 'make golden-update' if the change is intended)" "$d"
    fi
    # A second run changes nothing: same bytes, files not rewritten.
    before=$(snapshot "$out")
    sleep 1
    (cd tests/golden && "$GPUGEN" -o "$out" "$name.json") >/dev/null 2>&1
    if [ "$before" = "$(snapshot "$out")" ]; then ok "golden $name: rerun leaves files untouched"; else
      fail "golden $name: rerun rewrote files"; fi
  done
}

# tests/errors/NAME.json (bad specs) and tests/headers/NAME.json (bad user
# headers) -> NAME.err: exit status 1, exactly that message, and the output
# directory unchanged.
suite_errors() {
  for spec in tests/errors/*.json tests/headers/*.json; do
    dir=$(dirname "$spec")
    name=$(basename "$spec" .json)
    out=$WORK/errors/$name
    mkdir -p "$out"
    echo "keep me" > "$out/user-file.txt"
    cp tests/golden/basic/basic.h "$out/m.h"
    before=$(snapshot "$out")
    # NAME.env, when present, holds VAR=value lines for this case
    extra_env=()
    [ -f "$dir/$name.env" ] && mapfile -t extra_env < "$dir/$name.env"
    msg=$(cd "$dir" && env "${extra_env[@]}" "$GPUGEN" -o "$out" "$name.json" 2>&1)
    status=$?
    if [ "${UPDATE:-}" = 1 ]; then
      printf '%s\n' "$msg" > "$dir/$name.err"
      echo "updated $dir/$name.err"
      continue
    fi
    if [ $status -ne 1 ]; then
      fail "errors $dir/$name: exit status $status, expected 1" "$msg"
    elif ! d=$(diff -u "$dir/$name.err" <(printf '%s\n' "$msg")); then
      fail "errors $dir/$name: message differs" "$d"
    elif [ "$before" != "$(snapshot "$out")" ]; then
      fail "errors $dir/$name: output directory changed"
    else
      ok "errors $dir/$name"
    fi
  done
}

expect_status() { # NAME WANT COMMAND...
  local name=$1 want=$2
  shift 2
  out=$("$@" 2>&1)
  local got=$?
  if [ "$got" = "$want" ]; then ok "cli $name"; else fail "cli $name: exit $got, expected $want" "$out"; fi
}

suite_cli() {
  expect_status "--help exits 0" 0 "$GPUGEN" --help
  expect_status "--version exits 0" 0 "$GPUGEN" --version
  expect_status "no spec is a usage error" 2 "$GPUGEN"
  expect_status "unknown option is a usage error" 2 "$GPUGEN" --frobnicate specs/mytypes.json
  expect_status "two specs is a usage error" 2 "$GPUGEN" specs/mytypes.json specs/mytypes.json
  expect_status "-o without a directory is a usage error" 2 "$GPUGEN" specs/mytypes.json -o
  expect_status "missing spec file exits 1" 1 "$GPUGEN" -o "$WORK/none" no/such/spec.json

  "$GPUGEN" --check -o "$WORK/check" specs/mytypes.json
  if [ $? -eq 0 ] && [ ! -e "$WORK/check" ]; then ok "cli --check writes nothing"; else fail "cli --check writes nothing"; fi

  # A copied binary works from another directory: the templates are inside.
  mkdir -p "$WORK/elsewhere" && cp "$GPUGEN" "$WORK/elsewhere/gpugen-copy"
  if (cd "$WORK/elsewhere" && ./gpugen-copy -o gen "$ROOT/specs/mytypes.json") && [ -f "$WORK/elsewhere/gen/mytypes.cuh" ]; then
    ok "cli copied binary works from any directory"
  else
    fail "cli copied binary works from any directory"
  fi

  # Same spec, other -o: identical bytes apart from the relative include.
  "$GPUGEN" -o "$WORK/det1" specs/mytypes.json && "$GPUGEN" -o "$WORK/det2" specs/mytypes.json
  if cmp -s "$WORK/det1/mytypes.cuh" "$WORK/det2/mytypes.cuh"; then ok "cli output is deterministic"; else
    fail "cli output is deterministic"; fi

  # Only changed files are rewritten.
  touch -d '2000-01-01' "$WORK/det1/mytypes.cu" "$WORK/det1/mytypes.cuh"
  printf '/* stale */\n' > "$WORK/det1/mytypes.mk"
  "$GPUGEN" -o "$WORK/det1" specs/mytypes.json
  if [ "$(stat -c %Y "$WORK/det1/mytypes.cu")" = "$(date -d 2000-01-01 +%s)" ] &&
     cmp -s "$WORK/det1/mytypes.mk" "$WORK/det2/mytypes.mk"; then
    ok "cli rewrites only changed files"
  else
    fail "cli rewrites only changed files"
  fi

  # A user header where gpugen would write its own file: error, header kept.
  mkdir -p "$WORK/clash"
  printf '/* user header */ typedef struct A { int x; } A;\n' > "$WORK/clash/clash.h"
  printf '{"gpugen": 1, "module": "clash", "headers": ["clash.h"], "targets": ["sm_80"], "types": [{"name": "A", "fields": [{"name": "x", "type": "int"}]}]}\n' > "$WORK/clash/clash.json"
  out=$("$GPUGEN" -o "$WORK/clash" "$WORK/clash/clash.json" 2>&1)
  if [ $? -eq 1 ] && grep -q 'user header' "$WORK/clash/clash.h" && printf '%s' "$out" | grep -q "choose another -o"; then
    ok "cli refuses to overwrite a user header"
  else
    fail "cli refuses to overwrite a user header" "$out"
  fi

  # The JSON Schema for editors accepts every good spec and rejects a bad shape.
  if python3 -c 'import jsonschema' 2>/dev/null; then
    if log=$(python3 - specs/mytypes.json tests/golden/*.json tests/gpu/gputest.json <<'PY' 2>&1
import json, sys, jsonschema
schema = json.load(open("docs/spec.schema.json"))
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)
bad = [f for f in sys.argv[1:] if list(validator.iter_errors(json.load(open(f))))]
assert not bad, "rejected: %s" % bad
assert list(validator.iter_errors(json.load(open("tests/errors/bad_shapes.json")))), "accepted bad_shapes.json"
PY
    ); then ok "cli docs/spec.schema.json matches the good and bad specs"; else fail "cli docs/spec.schema.json" "$log"; fi
  else
    skipped=$((skipped + 1))
    echo "skipped: docs/spec.schema.json check (python3 jsonschema not installed)"
  fi

  # A GPU-only operator: generation succeeds with a note, not silently.
  out=$(cd tests/golden && "$GPUGEN" -o "$WORK/tagged" tagged.json 2>&1)
  if [ $? -eq 0 ] && [ "$out" = "tagged.json: note: reductions[0]: 'range' runs on the GPU only, so no CPU reference tagged_range_host is emitted" ]; then
    ok "cli a __device__-only operator gets a note about the CPU reference"
  else
    fail "cli a __device__-only operator gets a note about the CPU reference" "$out"
  fi

  # gpugen init: a skeleton from a header that passes --check, and no overwriting.
  rm -f "$WORK/init.json"
  if out=$("$GPUGEN" init -o "$WORK/init.json" -I specs/include specs/mytypes.h SumSq Particle 2>&1) &&
     "$GPUGEN" --check "$WORK/init.json" && grep -q '"count": 3' "$WORK/init.json"; then
    ok "cli init writes a spec skeleton that passes --check"
  else
    fail "cli init writes a spec skeleton that passes --check" "$out"
  fi
  expect_status "init refuses to overwrite" 1 "$GPUGEN" init -o "$WORK/init.json" specs/mytypes.h SumSq
  expect_status "init of an unknown type exits 1" 1 "$GPUGEN" init -I specs/include specs/mytypes.h Nope

  # An unwritable output directory: exit 1, nothing changed, no temp files.
  # (root ignores permissions, so use a path whose parent is a file)
  : > "$WORK/not-a-dir"
  expect_status "unwritable output directory exits 1" 1 "$GPUGEN" -o "$WORK/not-a-dir/out" specs/mytypes.json
  if [ "$(find "$WORK" -name '*.gpugen-*' | wc -l)" = 0 ]; then ok "cli leaves no temporary files"; else
    fail "cli leaves no temporary files"; fi
}

# Every golden spec and the example: the output compiles with nvcc for every
# target with warnings as errors, the C header with gcc -std=c11, and each
# shuffle is exactly one shfl.sync per word of its plan.
suite_compile() {
  for spec in specs/mytypes.json examples/maxsub/maxsub.json tests/golden/*.json tests/gpu/gputest.json tests/gpu/reduce/*.json; do
    name=$(basename "$spec" .json)
    out=$WORK/compile/$name/out
    work=$WORK/compile/$name/work
    mkdir -p "$work"
    if ! err=$("$GPUGEN" -o "$out" "$spec" 2>&1); then fail "compile $name: gpugen failed" "$err"; continue; fi
    module=$(sed -n 's/^\([A-Za-z0-9_]*\)_DIR := .*/\1/p' "$out"/*.mk)
    if log=$(make -s -j2 -f tests/compile/check.mk OUT="$out" MODULE="$module" WORK="$work" 2>&1); then
      ok "compile $name: nvcc -Werror for every target, gcc -std=c11, g++"
    else
      fail "compile $name" "$log"
      continue
    fi
    if log=$(tests/compile/ptx_words.sh "$out/$module.cuh" "$work/exercise.ptx"); then
      ok "compile $name: one shfl.sync per planned word, no local memory"
    else
      fail "compile $name: PTX" "$log"
    fi
  done

  # The tuning rule, run on the CPU from plain C.
  local cuda_home
  cuda_home=$(dirname "$(dirname "$(command -v nvcc)")")
  out=$WORK/compile/basic/out
  if log=$(nvcc -c -o "$WORK/basic.o" "$out/basic.cu" -I"$out" 2>&1 &&
      gcc -std=c11 -Wall -Werror -I"$cuda_home/include" -I"$out" -c -o "$WORK/tuning.o" tests/compile/tuning_basic.c 2>&1 &&
      g++ -o "$WORK/tuning" "$WORK/tuning.o" "$WORK/basic.o" -L"$cuda_home/lib64" -lcudart 2>&1 && "$WORK/tuning" 2>&1); then
    ok "compile basic: run-time tuning picks the largest tuned target not above the device"
  else
    fail "compile basic: run-time tuning rule" "$log"
  fi

  # The static_asserts are the second line of defence: a header edited after
  # generation (libclang checked the old one) fails to compile.
  mkdir -p "$WORK/mismatch"
  cp tests/compile/mismatch/mismatch.json "$WORK/mismatch/"
  printf 'typedef struct SumSq { int sum; long long sumsq; } SumSq;\n' > "$WORK/mismatch/mismatch.h"
  "$GPUGEN" -o "$WORK/mismatch/out" "$WORK/mismatch/mismatch.json"
  cp tests/compile/mismatch/mismatch.h "$WORK/mismatch/mismatch.h"
  log=$(printf '#include "mismatch.h"\n' | gcc -std=c11 -I"$cuda_home/include" -I"$WORK/mismatch/out" -x c -c -o /dev/null - 2>&1)
  if [ $? -ne 0 ] && printf '%s' "$log" | grep -q 'SumSq: size differs from the spec' &&
     printf '%s' "$log" | grep -q 'SumSq.sumsq: size differs from the spec'; then
    ok "compile mismatch: static_asserts reject a header edited after generation"
  else
    fail "compile mismatch: static_asserts did not fire" "$log"
  fi
}

suite_valgrind() {
  if ! command -v valgrind >/dev/null; then fail "valgrind is not installed (make deps)"; return; fi
  local vg="valgrind -q --leak-check=full --show-leak-kinds=all --errors-for-leak-kinds=all --error-exitcode=99 --suppressions=tests/valgrind.supp"
  for spec in specs/mytypes.json tests/golden/*.json tests/errors/*.json tests/headers/*.json; do
    out=$($vg "$GPUGEN" --check "$spec" 2>&1 >/dev/null)
    if [ $? -eq 99 ]; then fail "valgrind $spec" "$out"; else ok "valgrind $spec"; fi
  done
  out=$($vg "$GPUGEN" -o "$WORK/vg" specs/mytypes.json 2>&1)
  if [ $? -eq 0 ]; then ok "valgrind writing files"; else fail "valgrind writing files" "$out"; fi
}

suite_gpu() {
  if ! nvidia-smi -L >/dev/null 2>&1; then
    skipped=$((skipped + 1))
    echo "skipped: no GPU (GPU tests run with 'make test-gpu' on a machine with one)"
    return
  fi
  local dir label
  for dir in tests/gpu tests/gpu/reduce; do
    label=$(basename "$dir")
    if log=$(make -s -C "$dir" BUILD="$WORK/$label" 2>&1); then
      printf '%s\n' "$log" | grep -v '^ok'
      n=$(printf '%s\n' "$log" | sed -n 's/^[a-z]*: \([0-9]*\) passed, 0 failed$/\1/p')
      if [ -n "$n" ]; then passed=$((passed + n)); else fail "$dir: no summary line" "$log"; fi
    else
      fail "$dir" "$log"
    fi
  done
}

# bench/: report.py against made-up runs whose report is known
# (tests/bench/report/), and fetch_cccl.sh's checks of the pinned wheel, on a
# fake wheel (no network: pip runs only when the wheel is missing).
suite_bench() {
  local dir=$WORK/bench/report
  mkdir -p "$dir"
  cp tests/bench/report/*.csv "$dir/"
  if out=$(python3 bench/report.py "$dir" 2>&1); then
    for f in table.md all.csv; do
      if d=$(diff -u "tests/bench/report/expected/$f" "$dir/$f" 2>&1); then ok "bench report.py: $f"; else
        fail "bench report.py: $f differs from tests/bench/report/expected/$f" "$d"; fi
    done
  else
    fail "bench report.py failed" "$out"
  fi

  local fetch=$WORK/bench/fetch
  mkdir -p "$fetch/.cccl"
  cp bench/fetch_cccl.sh "$fetch/"
  local wheel=nvidia_cuda_cccl-0.0.1-py3-none-manylinux2014_x86_64.whl
  python3 -c 'import sys, zipfile
z = zipfile.ZipFile(sys.argv[1], "w")
z.writestr("nvidia/cu13/include/cccl/cub/version.cuh", "#define CUB_VERSION 999999\n")
z.writestr("nvidia/cuda_cccl-0.0.1.dist-info/METADATA", "Name: nvidia-cuda-cccl\n")' "$fetch/.cccl/$wheel"
  python3 -c 'import sys, zipfile
zipfile.ZipFile(sys.argv[1], "w").writestr("nvidia/other/x.h", "")' "$fetch/no-headers.whl"
  local sha bad
  sha=$(sha256sum "$fetch/.cccl/$wheel" | cut -d' ' -f1)
  bad=$(printf '%s' "$sha" | tr 0-9a-f 1-9a-f0)
  printf 'CCCL_WHEEL_VERSION=0.0.1\nCCCL_WHEEL_FILE=%s\nCCCL_WHEEL_SHA256=%s\n' "$wheel" "$sha" > "$fetch/cccl.pin"
  if out=$(sh "$fetch/fetch_cccl.sh" 2>&1) && [ "$out" = "$fetch/.cccl/0.0.1/include" ] &&
    grep -q 999999 "$fetch/.cccl/0.0.1/include/cub/version.cuh" && [ -f "$fetch/.cccl/0.0.1/checked" ] &&
    [ ! -e "$fetch/.cccl/0.0.1/include/nvidia" ]; then
    ok "bench fetch_cccl.sh: a cached wheel with the pinned hash is unpacked offline"
  else
    fail "bench fetch_cccl.sh: cached wheel" "$out"
  fi
  printf 'CCCL_WHEEL_VERSION=0.0.1\nCCCL_WHEEL_FILE=%s\nCCCL_WHEEL_SHA256=%s\n' "$wheel" "$bad" > "$fetch/cccl.pin"
  out=$(sh "$fetch/fetch_cccl.sh" 2>&1)
  if [ $? -eq 1 ] && [ "$out" = "fetch_cccl.sh: $fetch/.cccl/$wheel has sha256 $sha, cccl.pin pins $bad" ]; then
    ok "bench fetch_cccl.sh: a wheel with another hash is refused"
  else
    fail "bench fetch_cccl.sh: another hash" "$out"
  fi
  mv "$fetch/no-headers.whl" "$fetch/.cccl/x.whl"
  sha=$(sha256sum "$fetch/.cccl/x.whl" | cut -d' ' -f1)
  printf 'CCCL_WHEEL_VERSION=0.0.2\nCCCL_WHEEL_FILE=x.whl\nCCCL_WHEEL_SHA256=%s\n' "$sha" > "$fetch/cccl.pin"
  out=$(sh "$fetch/fetch_cccl.sh" 2>&1)
  if [ $? -eq 1 ] && [ "$out" = "fetch_cccl.sh: no nvidia/cu13/include/cccl/ in $fetch/.cccl/x.whl" ] &&
    [ ! -e "$fetch/.cccl/0.0.2/include" ]; then
    ok "bench fetch_cccl.sh: a wheel without CCCL's headers is refused"
  else
    fail "bench fetch_cccl.sh: no headers" "$out"
  fi
}

suites=("$@")
[ ${#suites[@]} -eq 0 ] || [ "${suites[0]}" = all ] && suites=(unit golden errors cli compile valgrind gpu bench)
for s in "${suites[@]}"; do
  echo "== $s"
  "suite_$s"
done
echo
if [ $skipped -gt 0 ]; then
  echo "$passed passed, $failed failed, $skipped skipped"
else
  echo "$passed passed, $failed failed"
fi
[ $failed -eq 0 ]
