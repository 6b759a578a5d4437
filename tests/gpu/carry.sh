#!/usr/bin/env bash
# Here (with libclang): generates every module the GPU checks need into DIR,
# so a GPU machine without libclang or cJSON can build and run them with
# tests/gpu/remote.sh DIR. usage: tests/gpu/carry.sh DIR
set -eu
cd "$(dirname "$0")/../.."
dir=$1
# the modules below are generated from inside their spec's folder: an
# absolute DIR names the same place from there (a relative one is taken from
# the repository's root)
case $dir in /*) ;; *) dir=$PWD/$dir ;; esac
rm -rf "$dir" && mkdir -p "$dir"
./gpugen -o "$dir/gputest" tests/gpu/gputest.json
for m in r_signed r_unsigned r_floats r_structs r_user r_vectors r_seg r_seg_user r_seg_k2 r_multi r_params; do
  (cd tests/gpu/reduce && ../../../gpugen -o "$dir/reduce/$m" "$m.json")
done
./gpugen -o "$dir/demo" specs/mytypes.json
./gpugen -o "$dir/maxsub" examples/maxsub/maxsub.json
./gpugen -o "$dir/rowstats" examples/rowstats/rowstats.json
./gpugen -o "$dir/cg" examples/cg/cg.json
(cd bench && ../gpugen -o "$dir/bench" bench.json)
(cd tests/gpu/nccl && ../../../gpugen -o "$dir/nccl" nccl_test.json)
./gpugen -o "$dir/syncbn" examples/syncbn/syncbn.json
sh tests/compile/exercise.sh "$dir/gputest/gputest.cuh" > "$dir/gputest/exercise.cu"
echo "carried: $(du -sh "$dir" | cut -f1) in $dir"
