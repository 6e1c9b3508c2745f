#!/usr/bin/env python3
"""Top-level module dependencies of the mmconform library and the cycles among them.

A top-level module (src/<name>.rs or src/<name>/) depends on another when any of its
files names `crate::<other>` or `super::<other>` at the top level. Prints each cycle
and exits 1 when there is one; `-v` also prints the graph.
"""
import glob
import os
import re
import sys

SRC = os.path.join(os.path.dirname(__file__), "..", "src")
# event_fixtures is compiled for tests only.
mods = sorted({os.path.splitext(p)[0] for p in os.listdir(SRC)
               if p not in ("lib.rs", "main.rs", "event_fixtures.rs")})
edges = {m: set() for m in mods}
for m in mods:
    files = glob.glob(f"{SRC}/{m}.rs") + glob.glob(f"{SRC}/{m}/**/*.rs", recursive=True)
    for f in files:
        text = open(f).read()
        # Test-only code may use anything.
        text = re.split(r"#\[cfg\(test\)\]", text)[0]
        for other in re.findall(r"crate::(\w+)", text):
            if other in edges and other != m:
                edges[m].add(other)

def cycles():
    found = set()
    def walk(node, path):
        for nxt in edges[node]:
            if nxt in path:
                cyc = path[path.index(nxt):]
                i = cyc.index(min(cyc))
                found.add(tuple(cyc[i:] + cyc[:i]))
            elif len(path) < 8:
                walk(nxt, path + [nxt])
    for m in mods:
        walk(m, [m])
    return sorted(found, key=len)

if "-v" in sys.argv:
    for m in mods:
        print(f"{m} -> {', '.join(sorted(edges[m]))}")
found = cycles()
for c in found:
    print(" -> ".join(c + (c[0],)))
sys.exit(1 if found else 0)
