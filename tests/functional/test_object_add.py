#!/usr/bin/env python3
"""QMP object-add and object-del compared with Debian's QEMU 7.2.

Both binaries run pc-q35-7.2 with its RAM in a memory-backend-ram object
(as libvirt starts every domain) and get the same sequence: objects of
each type this tree has (memory-backend-ram, secret, iothread) added,
added again, deleted, deleted again, and the malformed forms (wrong and
missing members, unknown properties, bad ids, values out of range); every
reply must equal 7.2's, and /objects must list the same children.  Then,
on this tree alone: a deleted iothread's thread is gone from the process,
and a memory backend of size -1 (7.2 aborts on an assertion) is refused
with the VM still answering.  Skips (77) where QEMU 7.2 is missing.
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "python"))
from qmp_machine import Machine, kvm_usable  # noqa: E402

BINARY = os.environ.get("QEMU_BINARY", "build/qemu-system-x86_64")
ORACLE = os.environ.get("QEMU_72", "/usr/bin/qemu-system-x86_64")
ARGS = ["-machine", "pc-q35-7.2,memory-backend=pc.ram", "-m", "128",
        "-object", "memory-backend-ram,id=pc.ram,size=128M", "-nodefaults",
        "-S"]
RAM = "memory-backend-ram"
STEPS = [
    ("object-add", {"qom-type": RAM, "id": "ram1", "size": 1048576}),
    ("object-add", {"qom-type": RAM, "id": "ram1", "size": 1048576}),
    ("object-del", {"id": "ram1"}),
    ("object-del", {"id": "ram1"}),
    ("object-add", {"qom-type": RAM, "id": "ram2", "size": "1M"}),
    ("object-add", {"qom-type": RAM, "id": "ram2"}),
    ("object-add", {"qom-type": "bogus", "id": "x"}),
    ("object-add", {"qom-type": RAM, "id": "ram3", "size": 4096, "foo": 1}),
    ("object-add", {"qom-type": RAM, "id": "ram4", "size": 4096,
                    "prealloc": "yes"}),
    ("object-del", {"id": "pc.ram"}),
    ("object-add", {"qom-type": RAM, "id": "pc.ram", "size": 4096}),
    ("object-add", {"qom-type": "secret", "id": "s0", "data": "abc"}),
    ("object-add", {"qom-type": "secret", "id": "1x", "data": "abc"}),
    ("object-add", {"id": "s5", "data": "abc"}),
    ("object-add", {"qom-type": "secret", "data": "abc"}),
    ("object-add", {"qom-type": "secret", "id": "s6"}),
    ("object-add", {"qom-type": "secret", "id": 5, "data": "abc"}),
    ("object-add", {"qom-type": "secret", "id": "s7", "data": "abc",
                    "format": "base64"}),
    ("object-add", {"qom-type": "iothread", "id": "io1"}),
    ("query-iothreads-ids", None),
    ("object-del", {"id": "io1"}),
    ("query-iothreads-ids", None),
    ("object-add", {"qom-type": "iothread", "id": "io2",
                    "poll-max-ns": -5}),
    ("object-add", {"qom-type": "iothread", "id": "io3",
                    "aio-max-batch": -1}),
    ("object-del", {}),
    ("object-del", {"id": 5}),
    ("object-del", {"id": "s0"}),
    ("objects", None),
]

results = []


def report(name, ok, detail=""):
    results.append(ok)
    print(f"{'ok' if ok else 'not ok'} {len(results)} - object-add/{name}" +
          ("" if ok else f" # {detail}"))


def accel(binary):
    if kvm_usable():
        return ["-accel", "kvm"]
    return ["-qtest", "null"] if binary == ORACLE else ["-accel", "qtest"]


def run_steps(binary):
    replies = []
    with Machine(binary, ARGS + accel(binary)) as vm:
        for name, args in STEPS:
            if name == "query-iothreads-ids":
                replies.append(sorted(t["id"] for t in
                                      vm.cmd("query-iothreads")))
            elif name == "objects":
                replies.append(sorted((p["name"], p["type"]) for p in
                                      vm.cmd("qom-list",
                                             {"path": "/objects"})))
            else:
                r = vm.cmd_raw(name, args)
                replies.append(r.get("return", r.get("error")))
    return replies


def threads(pid):
    return len(os.listdir(f"/proc/{pid}/task"))


def ours_only():
    with Machine(BINARY, ARGS + accel(BINARY)) as vm:
        pid = vm.proc.pid
        before = threads(pid)
        vm.cmd("object-add", {"qom-type": "iothread", "id": "io9"})
        during = threads(pid)
        vm.cmd("object-del", {"id": "io9"})
        after = threads(pid)
        report("iothread-thread-ends", during == before + 1 and
               after == before, f"threads {before} -> {during} -> {after}")
        r = vm.cmd_raw("object-add", {"qom-type": RAM, "id": "big",
                                      "size": -1})
        status = vm.cmd("query-status")
        report("size-minus-one-refused", "error" in r and
               status["status"] == "prelaunch", f"{r} then {status}")


def main():
    if not os.access(ORACLE, os.X_OK):
        print("1..0 # SKIP QEMU 7.2 not found")
        return 77
    ours = run_steps(BINARY)
    theirs = run_steps(ORACLE)
    for i, (name, args) in enumerate(STEPS):
        report(f"{i:02d}-{name}", ours[i] == theirs[i],
               f"args {args}: ours {ours[i]}, QEMU 7.2 {theirs[i]}")
    ours_only()
    print(f"1..{len(results)}")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
