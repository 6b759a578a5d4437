#!/usr/bin/env python3
"""Writes the inputs of the limits suite into DIR: specs too big to keep in
the repository (100,000 fields or types, a 50 MB spec, a chain of 5,000
nested types, a 10,000-character name, structs past the size limits) and a
header with more fields than libclang used to read. usage: make_cases.py DIR"""
import json, os, sys

d = sys.argv[1]
base = {"gpugen": 1, "module": "m", "targets": ["sm_80"]}

def spec(name, **keys):
    with open(os.path.join(d, name + ".json"), "w") as f:
        json.dump(dict(base, **keys), f)

def one(name, fields):
    return {"name": name, "fields": fields}

spec("fields100k", types=[one("A", [{"name": "f%d" % i, "type": "int"} for i in range(100000)])])
spec("types100k", types=[one("T%d" % i, [{"name": "x", "type": "int"}]) for i in range(100000)])
spec("chain5000", types=[one("T%d" % i, [{"name": "x", "type": "T%d" % (i + 1) if i < 4999 else "int"}])
                         for i in range(5000)])
spec("name10k", types=[one("N" * 10000, [{"name": "x", "type": "int"}])])
spec("reductions20k", reductions=[{"name": "r%d" % i, "input": "int", "op": "sum"} for i in range(20000)])
spec("headers300", headers=["h%d.h" % i for i in range(300)], types=[one("A", [{"name": "x", "type": "int"}])])
# 224 bytes that used to produce a 152 MB header: a padded struct in a huge array
spec("padded_array", types=[one("P", [{"name": "c", "type": "char"}, {"name": "i", "type": "int"}]),
                            one("Q", [{"name": "p", "type": "P", "count": 65536}])])
spec("all_types_bytes", types=[one("T%d" % i, [{"name": "x", "type": "double", "count": 8000}]) for i in range(20)])
with open(os.path.join(d, "spec50mb.json"), "w") as f:
    json.dump(dict(base, description="x" * (50 << 20), types=[one("A", [{"name": "x", "type": "int"}])]), f)

# a header struct of 1,030 fields; the spec lists the first 1,024 only
with open(os.path.join(d, "wide.h"), "w") as f:
    f.write("typedef struct Wide {\n%s} Wide;\n" % "".join("  int f%d;\n" % i for i in range(1030)))
spec("wide_header", headers=["wide.h"], types=[one("Wide", [{"name": "f%d" % i, "type": "int"} for i in range(1024)])])

# 60 include directories; the header is found only through the last one
for i in range(60):
    os.makedirs(os.path.join(d, "inc%02d" % i), exist_ok=True)
with open(os.path.join(d, "inc59", "deep.h"), "w") as f:
    f.write("typedef struct Deep { int x; } Deep;\n")
with open(os.path.join(d, "through.h"), "w") as f:
    f.write('#include "deep.h"\n')
spec("include60", module="through_dirs", headers=["through.h"], include_dirs=["inc%02d" % i for i in range(60)],
     types=[one("Deep", [{"name": "x", "type": "int"}])])

# headers that include what is not a regular file: a FIFO (made by the
# suite as pipe.h, since Python's mkfifo is not everywhere), /dev/zero, which
# never ends, and /dev/null
for name, target in [("include_fifo", "pipe.h"), ("include_zero", "/dev/zero"), ("include_null", "/dev/null")]:
    with open(os.path.join(d, name + ".h"), "w") as f:
        f.write('#include "%s"\ntypedef struct A { int x; } A;\n' % target)
    spec(name, headers=[name + ".h"], types=[one("A", [{"name": "x", "type": "int"}])])
