#!/usr/bin/env python3
"""Property test: random valid specs must build and compute right.

Each spec draws types (scalars of every width and signedness, __half,
nested structs, arrays of scalars and of structs, explicit alignment), CUDA
vector types, and builtin reductions over them (every builtin operator the
type allows, accumulators wider than the input, segmented forms, tuning).
For each spec:
  1. gpugen generates the module;
  2. nvcc compiles M.cu for one target with every warning an error;
  3. gcc compiles M.h as C11 with every warning an error;
  4. a C driver calls each reduction's CPU reference (M_R_host, and
     M_R_segmented_host for segmented ones) on random data, and the results
     are compared with a reference computed here, from this file's own
     model of C layout and of each operator.
Data is drawn so that every exact answer is representable: integers wrap
as C's unsigned arithmetic does, floats hold small integers (so sums and
products are exact in any order), and min/max take any value.

usage: property.py --gpugen PATH --work DIR [--seed N] [--count N] [--arch sm_90]
"""
import argparse
import json
import os
import random
import struct
import subprocess
import sys

# name: (size, align, kind) with kind 's' signed, 'u' unsigned, 'f' float, 'h' half
SCALARS = {
    "signed char": (1, 1, "s"), "unsigned char": (1, 1, "u"), "short": (2, 2, "s"),
    "unsigned short": (2, 2, "u"), "int": (4, 4, "s"), "unsigned int": (4, 4, "u"),
    "long long": (8, 8, "s"), "unsigned long long": (8, 8, "u"), "int8_t": (1, 1, "s"),
    "uint16_t": (2, 2, "u"), "int32_t": (4, 4, "s"), "uint64_t": (8, 8, "u"),
    "float": (4, 4, "f"), "double": (8, 8, "f"), "__half": (2, 2, "h"),
}
# CUDA vector types: (component, components, align)
VECTORS = {
    "char2": ("signed char", 2, 2), "uchar4": ("unsigned char", 4, 4), "short3": ("short", 3, 2),
    "int2": ("int", 2, 8), "uint4": ("unsigned int", 4, 16), "float2": ("float", 2, 8),
    "float3": ("float", 3, 4), "float4": ("float", 4, 16), "double2": ("double", 2, 16),
    "longlong2": ("long long", 2, 16), "__half2": ("__half", 2, 4),
}
PACK = {1: "b", 2: "h", 4: "i", 8: "q"}


def round_up(x, a):
    return (x + a - 1) // a * a


class Layout:
    """A type as C lays it out: leaves are (offset, scalar name)."""

    def __init__(self, size, align, leaves):
        self.size, self.align, self.leaves = size, align, leaves


def scalar_layout(name):
    size, align, _ = SCALARS[name]
    return Layout(size, align, [(0, name)])


def vector_layout(name):
    comp, n, align = VECTORS[name]
    cs = SCALARS[comp][0]
    return Layout(round_up(cs * n, align), align, [(i * cs, comp) for i in range(n)])


def struct_layout(fields, layouts, explicit_align=None):
    off, align, leaves = 0, 1, []
    for f in fields:
        sub = layouts[f["type"]]
        off = round_up(off, sub.align)
        for k in range(f.get("count", 1)):
            leaves += [(off + k * sub.size + o, s) for o, s in sub.leaves]
        off += sub.size * f.get("count", 1)
        align = max(align, sub.align)
    if explicit_align:
        align = max(align, explicit_align)
    return Layout(round_up(off, align), align, leaves)


def kinds_of(layout):
    return {SCALARS[s][2] for _, s in layout.leaves}


# ---- values and the reference ------------------------------------------------

def bits(name):
    return SCALARS[name][0] * 8


def wrap(name, v):
    """v as the scalar holds it: integers modulo 2^bits, signed as two's complement."""
    kind = SCALARS[name][2]
    if kind in "su":
        v &= (1 << bits(name)) - 1
        if kind == "s" and v >= 1 << (bits(name) - 1):
            v -= 1 << bits(name)
    return v


