#!/bin/bash
# Session 47, call 3 (H100): target 3's shape, Welford rows of 16384 floats, by route; torch's var_mean around it.
set -u
R=$PWD; mkdir -p $OUT/c3
exec > >(tee $OUT/c3/log.txt) 2>&1
date; nvidia-smi -L
echo "== torch rows (1)"; PYTHONUNBUFFERED=1 python3 bench/peers_segmented.py $OUT/c3/peers1.csv --rows-only > $OUT/c3/peers1.txt 2>&1; grep -E "16384|^#" $OUT/c3/peers1.txt
export BENCH_CUB_OFFSETS=0 BENCH_CASES=welford,float BENCH_LENGTHS=16384,65536,1048576
AB=$R/.gpucarry-ab timeout 300 sh bench/segmented_ab.sh run 4 "base wtiles rg32 rg16" "4096x16K,L=16384,L=65536,L=1048576"; echo "ab rc=$?"
echo "== torch rows (2)"; PYTHONUNBUFFERED=1 python3 bench/peers_segmented.py $OUT/c3/peers2.csv --rows-only > $OUT/c3/peers2.txt 2>&1; grep -E "16384|^#" $OUT/c3/peers2.txt
python3 bench/segmented_ab.py $R/.gpucarry-ab base,wtiles,rg32,rg16 --column rows_us
date
cd $OUT && tar czf c3.tgz c3 && rm -rf c3 && cp $R/.gpucarry-ab/*.ptxas.txt . 2>/dev/null; ls $OUT
