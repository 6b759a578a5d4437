# Adds per-block %globaltimer stamps to reduce_segments in a generated benchseg.cuh (experiment only).
import sys
p = sys.argv[1]
s = open(p).read()
start = s.index("__device__ __forceinline__ void reduce_segments(")
end = s.index("/* Threads per SM that the split-rows kernel asks for")
body = s[start:end]
def ins_after(body, anchor, text, count=1):
    i = body.index(anchor) + len(anchor)
    return body[:i] + text + body[i:]
def ins_before(body, anchor, text):
    i = body.index(anchor)
    return body[:i] + text + body[i:]
stamp = lambda k: "\n  if (threadIdx.x == 0) gpugen_seg_timing[blockIdx.x * 8 + %d] = gpugen_now();\n" % k
body = ins_after(body, "const size_t b = blockIdx.x;", stamp(0))
body = ins_before(body, "  if (by_index && s_end - s_begin <= (size_t)WARPS) {", stamp(1) + "  if (threadIdx.x == 0) gpugen_seg_timing[blockIdx.x * 8 + 7] = s_end - s_begin;\n")
body = ins_before(body, "  if (block_sized && group_sized)", stamp(2))
body = ins_before(body, "  if (block_sized) {\n    /* Warp w takes", stamp(3))
body = ins_after(body, "    block_sized = __syncthreads_or(longer);\n  }\n", stamp(4))
body = ins_before(body, "  if (crossing_in_ends) { /* the lower", stamp(5))
# end: before the function's final closing brace
k = body.rstrip().rindex("}")
body = body[:k] + stamp(6) + body[k:]
pre = ("__device__ unsigned long long gpugen_seg_timing[8192 * 8];\n"
       "__device__ __forceinline__ unsigned long long gpugen_now() { unsigned long long t; "
       "asm volatile(\"mov.u64 %0, %%globaltimer;\" : \"=l\"(t)); return t; }\n")
first_ns = s.index("namespace benchseg {")
s = s[:first_ns] + pre + s[first_ns:start] + body + s[end:]
open(p, "w").write(s)
cu = sys.argv[2]
open(cu, "a").write('\nextern "C" void benchseg_timing(unsigned long long *h) { cudaMemcpyFromSymbol(h, gpugen_seg_timing, sizeof(unsigned long long) * 8192 * 8); }\n'
                    'extern "C" void benchseg_timing_clear() { static unsigned long long z[8192 * 8]; cudaMemcpyToSymbol(gpugen_seg_timing, z, sizeof z); }\n')
