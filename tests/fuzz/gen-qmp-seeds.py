#!/usr/bin/env python3
"""Writes the seed corpus of the qmp-commands fuzz target.

    tests/fuzz/gen-qmp-seeds.py [BINARY [OUTDIR]]

For every command the binary dispatches (but quit and netdev_add, which
the target leaves out), the probes of
python/qmp_probes.py generated from the binary's own query-qmp-schema
(valid arguments, then each argument wrongly typed, null, missing, an
unknown enum value, an extra one), one file each: a byte selecting the
command (its index among the sorted command names without those two, the
order of the generated qmp_commands[]) followed by the arguments' JSON.
A new command shifts the indices, so seeds of an earlier run (named
COMMAND-HASH, HASH of 8 hex digits) that this run did not write are
removed; files named otherwise (reproducers) stay.
"""

import hashlib
import json
import os
import re
import sys

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(TOP, "python"))
from qmp_machine import Machine  # noqa: E402
from qmp_probes import BASE, Schema, probes_for  # noqa: E402


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else \
        os.path.join(TOP, "build", "qemu-system-x86_64")
    out = sys.argv[2] if len(sys.argv) > 2 else \
        os.path.join(TOP, "tests", "fuzz", "corpus", "qmp-commands")
    with Machine(binary, ["-machine", "none", "-accel", "qtest", "-S"]) as vm:
        schema = Schema(vm.cmd("query-qmp-schema"))
        names = sorted(c["name"] for c in vm.cmd("query-commands")
                       if c["name"] not in ("quit", "netdev_add"))
    os.makedirs(out, exist_ok=True)
    count = 0
    written = set()
    for index, cmd in enumerate(names):
        base = BASE.get(cmd, {})
        probes = [("valid", base)] + probes_for(schema, cmd, base)
        for label, args in probes:
            data = bytes([index]) + json.dumps(args).encode()
            name = f"{cmd}-{hashlib.sha1(data).hexdigest()[:8]}"
            with open(os.path.join(out, name), "wb") as f:
                f.write(data)
            written.add(name)
            count += 1
    stale = [f for f in os.listdir(out) if f not in written and
             re.fullmatch(r"[a-z0-9_-]+-[0-9a-f]{8}", f)]
    for f in stale:
        os.unlink(os.path.join(out, f))
    print(f"{count} seeds in {out}, {len(stale)} stale ones removed")


if __name__ == "__main__":
    main()
