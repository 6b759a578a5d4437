#!/usr/bin/env python3
"""Writes the reduction test specs (r_*.json) and the case lists the GPU
harnesses include (cases.inc, seg_cases.inc). Run it after changing the lists below; its
outputs are committed so the GPU machine needs no Python."""
import json, os

HERE = os.path.dirname(os.path.abspath(__file__))
TARGETS = ["sm_75", "sm_80", "sm_90"]
SIGNED = ["int8_t", "int16_t", "int32_t", "int64_t"]
UNSIGNED = ["uint8_t", "uint16_t", "uint32_t", "uint64_t"]
FLOATS = ["float", "double"]
STRUCTS = {  # name: (fields, integer-only)
    "S3":  ([("a", "uint8_t", 0), ("b", "uint8_t", 0), ("c", "uint8_t", 0)], True),
    "S6":  ([("a", "short", 0), ("b", "short", 0), ("c", "short", 0)], True),
    "S12": ([("x", "float", 0), ("y", "float", 0), ("z", "float", 0)], False),
    "S16": ([("a", "int", 0), ("b", "long long", 0)], True),
    "S17": ([("b", "uint8_t", 17)], True),
    "S48": ([("d", "double", 5), ("i", "int", 0), ("s", "short", 0)], False),
}
ARITH = ["sum", "prod", "min", "max"]
BITS = ["bit_and", "bit_or", "bit_xor"]
ARG = ["argmin", "argmax"]

def ident(t):
    return t.replace(" ", "_")

def spec(module, types, reductions, headers=None, tuning=None):
    s = {"gpugen": 1, "module": module}
    if headers:
        s["headers"] = headers
    s["targets"] = TARGETS
    if tuning:
        s["tuning"] = tuning
    if types:
        s["types"] = types
    s["reductions"] = reductions
    with open(os.path.join(HERE, module + ".json"), "w") as f:
        json.dump(s, f, indent=1)
        f.write("\n")

cases = []  # (module, reduction, input, acc, input class, compare)

def builtin_module(module, inputs, ops_for, types=None):
    reds = []
    for t in inputs:
        for op in ops_for(t):
            name = "%s_%s" % (op, ident(t))
            reds.append({"name": name, "input": t, "op": op})
            acc = "%s_%s_result" % (module, name) if op in ARG else t
            cls = "PROD" if op == "prod" else ("TIES" if op in ARG or op in ("min", "max") else "GENERAL")
            cases.append((module, name, t, acc, cls, "EXACT"))
    spec(module, types, reds)

builtin_module("r_signed", SIGNED, lambda t: ARITH + BITS + ARG)
builtin_module("r_unsigned", UNSIGNED, lambda t: ARITH + BITS + ARG)
builtin_module("r_floats", FLOATS, lambda t: ARITH + ARG)
struct_types = [{"name": n, "fields": [dict({"name": f, "type": ty}, **({"count": c} if c else {})) for f, ty, c in fs]}
                for n, (fs, _) in STRUCTS.items()]
builtin_module("r_structs", list(STRUCTS), lambda t: ARITH + (BITS if STRUCTS[t][1] else []), struct_types)

# A float sum over random reals: inexact, checked against the documented bound.
cases.append(("r_floats", "sum_float", "float", "float", "REAL", "FLOAT_BOUND"))

