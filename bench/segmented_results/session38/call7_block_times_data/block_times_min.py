#!/usr/bin/env python3
"""Stamps per-block phase times into a generated module's segmented kernel.

    block_times.py GEN_DIR

GEN_DIR holds one module as gpugen writes it (M.cuh, M.cu). Thread 0 of each
block of `reduce_segments` (the `_segmented` and `_rows` kernel) records
%globaltimer at the start (slot 0), after its bounds and the pieces of its
crossing segments (1), after the thread pass (2), the lane-group pass (3),
the warp pass (4) and the block pass (5), and at the end (6), and the
number of segments it owns in slot 7, into a __device__ array of 8 words a
block (up to 8192 blocks). M.cu gets two host functions,
M_block_times(unsigned long long *host) and M_block_times_clear(). A block
that leaves early (past the last chunk, or on the few-segment path) leaves
its later slots 0. For measurement only: the stamps change the kernel's
registers (bench/RESULTS.md, session 31). Exits 1 when the kernel no longer
has the places it stamps (the template changed).
"""
import glob
import os
import sys

MAX_BLOCKS = 8192


def fail(message):
    sys.exit("block_times.py: " + message)


def main():
    if len(sys.argv) != 2:
        print("usage: block_times.py GEN_DIR", file=sys.stderr)
        sys.exit(2)
    gen = sys.argv[1]
    headers = [p for p in glob.glob(os.path.join(gen, "*.cuh")) if "reduce_segments(" in open(p).read()]
    if len(headers) != 1:
        fail(f"{gen} has no single module with a segmented kernel")
    cuh = headers[0]
    module = os.path.basename(cuh)[: -len(".cuh")]
    cu = os.path.join(gen, module + ".cu")
    text = open(cuh).read()
    if "gpugen_block_times" in text:
        fail(f"{cuh} is stamped already")
    start = text.find("__device__ __forceinline__ void reduce_segments(")
    end = text.find("/* Threads per SM that the split-rows kernel asks for")
    if start < 0 or end < start:
        fail("no reduce_segments in " + cuh)
    body = text[start:end]

    def stamp(slot):
        return f"\n  if (threadIdx.x == 0) gpugen_block_times[blockIdx.x * 8 + {slot}] = gpugen_block_clock();\n"

    def insert(body, anchor, addition, after):
        at = body.find(anchor)
        if at < 0:
            fail(f"no '{anchor.strip()}' in reduce_segments (the template changed)")
        at += len(anchor) if after else 0
        return body[:at] + addition + body[at:]

    body = insert(body, "const size_t b = blockIdx.x;", stamp(0), True)
    owned = "  if (threadIdx.x == 0) gpugen_block_times[blockIdx.x * 8 + 7] = s_end - s_begin;\n"
    body = insert(body, "  if (by_index && s_end - s_begin <= (size_t)WARPS) {", owned, False)
    last = body.rstrip().rfind("}")
    body = body[:last] + stamp(6) + body[last:]
    clock = (f"__device__ unsigned long long gpugen_block_times[{MAX_BLOCKS} * 8];\n"
             "__device__ __forceinline__ unsigned long long gpugen_block_clock() {\n"
             "  unsigned long long t;\n"
             '  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));\n'
             "  return t;\n"
             "}\n")
    first = text.find(f"namespace {module} {{")
    if first < 0 or first > start:
        fail(f"no namespace {module} before reduce_segments in {cuh}")
    open(cuh, "w").write(text[:first] + clock + text[first:start] + body + text[end:])
    with open(cu, "a") as f:
        f.write(f"""
extern "C" void {module}_block_times(unsigned long long *host) {{
  cudaMemcpyFromSymbol(host, gpugen_block_times, sizeof(unsigned long long) * {MAX_BLOCKS} * 8);
}}
extern "C" void {module}_block_times_clear() {{
  static const unsigned long long zero[{MAX_BLOCKS} * 8] = {{0}};
  cudaMemcpyToSymbol(gpugen_block_times, zero, sizeof zero);
}}
""")


if __name__ == "__main__":
    main()
