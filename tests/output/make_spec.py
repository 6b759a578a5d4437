#!/usr/bin/env python3
"""Writes a spec of N generated types, each with one reduction, for the
scaling and kill tests. usage: make_spec.py N [MODULE] [VARIANT] > spec.json
VARIANT changes one field type, so two variants generate different code."""
import json, sys

n = int(sys.argv[1])
module = sys.argv[2] if len(sys.argv) > 2 else "big"
variant = int(sys.argv[3]) if len(sys.argv) > 3 else 0
types, reductions = [], []
for i in range(n):
    types.append({"name": "T%d" % i, "fields": [
        {"name": "a", "type": "int"},
        {"name": "b", "type": "double" if variant else "float"},
        {"name": "c", "type": "short", "count": 3}]})
    reductions.append({"name": "r%d" % i, "input": "T%d" % i, "op": "sum"})
json.dump({"gpugen": 1, "module": module, "targets": ["sm_80", "sm_90"],
           "types": types, "reductions": reductions}, sys.stdout, indent=1)
