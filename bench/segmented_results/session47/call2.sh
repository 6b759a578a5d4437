#!/bin/bash
# Session 47, call 2 (H100): the whole segmented bench with CUB 3.5.0 (fixed-size API) and CUB 3.0.1, and the torch peers.
set -u
R=$PWD; mkdir -p $OUT/c2
exec > >(tee $OUT/c2/log.txt) 2>&1
date; nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv
python3 -c "import torch, triton; print('torch', torch.__version__, 'triton', triton.__version__)"
echo "== bench_segmented_cccl (CUB 3.5.0)"; timeout 280 $R/bench/out/bench_segmented_cccl $OUT/c2/segmented_cccl.csv > $OUT/c2/segmented_cccl.txt 2>&1; echo "rc=$?"; date
echo "== peers_segmented"; PYTHONUNBUFFERED=1 timeout 120 python3 $R/bench/peers_segmented.py $OUT/c2/peers_segmented.csv > $OUT/c2/peers_segmented.txt 2>&1; echo "rc=$?"; date
echo "== bench_segmented (CUB 3.0.1)"; timeout 170 $R/bench/out/bench_segmented $OUT/c2/segmented.csv > $OUT/c2/segmented.txt 2>&1; echo "rc=$?"; date
cat $OUT/c2/peers_segmented.txt
cd $OUT && tar czf c2.tgz c2 && rm -rf c2
