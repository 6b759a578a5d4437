#!/usr/bin/env bash
# gpugen's test driver. usage: tests/run.sh SUITE...   (all = every suite)
# Suites: unit golden errors cli explain output fuzz plans limits integration install resources compile hygiene
# valgrind gpu bench; "check" is the quick tier (the first seven), "all" every suite
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
    out=$ROOT/build/golden/$name
    rm -rf "$out"
    if ! err=$(cd tests/golden && "$GPUGEN" -o "$out" "$name.json" 2>&1); then
      fail "golden $name: gpugen failed" "$err"
      continue
    fi
    # <module>.mk names the spec's directory absolutely (so the output can
    # move); the expected files hold @ROOT@ for this checkout's path, and the
    # stamp's size and hash of the .mk, which hold the path too, are left out.
    norm=$ROOT/build/golden/$name.expected
    rm -rf "$norm" && cp -r "$out" "$norm"
    sed -i "s|$ROOT/|@ROOT@/|g" "$norm"/*
    sed -i -E 's/^([^ ]*\.mk) [0-9]+ [0-9a-f]+$/\1 (size and hash hold the checkout path)/' "$norm"/*.stamp
    if [ "${UPDATE:-}" = 1 ]; then
      rm -rf "tests/golden/$name" && cp -r "$norm" "tests/golden/$name"
      echo "updated tests/golden/$name"
      continue
    fi
    if d=$(diff -ru "tests/golden/$name" "$norm" 2>&1); then
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

  # NCCL is named only by modules that ask for it ("nccl": true): the
  # others must build where NCCL is not installed.
  local quiet=0
  for spec in specs/mytypes.json examples/maxsub/maxsub.json examples/rowstats/rowstats.json tests/golden/*.json; do
    case $(basename "$spec") in nccl.json | nccl_allreduce.json) continue ;; esac
    "$GPUGEN" -q -o "$WORK/nonccl/$(basename "$spec" .json)" "$spec" || fail "cli $spec: gpugen failed"
  done
  if hits=$(grep -ril nccl "$WORK/nonccl"); then fail "cli a module without \"nccl\" names NCCL" "$hits"; else
    ok "cli a module without \"nccl\" never names NCCL"; fi
  "$GPUGEN" -q -o "$WORK/withnccl" tests/golden/nccl.json
  if grep -q '^#include <nccl.h>' "$WORK/withnccl/xgpu.h" && grep -q '^xgpu_LDLIBS := -lnccl$' "$WORK/withnccl/xgpu.mk"; then
    ok "cli \"nccl\": true includes nccl.h and links -lnccl"
  else
    fail "cli \"nccl\": true includes nccl.h and links -lnccl"
  fi

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
  if [ $? -eq 1 ] && grep -q 'user header' "$WORK/clash/clash.h" && printf '%s' "$out" | grep -q "has the file name of gpugen's output clash.h"; then
    ok "cli refuses to overwrite a user header"
  else
    fail "cli refuses to overwrite a user header" "$out"
  fi

  # The JSON Schema for editors agrees with the checker: it accepts every good
  # spec, and it rejects each of tests/schema/*.json, which gpugen rejects too.
  # (tools/install-deps.sh installs python3-jsonschema, so this never skips.)
  local good=(specs/mytypes.json tests/golden/*.json tests/gpu/gputest.json tests/gpu/reduce/*.json
              examples/make/points.json examples/maxsub/maxsub.json)
  if log=$(python3 - "${good[@]}" <<'PY' 2>&1
import glob, json, sys, jsonschema
schema = json.load(open("docs/spec.schema.json"))
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)
problems = ["good spec rejected: %s: %s" % (f, next(validator.iter_errors(json.load(open(f)))).message)
            for f in sys.argv[1:] if list(validator.iter_errors(json.load(open(f))))]
bad = sorted(glob.glob("tests/schema/*.json")) + ["tests/errors/bad_shapes.json"]
problems += ["bad spec accepted: %s" % f for f in bad if not list(validator.iter_errors(json.load(open(f))))]
assert len(bad) > 10, bad
assert not problems, "\n".join(problems)
PY
  ); then ok "cli docs/spec.schema.json accepts ${#good[@]} good specs and rejects every tests/schema spec"; else
    fail "cli docs/spec.schema.json" "$log"; fi
  local rejected=0 spec
  for spec in tests/schema/*.json; do
    out=$("$GPUGEN" --check "$spec" 2>&1)
    if [ $? -eq 1 ]; then rejected=$((rejected + 1)); else fail "cli gpugen accepts $spec, which the schema rejects" "$out"; fi
  done
  [ $rejected -gt 0 ] && ok "cli gpugen --check rejects all $rejected tests/schema specs too"

  # -q leaves out notes; errors still show.
  out=$(cd tests/golden && "$GPUGEN" -q -o "$WORK/tagged-q" tagged.json 2>&1)
  if [ $? -eq 0 ] && [ -z "$out" ]; then ok "cli -q leaves out the note"; else fail "cli -q leaves out the note" "$out"; fi
  expect_status "-q and -v together is a usage error" 2 "$GPUGEN" -q -v specs/mytypes.json

  # --depfile: rewritten on every run (new time) while unchanged outputs keep
  # theirs; never over an input; nothing with --check.
  rm -rf "$WORK/dep" && "$GPUGEN" -o "$WORK/dep" --depfile "$WORK/dep/m.d" specs/mytypes.json
  touch -d '2000-01-01' "$WORK/dep/m.d" "$WORK/dep/mytypes.h"
  "$GPUGEN" -o "$WORK/dep" --depfile "$WORK/dep/m.d" specs/mytypes.json
  if [ "$(stat -c %Y "$WORK/dep/m.d")" -gt "$(date -d 2001-01-01 +%s)" ] &&
     [ "$(stat -c %Y "$WORK/dep/mytypes.h")" = "$(date -d 2000-01-01 +%s)" ] &&
     grep -q "^$WORK/dep/mytypes.stamp \\\\$" "$WORK/dep/m.d" && grep -qxF -e " $ROOT/specs/usertypes.h" -e " $ROOT/specs/usertypes.h \\" "$WORK/dep/m.d" &&
     grep -qxF "$ROOT/specs/usertypes.h:" "$WORK/dep/m.d"; then
    ok "cli --depfile is rewritten every run, the stamp first, the headers listed; unchanged outputs keep their time"
  else
    fail "cli --depfile is rewritten every run" "$(cat "$WORK/dep/m.d")"
  fi
  cp tests/golden/basic.json "$WORK/dep/spec-copy.json"
  out=$("$GPUGEN" -o "$WORK/dep2" --depfile "$WORK/dep/spec-copy.json" "$WORK/dep/spec-copy.json" 2>&1)
  if [ $? -eq 1 ] && cmp -s tests/golden/basic.json "$WORK/dep/spec-copy.json" && [ ! -e "$WORK/dep2" ] &&
     printf '%s' "$out" | grep -q "is one of gpugen's inputs or outputs"; then
    ok "cli --depfile over the spec is refused, nothing written"
  else
    fail "cli --depfile over the spec is refused" "$out"
  fi
  out=$("$GPUGEN" -o "$WORK/dep3" --depfile "$WORK/dep3/basic.stamp" tests/golden/basic.json 2>&1)
  if [ $? -eq 1 ] && [ ! -e "$WORK/dep3" ] && printf '%s' "$out" | grep -q "is one of gpugen's inputs or outputs"; then
    ok "cli --depfile over the stamp is refused, nothing written"
  else
    fail "cli --depfile over the stamp is refused" "$out"
  fi
  out=$("$GPUGEN" -o "$WORK/dep:4" --depfile "$WORK/dep4.d" tests/golden/basic.json 2>&1)
  if [ $? -eq 1 ] && [ ! -e "$WORK/dep:4" ] && [ ! -e "$WORK/dep4.d" ] &&
     printf '%s' "$out" | grep -q "has a ':', which a depfile cannot hold"; then
    ok "cli --depfile with an output path holding ':' is refused, nothing written"
  else
    fail "cli --depfile with an output path holding ':'" "$out"
  fi
  "$GPUGEN" --check --depfile "$WORK/check-dep.d" specs/mytypes.json
  if [ ! -e "$WORK/check-dep.d" ]; then ok "cli --check writes no depfile"; else fail "cli --check writes no depfile"; fi

  # A GPU-only operator: generation succeeds with a note, not silently.
  out=$(cd tests/golden && "$GPUGEN" -o "$WORK/tagged" tagged.json 2>&1)
  if [ $? -eq 0 ] && [ "$out" = "tagged.json: note: reductions[0]: 'range' runs on the GPU only, so no CPU reference tagged_range_host is emitted" ]; then
    ok "cli a __device__-only operator gets a note about the CPU reference"
  else
    fail "cli a __device__-only operator gets a note about the CPU reference" "$out"
  fi

  # A header found through include_dirs (as #include "NAME" with -I would):
  # the module builds with the fragment's include flags.
  mkdir -p "$WORK/viainc/spec/inc"
  printf 'typedef struct Far { int x; } Far;\n' > "$WORK/viainc/spec/inc/far_types.h"
  printf '{"gpugen": 1, "module": "via", "headers": ["far_types.h"], "include_dirs": ["inc"], "targets": ["sm_80"], "types": [{"name": "Far", "fields": [{"name": "x", "type": "int"}]}]}\n' > "$WORK/viainc/spec/via.json"
  local cuda_inc
  cuda_inc=$(dirname "$(dirname "$(command -v nvcc)")")/include
  if out=$("$GPUGEN" -o "$WORK/viainc/out" "$WORK/viainc/spec/via.json" 2>&1) &&
     out=$(printf '#include "via.h"\n' | gcc -std=c11 -I"$cuda_inc" -I"$WORK/viainc/out" -I"$WORK/viainc/spec" \
           -I"$WORK/viainc/spec/inc" -x c -c -o /dev/null - 2>&1); then
    ok "cli a header found through include_dirs"
  else
    fail "cli a header found through include_dirs" "$out"
  fi

  # gpugen init: a skeleton from a header that passes --check, and no overwriting.
  rm -f "$WORK/init.json"
  if out=$("$GPUGEN" init -o "$WORK/init.json" -I specs/include specs/usertypes.h SumSq Particle 2>&1) &&
     "$GPUGEN" --check "$WORK/init.json" && grep -q '"count": 3' "$WORK/init.json"; then
    ok "cli init writes a spec skeleton that passes --check"
  else
    fail "cli init writes a spec skeleton that passes --check" "$out"
  fi
  # CUDA's vector types stay builtin, base class fields come first (tests/golden/cxx_types.h)
  rm -f "$WORK/init_cxx.json"
  if out=$("$GPUGEN" init -o "$WORK/init_cxx.json" tests/golden/cxx_types.h Tracked 2>&1) &&
     "$GPUGEN" --check -q "$WORK/init_cxx.json" &&
     [ "$(grep -o '"name": "[a-z]*", "type": "[a-z0-9]*"' "$WORK/init_cxx.json" | tr '\n' ' ')" = \
       '"name": "weight", "type": "float" "name": "count", "type": "int" "name": "total", "type": "double" "name": "last", "type": "float2" ' ]; then
    ok "cli init of a C++ class: base fields first, float2 as CUDA's type, passes --check"
  else
    fail "cli init of a C++ class: base fields first, float2 as CUDA's type, passes --check" "$out$(cat "$WORK/init_cxx.json" 2>/dev/null)"
  fi
  rm -f "$WORK/init_cxx.json"
  expect_status "init refuses to overwrite" 1 "$GPUGEN" init -o "$WORK/init.json" specs/usertypes.h SumSq
  expect_status "init of an unknown type exits 1" 1 "$GPUGEN" init -I specs/include specs/usertypes.h Nope
  # init keeps its promise on every struct of every header in the suites
  mkdir -p "$WORK/init-every"
  if out=$(python3 tests/init/every_header.py "$GPUGEN" "$WORK/init-every" 2>&1); then
    ok "cli init on every header's every struct: $out"
  else
    fail "cli init on every header's every struct" "$out"
  fi

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
  for spec in specs/mytypes.json examples/maxsub/maxsub.json examples/rowstats/rowstats.json examples/cg/cg.json tests/golden/*.json tests/gpu/gputest.json tests/gpu/reduce/*.json "$names_spec"; do
    name=$(basename "$spec" .json)
    out=$WORK/compile/$name/out
    work=$WORK/compile/$name/work
    mkdir -p "$work"
    if ! err=$("$GPUGEN" -o "$out" "$spec" 2>&1); then fail "compile $name: gpugen failed" "$err"; continue; fi
    module=$(sed -n 's/^\([A-Za-z0-9_]*\)_DIR := .*/\1/p' "$out"/*.mk)
    # the GPU tests' modules are built for every target where they run (tests/gpu/remote.sh); without a GPU,
    # for sm_90 alone: the golden and example modules cover every target's -Werror build
    local gencode=() targets="every target"
    case $spec in
      tests/gpu/*) if ! nvidia-smi -L >/dev/null 2>&1; then
          gencode=(GENCODE="-gencode arch=compute_90,code=sm_90"); targets="sm_90 (no GPU here)"; fi ;;
    esac
    if log=$(make -s -j2 -f tests/compile/check.mk OUT="$out" MODULE="$module" WORK="$work" "${gencode[@]}" 2>&1); then
      ok "compile $name: nvcc -Werror for $targets, gcc -std=c11, g++"
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

  # The table of SM limits that the spec check and the kernels' launch
  # bounds use, against the installed ptxas (tests/compile/sm_limits.sh).
  if log=$(tests/compile/sm_limits.sh "$WORK/compile/small_blocks/out/small.cu" "$WORK/sm_limits" 2>&1); then
    ok "compile: gpugen's blocks and threads an SM are what ptxas accepts, for every architecture nvcc builds"
  else
    fail "compile: SM limits" "$log"
  fi

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

  # The NCCL forms link with the fragment's -lnccl and run their host-side
  # checks without a GPU. NCCL ships with the CUDA Toolkit; without it the
  # check says why it is skipped.
  out=$WORK/compile/nccl/out
  if [ ! -f "$cuda_home/include/nccl.h" ] && ! printf '#include <nccl.h>\n' | gcc -E -x c - >/dev/null 2>&1; then
    skipped=$((skipped + 1))
    echo "skip compile nccl: link and run: no nccl.h in $cuda_home/include or the compiler's paths (tools/install-deps.sh)"
  elif log=$(nvcc -c -o "$WORK/xgpu.o" "$out/xgpu.cu" -I"$out" -Itests/golden 2>&1 &&
      gcc -std=c11 -pedantic -Wall -Werror -I"$cuda_home/include" -I"$out" -Itests/golden -c -o "$WORK/nccl_link.o" \
        tests/compile/nccl_link.c 2>&1 &&
      g++ -o "$WORK/nccl_link" "$WORK/nccl_link.o" "$WORK/xgpu.o" -L"$cuda_home/lib64" \
        $(sed -n 's/^xgpu_LDLIBS := //p' "$out/xgpu.mk") -lcudart 2>&1 &&
      LD_LIBRARY_PATH="$cuda_home/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$WORK/nccl_link" 2>&1); then
    ok "compile nccl: C11 links the NCCL forms with the fragment's -lnccl; bad arguments refused without a GPU"
  else
    fail "compile nccl: link and run" "$log"
  fi

  # A logical warp whose width is not a power of two from 1 to 32 stops the
  # compilation with one message (docs/emitted.md, "For your own kernels").
  out=$WORK/compile/r_user/out
  for width in 7 9 0 64; do
    log=$(printf '#include "r_user.cuh"\n__global__ void k(Hash *p) { p[threadIdx.x] = r_user_polyhash_warp<%d>(p[threadIdx.x]); }\n' "$width" |
      nvcc -std=c++17 -x cu -I"$out" -Itests/gpu/reduce -c -o /dev/null - 2>&1)
    if [ $? -ne 0 ] && [ "$(printf '%s' "$log" | grep -c 'error:')" = 1 ] &&
       printf '%s' "$log" | grep -q "gpugen: a logical warp's width must be a power of two from 1 to 32"; then
      ok "compile warp width $width: refused by a static_assert with its message"
    else
      fail "compile warp width $width: not refused as documented" "$log"
    fi
  done

  # The static_asserts are the second line of defence: a header edited after
  # generation (libclang checked the old one) fails to compile.
  mkdir -p "$WORK/mismatch"
  cp tests/compile/mismatch/mismatch.json "$WORK/mismatch/"
  printf 'typedef struct SumSq { int sum; long long sumsq; } SumSq;\n' > "$WORK/mismatch/mismatch_types.h"
  "$GPUGEN" -o "$WORK/mismatch/out" "$WORK/mismatch/mismatch.json"
  cp tests/compile/mismatch/mismatch_types.h "$WORK/mismatch/mismatch_types.h"
  log=$(printf '#include "mismatch.h"\n' | gcc -std=c11 -I"$cuda_home/include" -I"$WORK/mismatch/out" -I"$WORK/mismatch" -x c -c -o /dev/null - 2>&1)
  if [ $? -ne 0 ] && printf '%s' "$log" | grep -q 'SumSq: size differs from the spec' &&
     printf '%s' "$log" | grep -q 'SumSq.sumsq: size differs from the spec'; then
    ok "compile mismatch: static_asserts reject a header edited after generation"
  else
    fail "compile mismatch: static_asserts did not fire" "$log"
  fi

  # random valid specs: generated, built with nvcc and gcc -Werror, and their
  # CPU references checked against tests/property's own model (a fixed
  # sample here; make fuzz-compile runs more)
  if log=$(python3 tests/property/property.py --gpugen "$GPUGEN" --work "$WORK/property" --seed 1 --count 3 2>&1); then
    ok "compile $log"
  else
    fail "compile property test" "$log"
  fi
}

# The commands a make run printed that build something (gpugen, cc, nvcc),
# one per line with the program and its output file, for comparing.
made() { sed -n -e 's/^[^ ]*gpugen .*/gpugen/p' -e 's/^cc .* -o \([^ ]*\) .*/cc \1/p' \
  -e 's/^nvcc .* -o \([^ ]*\) .*/nvcc \1/p' -e 's/^nvcc -o \([^ ]*\) .*/nvcc \1/p'; }

