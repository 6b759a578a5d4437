#!/bin/sh
# session 40 call 1: grouped row tiles of a power of two groups as whole tiles (w1; w2 without the general path) against head (w0)
cd "$(dirname "$0")"
python3 -c "import lzma,sys; [open(f[:-3],'wb').write(lzma.open(f).read()) for f in sys.argv[1:]]" ab/*.xz
chmod +x ab/bs_*
cd ..
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
AB=$PWD/.gpucarry/ab BENCH_CASES=int32,float,welford,maxsub BENCH_LENGTHS=4,16,64,128 BENCH_CUB_OFFSETS=0 OUT=$OUT sh bench/segmented_ab.sh run 3 "w0 w1 w2" "L=4,L=16,L=64,L=128"
python3 bench/segmented_ab.py .gpucarry/ab w0,w1,w2 --column rows_us > $OUT/ab.txt 2>&1
cat $OUT/ab.txt
grep -h "L=16," .gpucarry/ab/*.csv | cut -d, -f1-9 | sort > $OUT/l16.txt; cat $OUT/l16.txt
for n in w0 w1 w2; do
  BENCH_CASES=int32 BENCH_LENGTHS=16 BENCH_CUB_OFFSETS=0 timeout 120 ncu --clock-control none -k regex:isum_row_tiles -s 1 -c 1 --section SpeedOfLight --section Occupancy --section InstructionStats --section LaunchStats .gpucarry/ab/bs_$n /tmp/x.csv L=16 > $OUT/ncu_$n.txt 2>&1
  grep -E "Duration|Executed Instructions  |Registers Per|Achieved Occupancy|DRAM Throughput" $OUT/ncu_$n.txt | sed "s/^/$n /"
done
