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
lack.
"""
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


def shape_order(shape):
    """L=1 < L=4 < ... < one < the mixes, in the bench's own order."""
    if shape.startswith("L="):
        return (0, int(shape[2:]), shape)
    return (1, 0, shape)


def main(argv):
    column = "segmented_us"
    args = list(argv[1:])
    if "--column" in args:
        i = args.index("--column")
        if i + 1 >= len(args):
            sys.exit("segmented_ab.py: --column needs a name")
        column = args[i + 1]
        del args[i:i + 2]
    if len(args) != 2 or "," not in args[1]:
        sys.exit("usage: segmented_ab.py DIR BASE,OTHER[,OTHER...] [--column segmented_us|rows_us]")
    directory, names = args[0], args[1].split(",")
    builds = [load(directory, name, column) for name in names]
    keys = sorted(set().union(*builds), key=lambda k: (-k[2], shape_order(k[1]), k[0]))
    print("| case | shape | n | " + " | ".join(f"{n} µs" for n in names) + " | " +
          " | ".join(f"{n}/{names[0]}" for n in names[1:]) + " | " +
          " | ".join(f"% ceiling {n}" for n in names) + " |")
    print("|---|---|---|" + "---:|" * (2 * len(names) + len(names) - 1))
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