# A user project under make (examples/make): the fragment's rules regenerate
# and rebuild exactly what an edit needs. DIR is where the project is copied.
make_project() { # LABEL DIR
  local label=$1 dir=$2 log got
  rm -rf "$dir" && mkdir -p "$(dirname "$dir")" && cp -r examples/make "$dir"
  rm -rf "$dir/gen" "$dir"/*.o "$dir"/*.d "$dir/app"
  if ! log=$(cd "$dir" && "$GPUGEN" -o gen points.json 2>&1 && make GPUGEN="$GPUGEN" 2>&1); then
    fail "integration $label: first build" "$log"; return
  fi
  got=$(printf '%s\n' "$log" | made | LC_ALL=C sort | tr '\n' ' ')
  want="cc main.o gpugen nvcc app nvcc gen/points.o "
  if [ "$got" = "$want" ]; then ok "integration $label: first build (one more gpugen run writes the depfile)"; else
    fail "integration $label: first build ran: $got; expected $want" "$log"; fi
  step() { # WHAT EXPECTED-COMMANDS
    local status
    log=$(cd "$dir" && make GPUGEN="$GPUGEN" 2>&1)
    status=$?
    got=$(printf '%s\n' "$log" | made | LC_ALL=C sort | tr '\n' ' ')
    if [ $status -eq 0 ] && [ "$got" = "$2" ]; then ok "integration $label: $1"; else
      fail "integration $label: $1 ran: '$got'; expected '$2'" "$log"; fi
  }
  step "touching nothing runs nothing" ""
  sleep 1
  touch "$dir/geometry.h"
  step "touching the spec's header regenerates and rebuilds" "cc main.o gpugen nvcc app nvcc gen/points.o "
  step "touching nothing runs nothing, again" ""
  sleep 1
  touch "$dir/include/geometry_macros.h"
  step "touching a header from include_dirs regenerates and rebuilds" "cc main.o gpugen nvcc app nvcc gen/points.o "
  sleep 1
  sed -i 's/"items_per_thread": 8/"items_per_thread": 4/' "$dir/points.json"
  step "a tuning change rebuilds the module's object, not main.o" "gpugen nvcc app nvcc gen/points.o "
  rm "$dir/gen/points.cu"
  step "a deleted generated file is generated again (new, so its object is rebuilt)" "gpugen nvcc app nvcc gen/points.o "
  # a half-written module: the stamp is older than an input, so the next build repairs it
  printf '/* cut short */\n' > "$dir/gen/points.cuh"
  touch -d '2000-01-01' "$dir/gen/points.stamp"
  step "a run cut short (stamp older than the spec) is redone" "gpugen nvcc app nvcc gen/points.o "
  step "then nothing runs" ""
  # explain's numbers are the generated code's: temp bytes and the tuning
  # each target's devices get, asked from the built module on the CPU.
  local cuda_home expected
  cuda_home=$(dirname "$(dirname "$(command -v nvcc)")")
  printf '#include <stdio.h>\n#include "points.h"\nint main(void) {\n  printf("temp_bytes %%zu\\n", points_bounds_temp_bytes(0));\n  int archs[] = {80, 86, 90, 100};\n  for (int i = 0; i < 4; i++) { points_tuning t = points_tuning_for_arch(archs[i]); printf("%%d %%d %%d %%d\\n", archs[i], t.block, t.items_per_thread, t.min_blocks_per_sm); }\n  return 0;\n}\n' > "$dir/ask.c"
  expected=$(cd "$dir" && "$GPUGEN" explain --json points.json | python3 -c '
import json, sys
doc = json.load(sys.stdin)
r = doc["reductions"][0]
print("temp_bytes %d" % r["temp_bytes"])
by_target = {int(t["target"][3:5]): t for t in r["tuning"]}
for arch in (80, 86, 90, 100):
    t = by_target[max(a for a in by_target if a <= arch)]
    print(arch, t["block"], t["items_per_thread"], t["min_blocks_per_sm"])')
  if log=$(cd "$dir" && cc -std=c11 -I"$cuda_home/include" -Igen -I. -Iinclude -o ask ask.c gen/points.o \
        -L"$cuda_home/lib64" -lcudart_static -lpthread -ldl -lrt -lstdc++ -lm 2>&1 && ./ask 2>&1) && [ "$log" = "$expected" ]; then
    ok "integration $label: explain's temp bytes and tuning are what the built module returns"
  else
    fail "integration $label: explain against the built module" "got: $log"$'\n'"explain: $expected"
  fi
}

# The output directory moved elsewhere still builds with the fragment's flags.
relocate_check() {
  local out=$WORK/reloc/first log
  rm -rf "$WORK/reloc" && mkdir -p "$WORK/reloc"
  "$GPUGEN" -q -o "$out" --depfile "$out/points.d" examples/make/points.json
  mv "$out" "$WORK/reloc/moved"
  printf 'include moved/points.mk\nall: $(points_OBJECTS) c.o\nc.o: c.c\n\tcc -std=c11 -I%s $(points_INCLUDES) -c -o $@ $<\n' \
    "$(dirname "$(dirname "$(command -v nvcc)")")/include" > "$WORK/reloc/Makefile"
  printf '#include "points.h"\nint f(void) { return (int)sizeof(Box); }\n' > "$WORK/reloc/c.c"
  if log=$(make -C "$WORK/reloc" GPUGEN=/bin/false 2>&1) && [ -f "$WORK/reloc/moved/points.o" ] &&
     ! grep -rq '\.\./' "$WORK/reloc/moved/points.h"; then
    ok "integration a moved output directory builds (nvcc and cc), no ../ include"
  else
    fail "integration a moved output directory builds" "$log"
  fi
}

suite_integration() {
  relocate_check
  make_project "make" "$WORK/project"
  # a spec directory with a space and a '#'
  make_project "make, spec directory 'my project #2'" "$WORK/my project #2"
  # characters make or the shell would read as syntax are refused, by name
  mkdir -p "$WORK/dollar\$dir" && cp examples/make/points.json examples/make/geometry.h "$WORK/dollar\$dir/" &&
    cp -r examples/make/include "$WORK/dollar\$dir/"
  out=$("$GPUGEN" -o "$WORK/dollar-out" "$WORK/dollar\$dir/points.json" 2>&1)
  if [ $? -eq 1 ] && printf '%s' "$out" | grep -q "the spec's directory '.*dollar\$dir/' has a character that a Make fragment cannot carry"; then
    ok "integration a spec directory with '\$' is refused with its name"
  else
    fail "integration a spec directory with '\$' is refused with its name" "$out"
  fi
}

# examples/cmake configured and built with GENERATOR against the gpugen
# package in PACKAGE_DIR (a source checkout's cmake/ or an installed prefix);
# without a GPU it stops at compile and link.
cmake_example() { # LABEL GENERATOR SOURCE_DIR BUILD_DIR CMAKE-ARGS...
  local label=$1 gen=$2 src=$3 build=$4 log
  shift 4
  rm -rf "$build"
  if ! log=$(cmake -S "$src" -B "$build" -G "$gen" "$@" 2>&1 && cmake --build "$build" 2>&1); then
    fail "install cmake $label: configure and build" "$log"; return 1
  fi
  ok "install cmake $label: configures and builds"
  if nvidia-smi -L >/dev/null 2>&1; then
    if log=$("$build/app" 2>&1) && printf '%s' "$log" | grep -q 'GPU and CPU equal'; then ok "install cmake $label: runs"; else
      fail "install cmake $label: runs" "$log"; fi
  fi
}

# The commands a cmake --build printed that did something, for comparing.
cmake_made() { sed -n -e 's/.*gpugen: generating.*/gpugen/p' -e 's/.*Building C object.*/cc/p' \
  -e 's/.*Building CUDA object.*/nvcc/p' -e 's/.*Linking CUDA executable.*/link/p' | LC_ALL=C sort | tr '\n' ' '; }

suite_install() {
  local prefix=$WORK/prefix log
  if ! log=$(make -s install PREFIX="$prefix" 2>&1); then fail "install: make install" "$log"; return; fi
  local missing=""
  for f in bin/gpugen share/man/man1/gpugen.1 lib/cmake/gpugen/gpugenConfig.cmake \
      lib/cmake/gpugen/gpugenConfigVersion.cmake lib/cmake/gpugen/gpugenGenerate.cmake \
      share/doc/gpugen/spec.md share/doc/gpugen/emitted.md share/doc/gpugen/integration.md \
      share/doc/gpugen/spec.schema.json share/doc/gpugen/examples/make/Makefile share/doc/gpugen/examples/cmake/CMakeLists.txt; do
    [ -f "$prefix/$f" ] || missing="$missing $f"
  done
  if [ -z "$missing" ]; then ok "install: binary, man page, CMake package, docs and examples"; else
    fail "install: missing:$missing"; fi
  if log=$(make -s install PREFIX=/opt/gpugen DESTDIR="$WORK/stage" 2>&1) && [ -x "$WORK/stage/opt/gpugen/bin/gpugen" ] &&
     [ -f "$WORK/stage/opt/gpugen/lib/cmake/gpugen/gpugenConfig.cmake" ]; then
    ok "install: DESTDIR stages under DESTDIR/PREFIX"
  else
    fail "install: DESTDIR stages under DESTDIR/PREFIX" "$log"
  fi
  # The installed gpugen works from any directory.
  if log=$(cd / && "$prefix/bin/gpugen" -o "$WORK/installed-out" "$ROOT/specs/mytypes.json" 2>&1) &&
     [ -f "$WORK/installed-out/mytypes.cuh" ]; then
    ok "install: the installed gpugen works from /"
  else
    fail "install: the installed gpugen works from /" "$log"
  fi
  # The man page renders without warnings, and --help, the man page and the
  # integration guide list the same options.
  if command -v man >/dev/null; then
    log=$(MANWIDTH=80 man --warnings -l "$prefix/share/man/man1/gpugen.1" 2>&1 >/dev/null)
    if [ -z "$log" ]; then ok "install: man page renders without warnings"; else fail "install: man page warnings" "$log"; fi
  fi
  local opts man_opts doc_opts
  opts=$("$GPUGEN" --help | grep -o -- '--\?[a-zA-Z][a-z-]*' | sort -u)
  man_opts=$(sed 's/\\-/-/g; s/\\f[BIRP]//g' docs/gpugen.1 | grep -o -- '--\?[a-zA-Z][a-z-]*' | sort -u)
  doc_opts=$(grep -o -- '--\?[a-zA-Z][a-z-]*' docs/integration.md | sort -u)
  missing=""
  for o in $opts; do
    printf '%s\n' "$man_opts" | grep -qx -- "$o" || missing="$missing $o(man)"
    printf '%s\n' "$doc_opts" | grep -qx -- "$o" || missing="$missing $o(docs/integration.md)"
  done
  if [ -n "$opts" ] && [ -z "$missing" ]; then ok "install: every --help option is in the man page and the docs"; else
    fail "install: options missing:$missing"; fi
  local version
  version=$(sed -n 's/^#define GPUGEN_VERSION "\(.*\)"/\1/p' gen/gpugen.h)
  if grep -q "set(PACKAGE_VERSION \"$version\")" cmake/gpugenConfigVersion.cmake && grep -q "\"gpugen $version\"" docs/gpugen.1; then
    ok "install: the CMake package and the man page carry version $version"
  else
    fail "install: version $version differs in cmake/gpugenConfigVersion.cmake or docs/gpugen.1"
  fi

  # CMake: both generators, from this checkout and from the installed prefix.
  if ! command -v cmake >/dev/null || ! command -v ninja >/dev/null; then
    fail "install cmake: cmake and ninja are needed (make deps installs them)"; return
  fi
  cmake_example "Ninja, source checkout" Ninja examples/cmake "$WORK/cm-ninja" -Dgpugen_DIR="$ROOT/cmake"
  cmake_example "Makefiles, source checkout" "Unix Makefiles" examples/cmake "$WORK/cm-make" -Dgpugen_DIR="$ROOT/cmake"
  local b src=$prefix/share/doc/gpugen/examples/make got built=()
  cmake_example "Makefiles, installed" "Unix Makefiles" "$prefix/share/doc/gpugen/examples/cmake" "$WORK/cm-make-inst" \
    -DCMAKE_PREFIX_PATH="$prefix" && built+=("$WORK/cm-make-inst")
  if cmake_example "Ninja, installed" Ninja "$prefix/share/doc/gpugen/examples/cmake" "$WORK/cm-ninja-inst" \
      -DCMAKE_PREFIX_PATH="$prefix"; then
    built+=("$WORK/cm-ninja-inst")
    b=$WORK/cm-ninja-inst
    if grep -q 'arch=compute_80,code=\[sm_80\]' "$b/build.ninja" && grep -q 'arch=compute_90,code=\[compute_90,sm_90\]' "$b/build.ninja"; then
      ok "install cmake: CUDA_ARCHITECTURES from the spec (SASS for each target, PTX for the newest)"
    else
      fail "install cmake: CUDA_ARCHITECTURES from the spec" "$(grep -o 'arch=[^ ]*' "$b/build.ninja" | sort -u)"
    fi
  fi
  # Both generators redo exactly what an edit needs (they share the sources).
  for case in "nothing:" "a header:cc gpugen link nvcc " "nothing, again:"; do
    [ "${case%%:*}" = "a header" ] && sleep 1 && touch "$src/include/geometry_macros.h"
    for b in "${built[@]}"; do
      got=$(cmake --build "$b" 2>&1 | cmake_made)
      if [ "$got" = "${case#*:}" ]; then ok "install cmake ${b##*/}: touching ${case%%:*} runs '${case#*:}'"; else
        fail "install cmake ${b##*/}: touching ${case%%:*} ran '$got', expected '${case#*:}'"; fi
    done
  done
  # spaces in the source and build paths build and stay
  # up to date; a '#', which CMake cannot carry, is refused by name.
  mkdir -p "$WORK/cmake src 1" && cp -r examples "$WORK/cmake src 1/" && rm -rf "$WORK/cmake src 1/examples/make/gen"
  if cmake_example "Ninja, paths with spaces" Ninja "$WORK/cmake src 1/examples/cmake" "$WORK/cmake build 1" \
      -Dgpugen_DIR="$ROOT/cmake"; then
    got=$(cmake --build "$WORK/cmake build 1" 2>&1 | cmake_made)
    if [ -z "$got" ]; then ok "install cmake: paths with spaces, then nothing to do"; else
      fail "install cmake: paths with spaces, then '$got' ran"; fi
  fi
  mkdir -p "$WORK/cmake src #2" && cp -r examples "$WORK/cmake src #2/"
  log=$(cmake -S "$WORK/cmake src #2/examples/cmake" -B "$WORK/cmake-hash" -G Ninja -Dgpugen_DIR="$ROOT/cmake" 2>&1)
  if [ $? -ne 0 ] && printf '%s' "$log" | tr -s ' \n' ' ' | grep -q "the spec's path .*cmake src #2/examples/make/points.json has a '#'"; then
    ok "install cmake: a '#' in the spec's path is refused by name"
  else
    fail "install cmake: a '#' in the spec's path is refused by name" "$log"
  fi
  # Architectures the project chose must cover the spec's targets.
  log=$(cmake -S examples/cmake -B "$WORK/cm-archs" -G Ninja -Dgpugen_DIR="$ROOT/cmake" -DCMAKE_CUDA_ARCHITECTURES=80 2>&1)
  if [ $? -ne 0 ] && printf '%s' "$log" | tr -s ' \n' ' ' | grep -q "CUDA_ARCHITECTURES '80' builds no SASS for sm_90"; then
    ok "install cmake: chosen CUDA_ARCHITECTURES that miss a spec target stop the configure, naming it"
  else
    fail "install cmake: chosen CUDA_ARCHITECTURES that miss a spec target" "$log"
  fi
}

# gpugen explain: text and --json for every golden spec, the example specs,
# and a selection by name, against tests/explain/; the JSON parses.
suite_explain() {
  mkdir -p tests/explain
  local spec name kind got
  for spec in tests/golden/*.json specs/mytypes.json examples/make/points.json examples/maxsub/maxsub.json; do
    name=$(basename "$spec" .json)
    for kind in txt json; do
      got=$(cd "$(dirname "$spec")" && "$GPUGEN" explain -q $([ $kind = json ] && echo --json) "$name.json" 2>&1)
      if [ "${UPDATE:-}" = 1 ]; then
        printf '%s\n' "$got" > "tests/explain/$name.$kind"
        echo "updated tests/explain/$name.$kind"
      elif d=$(diff -u "tests/explain/$name.$kind" <(printf '%s\n' "$got")); then
        ok "explain $name ($kind)"
      else
        fail "explain $name ($kind) (run 'make golden-update' if the change is intended)" "$d"
      fi
    done
    if ! log=$(python3 -m json.tool "tests/explain/$name.json" 2>&1 >/dev/null); then fail "explain $name: JSON does not parse" "$log"; fi
  done
  got=$(cd specs && "$GPUGEN" explain mytypes.json stats Particle 2>&1)
  got=$(printf '%s\n' "$got")
  if [ "$got" = "$(sed -n '1,2p;/^type Particle/,/^$/p;/^reduction stats/,$p' tests/explain/mytypes.txt)" ]; then
    ok "explain a selection by name shows just those, in spec order"
  else
    fail "explain a selection by name" "$got"
  fi
  got=$(cd specs && "$GPUGEN" explain mytypes.json Partcle 2>&1)
  if [ $? -eq 1 ] && [ "$got" = "mytypes.json: error: explain: 'Partcle' is no type or reduction of the spec (did you mean 'Particle'?)" ]; then
    ok "explain an unknown name exits 1 with a suggestion"
  else
    fail "explain an unknown name exits 1 with a suggestion" "$got"
  fi
  expect_status "explain --check is a usage error" 2 "$GPUGEN" explain --check specs/mytypes.json
}

# explain --resources builds modules with nvcc: the slow half of explain.
suite_resources() {
  # --resources builds the module with nvcc: every reduction kernel, every
  # target, with registers and PTX counts, and no scratch files left behind.
  if log=$(TMPDIR=$WORK "$GPUGEN" explain --json --resources examples/make/points.json 2>&1) &&
     printf '%s' "$log" | python3 -c '
import json, sys
doc = json.load(sys.stdin)
for r in doc["reductions"]:
    got = sorted(k["target"] for k in r["resources"])
    assert got == doc["targets"], (r["name"], got)
    for k in r["resources"]:
        assert k["kernel"] == "%s_%s_kernel" % (doc["module"], r["name"]), k
        assert k["registers"] > 0 and k["shfl_sync"] > 0 and k["ld_global"] > 0, k
' && [ -z "$(ls "$WORK" | grep gpugen-explain)" ]; then
    ok "explain --resources: ptxas and PTX counts for every kernel and target, no scratch left"
  else
    fail "explain --resources" "$log"
  fi
  # an nvcc that lists the architectures but cannot build (tests/errors/fake-nvcc)
  log=$(cd tests/golden && GPUGEN_NVCC=../errors/fake-nvcc "$GPUGEN" explain --resources tagged.json 2>&1)
  if [ $? -eq 1 ] && printf '%s' "$log" | grep -q "explain --resources: ../errors/fake-nvcc could not build the module"; then
    ok "explain --resources with an nvcc that fails exits 1 and says so"
  else
    fail "explain --resources with an nvcc that fails exits 1 and says so" "$log"
  fi
  # One target (scalars_only.json: sm_75): nvcc names the PTX M.ptx, not
  # M.compute_75.ptx.
  if log=$(TMPDIR=$WORK "$GPUGEN" explain --json --resources tests/golden/scalars_only.json 2>&1) &&
     printf '%s' "$log" | python3 -c '
import json, sys
doc = json.load(sys.stdin)
assert doc["targets"] == ["sm_75"], doc["targets"]
for r in doc["reductions"]:
    got = [(k["target"], k["kernel"]) for k in r["resources"]]
    assert got == [("sm_75", "%s_%s_kernel" % (doc["module"], r["name"]))], (r["name"], got)
    assert all(k["registers"] > 0 and k["ld_global"] > 0 for k in r["resources"]), r["resources"]
'; then
    ok "explain --resources on a spec of one target"
  else
    fail "explain --resources on a spec of one target" "$log"
  fi
  # A segmented reduction's segmented, row and row-tile kernels, each form of
  # row tile named, sorted by kernel name; the flat reduction beside them
  # keeps its one kernel. Trio's 12 bytes go out through shared memory, so
  # its short rows are built a second time for 1024 threads an SM (at most
  # 64 registers at the default 256 threads a block).
  cat > "$WORK/segsmall.json" <<'SPEC'
{"gpugen": 1, "module": "segsmall", "targets": ["sm_90"],
 "types": [{"name": "Trio", "fields": [{"name": "a", "type": "float"}, {"name": "b", "type": "float"},
                                        {"name": "c", "type": "float"}]}],
 "reductions": [{"name": "total", "input": "float", "op": "sum", "segmented": true},
                {"name": "lo", "input": "Trio", "op": "min", "segmented": true},
                {"name": "flat", "input": "int", "op": "sum"}]}
SPEC
  if log=$(TMPDIR=$WORK "$GPUGEN" explain --json --resources "$WORK/segsmall.json" 2>&1) &&
     printf '%s' "$log" | python3 -c '
import json, sys
doc = json.load(sys.stdin)
for r in doc["reductions"]:
    m = "%s_%s" % (doc["module"], r["name"])
    want = [m + "_kernel"]
    if r["segmented"]:
        want += [m + s for s in ("_row_blocks_kernel", "_row_groups_kernel", "_rows_kernel", "_segmented_kernel",
                                 "_split_rows_kernel")]
        want += [m + "_row_tiles_kernel<%s>" % f for f in ("grouped_rows", "long_rows", "short_rows", "wide_rows")]
    if r["name"] == "lo":
        want.append(m + "_row_tiles_kernel<dense_short_rows>")
    got = [k["kernel"] for k in r["resources"]]
    assert got == sorted(want), (r["name"], got)
    dense = [k for k in r["resources"] if k["kernel"].endswith("<dense_short_rows>")]
    assert all(k["registers"] <= 64 for k in dense), dense
    assert all(k["target"] == "sm_90" and k["registers"] > 0 for k in r["resources"]), r["resources"]
'; then
    ok "explain --resources of segmented reductions: their segmented, row and row-tile kernels, by name"
  else
    fail "explain --resources of segmented reductions" "$log"
  fi
  # A reduction with "nccl" has a second instance of its kernel, the device
  # path's, shown as M_R_kernel<window> (nccl.json: one target, sm_90).
  if [ ! -f "$(dirname "$(command -v nvcc)")/../include/nccl.h" ]; then
    skipped=$((skipped + 1))
    echo "skip explain --resources of the NCCL module: no nccl.h beside nvcc (tools/install-deps.sh)"
  elif log=$(TMPDIR=$WORK "$GPUGEN" explain --json --resources tests/golden/nccl.json 2>"$WORK/nccl-explain.err") &&
       printf '%s' "$log" | python3 -c '
import json, sys
doc = json.load(sys.stdin)
for r in doc["reductions"]:
    flat = "%s_%s_kernel" % (doc["module"], r["name"])
    want = [flat, flat + "<window>"] if r["nccl"] else [flat]
    got = sorted(k["kernel"] for k in r["resources"])
    assert got == sorted(want), (r["name"], got)
    assert all(k["target"] == "sm_90" and k["registers"] > 0 for k in r["resources"]), r["resources"]
'; then
    ok "explain --resources of the NCCL module: the device path's kernel beside each flat one"
  else
    fail "explain --resources of the NCCL module" "$log$(cat "$WORK/nccl-explain.err")"
  fi
}

suite_valgrind() {
  if ! command -v valgrind >/dev/null; then fail "valgrind is not installed (make deps)"; return; fi
  local vg="valgrind -q --leak-check=full --show-leak-kinds=all --errors-for-leak-kinds=all --error-exitcode=99 --suppressions=tests/valgrind.supp"
  # a handful that reach every stage (ASan and UBSan run every spec in make test-sanitize and the fuzz replay):
  # C and C++ headers, segmented, several arrays, NCCL, hostile JSON, header refusals.
  # libclang reading CUDA's headers costs about 45 s a run under valgrind, so
  # the specs whose headers need nothing of CUDA are read as they are when no
  # toolkit sits beside nvcc (an nvcc found through a folder of its own); the
  # C++ ones, which include CUDA's headers, and the writing runs below, take
  # the whole path.
  local nvcc_alone=$WORK/nvcc-alone/bin/nvcc
  mkdir -p "$(dirname "$nvcc_alone")" && printf '#!/bin/sh\nexec nvcc "$@"\n' > "$nvcc_alone" && chmod +x "$nvcc_alone"
  for spec in specs/mytypes.json tests/golden/cxx.json tests/golden/segmented.json tests/golden/multi.json \
      tests/golden/nccl.json tests/golden/macros.json tests/errors/bad_reductions.json tests/errors/json_deep.json \
      tests/headers/cxx_refusals.json tests/headers/wrong_type.json; do
    local nvcc=nvcc
    case $spec in */cxx.json | */cxx_refusals.json) ;; *) nvcc=$nvcc_alone ;; esac
    out=$(GPUGEN_NVCC=$nvcc $vg "$GPUGEN" --check "$spec" 2>&1 >/dev/null)
    if [ $? -eq 99 ]; then fail "valgrind $spec" "$out"; else ok "valgrind $spec"; fi
  done
  out=$($vg "$GPUGEN" -o "$WORK/vg" specs/mytypes.json 2>&1)
  if [ $? -eq 0 ]; then ok "valgrind writing files"; else fail "valgrind writing files" "$out"; fi
  out=$($vg "$GPUGEN" -o "$WORK/vg" --depfile "$WORK/vg/mytypes.d" examples/make/points.json 2>&1)
  if [ $? -eq 0 ]; then ok "valgrind --depfile"; else fail "valgrind --depfile" "$out"; fi
  for kind in "" --json; do
    out=$(GPUGEN_NVCC=$nvcc_alone $vg "$GPUGEN" explain $kind specs/mytypes.json 2>&1 >/dev/null)
    if [ $? -eq 0 ]; then ok "valgrind explain $kind"; else fail "valgrind explain $kind" "$out"; fi
  done
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
      # one summary line per test program (reduce: test_reduce and test_segmented)
      n=$(printf '%s\n' "$log" | sed -n 's/^[a-z]*: \([0-9]*\) passed, 0 failed$/\1/p' | awk '{s += $1} END {if (NR) print s}')
      if [ -n "$n" ]; then passed=$((passed + n)); else fail "$dir: no summary line" "$log"; fi
    else
      fail "$dir" "$log"
    fi
  done
}

