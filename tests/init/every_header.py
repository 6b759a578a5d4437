#!/usr/bin/env python3
"""Runs `gpugen init` on every struct of every user header in the test suites
and the examples, one type at a time, and holds init to its contract: where
it writes a skeleton, `gpugen --check` accepts it; where it refuses, it exits
1, says why and writes nothing. Prints one line of counts; exits 1 on the
first broken promise. usage: every_header.py GPUGEN WORKDIR"""
import concurrent.futures
import os
import re
import subprocess
import sys

gpugen, work = sys.argv[1], sys.argv[2]
# the user headers of the repository (not generated files, not gpugen's own)
HEADERS = subprocess.run(["git", "ls-files", "*.h"], capture_output=True, text=True, check=True).stdout.split()
HEADERS = [h for h in HEADERS
           if h.startswith(("specs/", "examples/", "tests/golden/", "tests/headers/", "tests/hygiene/", "tests/errors/"))
           and not re.match(r"tests/golden/[^/]+/", h)]  # the goldens' outputs
INCLUDE_DIRS = ["specs/include", "examples/make/include", "tests/golden/include"]

STRUCT = re.compile(r"\b(?:struct|class)\s+(?:(?:__align__|alignas|__attribute__)\s*\(\(?[^)]*\)?\)\s*)*"
                    r"([A-Za-z_]\w*)\s*(?::[^{;]*)?\{")
TYPEDEF_END = re.compile(r"\}\s*([A-Za-z_]\w*)\s*;")
TYPEDEF = re.compile(r"\btypedef\s+[\w:<>, ]+?\s+([A-Za-z_]\w*)\s*;")


def names(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    found = []
    for pattern in (STRUCT, TYPEDEF_END, TYPEDEF):
        for m in pattern.finditer(text):
            if m.group(1) not in found:
                found.append(m.group(1))
    return found


def one(job):
    """'written', 'refused', or the broken promise"""
    header, name = job
    spec = os.path.join(work, "%s.%s.json" % (header.replace("/", "_"), name))
    args = [gpugen, "init", "-o", spec]
    for d in INCLUDE_DIRS:
        args += ["-I", d]
    run = subprocess.run(args + [header, name], capture_output=True, text=True)
    if run.returncode == 0:
        check = subprocess.run([gpugen, "--check", "-q", spec], capture_output=True, text=True)
        if check.returncode != 0:
            return "init %s %s wrote a skeleton that --check refuses:\n%s" % (header, name, check.stderr)
        return "written"
    if run.returncode == 1 and run.stderr.strip() and not os.path.exists(spec):
        return "refused"
    return "init %s %s: exit %d, %s, %s" % (header, name, run.returncode,
                                           "a file written" if os.path.exists(spec) else "nothing written",
                                           run.stderr.strip() or "no message")


jobs = [(header, name) for header in HEADERS for name in names(open(header).read())]
with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
    results = list(pool.map(one, jobs))
broken = [r for r in results if r not in ("written", "refused")]
if broken:
    sys.exit("\n".join(broken))
print("%d skeletons written and accepted by --check, %d types refused with a reason"
      % (results.count("written"), results.count("refused")))
