#!/usr/bin/env python3
"""Records how QEMU 7.2 answers ill-formed arguments of every QMP command
this tree has, as the expectations of tests/functional/test_qmp_args.py.

    scripts/record-qemu72-qmp-errors.py [OUT]   (default
                                         tests/data/qemu72/qmp-arg-errors.json)

For every command of this tree (build/, or QEMU_BINARY) that QEMU 7.2 also
has, the probes of python/qmp_probes.py are generated from QEMU 7.2's own
query-qmp-schema.  Each probe goes to a fresh `-machine none -S` QEMU
7.2 when the previous one died, and its reply (error class and text, or
"return" when QEMU accepted it) is recorded with the request.  Probes
that QEMU accepts are kept out of side effects by BASE's choice of
harmless values.
"""

import json
import os
import sys

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.join(TOP, "python"))
from qmp_machine import Machine  # noqa: E402
from qmp_probes import BASE, SKIP, Schema, probes_for  # noqa: E402

ORACLE = os.environ.get("QEMU_72", "/usr/bin/qemu-system-x86_64")
OUT = os.path.join(TOP, "tests", "data", "qemu72", "qmp-arg-errors.json")

def our_commands():
    """The commands of this tree (its build), in name order"""
    ours = os.environ.get("QEMU_BINARY",
                          os.path.join(TOP, "build", "qemu-system-x86_64"))
    with Machine(ours, ["-machine", "none", "-S"]) as vm:
        return sorted(c["name"] for c in vm.cmd("query-commands"))


def main():
    out_path = sys.argv[1] if len(sys.argv) > 1 else OUT
    records = []
    vm = Machine(ORACLE, ["-machine", "none", "-S"])
    vm.__enter__()
    try:
        schema = Schema(vm.cmd("query-qmp-schema"))
        version = vm.cmd("query-version")
        for cmd in our_commands():
            if cmd in SKIP or cmd not in schema.by:
                continue
            base = BASE.get(cmd, {})
            for label, args in probes_for(schema, cmd, base):
                if vm.proc.poll() is not None:
                    vm.shutdown()
                    vm = Machine(ORACLE, ["-machine", "none", "-S"])
                    vm.__enter__()
                reply = vm.cmd_raw(cmd, args)
                if "error" in reply:
                    r = {"class": reply["error"]["class"],
                         "desc": reply["error"]["desc"]}
                else:
                    r = "return"
                records.append({"command": cmd, "probe": label,
                                "arguments": args, "reply": r})
    finally:
        vm.shutdown()
    with open(out_path, "w") as f:
        json.dump({"qemu": version, "probes": records}, f, indent=1,
                  sort_keys=True)
        f.write("\n")
    print(f"{len(records)} probes in {out_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