def draw(rng, name, op):
    kind = SCALARS[name][2]
    if kind in "fh":
        if op == "prod":
            return float(rng.choice([-1, 1, 1, 2]) if kind == "f" else rng.choice([-1, 1]))
        if op in ("min", "max"):
            return float(rng.randint(-1000, 1000)) / (4 if kind == "f" else 1)
        return float(rng.randint(-3, 3))
    lo, hi = (-(1 << (bits(name) - 1)), (1 << (bits(name) - 1)) - 1) if kind == "s" else (0, (1 << bits(name)) - 1)
    if op in ("sum", "prod"):
        # unsigned sums and products wrap as C defines; signed ones stay in
        # range (C leaves their overflow undefined)
        if kind == "u":
            return rng.randint(lo, hi) if op == "sum" else rng.choice([1, 2, 3, 5, hi])
        return rng.randint(-3, 3) if op == "sum" else rng.choice([-1, 1, 1])
    return rng.randint(lo, hi)


def identity(name, op):
    kind = SCALARS[name][2]
    if op == "sum" or op in ("bit_or", "bit_xor"):
        return 0.0 if kind in "fh" else 0
    if op == "prod":
        return 1.0 if kind in "fh" else 1
    if op == "bit_and":
        return wrap(name, -1)
    if kind in "fh":
        return float("inf") if op == "min" else float("-inf")
    lo, hi = (-(1 << (bits(name) - 1)), (1 << (bits(name) - 1)) - 1) if kind == "s" else (0, (1 << bits(name)) - 1)
    return hi if op == "min" else lo


def combine(name, op, a, b):
    if op == "sum":
        r = a + b
    elif op == "prod":
        r = a * b
    elif op == "min":
        r = b if b < a else a
    elif op == "max":
        r = b if b > a else a
    elif op == "bit_and":
        r = a & b
    elif op == "bit_or":
        r = a | b
    else:
        r = a ^ b
    return r if SCALARS[name][2] in "fh" else wrap(name, r)


def encode(name, v):
    size, _, kind = SCALARS[name]
    if kind == "h":
        return struct.pack("<e", v)
    if kind == "f":
        return struct.pack("<f" if size == 4 else "<d", v)
    fmt = PACK[size]
    return struct.pack("<" + (fmt if kind == "s" else fmt.upper()), v)


def decode(name, raw):
    size, _, kind = SCALARS[name]
    if kind == "h":
        return struct.unpack("<e", raw)[0]
    if kind == "f":
        return struct.unpack("<f" if size == 4 else "<d", raw)[0]
    fmt = PACK[size]
    return struct.unpack("<" + (fmt if kind == "s" else fmt.upper()), raw)[0]


def element_bytes(layout, values):
    out = bytearray(layout.size)
    for (off, s), v in zip(layout.leaves, values):
        out[off:off + SCALARS[s][0]] = encode(s, v)
    return bytes(out)


def fold_values(in_layout, acc_layout, op, elements):
    """The accumulator's leaves after folding elements, in order: the input's
    leaves are converted to the accumulator's (same shape)."""
    acc = [identity(s, op) for _, s in acc_layout.leaves]
    for values in elements:
        acc = [combine(s, op, a, (float(v) if SCALARS[s][2] in "fh" else wrap(s, int(v))))
               for (_, s), a, v in zip(acc_layout.leaves, acc, values)]
    return acc


# ---- specs -------------------------------------------------------------------

