#!/usr/bin/env python3
"""piix3-usb-uhci driven by a guest under KVM, compared with QEMU 7.2
(tests/guest/uhci.c; docs/devices.md, "The UHCI USB controller").

The uhci guest runs on pc-i440fx-7.2 with libvirt's controller at 00:01.2
in both binaries: its register accesses come from the vCPU thread while
the frame timer walks the schedule it built, nothing plugged in (a TD to
an absent device, USBINTR masking the line, W1C, an invalid PID stopping
the controller, a queue head linked to itself, Run cleared).  Its serial
lines and exit status must be 7.2's.  Skips (77) without /dev/kvm or
QEMU 7.2.
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
                     "guest", "uhci.elf")
# SeaBIOS under 7.2 on a PVM host takes a while before the guest
TIMEOUT = 400

results = []


def report(name, ok, detail=""):
    results.append(ok)
    print(f"{'ok' if ok else 'not ok'} {len(results)} - uhci-kvm/{name}" +
          ("" if ok else f" # {detail}"))


def run(binary):
    """The guest's UHCI lines and its exit status"""
    with tempfile.TemporaryDirectory() as d:
        serial = os.path.join(d, "serial")
        args = ["-machine", "pc-i440fx-7.2,accel=kvm", "-m", "128",
                "-nodefaults", "-display", "none",
                "-serial", f"file:{serial}",
                "-device", "piix3-usb-uhci,id=usb,bus=pci.0,addr=0x1.0x2",
                "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04",
                "-no-reboot", "-kernel", GUEST, "-append", "exit=debug"]
        with Machine(binary, args, timeout=TIMEOUT) as m:
            deadline = time.monotonic() + TIMEOUT
            rc = None
            while rc is None and time.monotonic() < deadline:
                rc = m.proc.poll()
                time.sleep(0.1)
        with open(serial, errors="replace") as f:
            lines = [ln.strip() for ln in f if ln.startswith("UHCI")]
    return lines, rc


def main():
    if not os.access(ORACLE, os.X_OK):
        print(f"SKIP: QEMU 7.2 not found at {ORACLE}")
        return 77
    if not kvm_usable():
        print("SKIP: /dev/kvm is not usable")
        return 77
    mine = run(BINARY)
    theirs = run(ORACLE)
    report("lines", mine[0] == theirs[0] and "UHCI-DONE" in mine[0],
           f"ours {mine[0]} qemu72 {theirs[0]}")
    report("exit", mine[1] == theirs[1], f"ours {mine[1]} qemu72 {theirs[1]}")
    print(f"1..{len(results)}")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
