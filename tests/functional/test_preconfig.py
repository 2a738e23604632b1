#!/usr/bin/env python3
"""--preconfig and x-exit-preconfig compared with QEMU 7.2.

Both binaries start with --preconfig (with and without -S) and get the
same commands before the board exists: each command of this tree's
query-commands (those QEMU 7.2 does not allow there must be refused with
its text, the others must not be), query-status, query-hotpluggable-cpus
(the slots of -smp, none plugged yet); then x-exit-preconfig (the RESUME
event unless -S), query-status, x-exit-preconfig again (refused) and
query-cpus-fast.  Every reply must equal 7.2's (thread ids
aside).  Skips
(77) where QEMU 7.2 is missing.
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "python"))
from qmp_machine import Machine, kvm_usable  # noqa: E402

BINARY = os.environ.get("QEMU_BINARY", "build/qemu-system-x86_64")
ORACLE = os.environ.get("QEMU_72", "/usr/bin/qemu-system-x86_64")
REFUSED = "permitted only after machine initialization has completed"
# Not sent: they end or change the session, or 7.2 lacks them without KVM
NOT_SENT = {"quit", "x-exit-preconfig", "qmp_capabilities", "x-query-cpuid"}
results = []


def report(name, ok, detail=""):
    results.append(ok)
    print(f"{'ok' if ok else 'not ok'} {len(results)} - preconfig/{name}" +
          ("" if ok else f" # {detail}"))


def accel(binary):
    if kvm_usable():
        return ["-accel", "kvm"]
    return ["-accel", "tcg"] if binary == ORACLE else ["-accel", "qtest"]


def our_commands():
    with Machine(BINARY, ["-nodefaults", "-display", "none", "-S"] +
                 accel(BINARY)) as vm:
        return sorted(c["name"] for c in vm.cmd("query-commands"))


def session(binary, extra, commands):
    out = []
    args = ["-machine", "pc-q35-7.2", "-smp", "2,maxcpus=4", "-nodefaults",
            "-display", "none", "--preconfig"] + extra + accel(binary)
    with Machine(binary, args) as vm:
        for c in commands:
            r = vm.cmd_raw(c, {})
            # Only whether 7.2's gate let it through: the command's own
            # answer to empty arguments is another test's business
            out.append((f"gate {c}", REFUSED in
                        r.get("error", {}).get("desc", "")))
        for c in ("query-status", "query-hotpluggable-cpus"):
            out.append((c, vm.cmd(c)))
        out.append(("x-exit-preconfig", vm.cmd_raw("x-exit-preconfig")))
        if "-S" not in extra:
            vm.wait_event("RESUME", timeout=10)
        out.append(("query-status after", vm.cmd("query-status")))
        out.append(("x-exit-preconfig again",
                    vm.cmd_raw("x-exit-preconfig")))
        fast = vm.cmd("query-cpus-fast")
        for c in fast:
            c.pop("thread-id")
        out.append(("query-cpus-fast", fast))
    return out


def main():
    if not os.access(ORACLE, os.X_OK):
        print("1..0 # SKIP QEMU 7.2 not found")
        return 77
    commands = [c for c in our_commands() if c not in NOT_SENT]
    for extra in ([], ["-S"]):
        tag = "S" if extra else "run"
        ours = session(BINARY, extra, commands)
        theirs = session(ORACLE, extra, commands)
        for (what, o), (_, t) in zip(ours, theirs):
            report(f"{tag}/{what}", o == t, f"ours {o}, QEMU 7.2 {t}")
    print(f"1..{len(results)}")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
