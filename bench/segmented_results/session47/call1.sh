#!/bin/bash
# Session 47, call 1 (H100): ncu of the open cells while the GPU tests build, then the tests and sanitizers.
# (Ran from .gpucarry/, which tests/gpu/carry.sh filled; bench/out held the bench programs built here.)
set -u
R=$PWD; B=/tmp/gb; mkdir -p $B $OUT/c1
exec > >(tee $OUT/c1/log.txt) 2>&1
date; nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,memory.total --format=csv
(make -s -j16 -C tests/gpu/reduce GEN=$R/.gpucarry/reduce BUILD=$B/reduce $B/reduce/test_segmented $B/reduce/test_multi $B/reduce/test_params > $OUT/c1/build.txt 2>&1; echo "build rc=$?" >> $OUT/c1/build.txt) &
BP=$!
S="--section SpeedOfLight --section Occupancy --section SchedulerStats --section WarpStateStats --section LaunchStats --section InstructionStats --section MemoryWorkloadAnalysis --metrics smsp__inst_executed.sum,sm__cycles_active.avg,sm__cycles_active.min,sm__cycles_active.max,sm__cycles_elapsed.max,smsp__inst_executed_pipe_fma.sum,smsp__inst_executed_pipe_alu.sum,smsp__inst_executed_pipe_xu.sum,dram__bytes_read.sum"
bs=$R/bench/out/bench_segmented_cccl
run_ncu() { # name case kernel shape [lengths]
  echo "== ncu $1"; BENCH_CUB_OFFSETS=0 BENCH_CASES=$2 BENCH_LENGTHS=${5:-1} timeout 90 ncu --clock-control none -k regex:$3 -s 1 -c 1 $S $bs /tmp/$1.csv $4 > $OUT/c1/ncu_$1.txt 2>&1; echo "rc=$?"; grep -E "Duration|DRAM Throughput|Issued Warp Per Scheduler|Eligible Warps|Registers Per|Achieved Occupancy|inst_executed.sum|^welford|^int32" $OUT/c1/ncu_$1.txt
}
run_ncu welford_mix welford welford_segmented power-law
run_ncu welford_one welford welford_segmented one 0
run_ncu int_mix int32 isum_segmented power-law
run_ncu welford_4096 welford welford_segmented L=4096 4096
wait $BP; cat $OUT/c1/build.txt | tail -5
date
echo "== test_segmented"; OMP_NUM_THREADS=16 $B/reduce/test_segmented > $OUT/c1/t_seg.txt 2>&1; echo "rc=$?"; tail -3 $OUT/c1/t_seg.txt
echo "== test_multi"; OMP_NUM_THREADS=16 $B/reduce/test_multi > $OUT/c1/t_multi.txt 2>&1; echo "rc=$?"; tail -2 $OUT/c1/t_multi.txt
echo "== test_params"; $B/reduce/test_params > $OUT/c1/t_params.txt 2>&1; echo "rc=$?"; tail -2 $OUT/c1/t_params.txt
date
echo "== memcheck test_segmented --small"; OMP_NUM_THREADS=16 timeout 150 compute-sanitizer --tool memcheck --error-exitcode 99 $B/reduce/test_segmented --small > $OUT/c1/t_mem.txt 2>&1; echo "rc=$?"; tail -3 $OUT/c1/t_mem.txt
date
echo "== racecheck test_segmented --small"; OMP_NUM_THREADS=16 timeout 120 compute-sanitizer --tool racecheck --error-exitcode 99 $B/reduce/test_segmented --small > $OUT/c1/t_race.txt 2>&1; echo "rc=$?"; tail -3 $OUT/c1/t_race.txt
date
cd $OUT && tar czf c1.tgz c1 && rm -rf c1
