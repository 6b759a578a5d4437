set -u
nvidia-smi --query-gpu=name --format=csv,noheader
AB=$PWD/.gpucarry/ab BENCH_CASES=int32,float timeout 500 sh bench/segmented_ab.sh run 3 "base d32 m5 m6 m8 m8d base2" "L=4096,L=16384,L=65536,L=1048576,4096x16K"
cd .gpucarry/ab && tar czf $OUT/ab.tgz *.csv *.txt
