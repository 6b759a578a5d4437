#!/usr/bin/env python3
"""Checks that a module's files match its stamp (sizes and FNV-1a hashes),
i.e. that the set is one run's complete output. usage: stamp_check.py DIR"""
import os, sys

def fnv1a(data):
    h = 1469598103934665603
    for b in data:
        h = ((h ^ b) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return h

d = sys.argv[1]
stamps = [f for f in os.listdir(d) if f.endswith(".stamp")]
if len(stamps) != 1:
    sys.exit("expected one stamp in %s, found %s" % (d, stamps))
for line in open(os.path.join(d, stamps[0])):
    if line.startswith("#"):
        continue
    name, size, digest = line.split()
    data = open(os.path.join(d, name), "rb").read()
    if len(data) != int(size) or "%016x" % fnv1a(data) != digest:
        sys.exit("%s does not match the stamp" % name)
