#!/usr/bin/env python3
"""The main job: which KVM PV features a vCPU gets on each machine type.

Starts the real binary under -accel kvm for each machine type, reads CPUID
0x40000001.EAX through QMP (x-query-cpuid) and the feature properties
through qom-get, and prints a table.  Usage:
    scripts/pv-features.py [--binary build/qemu-system-x86_64]
                           [--machine M ...] [--cpu C]
"""

import argparse
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "python"))
from qmp_machine import Machine, kvm_feature_names, kvm_usable  # noqa: E402

PV = ["kvm-pv-eoi", "kvm-pv-unhalt", "kvm-pv-tlb-flush", "kvm-pv-ipi",
      "kvm-pv-sched-yield", "kvm-steal-time", "kvmclock"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--binary", default=os.path.join(
        os.path.dirname(__file__), "..", "build", "qemu-system-x86_64"))
    ap.add_argument("--machine", action="append")
    ap.add_argument("--cpu", default="qemu64")
    args = ap.parse_args()
    machines = args.machine or ["pc-q35-8.1", "pc-q35-8.0", "pc-q35-7.2"]
    if not kvm_usable():
        print("/dev/kvm is not usable here: cannot start a KVM guest",
              file=sys.stderr)
        return 77

    print(f"KVM PV features a vCPU gets (-cpu {args.cpu}, -accel kvm), "
          "read through QMP from CPUID 0x40000001.EAX\n")
    width = max(len(m) for m in machines) + 2
    print("machine".ljust(width) + "EAX         " +
          "  ".join(PV))
    for m in machines:
        with Machine(args.binary, ["-machine", m, "-accel", "kvm", "-S",
                                   "-cpu", args.cpu]) as vm:
            eax = vm.cpuid()[(0x40000001, 0)][0]
            path = vm.cpu_path()
            cells = []
            for p in PV:
                on = vm.qom_get(path, p)
                in_cpuid = p in kvm_feature_names(eax) or \
                    (p == "kvmclock" and eax & 1)
                assert on == bool(in_cpuid), (m, p, on, hex(eax))
                cells.append(f"{'on' if on else 'off':>{len(p)}}")
            print(m.ljust(width) + f"0x{eax:08x}  " + "  ".join(cells))
    guest = os.path.join(os.path.dirname(args.binary), "tests", "guest",
                         "default.elf")
    if os.path.exists(guest):
        print(f"\nThe same, seen from inside: the default test guest boots "
              f"(-kernel {os.path.relpath(guest)}) and reads its own CPUID\n")
        for m in machines:
            print(f"{m}: {boot_default_guest(args.binary, guest, m, args.cpu)}")
    print("\npc-q35-8.1 adds kvm-pv-tlb-flush, kvm-pv-ipi and "
          "kvm-pv-sched-yield\n(PV TLB flush, PV send-IPI, directed yield) to "
          "8.0's kvm-pv-unhalt (PV spinlocks);\npc-q35-8.0 keeps the ABI it "
          "had, pc-q35-7.2 QEMU 7.2's.  Each only where the host's KVM "
          "offers it.")
    return 0


def boot_default_guest(binary, guest, machine, cpu):
    """Boots the guest to its ACPI poweroff; returns its PV features line."""
    with tempfile.TemporaryDirectory() as d:
        log = os.path.join(d, "serial.log")
        try:
            p = subprocess.run([binary, "-machine", machine, "-accel", "kvm",
                                "-cpu", cpu, "-m", "128", "-display", "none",
                                "-nodefaults", "-serial", f"file:{log}",
                                "-kernel", guest, "-append", "exit=acpi"],
                               stdin=subprocess.DEVNULL, capture_output=True,
                               timeout=60)
            status = p.returncode
        except subprocess.TimeoutExpired:
            status = "timeout"
        text = open(log, errors="replace").read() if os.path.exists(log) \
            else ""
    for line in text.splitlines():
        if line.startswith("PV features:"):
            return line[len("PV features:"):].strip() + \
                f"   (guest exit status {status})"
    return f"no answer from the guest (exit status {status})"


if __name__ == "__main__":
    sys.exit(main())
