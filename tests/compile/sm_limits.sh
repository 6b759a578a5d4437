#!/bin/sh
# Checks gpugen's table of SM limits (gen/targets.c), as emitted into a
# module's .cu, against the installed ptxas: for every architecture nvcc
# lists, launch bounds at the table's blocks and threads an SM compile with
# -Werror, and one block more fails. usage: sm_limits.sh MODULE.cu WORKDIR
set -u
cuh=$1 work=$2
mkdir -p "$work"
# "ARCH THREADS BLOCKS" per architecture, from the emitted #if chain
python3 - "$cuh" > "$work/limits.txt" <<'PY' || exit 1
import re, sys
text = open(sys.argv[1]).read()
chain = re.search(r"\n#if defined\(__CUDA_ARCH__\) && \(__CUDA_ARCH__ == .*?#endif", text, re.S).group(0)
archs = []
for line in chain.splitlines():
    archs += [int(a) // 10 for a in re.findall(r"__CUDA_ARCH__ == (\d+)", line)]
    m = re.match(r"constexpr int sm_threads_max = (\d+), sm_blocks_max = (\d+);", line)
    if m and archs:
        for a in archs:
            print(a, m.group(1), m.group(2))
        archs = []
PY
status=0
for arch in $(nvcc --list-gpu-arch | sed -n 's/^compute_//p'); do
  line=$(awk -v a="$arch" '$1 == a' "$work/limits.txt")
  if [ -z "$line" ]; then
    echo "sm_$arch: nvcc builds it, but gpugen's table of SM limits (gen/targets.c) lacks it"
    status=1
    continue
  fi
  set -- $line
  threads=$2 blocks=$3
  # at the limits: blocks of 32 threads, and blocks of 512 threads
  at="__global__ void __launch_bounds__(32, $blocks) a(int *p) { p[threadIdx.x] = 1; }
__global__ void __launch_bounds__(512, $((threads / 512))) b(int *p) { p[threadIdx.x] = 2; }"
  over_blocks="__global__ void __launch_bounds__(32, $((blocks + 1))) c(int *p) { p[threadIdx.x] = 3; }"
  over_threads="__global__ void __launch_bounds__(512, $((threads / 512 + 1))) d(int *p) { p[threadIdx.x] = 4; }"
  for case in at over_blocks over_threads; do
    eval "src=\$$case"
    printf '%s\n' "$src" > "$work/$case.cu"
    if nvcc -arch=sm_$arch -Werror all-warnings -cubin -o "$work/$case.cubin" "$work/$case.cu" > "$work/$case.log" 2>&1; then
      [ $case = at ] || { echo "sm_$arch: ptxas accepts $case ($threads threads, $blocks blocks in the table)"; status=1; }
    else
      [ $case != at ] || { echo "sm_$arch: ptxas rejects launch bounds at the table's limits ($threads threads, $blocks blocks):"; cat "$work/$case.log"; status=1; }
    fi
  done
done
exit $status