def make_spec(rng, index, arch):
    layouts = {n: scalar_layout(n) for n in SCALARS}
    layouts.update({n: vector_layout(n) for n in VECTORS})
    types = []
    for t in range(rng.randint(1, 3)):
        fields = []
        for f in range(rng.randint(1, 4)):
            choices = list(SCALARS) + list(VECTORS) + [x["name"] for x in types]
            field = {"name": "f%d" % f, "type": rng.choice(choices)}
            if rng.random() < 0.35:
                field["count"] = rng.randint(1, 4)
            fields.append(field)
        spec_type = {"name": "T%d" % t, "fields": fields}
        natural = struct_layout(fields, layouts)
        if rng.random() < 0.2:
            spec_type["align"] = max(natural.align, rng.choice([4, 8, 16]))
        layouts[spec_type["name"]] = struct_layout(fields, layouts, spec_type.get("align"))
        types.append(spec_type)
    reductions, checks = [], []
    candidates = [t["name"] for t in types] + rng.sample(sorted(VECTORS), 1) + rng.sample(sorted(SCALARS), 1)
    for r, input_name in enumerate(candidates):
        lay = layouts[input_name]
        kinds = kinds_of(lay)
        ops = ["sum", "prod", "min", "max"] + (["bit_and", "bit_or", "bit_xor"] if kinds <= {"s", "u"} else [])
        op = rng.choice(ops)
        red = {"name": "r%d" % r, "input": input_name, "op": op}
        acc_name = input_name
        if input_name in SCALARS and op == "sum" and SCALARS[input_name][2] in "su" and SCALARS[input_name][0] < 8:
            acc_name = "long long" if SCALARS[input_name][2] == "s" else "unsigned long long"
            red["accumulator"] = acc_name
        if rng.random() < 0.4:
            red["segmented"] = True
        reductions.append(red)
        checks.append({"red": red, "kind": "fold", "inputs": [input_name], "lays": [lay],
                       "acc_name": acc_name, "acc": layouts[acc_name]})
    if rng.random() < 0.6:  # argmin/argmax: a scalar input, a result struct {value, index}
        name = rng.choice(sorted(SCALARS))
        red = {"name": "r%d" % len(reductions), "input": name, "op": rng.choice(["argmin", "argmax"])}
        if rng.random() < 0.4:
            red["segmented"] = True
        reductions.append(red)
        size = SCALARS[name][0]
        result = Layout(round_up(size, 8) + 8, 8, [(0, name), (round_up(size, 8), "long long")])
        checks.append({"red": red, "kind": "arg", "inputs": [name], "lays": [scalar_layout(name)],
                       "acc_name": "%s_%s_result" % ("prop%d" % index, red["name"]), "acc": result})
    if rng.random() < 0.6:  # dot over an input list of two scalars
        a, b, acc_name = rng.choice([("float", "float", None), ("double", "double", None), ("int", "int", None),
                                     ("unsigned int", "unsigned int", None), ("long long", "long long", None),
                                     ("short", "int", "long long"), ("signed char", "int", "long long"),
                                     ("unsigned char", "unsigned char", "unsigned int"), ("float", "double", "double")])
        red = {"name": "r%d" % len(reductions), "input": [a, b], "op": "dot"}
        if acc_name:
            red["accumulator"] = acc_name
        if rng.random() < 0.4:
            red["segmented"] = True
        reductions.append(red)
        acc_name = acc_name or a
        checks.append({"red": red, "kind": "dot", "inputs": [a, b], "lays": [scalar_layout(a), scalar_layout(b)],
                       "acc_name": acc_name, "acc": scalar_layout(acc_name)})
    spec = {"gpugen": 1, "module": "prop%d" % index, "targets": [arch], "types": types, "reductions": reductions}
    if rng.random() < 0.5:
        spec["tuning"] = {"default": {"block": 256, "items_per_thread": 16},
                          arch: {"block": rng.choice([64, 128, 256, 512, 1024]),
                                 "items_per_thread": rng.choice([1, 2, 4, 8, 16, 32])}}
        if rng.random() < 0.5:
            spec["tuning"][arch]["min_blocks_per_sm"] = rng.choice([1, 2])
    return spec, checks


# ---- the driver --------------------------------------------------------------

def c_bytes(name, data):
    body = ",".join(str(b) for b in data) or "0"
    return "static _Alignas(16) const unsigned char %s[] = {%s};\n" % (name, body)


