#!/usr/bin/env bash
# gpugen's test driver. usage: tests/run.sh SUITE...   (all = every suite)
# Suites: unit golden errors cli output limits fuzz compile valgrind gpu bench
# Prints "ok"/"FAIL" per check and closes with "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
ROOT=$PWD
# GPUGEN and BUILD may come from the environment (make test-sanitize: build-san/).
GPUGEN=${GPUGEN:-$ROOT/gpugen}
BUILD=${BUILD:-build}
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
# A second argument names files to leave out (a find -name pattern).
snapshot() {
  (cd "$1" && find . -type f ! -name "${2:-/}" -exec stat -c '%n %s %Y' {} + | sort &&
    find . -type f ! -name "${2:-/}" -exec md5sum {} + | sort)
}

suite_unit() {
  for t in "$BUILD"/tests/test_*; do
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
    # A second run rewrites no generated file (same bytes, same mtimes); only
    # the stamp, which build rules depend on, is renewed.
    before=$(snapshot "$out" '*.stamp')
    stamp_before=$(stat -c %Y "$out"/*.stamp)
    sleep 1
    (cd tests/golden && "$GPUGEN" -o "$out" "$name.json") >/dev/null 2>&1
    if [ "$before" = "$(snapshot "$out" '*.stamp')" ]; then ok "golden $name: rerun leaves files untouched"; else
      fail "golden $name: rerun rewrote files"; fi
    if [ "$(stat -c %Y "$out"/*.stamp)" -gt "$stamp_before" ]; then ok "golden $name: rerun renews the stamp"; else
      fail "golden $name: rerun did not renew the stamp"; fi
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
  # every name of a pool that gpugen accepts must compile (tests/compile/names.py)
  local names_spec=$WORK/names.json
  if ! log=$(python3 tests/compile/names.py "$GPUGEN" "$names_spec" 2>&1); then fail "compile names.py" "$log"; fi
  echo "     $log"
  for spec in specs/mytypes.json examples/maxsub/maxsub.json tests/golden/*.json tests/gpu/gputest.json tests/gpu/reduce/*.json "$names_spec"; do
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

# The fuzz target (make fuzz-build) replays every file of tests/fuzz/corpus and
# tests/fuzz/regressions, and every spec of the repository, once, with no
# fuzzing: one ok per file that ran clean under ASan + UBSan and the target's
# own checks.
repository_specs() { git ls-files '*.json' 2>/dev/null | grep -v '^docs/\|^tests/fuzz/'; }
suite_fuzz() {
  local fuzzer=build-fuzz/fuzz_spec files log n
  if [ ! -x "$fuzzer" ]; then fail "fuzz: $fuzzer is not built (make fuzz-build)"; return; fi
  files=()
  for f in tests/fuzz/corpus/* tests/fuzz/regressions/* $(repository_specs); do [ -f "$f" ] && files+=("$f"); done
  log=$(cd "$WORK" && UBSAN_OPTIONS=print_stacktrace=1 "$ROOT/$fuzzer" -timeout=10 -rss_limit_mb=2048 "${files[@]/#/$ROOT/}" 2>&1)
  local status=$?
  n=$(printf '%s\n' "$log" | grep -c '^Executed ')
  if [ $status -eq 0 ] && [ "$n" = ${#files[@]} ]; then
    passed=$((passed + n))
    echo "ok   fuzz: ${#files[@]} inputs replayed clean"
  else
    fail "fuzz: $(printf '%s\n' "$log" | sed -n 's/^Running: //p' | tail -1) (exit $status)" \
      "$(printf '%s\n' "$log" | grep -v '^Running: \|^Executed ' | tail -30)"
  fi
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

# The output set is a transaction: refused paths, rollback, kill -9, and two
# writers at once (gen/output.c).
no_temps() { [ "$(find "$1" -name '.*.gpugen-*' | wc -l)" = 0 ]; }
suite_output() {
  local w=$WORK/output spec=specs/mytypes.json before
  mkdir -p "$w"
  # An output path that is a directory, a FIFO or a symlink: refused before
  # anything is written, and nothing hangs.
  for kind in dir fifo devzero dangling; do
    rm -rf "$w/$kind" && "$GPUGEN" -o "$w/$kind" "$spec"
    echo 'old' > "$w/$kind/mytypes.h"
    rm -f "$w/$kind/mytypes.cu"
    case $kind in
      dir) mkdir "$w/$kind/mytypes.cu" ;;
      fifo) mkfifo "$w/$kind/mytypes.cu" ;;
      devzero) ln -s /dev/zero "$w/$kind/mytypes.cu" ;;
      dangling) ln -s "$w/nowhere" "$w/$kind/mytypes.cu" ;;
    esac
    before=$(snapshot "$w/$kind")
    msg=$(timeout 20 "$GPUGEN" -o "$w/$kind" "$spec" 2>&1)
    status=$?
    if [ $status = 1 ] && [ "$before" = "$(snapshot "$w/$kind")" ] && no_temps "$w/$kind" &&
       printf '%s' "$msg" | grep -q 'mytypes.cu: error: it is .*; gpugen replaces only regular files'; then
      ok "output: an output path that is a $kind is refused, nothing changed"
    else
      fail "output: an output path that is a $kind (exit $status)" "$msg"
    fi
  done

  # A rename that fails half-way through the commit: the files renamed
  # before it are rolled back.
  for k in 1 2 3 4 5; do
    rm -rf "$w/roll" && "$GPUGEN" -o "$w/roll" "$spec"
    for f in "$w"/roll/mytypes.*; do echo "/* old */" >> "$f"; done
    before=$(snapshot "$w/roll")
    msg=$(GPUGEN_TEST_FAIL_RENAME=$k "$GPUGEN" -o "$w/roll" "$spec" 2>&1)
    status=$?
    if [ $status = 1 ] && [ "$before" = "$(snapshot "$w/roll")" ] && no_temps "$w/roll"; then
      ok "output: rename $k of 5 fails: every file rolled back, no temporaries"
    else
      fail "output: rename $k of 5 fails (exit $status)" "$msg"
    fi
  done
  # A fresh directory that fails half-way is removed again.
  msg=$(GPUGEN_TEST_FAIL_RENAME=3 "$GPUGEN" -o "$w/fresh/sub" "$spec" 2>&1)
  if [ $? = 1 ] && [ ! -e "$w/fresh" ]; then ok "output: a failed first run leaves no directory behind"; else
    fail "output: a failed first run leaves no directory behind" "$msg"; fi

  # The output directory reaches the spec's own directory through a symlink:
  # the user's header is an input, so it is never overwritten.
  mkdir -p "$w/user"
  printf 'typedef struct A { int x; } A;\n' > "$w/user/pair.h"
  printf '{"gpugen": 1, "module": "pair", "headers": ["pair.h"], "targets": ["sm_80"], "types": [{"name": "A", "fields": [{"name": "x", "type": "int"}]}]}\n' > "$w/user/pair.json"
  ln -sfn "$w/user" "$w/link"
  before=$(snapshot "$w/user")
  msg=$("$GPUGEN" -o "$w/link" "$w/user/pair.json" 2>&1)
  if [ $? = 1 ] && [ "$before" = "$(snapshot "$w/user")" ] && printf '%s' "$msg" | grep -q "is the input"; then
    ok "output: a symlinked -o that reaches the user's header is refused"
  else
    fail "output: a symlinked -o that reaches the user's header" "$msg"
  fi

  # kill -9 at random moments while a large module is written: every file
  # is the old or the new version, whole; the next run repairs the set and
  # leaves no temporaries.
  python3 tests/output/make_spec.py 300 big 0 > "$w/old.json"
  python3 tests/output/make_spec.py 300 big 1 > "$w/new.json"
  "$GPUGEN" -o "$w/ref_old" "$w/old.json" && "$GPUGEN" -o "$w/ref_new" "$w/new.json"
  # the delays spread over one whole run, measured here
  local t0 t1 run_ms torn=0 mixed=0 i f base nnew
  rm -rf "$w/k" && cp -a "$w/ref_old" "$w/k"
  t0=$(date +%s%N); "$GPUGEN" -o "$w/k" "$w/new.json"; t1=$(date +%s%N)
  run_ms=$(( (t1 - t0) / 1000000 + 1 ))
  for i in $(seq 1 30); do
    rm -rf "$w/k" && cp -a "$w/ref_old" "$w/k"
    "$GPUGEN" -o "$w/k" "$w/new.json" & local pid=$!
    sleep "$(awk -v ms=$(( RANDOM % run_ms )) 'BEGIN { printf "%.3f", ms / 1000 }')"
    kill -9 $pid 2>/dev/null
    wait $pid 2>/dev/null
    nnew=0
    for f in "$w"/ref_old/big.*; do
      base=$(basename "$f")
      if cmp -s "$w/k/$base" "$w/ref_new/$base"; then nnew=$((nnew + 1)); elif ! cmp -s "$w/k/$base" "$f"; then
        torn=$((torn + 1)); fi
    done
    [ $nnew -gt 0 ] && [ $nnew -lt 5 ] && mixed=$((mixed + 1))
  done
  if [ $torn = 0 ]; then ok "output: 30 kills over a ${run_ms} ms run tear no file ($mixed left a mix of old and new)"; else
    fail "output: $torn files torn by kill -9"; fi

  # A kill between two renames (the first file new, the rest old, the stamp
  # old): the next run completes the set and removes the leftovers.
  rm -rf "$w/k" && cp -a "$w/ref_old" "$w/k"
  GPUGEN_TEST_RENAME_DELAY_MS=300 "$GPUGEN" -o "$w/k" "$w/new.json" & pid=$!
  for i in $(seq 1 200); do cmp -s "$w/k/big.h" "$w/ref_new/big.h" && break; sleep 0.02; done
  kill -9 $pid 2>/dev/null
  wait $pid 2>/dev/null
  local state
  state=$(cmp -s "$w/k/big.h" "$w/ref_new/big.h" && cmp -s "$w/k/big.cuh" "$w/ref_old/big.cuh" &&
          cmp -s "$w/k/big.stamp" "$w/ref_old/big.stamp" && ! no_temps "$w/k" && echo mixed)
  "$GPUGEN" -o "$w/k" "$w/new.json"
  if [ "$state" = mixed ] && diff -r "$w/k" "$w/ref_new" >/dev/null && no_temps "$w/k" && tests/output/stamp_check.py "$w/k"; then
    ok "output: after a kill between two renames, the next run repairs the set and removes the leftovers"
  else
    fail "output: repair after a kill between two renames (state after the kill: '${state}')" "$(diff -r "$w/k" "$w/ref_new" | head; ls -a "$w/k")"
  fi

  # Two writers on one directory take turns: the set is one run's, whole.
  rm -rf "$w/two"
  for i in 1 2 3 4 5; do
    "$GPUGEN" -o "$w/two" "$w/old.json" & local p1=$!
    "$GPUGEN" -o "$w/two" "$w/new.json" & local p2=$!
    wait $p1 $p2
    if ! msg=$(tests/output/stamp_check.py "$w/two" 2>&1) || ! no_temps "$w/two"; then
      fail "output: two writers at once" "$msg"
      return
    fi
  done
  ok "output: two writers at once, 5 times: each set whole and consistent with its stamp"
}

# Documented limits and hostile paths (tests/limits/): the inputs are made at
# test time (tests/limits/make_cases.py), the messages are kept in NAME.err;
# each exits 1 with exactly that message and leaves the output directory as
# it was.
suite_limits() {
  local w=$WORK/limits name msg status out before
  mkdir -p "$w/cases"
  python3 tests/limits/make_cases.py "$w/cases"
  mkfifo "$w/cases/fifo.json"
  mkdir -p "$w/cases/directory.json"
  for expected in tests/limits/*.err; do
    name=$(basename "$expected" .err)
    out=$w/out/$name
    mkdir -p "$out" && echo "keep me" > "$out/user-file.txt" && cp tests/golden/basic/basic.h "$out/m.h"
    before=$(snapshot "$out")
    case $name in
      path_devnull) msg=$(cd "$w/cases" && timeout 60 "$GPUGEN" -o "$out" /dev/null 2>&1) ;;
      *) msg=$(cd "$w/cases" && timeout 60 "$GPUGEN" -o "$out" "$name.json" 2>&1) ;;
    esac
    status=$?
    if [ $status != 1 ]; then
      fail "limits $name: exit $status, expected 1" "$msg"
    elif ! d=$(diff -u "$expected" <(printf '%s\n' "$msg")); then
      fail "limits $name: message differs" "$d"
    elif [ "$before" != "$(snapshot "$out")" ]; then
      fail "limits $name: output directory changed"
    else
      ok "limits $name"
    fi
  done
  # 60 include directories, the header found through the last: nothing dropped
  if msg=$(cd "$w/cases" && "$GPUGEN" -o "$w/out/include60" include60.json 2>&1) &&
     [ -f "$w/out/include60/through_dirs.h" ]; then
    ok "limits 60 include directories are all searched"
  else
    fail "limits 60 include directories are all searched" "$msg"
  fi
  # -o is a file, a dangling symlink, or under a file: exit 1, nothing written
  : > "$w/a-file"
  ln -sfn "$w/nowhere" "$w/dangling"
  for o in "$w/a-file" "$w/dangling" "$w/a-file/sub"; do
    msg=$("$GPUGEN" -o "$o" specs/mytypes.json 2>&1)
    if [ $? = 1 ] && printf '%s' "$msg" | grep -q ': error: cannot use it as the output directory: ' &&
       [ ! -e "$w/nowhere" ] && [ -f "$w/a-file" ] && [ ! -s "$w/a-file" ]; then
      ok "limits -o $(basename "$o") is refused"
    else
      fail "limits -o $(basename "$o")" "$msg"
    fi
  done
  # time and memory grow linearly with the spec
  if msg=$(python3 tests/output/scaling.py "$GPUGEN" "$w" 2>&1); then ok "limits linear: $msg"; else
    fail "limits linear" "$msg"; fi
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
[ ${#suites[@]} -eq 0 ] || [ "${suites[0]}" = all ] && suites=(unit golden errors cli output limits fuzz compile valgrind gpu bench)
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
