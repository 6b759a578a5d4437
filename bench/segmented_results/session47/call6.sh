#!/bin/bash
# Session 47, call 6 (H100): test_segmented on the final rule (tiles first, the row groups as their fallback), and its A/B against main on the layer-norm shape.
set -u
R=$PWD; B=/tmp/gb; mkdir -p $B $OUT/c6
exec > >(tee $OUT/c6/log.txt) 2>&1
date; nvidia-smi -L
(make -s -j16 -C tests/gpu/reduce GEN=$R/.gpucarry/reduce BUILD=$B/reduce $B/reduce/test_segmented > $OUT/c6/build.txt 2>&1; echo "build rc=$?" >> $OUT/c6/build.txt) &
BP=$!
PYTHONUNBUFFERED=1 python3 bench/peers_segmented.py $OUT/c6/peers1.csv --rows-only > $OUT/c6/peers1.txt 2>&1; grep -E "16384|^#" $OUT/c6/peers1.txt
wait $BP; tail -1 $OUT/c6/build.txt; date
BENCH_CUB_OFFSETS=0 BENCH_CASES=welford,float BENCH_LENGTHS=16384 AB=$R/.gpucarry-ab timeout 100 sh bench/segmented_ab.sh run 2 "base fin2" "4096x16K,L=16384"; echo "ab rc=$?"
python3 bench/segmented_ab.py $R/.gpucarry-ab base,fin2 --column rows_us
echo "== test_segmented"; OMP_NUM_THREADS=16 $B/reduce/test_segmented > $OUT/c6/t_seg.txt 2>&1; echo "rc=$?"; grep FAIL $OUT/c6/t_seg.txt | head; tail -1 $OUT/c6/t_seg.txt
date
cd $OUT && tar czf c6.tgz c6 && rm -rf c6
