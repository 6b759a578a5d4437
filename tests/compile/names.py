#!/usr/bin/env python3
"""Writes a spec that uses every name of a pool that gpugen accepts, for
the compile suite: a name gpugen accepts must compile. Names near the
reserved ones (other spellings of CUDA's types, names std:: and gpugen's
templates use inside their own scopes, common field names) are the point.
usage: names.py GPUGEN OUT.json"""
import json, re, subprocess, sys

type_pool = """Float4 float5 int9 uchar5 dim4 half2x Half bf16 cuda_point CudaPoint tuned Tuning
launch LaunchConfigs details Detail SharedMemory shfl ldg2 shuffle_state vector pair complex tuple
array string function optional value index type result state block stream grid head warps groups
acc_type fold identity texture surface Vec3 Matrix quat Particle Sample Stats Welford""".split()
field_pool = """size data next prev first second begin end mean count total min_value max_value acc
lane warp op Op ops x y z w key weight norm sum prod argmax float4 int2 half cudaSuccess detail
LaunchConfig SharedMem ldg shfl_sync tuned_block threadIdx std main2 size_t2 uint4 min max""".split()
pool = type_pool

def spec(types, fields, reductions):
    ts = []
    for i, t in enumerate(types):
        fs = [{"name": f, "type": "float" if j % 2 else "int"} for j, f in enumerate(fields[i % len(fields):] + fields[:i % len(fields)])][:6]
        ts.append({"name": t, "fields": fs})
    rs = [{"name": r, "input": "float", "op": "sum"} for r in reductions]
    return {"gpugen": 1, "module": "names", "targets": ["sm_80", "sm_90"], "types": ts, "reductions": rs}

types, fields, reductions = list(type_pool), list(field_pool), list(field_pool)
for _ in range(10):
    s = spec(types, fields, reductions)
    open(sys.argv[2], "w").write(json.dumps(s, indent=1))
    p = subprocess.run([sys.argv[1], "--check", sys.argv[2]], capture_output=True, text=True)
    if p.returncode == 0:
        break
    # drop what was refused; each message names its place
    for m in re.finditer(r"types\[(\d+)\]\.fields\[(\d+)\]\.name", p.stderr):
        t, f = int(m.group(1)), int(m.group(2))
        name = s["types"][t]["fields"][f]["name"]
        if name in fields:
            fields.remove(name)
    for m in re.finditer(r"types\[(\d+)\](\.name)?: ", p.stderr):
        name = s["types"][int(m.group(1))]["name"]
        if name in types:
            types.remove(name)
    for m in re.finditer(r"reductions\[(\d+)\]", p.stderr):
        name = s["reductions"][int(m.group(1))]["name"]
        if name in reductions:
            reductions.remove(name)
else:
    sys.exit("names.py: gpugen still refuses the spec:\n" + p.stderr)
print("names.py: %d of %d type names, %d of %d field names, %d of %d reduction names accepted"
      % (len(types), len(type_pool), len(fields), len(field_pool), len(reductions), len(field_pool)), file=sys.stderr)
