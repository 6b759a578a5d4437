"""One report from the bench's CSVs (usage: report.py OUTDIR):
- OUTDIR/all.csv: every figure, one row per case, n and peer;
- OUTDIR/table.md, also printed: one table per case with every peer side by
  side, one row per size, the best peer and gpugen's ratio against it; the
  ratios below 1.0; the bench's targets, judged against the faster CUB;
  the segmented section when its CSVs are there;
- OUTDIR/<case>.png: throughput against n for every peer, the read ceiling
  as a line.
Inputs: bench.csv (bench.cu built with the toolkit's CUB), bench_cccl.csv
(the same built with the newest CCCL; optional), more runs of either as
bench.2.csv, bench_cccl.2.csv, ... (make bench BENCH_RUNS=k), and peers.csv
(peers.py; optional); for the segmented section, segmented.csv,
segmented_cccl.csv and peers_segmented.csv (make -C bench segmented;
optional). Each bench figure is the median over the runs; both
programs time the same gpugen code, so gpugen's median is over all of them.
Where a size comes twice in one run (2^28 and 1 GiB of a 4-byte type are the
same n), the first counts."""
import csv, os, statistics, sys

out = sys.argv[1] if len(sys.argv) > 1 else "out"


def read(name):
    path = os.path.join(out, name)
    return list(csv.DictReader(open(path))) if os.path.exists(path) else []


def f(x):
    return float(x) if x not in (None, "", "-") else 0.0


CEILING = "read ceiling"
figures = {}  # (case, n) -> {peer: {"us", "bytes", "check"}}, in the order first seen
cases = []
floor = None
cub_names = []
spread = {}  # (case, n) -> (largest - least) / median of gpugen's times over the runs


def add(case, n, peer, us, nbytes, check):
    if case not in cases:
        cases.append(case)
    row = figures.setdefault((case, n), {})
    if peer not in row:
        row[peer] = {"us": us, "bytes": nbytes, "check": check}


# Every run of both programs: bench.csv, bench_cccl.csv, bench.2.csv, ...
runs = sorted(name for name in os.listdir(out) if name.startswith("bench") and name.endswith(".csv"))
times = {}  # (case, n, peer) -> [µs in each run]
checks = {}  # (case, n, peer) -> the checks of all runs
sizes = {}  # (case, n) -> bytes
floors = []
for name in runs:
    rows = read(name)
    if not rows or "cub_version" not in rows[0]:
        continue
    cub = "CUB " + rows[0]["cub_version"]
    if cub not in cub_names:
        cub_names.append(cub)
    seen = set()  # a size that comes twice in one run counts once
    for r in rows:
        if r["case"] == "empty-launch":
            floors.append(f(r["gpugen_us"]))
            continue
        key = (r["case"], int(r["n"]))
        if key in seen:
            continue
        seen.add(key)
        sizes.setdefault(key, int(r["bytes"]))
        for peer, us, check in (("gpugen", r["gpugen_us"], "same"), (CEILING, r["ceiling_us"], "same"),
                                (cub, r["cub_us"], r["check"])):
            if f(us):
                times.setdefault(key + (peer,), []).append(f(us))
                checks.setdefault(key + (peer,), []).append(check)
for (case, n, peer), t in times.items():
    bad = [c for c in checks[(case, n, peer)] if c != "same"]
    add(case, n, peer, statistics.median(t), sizes[(case, n)], bad[0] if bad else "same")
    if peer == "gpugen" and len(t) > 1:
        spread[(case, n)] = (max(t) - min(t)) / statistics.median(t)
floor = statistics.median(floors) if floors else None
if not figures:
    sys.exit("report.py: no bench*.csv in %s" % out)
for p in read("peers.csv"):
    if (p["case"], int(p["n"])) in figures:  # peers at sizes the bench has
        add(p["case"], int(p["n"]), p["peer"], f(p["us"]), int(p["bytes"]), p["check"])