# The host's plans and dispatch on the CPU (tests/plans): the module of
# plans.json is compiled into test_plans.cu with nvcc and linked with a
# stand-in for the CUDA runtime (fake_cuda.cpp); its plan functions and its
# C API run on made-up devices under cmocka.
suite_plans() {
  local dir=$WORK/plans log n
  if ! log=$("$GPUGEN" -q -o "$dir/gen" tests/plans/plans.json 2>&1 &&
      nvcc -std=c++17 -arch=sm_90 -cudart none -Werror all-warnings -Xcompiler -Wall,-Wextra,-Werror -I"$dir/gen" \
        -Itests/plans -o "$dir/test_plans" tests/plans/test_plans.cu tests/plans/fake_cuda.cpp -lcmocka 2>&1); then
    fail "plans: test_plans.cu does not build" "$log"
    return
  fi
  log=$("$dir/test_plans" 2>&1)
  local status=$?
  n=$(printf '%s\n' "$log" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p')
  if [ $status -eq 0 ]; then
    passed=$((passed + ${n:-0}))
    echo "ok   plans: test_plans (${n:-0} tests)"
  else
    fail "plans: test_plans" "$log"
  fi
  # explain --resources lists every __global__ kernel the module registers
  # (the stand-in runtime's record of them), each once, by gen's names
  cp tests/plans/plans_ops.h "$dir/"
  sed 's/"targets": \[[^]]*\]/"targets": ["sm_90"]/' tests/plans/plans.json > "$dir/plans_sm90.json"
  if log=$(TMPDIR=$WORK "$GPUGEN" explain --json --resources "$dir/plans_sm90.json" 2>&1) &&
     log=$(printf '%s' "$log" | python3 -c '
import json, re, subprocess, sys
doc = json.load(sys.stdin)
forms = re.search(r"enum row_form \{ ([^}]*) \}", open(sys.argv[2]).read()).group(1).split(", ")
def label(mangled):
    m = re.match(r"_Z(\d+)", mangled)
    name = mangled[m.end():m.end() + int(m.group(1))]
    f = re.search(r"row_formE(\d+)", mangled)
    return name + ("<%s>" % forms[int(f.group(1))] if f else "<window>" if "_window_finish" in mangled else "")
registered = sorted(label(k) for k in subprocess.run([sys.argv[1], "--kernels"], capture_output=True, text=True,
                                                    check=True).stdout.split())
listed = sorted(k["kernel"] for r in doc["reductions"] for k in r["resources"])
assert listed == registered, "explain lists %s\nthe module registers %s" % (listed, registered)
print(len(listed))
' "$dir/test_plans" "$dir/gen/pl.cu" 2>&1); then
    ok "plans: explain --resources lists the $log kernels the module registers"
  else
    fail "plans: explain --resources against the registered kernels" "$log"
  fi
}

# The generated code means what gpugen wrote whatever the spec's headers
# define (tests/hygiene): a module is built three times, with an empty
# hygiene_traps.h, with a macro named like every identifier it uses, and
# with a deleted function named like each (traps.py); every build compiles
# with warnings as errors, and its CPU references give what check_host.c
# computes on its own, the same bytes each time.
hygiene_module() { # DIR SPEC MODE: writes DIR/MODE/ (the module, and its object)
  local dir=$1 spec=$2 mode=$3 w=$1/$3 cuda_inc log
  cuda_inc=$(dirname "$(dirname "$(command -v nvcc)")")/include
  rm -rf "$w" && mkdir -p "$w" && cp tests/hygiene/hygiene_types.h "tests/hygiene/$spec" "$w/"
  if [ "$mode" = none ]; then : > "$w/hygiene_traps.h"; else
    python3 tests/hygiene/traps.py "$mode" "$dir/none/out" "$BUILD/reserved.c" "$w/$spec" > "$w/hygiene_traps.h" || return 1; fi
  local module
  module=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["module"])' "$w/$spec")
  (cd "$w" && "$GPUGEN" -q -o out "$spec") &&
    nvcc -std=c++17 -arch=sm_90 -Werror all-warnings -Xcompiler -Wall,-Wextra,-Werror -I"$w/out" -I"$w" \
      -c -o "$w/module.o" "$w/out/$module.cu" &&
    printf '#include "%s.h"\n' "$module" | g++ -x c++ -Wall -Wextra -Werror -I"$cuda_inc" -I"$w/out" -I"$w" \
      -c -o /dev/null - &&
    { [ "$mode" = functions ] || printf '#include "%s.h"\n' "$module" |
      gcc -std=c11 -pedantic -Wall -Wextra -Werror -I"$cuda_inc" -I"$w/out" -I"$w" -x c -c -o /dev/null -; }
}

suite_hygiene() {
  local dir=$WORK/hygiene cuda_home log mode digest want
  cuda_home=$(dirname "$(dirname "$(command -v nvcc)")")
  mkdir -p "$dir"
  for spec in hygiene.json hygiene_nccl.json; do
    if [ $spec = hygiene_nccl.json ] && [ ! -f "$cuda_home/include/nccl.h" ]; then
      skipped=$((skipped + 1))
      echo "skip hygiene $spec: no nccl.h in $cuda_home/include (tools/install-deps.sh)"
      continue
    fi
    local d=$dir/${spec%.json}
    if ! log=$(hygiene_module "$d" $spec none 2>&1); then fail "hygiene $spec: the module without traps" "$log"; continue; fi
    # the two trapped builds side by side (2 cores)
    hygiene_module "$d" $spec macros > "$d/macros.log" 2>&1 & local p1=$!
    hygiene_module "$d" $spec functions > "$d/functions.log" 2>&1 & local p2=$!
    local s1=0 s2=0
    wait $p1 || s1=$?
    wait $p2 || s2=$?
    [ $s1 = 0 ] && ok "hygiene $spec: a macro named like each of its $(grep -c '^#define' "$d/macros/hygiene_traps.h") identifiers changes nothing that compiles" ||
      fail "hygiene $spec: macros named like its identifiers" "$(cat "$d/macros.log")"
    [ $s2 = 0 ] && ok "hygiene $spec: a deleted function named like each of its $(grep -c 'delete;' "$d/functions/hygiene_traps.h") identifiers is never called" ||
      fail "hygiene $spec: functions named like its identifiers" "$(cat "$d/functions.log")"
    [ $spec = hygiene.json ] || continue
    # the CPU references: right without traps, and the same bytes with them
    if ! log=$(gcc -std=c11 -Wall -Wextra -Werror -I"$cuda_home/include" -I"$d/none/out" -I"$d/none" \
        -c -o "$d/check_host.o" tests/hygiene/check_host.c 2>&1); then fail "hygiene check_host.c" "$log"; continue; fi
    want=""
    for mode in none macros functions; do
      [ -f "$d/$mode/module.o" ] || continue
      if log=$(g++ -o "$d/$mode/check" "$d/check_host.o" "$d/$mode/module.o" -L"$cuda_home/lib64" -lcudart_static \
          -lpthread -ldl -lrt 2>&1 && "$d/$mode/check" 2>&1); then
        digest=${log##*digest }
        if [ -z "$want" ]; then want=$digest; ok "hygiene: every CPU reference equals the loop in check_host.c"
        elif [ "$digest" = "$want" ]; then ok "hygiene: the CPU references built with $mode traps give the same bytes"
        else fail "hygiene: the CPU references built with $mode traps differ" "$log"; fi
      else
        fail "hygiene: CPU references of the module built with $mode traps" "$log"
      fi
    done
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
  # the user's header is an input, so it is never overwritten. (A header
  # named pair.h is refused by name before this, so the header here is
  # pair_types.h, and pair.h another name of the same file: only the
  # device-and-inode check can see it.)
  mkdir -p "$w/user"
  printf 'typedef struct A { int x; } A;\n' > "$w/user/pair_types.h"
  ln "$w/user/pair_types.h" "$w/user/pair.h"
  printf '{"gpugen": 1, "module": "pair", "headers": ["pair_types.h"], "targets": ["sm_80"], "types": [{"name": "A", "fields": [{"name": "x", "type": "int"}]}]}\n' > "$w/user/pair.json"
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
  for i in $(seq 1 200); do
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
  if [ $torn = 0 ]; then ok "output: 200 kills over a ${run_ms} ms run tear no file ($mixed left a mix of old and new)"; else
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
  for i in $(seq 1 50); do
    "$GPUGEN" -o "$w/two" "$w/old.json" & local p1=$!
    "$GPUGEN" -o "$w/two" "$w/new.json" & local p2=$!
    wait $p1 $p2
    if ! msg=$(tests/output/stamp_check.py "$w/two" 2>&1) || ! no_temps "$w/two"; then
      fail "output: two writers at once" "$msg"
      return
    fi
  done
  ok "output: two writers at once, 50 times: each set whole and consistent with its stamp"

  # Crossed directories: each run's depfile in the other's output
  # directory. Both lock both directories, in the same order, so neither
  # waits on the other forever; each waits 50 ms after each lock, so runs
  # that locked in their own orders would deadlock (the timeout fails it).
  local crossed=0
  rm -rf "$w/xa" "$w/xb"
  for i in $(seq 1 10); do
    GPUGEN_TEST_LOCK_DELAY_MS=50 timeout 60 "$GPUGEN" -q -o "$w/xa" --depfile "$w/xb/a.d" "$w/old.json" & p1=$!
    GPUGEN_TEST_LOCK_DELAY_MS=50 timeout 60 "$GPUGEN" -q -o "$w/xb" --depfile "$w/xa/b.d" "$w/new.json" & p2=$!
    wait $p1 && wait $p2 && tests/output/stamp_check.py "$w/xa" >/dev/null 2>&1 &&
      tests/output/stamp_check.py "$w/xb" >/dev/null 2>&1 && no_temps "$w/xa" && no_temps "$w/xb" &&
      [ -s "$w/xb/a.d" ] && [ -s "$w/xa/b.d" ] && crossed=$((crossed + 1))
  done
  if [ $crossed = 10 ]; then ok "output: 10 pairs with crossed output and depfile directories: no deadlock, both sets whole"; else
    fail "output: crossed output and depfile directories: $crossed of 10 pairs ended whole"; fi

  # Two runs that make the same new parent directories at once, and two
  # spellings of one directory: both runs succeed, each set whole.
  local nested=0
  for i in $(seq 1 10); do
    rm -rf "$w/nest"
    "$GPUGEN" -q -o "$w/nest/a/b/c" "$w/old.json" & p1=$!
    "$GPUGEN" -q -o "$w/nest/a/b/d" "$w/new.json" & p2=$!
    "$GPUGEN" -q -o "$w/nest/a/b/../b/c" "$w/new.json" & local p3=$!
    wait $p1 && wait $p2 && wait $p3 && tests/output/stamp_check.py "$w/nest/a/b/c" >/dev/null 2>&1 &&
      tests/output/stamp_check.py "$w/nest/a/b/d" >/dev/null 2>&1 && nested=$((nested + 1))
  done
  if [ $nested = 10 ]; then ok "output: 10 times three runs making one new tree at once: all succeed, each set whole"; else
    fail "output: runs making one new tree at once: $nested of 10 rounds ended whole"; fi
}

# Documented limits and hostile paths (tests/limits/): the inputs are made at
# test time (tests/limits/make_cases.py), the messages are kept in NAME.err;
# each exits 1 with exactly that message and leaves the output directory as
# it was.
suite_limits() {
  local w=$WORK/limits name msg status out before
  mkdir -p "$w/cases"
  python3 tests/limits/make_cases.py "$w/cases"
  mkfifo "$w/cases/fifo.json" "$w/cases/pipe.h"
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

expect_error() { # NAME MESSAGE COMMAND...: exit 1 with exactly MESSAGE
  local name=$1 want=$2
  shift 2
  out=$("$@" 2>&1)
  local got=$?
  if [ "$got" = 1 ] && [ "$out" = "$want" ]; then ok "$name"; else fail "$name: exit $got" "$out"; fi
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

  # every bench target names only files that exist: a dry run with stand-ins
  # for the generated modules (the real ones need ../gpugen and nvcc)
  local mk=$WORK/bench/make
  mkdir -p "$mk/gen" && touch "$mk/gen/bench.cu" "$mk/gen/benchseg.cu" "$mk/gen/benchmulti.cu" "$mk/gen/bn.cu"
  if out=$(make -n -C bench OUT="$mk" GEN="$mk/gen" GEN_SEG="$mk/gen" GEN_MULTI="$mk/gen" \
      bench compile segmented multi nccl device-api 2>&1); then
    ok "bench Makefile: bench, compile, segmented, multi, nccl and device-api find every source"
  else
    fail "bench Makefile: a target names a missing file" "$out"
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


# The tiers: check is what every edit should pass (a few minutes on 2
# cores); all is every suite (make test).
suites=("$@")
[ ${#suites[@]} -eq 0 ] || [ "${suites[0]}" = all ] &&
  suites=(unit golden errors cli explain output fuzz plans limits integration install resources compile hygiene valgrind gpu bench)
[ "${suites[0]:-}" = check ] && suites=(unit golden errors cli explain output fuzz)
times=()
for s in "${suites[@]}"; do
  echo "== $s"
  before_passed=$passed before_failed=$failed start=$(date +%s)
  "suite_$s"
  times+=("$(printf '%-12s %6ds %6d %6d' "$s" $(( $(date +%s) - start )) $((passed - before_passed)) $((failed - before_failed)))")
done
echo
echo "suite          time passed failed"
printf '%s\n' "${times[@]}"
echo
if [ $skipped -gt 0 ]; then
  echo "$passed passed, $failed failed, $skipped skipped"
else
  echo "$passed passed, $failed failed"
fi
[ $failed -eq 0 ]
