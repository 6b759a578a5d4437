#!/usr/bin/env python3
"""Compares builds of bench_segmented run alternately in one lease.

    segmented_ab.py DIR BASE,OTHER[,OTHER...] [--column segmented_us|rows_us]

DIR holds NAME.RUN.csv files, one per build and run, as bench_segmented
writes them (bench/segmented_ab.sh run makes them). For every (case,
shape, n) the table gives each build's least time over its runs (the
least is the one least disturbed by the rest of the machine), each other
build's time as a ratio to the first (above 1: faster than the first),
and each build's share of the read-ceiling kernel timed in the same
program. A build whose output was not "same" as CUB's in some run shows
"not same" instead of its time (a wrong result is not timed), a build
without the row "missing", and a form the bench does not time (`_rows` on
offsets, written as 0) "–". Exits 1 on missing files or a column the CSVs
lack, 2 on a usage error.
"""
import argparse
import csv
import glob
import os
import sys


def load(directory, name, column):
    """{(case, shape, n): [least time, least ceiling, all outputs same]} over NAME's runs."""
    files = sorted(glob.glob(os.path.join(directory, name + ".*.csv")))
    if not files:
        sys.exit(f"segmented_ab.py: no {name}.*.csv in {directory}")
    rows = {}
    for path in files:
        with open(path, newline="") as f:
            for r in csv.DictReader(f):
                if column not in r:
                    sys.exit(f"segmented_ab.py: {path} has no column {column}")
                key = (r["case"], r["shape"], int(r["n"]))
                entry = rows.setdefault(key, [float("inf"), float("inf"), True])
                if r["check"] != "same":
                    entry[2] = False
                    continue
                entry[0] = min(entry[0], float(r[column]))
                entry[1] = min(entry[1], float(r["ceiling_us"]))
    return rows


# the bench's own order of shapes after the uniform lengths
NAMED_SHAPES = ["one", "power-law", "giant", "short-mix"]


def shape_order(shape):
    """Uniform lengths by length, then one segment and the mixes as the bench runs them."""
    if shape.startswith("L="):
        return (0, int(shape[2:]), "")
    if shape in NAMED_SHAPES:
        return (1, NAMED_SHAPES.index(shape), "")
    return (2, 0, shape)


def main(argv):
    parser = argparse.ArgumentParser(prog="segmented_ab.py", description="Compares builds of bench_segmented.")
    parser.add_argument("directory", help="holds NAME.RUN.csv, one per build and run")
    parser.add_argument("names", help="BASE,OTHER[,OTHER...]: the builds, the first the base of the ratios")
    parser.add_argument("--column", default="segmented_us", help="segmented_us (the default) or rows_us")
    args = parser.parse_args(argv[1:])
    names = args.names.split(",")
    if len(names) < 2:
        parser.error("name at least two builds")
    directory, column = args.directory, args.column
    builds = [load(directory, name, column) for name in names]
    keys = sorted(set().union(*builds), key=lambda k: (-k[2], shape_order(k[1]), k[0]))
    print("| case | shape | n | " + " | ".join(f"{n} µs" for n in names) + " | " +
          " | ".join(f"{n}/{names[0]}" for n in names[1:]) + " | " +
          " | ".join(f"% ceiling {n}" for n in names) + " |")
    print("|---|---|---|" + "---:|" * (3 * len(names) - 1))  # times, ratios, ceiling shares
    for key in keys:
        entries = [b.get(key) for b in builds]
        n = key[2]
        size = f"2^{n.bit_length() - 1}" if n & (n - 1) == 0 else str(n)
        times, labels = [], []
        for e in entries:
            label = None
            if e is None:
                label = "missing"
            elif not e[2]:
                label = "not same"
            elif not 0 < e[0] < float("inf"):  # the bench writes 0 where a form does not exist
                label = "–"
            times.append(None if label else e[0])
            labels.append(label or f"{e[0]:.1f}")
        cells = [key[0], key[1], size] + labels
        cells += [f"{times[0] / t:.3f}" if times[0] and t else "–" for t in times[1:]]
        cells += [f"{100 * e[1] / t:.0f} %" if t else "–" for e, t in zip(entries, times)]
        print("| " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