with open(os.path.join(out, "all.csv"), "w") as all_csv:
    all_csv.write("case,n,bytes,peer,us,GBps,check\n")
    for (case, n), row in figures.items():
        for peer, v in row.items():
            gbps = v["bytes"] / v["us"] / 1e3 if v["us"] else 0
            all_csv.write("%s,%d,%d,%s,%s,%s,%s\n" % (case, n, v["bytes"], peer, "%.3f" % v["us"] if v["us"] else "",
                                                      "%.2f" % gbps if v["us"] else "", v["check"]))


def valid(v):
    """A figure that counts: timed, and its result checked equal."""
    return v["us"] > 0 and v["check"] == "same"


def best_peer(row):
    """The fastest peer of a row whose result was right (not gpugen, not the
    read ceiling), as (name, µs), or None."""
    timed = [(p, v["us"]) for p, v in row.items() if p not in ("gpugen", CEILING) and valid(v)]
    return min(timed, key=lambda t: t[1]) if timed else None


def cell(v):
    if v is None:
        return "–"
    if valid(v):
        return "%.2f" % v["us"]
    return "wrong" if v["check"].startswith("wrong") or v["check"] == "DIFFERENT" else v["check"]


lines = []
below = []  # (case, n, best peer, ratio)
for case in cases:
    keys = [k for k in figures if k[0] == case]
    peers = []
    for k in keys:
        for p in figures[k]:
            if p not in peers and p not in ("gpugen", CEILING):
                peers.append(p)
    peers = [c for c in cub_names if c in peers] + [p for p in peers if p not in cub_names]
    lines += ["### %s" % case, "",
              "| n | gpugen µs | " + " | ".join("%s µs" % p for p in peers) +
              " | read ceiling µs | best peer | × best peer | gpugen GB/s | % of ceiling | same result as each CUB |",
              "|---:|---:|" + "---:|" * len(peers) + "---:|---|---:|---:|---:|---|"]
    notes = []
    for k in keys:
        row = figures[k]
        g, ceil = row["gpugen"], row[CEILING]
        best = best_peer(row)
        ratio = best[1] / g["us"] if best else None
        if ratio is not None and ratio < 1.0:
            below.append((case, k[1], best[0], ratio))
        same = [("same" if row[c]["check"] == "same" else "**%s** from %s" % (row[c]["check"], c)) for c in cub_names if c in row]
        lines.append("| %d | %.2f | %s | %.2f | %s | %s | %.0f | %.1f%% | %s |" % (
            k[1], g["us"], " | ".join(cell(row.get(p)) for p in peers), ceil["us"], best[0] if best else "–",
            "%.2f×" % ratio if ratio is not None else "–", g["bytes"] / g["us"] / 1e3, 100 * ceil["us"] / g["us"],
            ", ".join(sorted(set(same))) if same else "–"))
        for p in peers:
            v = row.get(p)
            if v is not None and not valid(v) and v["check"] not in notes:
                notes.append("%s: %s" % (p, v["check"]))
    lines.append("")
    for note in dict.fromkeys(notes):
        lines.append("- " + note)
    if notes:
        lines.append("")

lines += ["\"× best peer\" is the best peer's time over gpugen's (above 1 gpugen is faster); the best peer is the fastest "
          "peer whose result was right. \"wrong\" peers are not timed.", ""]
if below:
    lines += ["Ratios below 1.0:", "", "| case | n | best peer | × best peer |", "|---|---:|---|---:|"]
    lines += ["| %s | %d | %s | %.3f× |" % b for b in below]
    lines.append("")
else:
    lines += ["No ratio below 1.0.", ""]
if spread:
    worst = max(spread, key=spread.get)
    lines += ["gpugen timed in %d runs (the same code in both programs); the spread (largest less least, over the median) "
              "of its figures: median %.1f %%, largest %.1f %% (%s at n = %d). Each figure above is the median of the runs."
              % (len(runs), 100 * statistics.median(spread.values()), 100 * spread[worst], worst[0], worst[1]), ""]