def holds_paired_half(name, types):
    """Whether a value of the type holds a __half2 (not trivially copyable in C++)."""
    if name == "__half2":
        return True
    for t in types:
        if t["name"] == name:
            return any(holds_paired_half(f["type"], types) for f in t["fields"])
    return False


def c_name(name):
    return name.replace("__half2", "gpugen_half2").replace("__half", "gpugen_half")


def reference(check, arrays):
    """The result's bytes over arrays (one list of leaf-value lists per input)."""
    kind, red, acc = check["kind"], check["red"], check["acc"]
    if kind == "fold":
        return element_bytes(acc, fold_values(check["lays"][0], acc, red["op"], arrays[0]))
    if kind == "arg":
        name = check["inputs"][0]
        values = [e[0] for e in arrays[0]]
        if not values:
            return element_bytes(acc, [identity(name, "min" if red["op"] == "argmin" else "max"), -1])
        best = min(values) if red["op"] == "argmin" else max(values)
        return element_bytes(acc, [best, values.index(best)])
    total = 0.0 if SCALARS[check["acc_name"]][2] in "fh" else 0
    for x, y in zip(arrays[0], arrays[1]):
        total = combine(check["acc_name"], "sum", total, x[0] * y[0])
    return element_bytes(acc, [total])


def make_driver(rng, module, checks, types):
    """C source that prints each result's bytes in hex, one line a result, and
    the expected lines with the layout to compare them by."""
    src = ['#include <stdio.h>\n#include <string.h>\n#include "%s.h"\n' % module,
           "static void put(const void *p, size_t n) {\n  const unsigned char *b = p;\n"
           "  for (size_t i = 0; i < n; i++) printf(\"%02x\", b[i]);\n  printf(\"\\n\");\n}\n"]
    main, expected = [], []
    for check in checks:
        red = check["red"]
        name, op = red["name"], red["op"]
        draw_op = {"arg": "min", "dot": "sum"}.get(check["kind"], op)
        n = rng.choice([0, 1, 2, 31, 33, 100, rng.randint(0, 400)])
        arrays, ins = [], []
        for k, lay in enumerate(check["lays"]):
            elements = [[draw(rng, s, draw_op) for _, s in lay.leaves] for _ in range(n)]
            arrays.append(elements)
            src.append(c_bytes("in%d_%s" % (k, name), b"".join(element_bytes(lay, e) for e in elements)))
            ins.append("(const %s *)in%d_%s" % (c_name(check["inputs"][k]), k, name))
        acc_c = c_name(check["acc_name"])
        args = ", ".join(ins)
        if holds_paired_half(check["acc_name"], types):
            # C++ returns these through memory, C in registers: M_R_host takes h_out
            main.append("  { %s r; %s_%s_host(%s, %d, &r); put(&r, sizeof r); }" % (acc_c, module, name, args, n))
        else:
            main.append("  { %s r = %s_%s_host(%s, %d); put(&r, sizeof r); }" % (acc_c, module, name, args, n))
        expected.append((reference(check, arrays).hex(), check["acc"]))
        if red.get("segmented"):
            cuts = sorted(rng.randint(0, n) for _ in range(rng.randint(0, 5)))
            offsets = [0] + cuts + [n]
            src.append("static const long long off_%s[] = {%s};\n" % (name, ",".join(map(str, offsets))))
            nseg = len(offsets) - 1
            main.append("  { %s r[%d]; %s_%s_segmented_host(%s, off_%s, %d, r); put(r, sizeof r); }" %
                        (acc_c, nseg, module, name, args, name, nseg))
            expected.append((b"".join(reference(check, [a[offsets[i]:offsets[i + 1]] for a in arrays])
                                      for i in range(nseg)).hex(), check["acc"]))
    src.append("int main(void) {\n%s\n  return 0;\n}\n" % "\n".join(main))
    return "".join(src), expected


