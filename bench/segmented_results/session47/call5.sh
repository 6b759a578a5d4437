#!/bin/bash
# Session 47, call 5 (H100): test_segmented on the landed rule (with its new 64 KiB row checks), the A/B of main against it, torch's var_mean around it.
set -u
R=$PWD; B=/tmp/gb; mkdir -p $B $OUT/c5
exec > >(tee $OUT/c5/log.txt) 2>&1
date; nvidia-smi -L
(make -s -j16 -C tests/gpu/reduce GEN=$R/.gpucarry/reduce BUILD=$B/reduce $B/reduce/test_segmented > $OUT/c5/build.txt 2>&1; echo "build rc=$?" >> $OUT/c5/build.txt) &
BP=$!
echo "== torch rows (1)"; PYTHONUNBUFFERED=1 python3 bench/peers_segmented.py $OUT/c5/peers1.csv --rows-only > $OUT/c5/peers1.txt 2>&1; grep -E "16384|^#" $OUT/c5/peers1.txt
wait $BP; tail -2 $OUT/c5/build.txt; date
export BENCH_CUB_OFFSETS=0 BENCH_CASES=welford,float BENCH_LENGTHS=16384,65536
AB=$R/.gpucarry-ab timeout 200 sh bench/segmented_ab.sh run 4 "base fin" "4096x16K,L=16384,L=65536"; echo "ab rc=$?"
echo "== torch rows (2)"; PYTHONUNBUFFERED=1 python3 bench/peers_segmented.py $OUT/c5/peers2.csv --rows-only > $OUT/c5/peers2.txt 2>&1; grep -E "16384|^#" $OUT/c5/peers2.txt
python3 bench/segmented_ab.py $R/.gpucarry-ab base,fin --column rows_us
date
echo "== test_segmented"; OMP_NUM_THREADS=16 $B/reduce/test_segmented > $OUT/c5/t_seg.txt 2>&1; echo "rc=$?"; grep -E "64 KiB|FAIL" $OUT/c5/t_seg.txt | head; tail -1 $OUT/c5/t_seg.txt
date
cd $OUT && tar czf c5.tgz c5 && rm -rf c5 && cp $R/.gpucarry-ab/fin.ptxas.txt . ; ls $OUT
