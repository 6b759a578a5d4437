#!/usr/bin/env python3
"""gpugen is linear in the spec: on specs of 100 and 1600 generated types
(one reduction each) the time ratio must stay under 25 (16 is linear) and
the extra memory within a small multiple of the extra output.
usage: scaling.py GPUGEN WORKDIR"""
import os, resource, subprocess, sys, time

gpugen, work = sys.argv[1], sys.argv[2]
here = os.path.dirname(os.path.abspath(__file__))

def run(n):
    spec = os.path.join(work, "scale%d.json" % n)
    with open(spec, "w") as f:
        subprocess.run([sys.executable, os.path.join(here, "make_spec.py"), str(n), "scale"], stdout=f, check=True)
    out = os.path.join(work, "scale%d" % n)
    best = None
    for _ in range(3):  # the best of three: the machine may be busy
        t0 = time.perf_counter()
        subprocess.run([gpugen, "-o", out, spec], check=True)
        t = time.perf_counter() - t0
        best = t if best is None or t < best else best
    size = sum(os.path.getsize(os.path.join(out, f)) for f in os.listdir(out))
    # peak memory of one more run, alone in a fresh child
    rss = subprocess.run([sys.executable, "-c",
                          "import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True); "
                          "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)",
                          gpugen, "-o", out, spec], capture_output=True, text=True, check=True).stdout
    return best, size, int(rss) * 1024

t1, s1, m1 = run(100)
t2, s2, m2 = run(1600)
ratio = t2 / t1
extra_mem, extra_out = m2 - m1, s2 - s1
print("100 types: %.3f s, %d bytes out, %.0f MB; 1600 types: %.3f s, %d bytes out, %.0f MB; "
      "time ratio %.1f (limit 25), extra memory %.1fx the extra output (limit 8)"
      % (t1, s1, m1 / 2**20, t2, s2, m2 / 2**20, ratio, extra_mem / extra_out))
if ratio > 25 or extra_mem > 8 * extra_out:
    sys.exit(1)