def leaves_equal(acc, got_hex, want_hex):
    """Compares by value (so that -0.0 equals 0.0 and padding is ignored)."""
    got, want = bytes.fromhex(got_hex), bytes.fromhex(want_hex)
    if len(got) != len(want) or len(got) % acc.size:
        return False
    for base in range(0, len(got), acc.size):
        for off, s in acc.leaves:
            a = decode(s, got[base + off:base + off + SCALARS[s][0]])
            b = decode(s, want[base + off:base + off + SCALARS[s][0]])
            if a != b and not (a != a and b != b):
                return False
    return True


def run(cmd, cwd=None):
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return p.returncode, p.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gpugen", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=2)
    ap.add_argument("--arch", default="sm_90")
    a = ap.parse_args()
    nvcc = os.environ.get("NVCC", "nvcc")
    cuda = os.path.dirname(os.path.dirname(subprocess.run(["which", nvcc], stdout=subprocess.PIPE, text=True).stdout.strip()))
    generated = compiled = host_checks = 0
    failures = []
    for i in range(a.count):
        seed = a.seed + i
        rng = random.Random(seed)
        spec, checks = make_spec(rng, seed, a.arch)
        d = os.path.join(a.work, "spec%d" % seed)
        os.makedirs(d, exist_ok=True)
        spec_path = os.path.join(d, "spec.json")
        with open(spec_path, "w") as f:
            json.dump(spec, f, indent=1)
        generated += 1
        module = spec["module"]
        steps = [
            ("gpugen", [a.gpugen, "-q", "-o", d, spec_path]),
            ("nvcc", [nvcc, "-std=c++17", "-arch=" + a.arch, "-Werror", "all-warnings",
                      "-Xcompiler", "-Wall,-Wextra,-Werror", "-c", "-o", os.path.join(d, module + ".o"),
                      os.path.join(d, module + ".cu")]),
            ("gcc -std=c11", ["gcc", "-std=c11", "-Wall", "-Wextra", "-Wpedantic", "-Werror", "-fsyntax-only",
                              "-I" + os.path.join(cuda, "include"), "-x", "c", os.path.join(d, module + ".h")]),
        ]
        ok = True
        for what, cmd in steps:
            rc, out = run(cmd)
            if rc != 0:
                failures.append("seed %d: %s failed (%s):\n%s" % (seed, what, spec_path, out[-3000:]))
                ok = False
                break
        if not ok:
            continue
        compiled += 1
        src, expected = make_driver(rng, module, checks, spec["types"])
        with open(os.path.join(d, "driver.c"), "w") as f:
            f.write(src)
        exe = os.path.join(d, "driver")
        for what, cmd in [("gcc driver", ["gcc", "-std=c11", "-Wall", "-Wextra", "-Werror", "-I" + d,
                                         "-I" + os.path.join(cuda, "include"), "-c", "-o", exe + ".o",
                                         os.path.join(d, "driver.c")]),
                          ("link", ["g++", "-o", exe, exe + ".o", os.path.join(d, module + ".o"),
                                    "-L" + os.path.join(cuda, "lib64"), "-lcudart"])]:
            rc, out = run(cmd)
            if rc != 0:
                failures.append("seed %d: %s failed (%s):\n%s" % (seed, what, spec_path, out[-3000:]))
                ok = False
                break
        if not ok:
            continue
        rc, out = run([exe])
        lines = out.split()
        if rc != 0 or len(lines) != len(expected):
            failures.append("seed %d: the driver exited %d with %d lines, expected %d:\n%s" %
                            (seed, rc, len(lines), len(expected), out[-2000:]))
            continue
        for k, (got, (want, acc)) in enumerate(zip(lines, expected)):
            host_checks += 1
            if not leaves_equal(acc, got, want):
                failures.append("seed %d: result %d differs (%s)\n  got  %s\n  want %s" %
                                (seed, k, spec_path, got[:200], want[:200]))
    print("property: %d specs generated, %d compiled (nvcc %s -Werror, gcc -std=c11), %d _host results checked"
          % (generated, compiled, a.arch, host_checks))
    for f in failures:
        print("FAIL " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