if floor:
    lines += ["Launch floor: %.2f µs per back-to-back launch of an empty kernel (one launch of any kind costs at least this;"
              " 0.45x of CUB's two launches is %.2f µs when they cost nothing more)." % (floor, 0.9 * floor), ""]


# ---- the bench's targets, against the faster CUB of each row (of those whose result was right)
def cub_us(case, n):
    row = figures.get((case, n), {})
    t = [row[c]["us"] for c in cub_names if c in row and valid(row[c])]
    return min(t) if t else 0.0


def us(case, n, peer="gpugen"):
    v = figures.get((case, n), {}).get(peer)
    return v["us"] if v else 0.0


def largest(case):
    return max((k for k in figures if k[0] == case), key=lambda k: figures[k]["gpugen"]["bytes"])


checks = []
commutative = [c for c in ["int32", "float", "double", "sumsq", "welford", "struct12", "struct6", "float4", "argmax", "argmin16", "above"] if c in cases]
for case in commutative:
    big = [k[1] for k in figures if k[0] == case and k[1] >= 1 << 26]
    if not big:
        continue
    worst_cub = min(cub_us(case, n) / us(case, n) for n in big)
    worst_ceil = min(us(case, n, CEILING) / us(case, n) for n in big)
    checks.append(("1. %s, n >= 2^26: >= 1.00x the faster CUB and >= 98%% of the read ceiling" % case,
                   worst_cub >= 1.0 and worst_ceil >= 0.98, "worst %.3fx CUB, %.1f%% of ceiling" % (worst_cub, 100 * worst_ceil)))
if "welford" in cases:
    w = largest("welford")
    wc = cub_us(*w) / us(*w)
    checks.append(("2. Welford >= 2x the faster CUB", wc >= 2, "%.2fx CUB at %d" % (wc, w[1])))
    tv = us("welford", 1 << 28, "torch.var_mean")
    if tv:
        wt = tv / us("welford", 1 << 28)
        checks.append(("2. Welford >= 1.1x torch.var_mean", wt >= 1.1, "%.2fx at 2^28" % wt))
cp = us("sumsq", 1 << 28, "cupy.sumsq_int64")
if cp:
    r = cp / us("sumsq", 1 << 28)
    checks.append(("2. int -> {int, long long} >= 1.3x CuPy ReductionKernel", r >= 1.3, "%.2fx at 2^28" % r))
for case in commutative:
    mids = [(us(case, 1 << e) / cub_us(case, 1 << e), 1 << e) for e in (16, 18, 20) if cub_us(case, 1 << e)]
    if mids:
        worst, n = max(mids)
        checks.append(("3. %s, n = 2^16..2^20: time <= 0.45x the faster CUB's" % case, worst <= 0.45,
                       "worst %.2f (%.2f against %.2f µs at n = %d)" % (worst, us(case, n), cub_us(case, n), n)))
    for e, limit in ((10, 0.9), (24, 0.95)):
        if cub_us(case, 1 << e):
            r = us(case, 1 << e) / cub_us(case, 1 << e)
            checks.append(("3. %s, n = 2^%d: time <= %sx the faster CUB's" % (case, e, limit), r <= limit, "%.2f" % r))
    slow = [k[1] for k in figures if k[0] == case and cub_us(*k) and us(*k) > cub_us(*k)]
    checks.append(("3. %s: never slower than the faster CUB" % case, not slow,
                   "slower at n = " + ", ".join(str(n) for n in slow) if slow else "never slower"))
if "maxsub" in cases:
    m = largest("maxsub")
    mr = us(*m, CEILING) / us(*m)
    checks.append(("4. non-commutative max-subarray >= 90% of the read ceiling at 1 GiB", mr >= 0.9, "%.1f%%" % (100 * mr)))
lines += ["| target | met | measured |", "|---|---|---|"]
for name, met, what in checks:
    lines.append("| %s | %s | %s |" % (name, "yes" if met else "**no**", what))


