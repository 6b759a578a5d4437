#!/bin/sh
# Runs test_nccl every way ranks start: one process driving every GPU (a
# thread each), one process per GPU (the unique id through a file), and a
# 1-rank communicator. NVLink multicast stays off. Every case runs through the
# host collectives and through the device path (the window), with the NCCL
# library of the headers' version first on LD_LIBRARY_PATH (nccl_lib.sh).
# usage: BUILD=dir sh run.sh [--big]
export NCCL_NVLS_ENABLE=0
. "$(dirname "$0")/nccl_lib.sh"
BUILD=${BUILD:-build}
status=0
ngpu=$(nvidia-smi -L | wc -l)
echo "== one process, $ngpu GPUs, a thread each"
"$BUILD/test_nccl" --threads "$@" || status=1
echo "== one process per GPU, $ngpu processes"
id=$BUILD/nccl_id.$$
rm -f "$id"
pids=""
r=0
while [ $r -lt "$ngpu" ]; do
  "$BUILD/test_nccl" --rank $r --nranks "$ngpu" --id "$id" & pids="$pids $!"
  r=$((r + 1))
done
for p in $pids; do wait "$p" || status=1; done
rm -f "$id"
echo "== a 1-rank communicator"
rm -f "$id"
CUDA_VISIBLE_DEVICES=0 "$BUILD/test_nccl" --rank 0 --nranks 1 --id "$id" || status=1
rm -f "$id"
[ $status = 0 ] && echo "nccl tests: all passed" || echo "nccl tests: FAILED"
exit $status
