#!/usr/bin/env python3
"""Every QMP command's argument checking, against QEMU 7.2 (issue 15).

1. The probes recorded from QEMU 7.2 (tests/data/qemu72/qmp-arg-errors.json,
   scripts/record-qemu72-qmp-errors.py: wrongly typed, null, missing,
   unknown-enum and extra arguments for every command both have) are
   replayed: each reply must have QEMU 7.2's error class and text, or be a
   success where 7.2's was.
2. The same kinds of probes are generated from this tree's own
   query-qmp-schema for every command it dispatches (x-query-cpuid and
   future commands included): each must get a reply, none may break the
   handler contract (stderr "QMP command ... returned a result and an
   error" / "failed without an error"), and the emulator lives on.
3. query-qmp-schema is consistent: every dispatched command is described,
   every described type is defined, query-commands lists exactly the
   described commands that are not command-line only.

Runs under -accel qtest (no /dev/kvm needed).
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
from qmp_machine import Machine  # noqa: E402
from qmp_probes import BASE, SKIP, Schema, probes_for  # noqa: E402

BINARY = os.environ.get("QEMU_BINARY", "build/qemu-system-x86_64")
RECORDED = os.path.join(HERE, "..", "data", "qemu72", "qmp-arg-errors.json")
ARGS = ["-machine", "none", "-accel", "qtest", "-S"]
CONTRACT = ("returned a result and an error", "failed without an error")

n = failures = 0


def report(name, ok, detail=""):
    global n, failures
    n += 1
    failures += not ok
    print(f"{'ok' if ok else 'not ok'} {n} - qmp-args/{name}" +
          ("" if ok else f" # {detail}"))


def reply_of(msg):
    if "error" in msg:
        return {"class": msg["error"]["class"], "desc": msg["error"]["desc"]}
    return "return"


class Session:
    """A -machine none emulator, restarted if a probe ended it."""

    def __init__(self):
        self.vm = None
        self.stderr = ""

    def send(self, cmd, args):
        if self.vm is None or self.vm.proc.poll() is not None:
            self.close()
            self.vm = Machine(BINARY, ARGS)
            self.vm.__enter__()
        return self.vm.cmd_raw(cmd, args)

    def close(self):
        if self.vm is not None:
            self.stderr += self.vm.stderr()
            self.vm.shutdown()
            self.vm = None


def replay_recorded(s):
    with open(RECORDED) as f:
        probes = json.load(f)["probes"]
    for p in probes:
        got = reply_of(s.send(p["command"], p["arguments"]))
        report(f"qemu72/{p['command']}/{p['probe']}", got == p["reply"],
               f"ours {got} qemu72 {p['reply']}")


def probe_own_schema(s):
    schema_entries = s.send("query-qmp-schema", None)["return"]
    schema = Schema(schema_entries)
    commands = sorted(c["name"] for c in
                      s.send("query-commands", None)["return"])
    for cmd in commands:
        if cmd in SKIP:
            continue
        probes = probes_for(schema, cmd, BASE.get(cmd, {}))
        bad = []
        for label, args in probes:
            msg = s.send(cmd, args)
            if "error" not in msg and "return" not in msg:
                bad.append(f"{label}: {msg}")
        alive = s.vm.proc.poll() is None or cmd == "quit"
        report(f"own-schema/{cmd} ({len(probes)} probes)", not bad and alive,
               "; ".join(bad[:3]) or "the emulator died")
    s.close()
    broken = [l for l in s.stderr.splitlines()
              if any(c in l for c in CONTRACT)]
    report("handler-contract", not broken, "; ".join(broken[:3]))
    return schema_entries, commands


def check_schema(entries, commands):
    names = {e["name"] for e in entries}
    described = {e["name"] for e in entries if e["meta-type"] == "command"}
    missing_types = set()
    for e in entries:
        refs = [e.get("arg-type"), e.get("ret-type"), e.get("element-type")]
        refs += [m["type"] for m in e.get("members", []) if "type" in m]
        refs += [v["type"] for v in e.get("variants", [])]
        missing_types |= {r for r in refs if r and r not in names}
    report("schema/types-defined", not missing_types,
           f"undefined: {sorted(missing_types)[:5]}")
    report("schema/commands-described", set(commands) <= described,
           f"not described: {sorted(set(commands) - described)}")
    cli_only = described - set(commands)
    report("schema/cli-only", cli_only <= {"device_add", "object-add"},
           f"described, not dispatched: {sorted(cli_only)}")


def main():
    s = Session()
    try:
        replay_recorded(s)
        entries, commands = probe_own_schema(s)
        check_schema(entries, commands)
    finally:
        s.close()
    print(f"1..{n}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
