#!/usr/bin/env python3
"""Golden Hyper-V leaf tables (docs/hyperv.md).

    test_golden_hyperv.py FRESH_DIR   regenerate into FRESH_DIR with
                                      scripts/update-golden-hyperv.sh and
                                      compare with tests/data/hyperv/

One TAP line per table.  The tool is $CPUID_TABLE (meson sets it).
"""

import difflib
import os
import subprocess
import sys

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
GOLDEN = os.path.join(TOP, "tests", "data", "hyperv")
TOOL = os.environ.get("CPUID_TABLE",
                      os.path.join(TOP, "build", "tools", "cpuid-table"))
REBASELINE = ("scripts/update-golden-hyperv.sh (review), then --write; "
              "the commit says why")


def files_under(d):
    out = set()
    for root, _, names in os.walk(d):
        for n in names:
            out.add(os.path.relpath(os.path.join(root, n), d))
    return out


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    fresh = sys.argv[1]
    env = dict(os.environ, CPUID_TABLE=TOOL)
    p = subprocess.run([os.path.join(TOP, "scripts",
                                     "update-golden-hyperv.sh"), fresh],
                       env=env, capture_output=True, text=True)
    if p.returncode != 0:
        print("1..1")
        print("not ok 1 - regenerate # " + (p.stdout + p.stderr).strip())
        return 1
    golden, new = files_under(GOLDEN), files_under(fresh)
    names = sorted(golden | new)
    print(f"1..{len(names)}")
    failures = 0
    for n, f in enumerate(names, 1):
        if f not in new:
            failures += 1
            print(f"not ok {n} - {f} # no longer generated")
            continue
        if f not in golden:
            failures += 1
            print(f"not ok {n} - {f} # new table, not in {GOLDEN}")
            continue
        with open(os.path.join(GOLDEN, f)) as a, \
                open(os.path.join(fresh, f)) as b:
            la, lb = a.readlines(), b.readlines()
        if la == lb:
            print(f"ok {n} - {f}")
            continue
        failures += 1
        print(f"not ok {n} - {f}")
        for line in difflib.unified_diff(la, lb, "golden", "fresh", n=0):
            print("# " + line.rstrip("\n"))
    if failures:
        print(f"# {failures} tables differ; if intended: {REBASELINE}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