def segmented_lines():
    """The segmented section (make -C bench segmented), when its CSVs are in
    OUTDIR: one row per case, shape and total, gpugen's faster form against
    every peer that ran on it (CUB's offsets API with each CUB, CUB 3.5's
    fixed-size API, the torch peers of peers_segmented.py on the same number
    of segments and elements), the best right peer and gpugen's ratio."""
    rows = {}  # (case, shape, n, segments) -> {peer: {"us", "check"}}
    for name in ("segmented.csv", "segmented_cccl.csv"):
        for r in read(name):
            key = (r["case"], r["shape"], int(r["n"]), int(r["segments"]))
            row = rows.setdefault(key, {})
            gpugen = [f(r[c]) for c in ("segmented_us", "rows_us") if f(r[c])]
            row.setdefault("gpugen", {"us": min(gpugen), "check": "same"})
            for peer, col in (("CUB %s offsets" % r["cub_version"], "cub_offsets_us"),
                              ("CUB %s fixed-size" % r["cub_version"], "cub_fixed_us")):
                if f(r[col]):
                    row.setdefault(peer, {"us": f(r[col]), "check": r["check"]})
    if not rows:
        return []
    for p in read("peers_segmented.csv"):
        segments, length = int(p["rows"]), int(p["row_length"])
        for key, row in rows.items():
            if key[0] == p["case"] and key[3] == segments and key[2] == segments * length:
                row.setdefault(p["peer"], {"us": f(p["us"]), "check": p["check"]})
    peers = []
    for row in rows.values():
        peers += [p for p in row if p != "gpugen" and p not in peers]
    out_lines = ["", "## Segmented (make -C bench segmented)", "",
                 "gpugen is the faster of `_segmented` and `_rows` where both ran. \"× best peer\": the best right "
                 "peer's time over gpugen's.", "",
                 "| case | shape | n | gpugen µs | " + " | ".join("%s µs" % p for p in peers) + " | best peer | × best peer |",
                 "|---|---|---:|---:|" + "---:|" * len(peers) + "---|---:|"]
    for key, row in rows.items():
        best = best_peer(row)
        g = row["gpugen"]["us"]
        out_lines.append("| %s | %s | %d | %.1f | %s | %s | %s |" % (
            key[0], key[1], key[2], g, " | ".join(cell(row.get(p)) for p in peers), best[0] if best else "–",
            "%.2f×" % (best[1] / g) if best else "–"))
    return out_lines


lines += segmented_lines()
open(os.path.join(out, "table.md"), "w").write("\n".join(lines) + "\n")
print("\n".join(lines))

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    print("matplotlib is missing: no plots (run report.py on all.csv's folder elsewhere)")
    sys.exit(0)
for case in cases:
    keys = sorted((k for k in figures if k[0] == case), key=lambda k: k[1])
    n = [k[1] for k in keys]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    names = []
    for k in keys:
        names += [p for p in figures[k] if p not in names]
    for i, p in enumerate(names):
        pts = [(k[1], figures[k][p]) for k in keys if p in figures[k] and valid(figures[k][p])]
        if not pts:
            continue
        gbps = [v["bytes"] / v["us"] / 1e3 for _, v in pts]
        if p == CEILING:
            ax.plot([x for x, _ in pts], gbps, "-", color="gray", linewidth=2, alpha=0.6, label=p)
        else:
            ax.plot([x for x, _ in pts], gbps, "o-" if p == "gpugen" else "s--", markersize=4,
                    linewidth=2.5 if p == "gpugen" else 1.2, label=p)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")  # small n is launch-bound: a linear axis would show it all as 0
    ax.set_title(case)
    ax.set_xlabel("n (elements)")
    ax.set_ylabel("GB/s of input")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "%s.png" % case), dpi=80)
    plt.close(fig)
print("wrote", ", ".join(os.path.join(out, "%s.png" % c) for c in cases))
