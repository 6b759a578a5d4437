"""Turns bench.csv and peers.csv into table.md (with the targets of issue 5
checked) and bench.png (throughput against n). usage: report.py OUTDIR"""
import csv, os, sys

out = sys.argv[1] if len(sys.argv) > 1 else "out"
rows = list(csv.DictReader(open(os.path.join(out, "bench.csv"))))
# the empty kernel's time per back-to-back launch: the floor of small n
floor = next((float(r["gpugen_us"]) for r in rows if r["case"] == "empty-launch"), None)
rows = [r for r in rows if r["case"] != "empty-launch"]
peers = list(csv.DictReader(open(os.path.join(out, "peers.csv")))) if os.path.exists(os.path.join(out, "peers.csv")) else []

def f(x):
    return float(x) if x not in ("", "-") else 0.0

lines = ["| case | n | gpugen µs | gpugen GB/s | CUB µs | CUB GB/s | × CUB (throughput) | time / CUB's | read ceiling GB/s | % of ceiling | same result |",
         "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
for r in rows:
    g, c, ceil = f(r["gpugen_GBps"]), f(r["cub_GBps"]), f(r["ceiling_GBps"])
    lines.append("| %s | %s | %.2f | %.0f | %s | %s | %s | %s | %.0f | %.1f%% | %s |" % (
        r["case"], r["n"], f(r["gpugen_us"]), g,
        "%.2f" % f(r["cub_us"]) if c else "-", "%.0f" % c if c else "-",
        "%.2f×" % (g / c) if c else "-", "%.2f" % (f(r["gpugen_us"]) / f(r["cub_us"])) if c else "-",
        ceil, 100 * g / ceil, r["check"]))
if peers:
    lines += ["", "| peer | n | µs | GB/s |", "|---|---:|---:|---:|"]
    for p in peers:
        lines.append("| %s | %s | %.2f | %.0f |" % (p["case"], p["n"], f(p["us"]), f(p["GBps"])))

# the targets of issue 5, each with the numbers it was judged on
def pick(case, n=None, largest=False):
    c = [r for r in rows if r["case"] == case]
    if largest:
        return max(c, key=lambda r: int(r["bytes"]))
    return next((r for r in c if int(r["n"]) == n), None)

def peer(case, n):
    return next((p for p in peers if p["case"] == case and int(p["n"]) == n), None)

checks = []
for case in ["int32", "float", "double", "sumsq", "welford", "struct12", "struct6", "argmax"]:
    big = [r for r in rows if r["case"] == case and int(r["n"]) >= 1 << 26]
    worst_cub = min(f(r["gpugen_GBps"]) / f(r["cub_GBps"]) for r in big)
    worst_ceil = min(f(r["gpugen_GBps"]) / f(r["ceiling_GBps"]) for r in big)
    checks.append(("1. %s, n >= 2^26: >= 1.00x CUB and >= 98%% of the read ceiling" % case,
                   worst_cub >= 1.0 and worst_ceil >= 0.98, "worst %.3fx CUB, %.1f%% of ceiling" % (worst_cub, 100 * worst_ceil)))
w = pick("welford", largest=True)
tv = peer("torch.var_mean", 1 << 28)
wc = f(w["gpugen_GBps"]) / f(w["cub_GBps"])
checks.append(("2. Welford >= 2x CUB", wc >= 2, "%.2fx CUB at %s" % (wc, w["n"])))
if tv:
    wt = f(w["gpugen_GBps"]) / f(tv["GBps"])
    checks.append(("2. Welford >= 1.1x torch.var_mean", wt >= 1.1, "%.2fx (%.0f vs %.0f GB/s)" % (wt, f(w["gpugen_GBps"]), f(tv["GBps"]))))
s = pick("sumsq", 1 << 28)
cp = peer("cupy.sumsq_int64", 1 << 28)
if cp:
    r = f(s["gpugen_GBps"]) / f(cp["GBps"])
    checks.append(("2. int -> {int, long long} >= 1.3x CuPy ReductionKernel", r >= 1.3, "%.2fx at 2^28" % r))
for case in ["int32", "float", "double", "sumsq", "welford", "struct12", "struct6", "argmax"]:
    mids = [pick(case, 1 << e) for e in (16, 18, 20)]
    w = max((r for r in mids if r), key=lambda r: f(r["gpugen_us"]) / f(r["cub_us"]))
    worst = f(w["gpugen_us"]) / f(w["cub_us"])
    checks.append(("3. %s, n = 2^16..2^20: time <= 0.45x CUB's" % case, worst <= 0.45,
                   "worst %.2f (%.2f against %.2f µs at n = %s)" % (worst, f(w["gpugen_us"]), f(w["cub_us"]), w["n"])))
    r10 = pick(case, 1 << 10)
    checks.append(("3. %s, n = 2^10: time <= 0.9x CUB's" % case, f(r10["gpugen_us"]) / f(r10["cub_us"]) <= 0.9,
                   "%.2f" % (f(r10["gpugen_us"]) / f(r10["cub_us"]))))
    r24 = pick(case, 1 << 24)
    checks.append(("3. %s, n = 2^24: time <= 0.95x CUB's" % case, f(r24["gpugen_us"]) / f(r24["cub_us"]) <= 0.95,
                   "%.2f" % (f(r24["gpugen_us"]) / f(r24["cub_us"]))))
    slow = [r for r in rows if r["case"] == case and f(r["gpugen_us"]) > f(r["cub_us"])]
    checks.append(("3. %s: never slower than CUB" % case, not slow,
                   "slower at n = " + ", ".join(r["n"] for r in slow) if slow else "never slower"))
m = pick("maxsub", largest=True)
mr = f(m["gpugen_GBps"]) / f(m["ceiling_GBps"])
checks.append(("4. non-commutative max-subarray >= 90% of the read ceiling at 1 GiB", mr >= 0.9, "%.1f%%" % (100 * mr)))
lines += [""]
summary = len(lines)
if floor:
    lines += ["Launch floor: %.2f µs per back-to-back launch of an empty kernel (one launch of any kind costs at least this;"
              " 0.45x of CUB's two launches is %.2f µs when they cost nothing more)." % (floor, 0.9 * floor), ""]
lines += ["| target | met | measured |", "|---|---|---|"]
for name, met, what in checks:
    lines.append("| %s | %s | %s |" % (name, "yes" if met else "**no**", what))
open(os.path.join(out, "table.md"), "w").write("\n".join(lines) + "\n")
print("\n".join(lines[summary:]))

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    print("matplotlib is missing: no bench.png (plot bench.csv elsewhere with this script)")
    sys.exit(0)
cases = []
for r in rows:
    if r["case"] not in cases:
        cases.append(r["case"])
fig, axes = plt.subplots(3, 3, figsize=(15, 12))
for ax, case in zip(axes.flat, cases):
    c = sorted([r for r in rows if r["case"] == case], key=lambda r: int(r["n"]))
    n = [int(r["n"]) for r in c]
    ax.plot(n, [f(r["gpugen_GBps"]) for r in c], "o-", label="gpugen")
    if any(f(r["cub_GBps"]) for r in c):
        ax.plot(n, [f(r["cub_GBps"]) for r in c], "s--", label="CUB")
    ax.plot(n, [f(r["ceiling_GBps"]) for r in c], ":", color="gray", label="read ceiling")
    ax.set_xscale("log", base=2)
    ax.set_title(case)
    ax.set_xlabel("n")
    ax.set_ylabel("GB/s of input")
    ax.legend()
fig.tight_layout()
fig.savefig(os.path.join(out, "bench.png"), dpi=80)
print("wrote", os.path.join(out, "bench.png"))
