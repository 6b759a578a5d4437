#!/bin/sh
# Installs the Debian packages gpugen builds and tests with, when missing.
# Root installs them with apt-get; anyone else is told what to run.
set -e
missing=""
[ -f /usr/include/cjson/cJSON.h ] || missing="$missing libcjson-dev"
[ -f /usr/include/cmocka.h ] || missing="$missing libcmocka-dev"
# libclang 22 parses CUDA 13's headers (older ones stop in them)
[ -f /usr/lib/llvm-22/include/clang-c/Index.h ] || missing="$missing libclang-22-dev"
command -v valgrind >/dev/null 2>&1 || missing="$missing valgrind"
# for the tests: the CMake package with both generators, the man page, the JSON Schema
command -v cmake >/dev/null 2>&1 || missing="$missing cmake"
command -v ninja >/dev/null 2>&1 || missing="$missing ninja-build"
command -v man >/dev/null 2>&1 || missing="$missing man-db"
python3 -c 'import jsonschema' >/dev/null 2>&1 || missing="$missing python3-jsonschema"
# make fuzz and the fuzz suite: clang and its libFuzzer runtime (libclang-rt-N-dev)
if ! command -v clang >/dev/null 2>&1; then
  missing="$missing clang libclang-rt-dev"
elif [ ! -f "$(clang --print-resource-dir)/lib/linux/libclang_rt.fuzzer-x86_64.a" ]; then
  missing="$missing libclang-rt-$(clang --version | sed -n 's/.*clang version \([0-9]*\).*/\1/p;q')-dev"
fi
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != 0 ]; then
  echo "gpugen needs these Debian packages:$missing" >&2
  echo "Install them with:  sudo apt-get update && sudo apt-get install -y$missing" >&2
  exit 1
fi
echo "installing:$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