user_types = [
    {"name": "SumSq", "fields": [{"name": "sum", "type": "int"}, {"name": "sumsq", "type": "long long"}]},
    {"name": "Welford", "fields": [{"name": "n", "type": "float"}, {"name": "mean", "type": "float"},
                                   {"name": "m2", "type": "float"}]},
    {"name": "MaxSub", "fields": [{"name": f, "type": "long long"} for f in ("sum", "best_prefix", "best_suffix", "best")]},
    {"name": "Hash", "fields": [{"name": "h", "type": "unsigned long long"}, {"name": "p", "type": "unsigned long long"}]},
    {"name": "Bytes17", "fields": [{"name": "b", "type": "uint8_t", "count": 17}]},
    {"name": "Counted", "fields": [{"name": f, "type": "long long"} for f in ("n", "sum", "identity_combines")]},
]
NEG = "-4611686018427387904"
user_reductions = [
    {"name": "widen", "input": "int8_t", "accumulator": "long long", "op": "sum"},
    {"name": "sumsq", "input": "int", "accumulator": "SumSq", "fold": "sumsq_fold", "combine": "sumsq_combine",
     "identity": {"sum": 0, "sumsq": 0}},
    {"name": "welford", "input": "float", "accumulator": "Welford", "fold": "welford_fold",
     "combine": "welford_combine", "identity": {"n": 0, "mean": 0, "m2": 0}},
    {"name": "maxsub", "input": "int", "accumulator": "MaxSub", "fold": "maxsub_fold", "combine": "maxsub_combine",
     "commutative": False, "identity": {"sum": 0, "best_prefix": NEG, "best_suffix": NEG, "best": NEG}},
    {"name": "polyhash", "input": "int", "accumulator": "Hash", "fold": "hash_fold", "combine": "hash_combine",
     "commutative": False, "identity": {"h": 0, "p": 1}},
    {"name": "bytehash", "input": "Bytes17", "accumulator": "Hash", "fold": "bytes_fold", "combine": "hash_combine",
     "commutative": False, "identity": {"h": 0, "p": 1}},
    # no combine with the identity anywhere (the count must stay 0, as on the CPU)
    {"name": "counted", "input": "int", "accumulator": "Counted", "fold": "counted_fold", "combine": "counted_combine",
     "identity": {"n": 0, "sum": 0, "identity_combines": 0}},
]
spec("r_user", user_types, user_reductions, headers=["user_ops.h"])
cases += [("r_user", "widen", "int8_t", "long long", "GENERAL", "EXACT"),
          ("r_user", "sumsq", "int", "SumSq", "SMALL", "EXACT"),
          ("r_user", "welford", "float", "Welford", "REAL", "WELFORD"),
          ("r_user", "maxsub", "int", "MaxSub", "SMALL", "EXACT"),
          ("r_user", "polyhash", "int", "Hash", "GENERAL", "EXACT"),
          ("r_user", "bytehash", "Bytes17", "Hash", "GENERAL", "EXACT"),
          ("r_user", "counted", "int", "Counted", "SMALL", "EXACT")]

# Segmented reductions (test_segmented.cu): every operator kind, both offset
# types, in two modules of their own (a spec with headers takes its types
# from them, so the user operators have a module apart).
seg_cases = []  # (module, reduction, input, acc, offset, input class, comparison)
SEG_BUILTIN = [("sum", "int32_t", "int", "GENERAL"), ("prod", "int64_t", "long long", "PROD"),
               ("min", "int8_t", "int", "TIES"), ("max", "uint16_t", "long long", "TIES"),
               ("bit_xor", "uint32_t", "long long", "GENERAL"), ("bit_or", "uint8_t", "int", "GENERAL"),
               ("argmin", "int16_t", "int", "TIES"), ("argmax", "float", "long long", "TIES"),
               ("argmin", "double", "int", "TIES"), ("sum", "float", "long long", "GENERAL"),
               ("max", "double", "int", "TIES"), ("sum", "S12", "long long", "GENERAL"),
               ("min", "S6", "int", "TIES"), ("bit_and", "S3", "long long", "GENERAL"),
               ("sum", "S17", "int", "GENERAL"), ("max", "S48", "long long", "TIES"), ("sum", "S16", "int", "GENERAL")]
reds = []
for op, t, off, cls in SEG_BUILTIN:
    name = "%s_%s" % (op, ident(t))
    reds.append({"name": name, "input": t, "op": op, "segmented": True, "offset_type": off})
    acc = "r_seg_%s_result" % name if op in ARG else t
    seg_cases.append(("r_seg", name, t, acc, off, "PROD" if op == "prod" else cls, "EXACT"))
seg_cases.append(("r_seg", "sum_float", "float", "float", "long long", "REAL", "FLOAT_BOUND"))
spec("r_seg", struct_types, reds)
seg_user = []
for r, off in zip(user_reductions, ["long long", "int", "long long", "int", "long long", "int", "long long"]):
    seg_user.append(dict(r, segmented=True, offset_type=off))
