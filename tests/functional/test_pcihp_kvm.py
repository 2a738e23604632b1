#!/usr/bin/env python3
"""ACPI PCI hotplug seen from a guest under KVM, compared with QEMU 7.2
(tests/guest/pcihp.c; docs/devices.md, "ACPI hotplug").

The pcihp guest runs on pc-i440fx-7.2 under KVM in both binaries; the host
device_adds a pci-bridge when the guest says PCIHP-READY and device_dels
it at PCIHP-WAIT-UNPLUG.  The guest sees each event in GPE0, reads PCIU /
PCID, and ejects the slot itself (from its vCPU thread).  Its serial
lines, its exit and the DEVICE_DELETED event must be 7.2's.

Skips (77) without /dev/kvm or QEMU 7.2.
"""

import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "python"))
from qmp_machine import Machine, kvm_usable  # noqa: E402

BINARY = os.environ.get("QEMU_BINARY", "build/qemu-system-x86_64")
ORACLE = os.environ.get("QEMU_72", "/usr/bin/qemu-system-x86_64")
GUEST = os.path.join(os.path.dirname(os.path.abspath(BINARY)), "tests",
                     "guest", "pcihp.elf")
# SeaBIOS under 7.2 on a PVM host takes a while before the guest
TIMEOUT = 400

results = []


def report(name, ok, detail=""):
    results.append(ok)
    print(f"{'ok' if ok else 'not ok'} {len(results)} - pcihp-kvm/{name}" +
          ("" if ok else f" # {detail}"))


def wait_line(path, word, deadline):
    while time.monotonic() < deadline:
        with open(path, errors="replace") as f:
            if word in f.read():
                return True
        time.sleep(0.1)
    return False


def run(binary):
    """The guest's lines, its exit status and whether DEVICE_DELETED came"""
    with tempfile.TemporaryDirectory() as d:
        serial = os.path.join(d, "serial")
        open(serial, "w").close()
        args = ["-machine", "pc-i440fx-7.2,accel=kvm", "-m", "128",
                "-nodefaults", "-display", "none",
                "-serial", f"file:{serial}",
                "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04",
                "-no-reboot", "-kernel", GUEST, "-append", "exit=debug"]
        deadline = time.monotonic() + TIMEOUT
        deleted = False
        with Machine(binary, args, timeout=TIMEOUT) as m:
            if wait_line(serial, "PCIHP-READY", deadline):
                m.cmd("device_add", {"driver": "pci-bridge", "id": "hb",
                                     "chassis_nr": 9, "addr": "5"})
            if wait_line(serial, "PCIHP-WAIT-UNPLUG", deadline):
                m.cmd("device_del", {"id": "hb"})
            if wait_line(serial, "EXIT code=", deadline):
                try:
                    ev = m.wait_event("DEVICE_DELETED", timeout=10)
                    deleted = ev.get("data", {}).get("device") == "hb"
                except Exception:   # noqa: BLE001 - reported as absent
                    deleted = False
            rc = m.proc.wait(timeout=30)
        with open(serial, errors="replace") as f:
            lines = [ln.strip() for ln in f if ln.startswith(("PCIHP",
                                                               "EXIT"))]
    return lines, rc, deleted


def main():
    if not os.access(ORACLE, os.X_OK):
        print(f"SKIP: QEMU 7.2 not found at {ORACLE}")
        return 77
    if not kvm_usable():
        print("SKIP: /dev/kvm is not usable")
        return 77
    mine = run(BINARY)
    theirs = run(ORACLE)
    report("lines", mine[0] == theirs[0] and mine[0],
           f"ours {mine[0]} qemu72 {theirs[0]}")
    report("exit", mine[1] == theirs[1], f"ours {mine[1]} qemu72 {theirs[1]}")
    report("device-deleted", mine[2] and theirs[2],
           f"ours {mine[2]} qemu72 {theirs[2]}")
    print(f"1..{len(results)}")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
