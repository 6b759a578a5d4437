#!/bin/sh
# Puts the pinned CCCL headers (cccl.pin) under bench/.cccl/VERSION/include,
# the include directory that `make bench` and `make bench-compile` put in
# front of the toolkit's CUB. The wheel is fetched with pip once, into the
# git-ignored bench/.cccl/, and checked against the pinned sha256 every time
# before it is unpacked. A machine without a registry (the GPU machine) needs
# only the cached wheel: carry bench/.cccl with the working tree and this
# script unpacks it offline. Prints the include directory.
set -e
here=$(cd "$(dirname "$0")" && pwd)
. "$here/cccl.pin"
cache=$here/.cccl
wheel=$cache/$CCCL_WHEEL_FILE
include=$cache/$CCCL_WHEEL_VERSION/include

if [ ! -f "$wheel" ]; then
  # The x86_64 file whatever this machine is, so that the pinned hash holds
  # everywhere (the headers are the same in every platform's wheel).
  python3 -m pip download --quiet --no-deps --only-binary=:all: --platform manylinux2014_x86_64 \
    --dest "$cache" "nvidia-cuda-cccl==$CCCL_WHEEL_VERSION" >&2
fi
[ -f "$wheel" ] || { echo "fetch_cccl.sh: pip saved no $CCCL_WHEEL_FILE in $cache" >&2; exit 1; }
got=$(sha256sum "$wheel" | cut -d' ' -f1)
if [ "$got" != "$CCCL_WHEEL_SHA256" ]; then
  echo "fetch_cccl.sh: $wheel has sha256 $got, cccl.pin pins $CCCL_WHEEL_SHA256" >&2
  exit 1
fi
if [ ! -f "$include/cub/version.cuh" ]; then
  # Unpacked beside the final place and renamed, so that an interrupted run
  # leaves no half tree that looks complete.
  rm -rf "$include.tmp" && mkdir -p "$include.tmp"
  if ! python3 - "$wheel" "$include.tmp" <<'PY'
import os, sys, zipfile
prefix = "nvidia/cu13/include/cccl/"
wheel = zipfile.ZipFile(sys.argv[1])
names = [n for n in wheel.namelist() if n.startswith(prefix) and not n.endswith("/")]
if not names:
    sys.exit("fetch_cccl.sh: no %s in %s" % (prefix, sys.argv[1]))
for name in names:
    target = sys.argv[2] + "/" + name[len(prefix):]
    os.makedirs(os.path.dirname(target), exist_ok=True)
    with open(target, "wb") as f:
        f.write(wheel.read(name))
PY
  then
    rm -rf "$include.tmp"
    exit 1
  fi
  rm -rf "$include" && mv "$include.tmp" "$include"
fi
touch "$cache/$CCCL_WHEEL_VERSION/checked" # make's mark: newer than cccl.pin
echo "$include"