spec("r_seg_user", user_types, seg_user, headers=["user_ops.h"])
for (m, r, t, a, cls, cmp), off in zip(cases[-7:], ["long long", "int", "long long", "int", "long long", "int", "long long"]):
    seg_cases.append(("r_seg_user", r, t, a, off, cls, cmp))
# The same accumulators of more than 8 bytes under a tuning other than the
# default: blocks of 128 and 8 items a thread, so K = 2 groups of 16 bytes a
# lane. Ordered rows then take the grouped tiles up to 64 groups (a lane 2
# groups; 256 ints), and longer ones reduce_long_rows_ordered, so the shapes
# 64 x 256 and 33 x 512 fall on either side of grouped_rows_max_groups.
K2 = ["sumsq", "welford", "maxsub", "polyhash"]
spec("r_seg_k2", user_types, [r for r in seg_user if r["name"] in K2], headers=["user_ops.h"],
     tuning={"default": {"block": 128, "items_per_thread": 8}})
for m, r, t, a, off, cls, cmp in list(seg_cases):
    if m == "r_seg_user" and r in K2:
        seg_cases.append(("r_seg_k2", r, t, a, off, cls, cmp))
# CUDA's vector types: builtin ops field-wise, a widening into a
# vector of wider components, a struct with a double2 field; flat and
# segmented, in a module of their own.
vec_types = [{"name": "SV", "fields": [{"name": "d", "type": "double2"}, {"name": "i", "type": "int"}]}]
VEC = [("sum", "float4", "float4", "GENERAL"), ("max", "int2", "int2", "TIES"),
       ("sum", "uchar3", "uint3", "GENERAL"), ("sum", "SV", "SV", "GENERAL"), ("min", "double2", "double2", "TIES")]
vec_reds = []
for op, t, acc, cls in VEC:
    name = "%s_%s" % (op, t)
    r = {"name": name, "input": t, "op": op, "segmented": True}
    if acc != t:
        r["accumulator"] = acc
    vec_reds.append(r)
    cases.append(("r_vectors", name, t, acc, cls, "EXACT"))
    seg_cases.append(("r_vectors", name, t, acc, "long long", cls, "EXACT"))
spec("r_vectors", vec_types, vec_reds)

with open(os.path.join(HERE, "seg_cases.inc"), "w") as f:
    f.write("// Generated by make_cases.py: SEG_CASE(module, reduction, input, accumulator, offset, input class, comparison)\n")
    for m, r, t, a, off, cls, cmp in seg_cases:
        f.write("SEG_CASE(%s, %s, %s, %s, %s, %s, %s)\n" % (m, r, t, a, off, cls, cmp))

with open(os.path.join(HERE, "cases.inc"), "w") as f:
    f.write("// Generated by make_cases.py: CASE(module, reduction, input, accumulator, input class, comparison)\n")
    for m, r, t, a, cls, cmp in cases:
        f.write("CASE(%s, %s, %s, %s, %s, %s)\n" % (m, r, t, a, cls, cmp))
    f.write("// struct fills: FILL_FIELD(type, field, count)\n")
    for n, (fs, _) in STRUCTS.items():
        f.write("FILL_BEGIN(%s) %s FILL_END\n" % (n, " ".join("FILL_FIELD(%s, %d)" % (fld, c) for fld, ty, c in fs)))
    f.write("FILL_BEGIN(Bytes17) FILL_FIELD(b, 17) FILL_END\n")
    for t, comps in (("float4", "xyzw"), ("int2", "xy"), ("uchar3", "xyz"), ("double2", "xy")):
        f.write("FILL_BEGIN(%s) %s FILL_END\n" % (t, " ".join("FILL_FIELD(%s, 0)" % c for c in comps)))
    f.write("FILL_BEGIN(SV) FILL_FIELD(d.x, 0) FILL_FIELD(d.y, 0) FILL_FIELD(i, 0) FILL_END\n")
print(len(cases), "cases,", len(seg_cases), "segmented cases")
