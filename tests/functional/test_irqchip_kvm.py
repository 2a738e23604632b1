#!/usr/bin/env python3
"""Interrupts reach a guest through each path of the PC's interrupt
controllers, with KVM's in-kernel irqchip and with kernel-irqchip=split
(the userspace PICs, IOAPIC and PIT of hw/intc/ and hw/timer/i8254.c;
pc-q35-4.0's default).

The irqchip guest (tests/guest/irqchip.c) counts, each over a fixed TSC
window: the PIT's IRQ 0 through the 8259s (ExtINT: under split,
KVM_INTERRUPT from the userspace PIC), IRQ 0 through IOAPIC pin 2 (edge;
under split an MSI of the userspace IOAPIC), and the RTC's periodic
IRQ 8 level-triggered through pin 8 (under split each one needs KVM's
IOAPIC-EOI exit to clear the remote IRR).  Each count must be at least
MIN_TICKS, here and, as a check of the guest, under QEMU 7.2 (on three of
the machines: its firmware boot takes half a minute on PVM hosts).  With
kernel-irqchip=off (no KVM LAPIC; this tree has no userspace LAPIC, so
the IOAPIC's MSIs reach nobody) only the PIC path is checked; 7.2 is not
run there (its userspace LAPIC does not get this guest going on PVM
hosts).

Skips (77) without /dev/kvm.
"""

import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "python"))
from qmp_machine import kvm_usable  # noqa: E402
from qtest_session import qemu72_available  # noqa: E402

BINARY = os.environ.get("QEMU_BINARY", "build/qemu-system-x86_64")
ORACLE = os.environ.get("QEMU_72", "/usr/bin/qemu-system-x86_64")
GUEST = os.path.join(os.path.dirname(os.path.abspath(BINARY)), "tests",
                     "guest", "irqchip.elf")
MIN_TICKS = 5
PATHS = ("pic", "ioapic", "level")

CASES = [
    # machine, the paths that must deliver, whether 7.2 runs too
    ("pc-q35-7.2", PATHS, True),
    ("pc-i440fx-7.2", PATHS, False),
    ("pc-q35-4.0", PATHS, True),
    ("pc-q35-7.2,kernel-irqchip=split", PATHS, True),
    ("pc-i440fx-7.2,kernel-irqchip=split", PATHS, False),
    ("pc-q35-7.2,kernel-irqchip=off", ("pic",), False),
]

results = []


def report(name, ok, detail=""):
    results.append(ok)
    print(f"{'ok' if ok else 'not ok'} {len(results)} - irqchip-kvm/{name}" +
          ("" if ok else f" # {detail}"))


def run(binary, machine):
    argv = [binary, "-machine", f"{machine},accel=kvm", "-m", "256",
            "-nodefaults", "-display", "none", "-serial", "stdio",
            "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04",
            "-kernel", GUEST]
    try:
        p = subprocess.run(argv, stdin=subprocess.DEVNULL,
                           capture_output=True, timeout=60)
    except subprocess.TimeoutExpired:
        return None, "timeout"
    out = p.stdout.decode(errors="replace")
    if "IRQCHIP-DONE" not in out:
        return None, f"status {p.returncode}: {out[-300:]!r}"
    return {k: int(v) for k, v in re.findall(r"IRQCHIP (\w+)=(\d+)",
                                             out)}, out


def main():
    if not kvm_usable():
        print("SKIP: /dev/kvm is not usable")
        return 77
    oracle = qemu72_available()
    for machine, paths, with_oracle in CASES:
        ours, detail = run(BINARY, machine)
        theirs = None
        if with_oracle and oracle:
            theirs, _ = run(ORACLE, machine)
        for path in paths:
            name = f"{machine}/{path}"
            if ours is None:
                report(name, False, detail)
                continue
            if theirs is not None and theirs.get(path, 0) < MIN_TICKS:
                report(f"{name} # SKIP QEMU 7.2's guest got "
                       f"{theirs.get(path, 0)} here", True)
                continue
            report(name, ours.get(path, 0) >= MIN_TICKS,
                   f"{ours.get(path, 0)} interrupts (QEMU 7.2: "
                   f"{theirs.get(path) if theirs else 'not run'})")
    print(f"1..{len(results)}")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
